import * as v from 'valibot';

/**
 * `GET /api/history/:id/fhir` answers a FHIR R4 transaction Bundle (docs/fhir.md). The browser only checks
 * that it is one and saves it as it came: what is in it is fhir/'s, validated by the API's tests.
 */
export const fhirTransactionBundleSchema = v.looseObject({
  resourceType: v.literal('Bundle'),
  type: v.literal('transaction'),
  entry: v.array(v.looseObject({ fullUrl: v.string(), resource: v.looseObject({ resourceType: v.string() }) })),
});
export type FhirTransactionBundle = v.InferOutput<typeof fhirTransactionBundleSchema>;

/** The file a Bundle is saved as: `sugammadex-<dose|bradycardia-risk>-<YYYY-MM-DD>-<id's first 8>.fhir.json`. */
export function fhirFileName(entry: { id: string; toolType: string; createdAt: string }): string {
  const tool = entry.toolType === 'bradycardia_advisor' ? 'bradycardia-risk' : 'dose';
  return `sugammadex-${tool}-${entry.createdAt.slice(0, 10)}-${entry.id.slice(0, 8)}.fhir.json`;
}
