import * as v from 'valibot';
import {
  BODY_WEIGHT_MAX_KG,
  BODY_WEIGHT_MIN_KG,
  CRCL_MAX_ML_PER_MIN,
  CRCL_MIN_ML_PER_MIN,
  PTC_MAX,
} from './constants.ts';
import type { ClinicalTextsOf } from './texts/en.ts';
import { DOSE_INPUT_TEXTS_EN, FIELDS_TEXTS_EN } from './texts/sections-en.ts';
import { numberInRange, integerInRange, schemaForTexts, strictFields } from './validation.ts';

const messages = DOSE_INPUT_TEXTS_EN;
// docs/product.md §8: the invalid-weight message. Used for a missing, non-numeric, zero or negative weight.
export const INVALID_WEIGHT_MESSAGE = messages.invalidWeight;
export const WEIGHT_RANGE_MESSAGE = messages.weightRange;
export const CRCL_RANGE_MESSAGE = messages.crclRange;
export const TOF_COUNT_MESSAGE = messages.tofCount;
export const PTC_MESSAGE = messages.ptc;

export const AGE_GROUPS = ['adult', 'pediatric', 'infant'] as const;
export const DOSE_NMBA_TYPES = ['rocuronium', 'vecuronium', 'other'] as const;
/**
 * How a creatinine clearance was obtained, when known: from serum creatinine by the Cockcroft-Gault helper.
 * Left out, it was typed in. It changes no dose; the FHIR export codes the CrCl by it
 * (docs/fhir.md#creatinine-clearance).
 */
export const CREATININE_METHODS = ['cockcroft_gault'] as const;
/** docs/product.md §3: "tofCount 0 to 4, held as text"; the empty text means "not counted". */
export const TOF_COUNTS = ['', '0', '1', '2', '3', '4'] as const;

export type AgeGroup = (typeof AGE_GROUPS)[number];
export type DoseNmbaType = (typeof DOSE_NMBA_TYPES)[number];
export type TofCountText = (typeof TOF_COUNTS)[number];

/** The sections of the clinical texts the dose calculator's inputs are checked with. */
export type DoseInputTexts = ClinicalTextsOf<'doseInput' | 'fields'>;

function doseSchema(texts: DoseInputTexts) {
  const m = texts.doseInput;
  /**
   * Body weight: refused if missing, not a number, zero or negative (the spec's rule 1), and
   * refused, never clamped, outside the input range of docs/product.md §3.
   */
  const bodyWeightKg = v.pipe(
    v.number(m.invalidWeight),
    v.finite(m.invalidWeight),
    v.gtValue(0, m.invalidWeight),
    v.minValue(BODY_WEIGHT_MIN_KG, m.weightRange),
    v.maxValue(BODY_WEIGHT_MAX_KG, m.weightRange),
  );
  return strictFields(
    {
      ageGroup: v.picklist(AGE_GROUPS, m.ageGroup),
      bodyWeight: bodyWeightKg,
      nmbaType: v.picklist(DOSE_NMBA_TYPES, m.nmbaType),
      /** Creatinine clearance in mL/min; null or absent when not known. */
      creatinine: v.nullish(numberInRange(CRCL_MIN_ML_PER_MIN, CRCL_MAX_ML_PER_MIN, m.crclRange)),
      creatinineMethod: v.nullish(v.picklist(CREATININE_METHODS, m.creatinineMethod)),
      tofCount: v.nullish(v.picklist(TOF_COUNTS, m.tofCount)),
      ptc: v.nullish(integerInRange(0, PTC_MAX, m.ptc)),
      rsiScenario: v.boolean(m.rsiScenario),
      dialysis: v.boolean(m.dialysis),
    },
    {
      ageGroup: m.ageGroup,
      bodyWeight: m.invalidWeight,
      nmbaType: m.nmbaType,
      rsiScenario: m.rsiScenario,
      dialysis: m.dialysis,
    },
    texts,
  );
}

/** The dose calculator's inputs (docs/product.md §3 field names), with the messages of one language. */
export const doseCalculatorInputSchemaFor = schemaForTexts(doseSchema, {
  doseInput: DOSE_INPUT_TEXTS_EN,
  fields: FIELDS_TEXTS_EN,
});
/** The dose calculator's inputs (docs/product.md §3 field names), shared by the widget and the API. English. */
export const doseCalculatorInputSchema = doseCalculatorInputSchemaFor();

/** Field order = the order in which docs/product.md §5 checks them; the first issue shown is the spec's first. */
export const DOSE_FIELD_ORDER = [
  'bodyWeight',
  'nmbaType',
  'creatinine',
  'creatinineMethod',
  'dialysis',
  'ageGroup',
  'rsiScenario',
  'tofCount',
  'ptc',
] as const;

export type DoseCalculatorInput = v.InferOutput<typeof doseCalculatorInputSchema>;
