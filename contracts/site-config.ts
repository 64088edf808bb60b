import * as v from 'valibot';
import { HOSPITAL_NAME_MAX_CHARS } from '../clinical/patient-sheet.ts';

/**
 * `GET /api/config`: what a page learns from the server it is served by (docs/API.md). `hospitalName` is
 * HOSPITAL_NAME, printed on the patient counselling sheet; null when the server has none.
 */
export const siteConfigSchema = v.object({
  hospitalName: v.nullable(v.pipe(v.string(), v.maxLength(HOSPITAL_NAME_MAX_CHARS))),
});
export type SiteConfig = v.InferOutput<typeof siteConfigSchema>;
