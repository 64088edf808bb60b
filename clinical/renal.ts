import * as v from 'valibot';
import {
  COCKCROFT_GAULT_AGE_MAX_YEARS,
  ADULT_MIN_AGE_YEARS,
  BODY_WEIGHT_MAX_KG,
  BODY_WEIGHT_MIN_KG,
  CRCL_MAX_ML_PER_MIN,
  CRCL_MIN_ML_PER_MIN,
  NO_ADJUSTMENT_UP_TO_CRCL_ML_PER_MIN,
  SERUM_CREATININE_MAX_MG_PER_DL,
  SERUM_CREATININE_MIN_MG_PER_DL,
  SEVERE_RENAL_IMPAIRMENT_BELOW_CRCL_ML_PER_MIN,
  UMOL_PER_L_PER_MG_PER_DL,
} from './constants.ts';
import type { ClinicalTextsOf } from './texts/en.ts';
import { COCKCROFT_GAULT_TEXTS_EN, FIELDS_TEXTS_EN } from './texts/sections-en.ts';
import { numberInRange, parseWith, schemaForTexts, strictFields, type FieldIssue } from './validation.ts';

export { SERUM_CREATININE_MAX_MG_PER_DL, SERUM_CREATININE_MIN_MG_PER_DL, UMOL_PER_L_PER_MG_PER_DL };

export type RenalFunctionBand = 'severe' | 'mild_moderate' | 'normal';

/**
 * CrCl < 30: severe (not recommended; docs/product.md §5 rule 3); 30–80: mild or moderate, no dose adjustment
 * (docs/clinical-reference.md §1; EU SmPC bands: mild 50–80, moderate 30–50); above 80: normal.
 */
export function renalFunctionBand(creatinineClearanceMlPerMin: number): RenalFunctionBand {
  if (creatinineClearanceMlPerMin < SEVERE_RENAL_IMPAIRMENT_BELOW_CRCL_ML_PER_MIN) return 'severe';
  if (creatinineClearanceMlPerMin <= NO_ADJUSTMENT_UP_TO_CRCL_ML_PER_MIN) return 'mild_moderate';
  return 'normal';
}

export const CREATININE_UNITS = ['umol/L', 'mg/dL'] as const;
// Cockcroft DW, Gault MH. Nephron 1976;16:31-41: CrCl = (140 − age) × weight / (72 × SCr), × 0.85 if female.
const COCKCROFT_GAULT_AGE_OFFSET_YEARS = 140;
const COCKCROFT_GAULT_DIVISOR = 72;
const COCKCROFT_GAULT_FEMALE_FACTOR = 0.85;

/** The sections of the clinical texts the creatinine clearance helper writes with. */
export type CockcroftGaultTexts = ClinicalTextsOf<'cockcroftGault' | 'fields'>;

/** Those sections in English. */
export const COCKCROFT_GAULT_HELPER_TEXTS_EN: CockcroftGaultTexts = {
  cockcroftGault: COCKCROFT_GAULT_TEXTS_EN,
  fields: FIELDS_TEXTS_EN,
};

function cockcroftGaultSchema(texts: CockcroftGaultTexts) {
  const m = texts.cockcroftGault;
  return strictFields(
    {
      ageYears: numberInRange(ADULT_MIN_AGE_YEARS, COCKCROFT_GAULT_AGE_MAX_YEARS, m.age),
      weightKg: numberInRange(BODY_WEIGHT_MIN_KG, BODY_WEIGHT_MAX_KG, m.weight),
      sex: v.picklist(['female', 'male'], m.sex),
      serumCreatinine: v.pipe(
        v.number(m.serumCreatinine),
        v.finite(m.serumCreatinine),
        v.gtValue(0, m.serumCreatinine),
      ),
      unit: v.picklist(CREATININE_UNITS, m.unit),
    },
    {
      ageYears: m.missingAge,
      weightKg: m.missingWeight,
      sex: m.sex,
      serumCreatinine: m.missingSerumCreatinine,
      unit: m.unit,
    },
    texts,
  );
}
/** The creatinine clearance helper's inputs, with the messages of one language. */
export const cockcroftGaultInputSchemaFor = schemaForTexts(cockcroftGaultSchema, COCKCROFT_GAULT_HELPER_TEXTS_EN);
export const cockcroftGaultInputSchema = cockcroftGaultInputSchemaFor();
export type CockcroftGaultInput = v.InferOutput<typeof cockcroftGaultInputSchema>;

export type CockcroftGaultOutcome =
  | { kind: 'invalid_input'; issues: FieldIssue[] }
  | {
      kind: 'estimate';
      /** Rounded to whole mL/min. */
      creatinineClearanceMlPerMin: number;
      serumCreatinineMgPerDl: number;
      /** False when the estimate lies outside the calculator's 10–200 mL/min field range. */
      withinCalculatorRange: boolean;
      note: string;
    };

/** Estimates creatinine clearance (Cockcroft-Gault, actual body weight) for the dose calculator. */
export function cockcroftGault(
  rawInput: unknown,
  texts: CockcroftGaultTexts = COCKCROFT_GAULT_HELPER_TEXTS_EN,
): CockcroftGaultOutcome {
  const parsed = parseWith(cockcroftGaultInputSchemaFor(texts), rawInput, [
    'ageYears',
    'weightKg',
    'sex',
    'serumCreatinine',
    'unit',
  ]);
  if (!parsed.ok) return { kind: 'invalid_input', issues: parsed.issues };
  const { ageYears, weightKg, sex, serumCreatinine, unit } = parsed.value;
  const mgPerDl = unit === 'mg/dL' ? serumCreatinine : serumCreatinine / UMOL_PER_L_PER_MG_PER_DL;
  if (mgPerDl < SERUM_CREATININE_MIN_MG_PER_DL || mgPerDl > SERUM_CREATININE_MAX_MG_PER_DL) {
    return {
      kind: 'invalid_input',
      issues: [{ field: 'serumCreatinine', message: texts.cockcroftGault.serumCreatinine }],
    };
  }
  const sexFactor = sex === 'female' ? COCKCROFT_GAULT_FEMALE_FACTOR : 1;
  const crcl =
    ((COCKCROFT_GAULT_AGE_OFFSET_YEARS - ageYears) * weightKg * sexFactor) / (COCKCROFT_GAULT_DIVISOR * mgPerDl);
  const rounded = Math.round(crcl);
  return {
    kind: 'estimate',
    creatinineClearanceMlPerMin: rounded,
    serumCreatinineMgPerDl: mgPerDl,
    withinCalculatorRange: rounded >= CRCL_MIN_ML_PER_MIN && rounded <= CRCL_MAX_ML_PER_MIN,
    note: texts.cockcroftGault.note,
  };
}
