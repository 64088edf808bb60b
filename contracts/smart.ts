import * as v from 'valibot';
import { authResponseSchema } from './auth.ts';
import { patientSchema } from './records.ts';

/** Why a launch filled in no weight (docs/API.md#smart-app-launch). */
export const EHR_WEIGHT_NOT_USED = ['unreadable', 'not_recorded', 'unusable', 'undated', 'too_old'] as const;

/**
 * The body weight a launch read from the EHR: `ehr`, read by this launch, dated, recent enough and usable, is
 * filled in; `none` is not, and says why (the search failed, none recorded, out of range or in an unknown unit,
 * no date, older than the hospital's limit), with the weight and date the EHR had when it had one.
 */
export const ehrWeightSchema = v.variant('source', [
  v.object({ source: v.literal('ehr'), kg: v.number(), recordedAt: v.string() }),
  v.object({
    source: v.literal('none'),
    reason: v.picklist(EHR_WEIGHT_NOT_USED),
    ehrKg: v.nullable(v.number()),
    recordedAt: v.nullable(v.string()),
  }),
]);
export type EhrWeight = v.InferOutput<typeof ehrWeightSchema>;

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
  /** The EHR's weight as this launch read it; `patient.weightKg` is it when `source` is `ehr`, else null. */
  weight: ehrWeightSchema,
  /** SMART_WEIGHT_MAX_AGE_DAYS: an older EHR weight is not filled in. */
  weightMaxAgeDays: v.number(),
  /**
   * When this launch filled in no weight but the clinician's record of the patient holds one: that weight, when
   * it was saved, and whether an earlier launch brought it (else it was typed). Never filled in: shown as such.
   */
  keptWeight: v.nullable(v.object({ kg: v.number(), savedAt: v.string(), fromLaunch: v.boolean() })),
});
export type EhrContext = v.InferOutput<typeof ehrContextSchema>;

/** POST /api/smart/session: the hand-over of a launch, the same `{ token, user }` as any sign-in, and the launch. */
export const smartSessionSchema = v.object({ ...authResponseSchema.entries, ehr: ehrContextSchema });

/** POST /api/smart/send: what the EHR created, with the ids it gave. */
export const smartSendResultSchema = v.object({
  /** `alreadyFiled`: the EHR held it already (an earlier try that timed out had filed it), nothing new written. */
  documentReference: v.object({ id: v.string(), alreadyFiled: v.boolean() }),
  medicationRequest: v.nullable(v.object({ id: v.string(), alreadyFiled: v.boolean() })),
});
export type SmartSendResult = v.InferOutput<typeof smartSendResultSchema>;
