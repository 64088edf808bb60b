import * as v from 'valibot';
import { authResponseSchema } from './auth.ts';
import { patientSchema } from './records.ts';

/**
 * What the page learns of a launch from the EHR (docs/API.md#smart-app-launch): the local patient it chose,
 * the banner the EHR asked for (`need_patient_banner`), and whether "Send to EHR" also writes a draft order.
 * Never the EHR's access token: that stays on the server.
 */
export const ehrContextSchema = v.object({
  patient: patientSchema,
  /** Shown above the tools when the EHR does not show its own patient banner around the app. */
  banner: v.nullable(
    v.object({
      name: v.string(),
      mrn: v.nullable(v.string()),
      birthDate: v.nullable(v.string()),
      gender: v.nullable(v.string()),
    }),
  ),
  /** FHIR_WRITE_DRAFT_ORDERS: the dose goes to the EHR as a draft MedicationRequest too. */
  draftOrders: v.boolean(),
});
export type EhrContext = v.InferOutput<typeof ehrContextSchema>;

/** POST /api/smart/session: the hand-over of a launch, the same `{ token, user }` as any sign-in, and the launch. */
export const smartSessionSchema = v.object({ ...authResponseSchema.entries, ehr: ehrContextSchema });

/** POST /api/smart/send: what the EHR created, with the ids it gave. */
export const smartSendResultSchema = v.object({
  documentReference: v.object({ id: v.string() }),
  medicationRequest: v.nullable(v.object({ id: v.string() })),
});
export type SmartSendResult = v.InferOutput<typeof smartSendResultSchema>;
