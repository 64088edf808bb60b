import * as v from 'valibot';
import {
  ADULT_MIN_AGE_YEARS,
  BODY_WEIGHT_MAX_KG,
  BODY_WEIGHT_MIN_KG,
  CRCL_MAX_ML_PER_MIN,
  CRCL_MIN_ML_PER_MIN,
  NO_ADJUSTMENT_UP_TO_CRCL_ML_PER_MIN,
  SEVERE_RENAL_IMPAIRMENT_BELOW_CRCL_ML_PER_MIN,
} from './constants.ts';
import { numberInRange, parseWith, strictFields, type FieldIssue } from './validation.ts';

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

// Serum creatinine: 1 mg/dL = 88.4 µmol/L (molar mass of creatinine 113.12 g/mol).
export const UMOL_PER_L_PER_MG_PER_DL = 88.4;
export const SERUM_CREATININE_MIN_MG_PER_DL = 0.1;
export const SERUM_CREATININE_MAX_MG_PER_DL = 20;
export const CREATININE_UNITS = ['umol/L', 'mg/dL'] as const;
// Cockcroft DW, Gault MH. Nephron 1976;16:31-41: CrCl = (140 − age) × weight / (72 × SCr), × 0.85 if female.
const COCKCROFT_GAULT_AGE_OFFSET_YEARS = 140;
const COCKCROFT_GAULT_DIVISOR = 72;
const COCKCROFT_GAULT_FEMALE_FACTOR = 0.85;
const AGE_MAX_YEARS = 120;

const toUmolPerL = (mgPerDl: number) => Math.round(mgPerDl * UMOL_PER_L_PER_MG_PER_DL);
const serumCreatinineMessage =
  `Serum creatinine must be between ${SERUM_CREATININE_MIN_MG_PER_DL} and ${SERUM_CREATININE_MAX_MG_PER_DL} mg/dL ` +
  `(${toUmolPerL(SERUM_CREATININE_MIN_MG_PER_DL)}-${toUmolPerL(SERUM_CREATININE_MAX_MG_PER_DL)} µmol/L)`;

export const cockcroftGaultInputSchema = strictFields(
  {
    ageYears: numberInRange(
      ADULT_MIN_AGE_YEARS,
      AGE_MAX_YEARS,
      `Cockcroft-Gault applies to adults: age must be ${ADULT_MIN_AGE_YEARS}-${AGE_MAX_YEARS} years`,
    ),
    weightKg: numberInRange(
      BODY_WEIGHT_MIN_KG,
      BODY_WEIGHT_MAX_KG,
      `Weight must be between ${BODY_WEIGHT_MIN_KG} and ${BODY_WEIGHT_MAX_KG} kg`,
    ),
    sex: v.picklist(['female', 'male'], 'Choose female or male'),
    serumCreatinine: v.pipe(
      v.number(serumCreatinineMessage),
      v.finite(serumCreatinineMessage),
      v.gtValue(0, serumCreatinineMessage),
    ),
    unit: v.picklist(CREATININE_UNITS, 'Choose the creatinine unit: µmol/L or mg/dL'),
  },
  {
    ageYears: 'Enter the age in years',
    weightKg: 'Enter the weight in kg',
    sex: 'Choose female or male',
    serumCreatinine: 'Enter the serum creatinine',
    unit: 'Choose the creatinine unit: µmol/L or mg/dL',
  },
);
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
export function cockcroftGault(rawInput: unknown): CockcroftGaultOutcome {
  const parsed = parseWith(cockcroftGaultInputSchema, rawInput, [
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
    return { kind: 'invalid_input', issues: [{ field: 'serumCreatinine', message: serumCreatinineMessage }] };
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
    note:
      'Cockcroft-Gault estimate with actual body weight; it may overestimate ' +
      'clearance in obesity and is less reliable when creatinine is not ' +
      'stable.',
  };
}
