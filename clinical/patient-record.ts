import * as v from 'valibot';
import { BODY_WEIGHT_MAX_KG, BODY_WEIGHT_MIN_KG } from './constants.ts';
import { AGE_GROUPS } from './dose-schema.ts';
import { numberInRange, strictFields } from './validation.ts';

/**
 * A patient record holds what a clinician needs to find the patient again and dose them, and
 * nothing more (data minimisation): a display name or initials, the MRN / hospital number, a year
 * of birth or an age group, the weight and short notes. Shared by the account area and the API.
 */
export const PATIENT_NAME_MAX_LENGTH = 80;
export const PATIENT_MRN_MAX_LENGTH = 40;
export const PATIENT_NOTES_MAX_LENGTH = 500;
export const PATIENT_EARLIEST_BIRTH_YEAR = 1900;

const nameMessage = `Enter a display name or initials (1-${PATIENT_NAME_MAX_LENGTH} characters)`;
const mrnMessage = `MRN / hospital number must be at most ${PATIENT_MRN_MAX_LENGTH} characters`;
const notesMessage = `Notes must be at most ${PATIENT_NOTES_MAX_LENGTH} characters`;
const weightMessage = `Weight must be between ${BODY_WEIGHT_MIN_KG} and ${BODY_WEIGHT_MAX_KG} kg`;
const ageGroupMessage = 'Age group must be adult, pediatric or infant';

/** Optional text: trimmed; empty means "not recorded" (null). */
const optionalText = (max: number, message: string) =>
  v.optional(
    v.nullable(
      v.pipe(
        v.string(message),
        v.trim(),
        v.maxLength(max, message),
        v.transform((text) => text || null),
      ),
    ),
  );

function fields(currentYear: number) {
  const yearMessage = `Year of birth must be a year from ${PATIENT_EARLIEST_BIRTH_YEAR} to ${currentYear}`;
  return {
    displayName: v.pipe(
      v.string(nameMessage),
      v.trim(),
      v.minLength(1, nameMessage),
      v.maxLength(PATIENT_NAME_MAX_LENGTH, nameMessage),
    ),
    mrn: optionalText(PATIENT_MRN_MAX_LENGTH, mrnMessage),
    yearOfBirth: v.optional(
      v.nullable(
        v.pipe(
          v.number(yearMessage),
          v.integer(yearMessage),
          v.minValue(PATIENT_EARLIEST_BIRTH_YEAR, yearMessage),
          v.maxValue(currentYear, yearMessage),
        ),
      ),
    ),
    ageGroup: v.optional(v.nullable(v.picklist(AGE_GROUPS, ageGroupMessage))),
    weightKg: v.optional(v.nullable(numberInRange(BODY_WEIGHT_MIN_KG, BODY_WEIGHT_MAX_KG, weightMessage))),
    notes: optionalText(PATIENT_NOTES_MAX_LENGTH, notesMessage),
  };
}

/** A new patient; the year bound is passed in (clinical/ reads no clock). */
export function newPatientSchema(currentYear: number) {
  return strictFields(fields(currentYear), { displayName: nameMessage });
}

/** A change to a patient: any subset of the fields; null clears an optional one. */
export function patientChangesSchema(currentYear: number) {
  const { displayName, ...rest } = fields(currentYear);
  return strictFields({ displayName: v.optional(displayName), ...rest }, {});
}

export const PATIENT_FIELD_ORDER = ['displayName', 'mrn', 'yearOfBirth', 'ageGroup', 'weightKg', 'notes'] as const;
export type NewPatient = v.InferOutput<ReturnType<typeof newPatientSchema>>;
export type PatientChanges = v.InferOutput<ReturnType<typeof patientChangesSchema>>;
