import * as v from 'valibot';
import {
  BODY_WEIGHT_MAX_KG,
  BODY_WEIGHT_MIN_KG,
  CRCL_MAX_ML_PER_MIN,
  CRCL_MIN_ML_PER_MIN,
  PTC_MAX,
} from './constants.ts';
import { numberInRange, integerInRange, strictFields } from './validation.ts';

// docs/product.md §8: the invalid-weight message. Used for a missing, non-numeric, zero or negative weight.
export const INVALID_WEIGHT_MESSAGE = 'Please enter a valid body weight';
export const WEIGHT_RANGE_MESSAGE = `Body weight must be between ${BODY_WEIGHT_MIN_KG} and ${BODY_WEIGHT_MAX_KG} kg`;
export const CRCL_RANGE_MESSAGE =
  `Creatinine clearance must be between ${CRCL_MIN_ML_PER_MIN} and ${CRCL_MAX_ML_PER_MIN} ` +
  `mL/min (leave it empty if unknown)`;
export const TOF_COUNT_MESSAGE = 'TOF count must be 0, 1, 2, 3 or 4 (leave it empty if not counted)';
export const PTC_MESSAGE = `PTC must be a whole number from 0 to ${PTC_MAX} (leave it empty if not counted)`;

export const AGE_GROUPS = ['adult', 'pediatric', 'infant'] as const;
export const DOSE_NMBA_TYPES = ['rocuronium', 'vecuronium', 'other'] as const;
/** docs/product.md §3: "tofCount 0 to 4, held as text"; the empty text means "not counted". */
export const TOF_COUNTS = ['', '0', '1', '2', '3', '4'] as const;

export type AgeGroup = (typeof AGE_GROUPS)[number];
export type DoseNmbaType = (typeof DOSE_NMBA_TYPES)[number];
export type TofCountText = (typeof TOF_COUNTS)[number];

/**
 * Body weight: refused if missing, not a number, zero or negative (the spec's rule 1), and
 * refused, never clamped, outside the input range of docs/product.md §3.
 */
const bodyWeightKg = v.pipe(
  v.number(INVALID_WEIGHT_MESSAGE),
  v.finite(INVALID_WEIGHT_MESSAGE),
  v.gtValue(0, INVALID_WEIGHT_MESSAGE),
  v.minValue(BODY_WEIGHT_MIN_KG, WEIGHT_RANGE_MESSAGE),
  v.maxValue(BODY_WEIGHT_MAX_KG, WEIGHT_RANGE_MESSAGE),
);

/** The dose calculator's inputs (docs/product.md §3 field names), shared by the widget and the API. */
export const doseCalculatorInputSchema = strictFields(
  {
    ageGroup: v.picklist(AGE_GROUPS, 'Choose an age group: adult, pediatric or infant'),
    bodyWeight: bodyWeightKg,
    nmbaType: v.picklist(DOSE_NMBA_TYPES, 'Choose the blocking agent: rocuronium, vecuronium or other'),
    /** Creatinine clearance in mL/min; null or absent when not known. */
    creatinine: v.nullish(numberInRange(CRCL_MIN_ML_PER_MIN, CRCL_MAX_ML_PER_MIN, CRCL_RANGE_MESSAGE)),
    tofCount: v.nullish(v.picklist(TOF_COUNTS, TOF_COUNT_MESSAGE)),
    ptc: v.nullish(integerInRange(0, PTC_MAX, PTC_MESSAGE)),
    rsiScenario: v.boolean('RSI scenario must be ticked or unticked (true or false)'),
    dialysis: v.boolean('Dialysis must be ticked or unticked (true or false)'),
  },
  {
    ageGroup: 'Choose an age group: adult, pediatric or infant',
    bodyWeight: INVALID_WEIGHT_MESSAGE,
    nmbaType: 'Choose the blocking agent: rocuronium, vecuronium or other',
    rsiScenario: 'RSI scenario must be ticked or unticked (true or false)',
    dialysis: 'Dialysis must be ticked or unticked (true or false)',
  },
);

/** Field order = the order in which docs/product.md §5 checks them; the first issue shown is the spec's first. */
export const DOSE_FIELD_ORDER = [
  'bodyWeight',
  'nmbaType',
  'creatinine',
  'dialysis',
  'ageGroup',
  'rsiScenario',
  'tofCount',
  'ptc',
] as const;

export type DoseCalculatorInput = v.InferOutput<typeof doseCalculatorInputSchema>;
