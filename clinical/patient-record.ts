import * as v from 'valibot';
import {
  BODY_WEIGHT_MAX_KG,
  BODY_WEIGHT_MIN_KG,
  PATIENT_EARLIEST_BIRTH_YEAR,
  PATIENT_MRN_MAX_LENGTH,
  PATIENT_NAME_MAX_LENGTH,
  PATIENT_NOTES_MAX_LENGTH,
} from './constants.ts';
import { AGE_GROUPS } from './dose-schema.ts';
import type { ClinicalTextsOf } from './texts/en.ts';
import { FIELDS_TEXTS_EN, PATIENT_TEXTS_EN } from './texts/sections-en.ts';
import { numberInRange, strictFields } from './validation.ts';
import { hasVisibleCharacter } from './visible-text.ts';

/**
 * A patient record holds what a clinician needs to find the patient again and dose them, and
 * nothing more (data minimisation): a display name or initials, the MRN / hospital number, a year
 * of birth or an age group, the weight and short notes. Shared by the account area and the API.
 */
export { PATIENT_EARLIEST_BIRTH_YEAR, PATIENT_MRN_MAX_LENGTH, PATIENT_NAME_MAX_LENGTH, PATIENT_NOTES_MAX_LENGTH };

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

/** The sections of the clinical texts a patient record is checked with. */
export type PatientTexts = ClinicalTextsOf<'patient' | 'fields'>;

/** Those sections in English. */
export const PATIENT_RECORD_TEXTS_EN: PatientTexts = { patient: PATIENT_TEXTS_EN, fields: FIELDS_TEXTS_EN };

function fields(currentYear: number, texts: PatientTexts) {
  const { displayName: nameMessage, mrn: mrnMessage, notes: notesMessage, weight: weightMessage } = texts.patient;
  const yearMessage = texts.patient.yearOfBirth(currentYear);
  const ageGroupMessage = texts.patient.ageGroup;
  return {
    displayName: v.pipe(
      v.string(nameMessage),
      v.trim(),
      v.minLength(1, nameMessage),
      v.maxLength(PATIENT_NAME_MAX_LENGTH, nameMessage),
      v.check(hasVisibleCharacter, nameMessage), // only U+200B, U+202E…: as empty as ""
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

/** A new patient; the year bound is passed in (clinical/ reads no clock); `texts`: the messages' language. */
export function newPatientSchema(currentYear: number, texts: PatientTexts = PATIENT_RECORD_TEXTS_EN) {
  return strictFields(fields(currentYear, texts), { displayName: texts.patient.displayName }, texts);
}

/** A change to a patient: any subset of the fields; null clears an optional one. */
export function patientChangesSchema(currentYear: number, texts: PatientTexts = PATIENT_RECORD_TEXTS_EN) {
  const { displayName, ...rest } = fields(currentYear, texts);
  return strictFields({ displayName: v.optional(displayName), ...rest }, {}, texts);
}

export const PATIENT_FIELD_ORDER = ['displayName', 'mrn', 'yearOfBirth', 'ageGroup', 'weightKg', 'notes'] as const;
export type NewPatient = v.InferOutput<ReturnType<typeof newPatientSchema>>;
export type PatientChanges = v.InferOutput<ReturnType<typeof patientChangesSchema>>;
