import * as v from 'valibot';
import {
  ROI_BAR_FULL_SCALE_MIN,
  ROI_MAX_NUMBER_OF_CASES,
  ROI_MAX_TIME_MIN,
  ROI_OR_COST_MAX_SAR_PER_MIN,
  ROI_OR_COST_MIN_SAR_PER_MIN,
  ROI_OR_COST_STEP_SAR_PER_MIN,
  ROI_PPC_RATE_MAX_PERCENT,
  ROI_PPC_RATE_MIN_PERCENT,
  ROI_RISK_RATIO,
  ROI_RISK_RATIO_PERCENT,
} from './constants.ts';
import { roundTo } from './rounding.ts';
import type { ClinicalTextsOf } from './texts/en.ts';
import { FIELDS_TEXTS_EN, ROI_INPUT_TEXTS_EN } from './texts/sections-en.ts';
import { integerInRange, parseWith, schemaForTexts, strictFields, type FieldIssue } from './validation.ts';

/**
 * docs/product.md §5: "numberOfCases and the time fields parse as whole numbers; invalid or empty input
 * becomes 0". A decimal is cut to its whole part (12.7 → 12); anything that is not a plain
 * non-negative number (empty, letters, "-5", "1e3") is invalid and becomes 0.
 */
export function parseWholeNumber(text: string): number {
  const trimmed = text.trim();
  if (!/^\d+(\.\d*)?$/.test(trimmed)) return 0;
  const value = Math.trunc(Number(trimmed));
  return Number.isSafeInteger(value) ? value : 0;
}

/** The sections of the clinical texts the ROI calculator's inputs are checked with. */
export type RoiTexts = ClinicalTextsOf<'roiInput' | 'fields'>;

/** Those sections in English. */
export const ROI_TEXTS_EN: RoiTexts = { roiInput: ROI_INPUT_TEXTS_EN, fields: FIELDS_TEXTS_EN };

function roiSchema(texts: RoiTexts) {
  const m = texts.roiInput;
  return strictFields(
    {
      numberOfCases: integerInRange(0, ROI_MAX_NUMBER_OF_CASES, m.numberOfCases),
      orCostPerMinute: v.pipe(
        integerInRange(ROI_OR_COST_MIN_SAR_PER_MIN, ROI_OR_COST_MAX_SAR_PER_MIN, m.orCostPerMinute),
        v.multipleOf(ROI_OR_COST_STEP_SAR_PER_MIN, m.orCostPerMinute),
      ),
      timeNeostigmine: integerInRange(0, ROI_MAX_TIME_MIN, m.timeNeostigmine),
      timeProduct: integerInRange(0, ROI_MAX_TIME_MIN, m.timeProduct),
      baselinePPCRate: integerInRange(ROI_PPC_RATE_MIN_PERCENT, ROI_PPC_RATE_MAX_PERCENT, m.baselinePPCRate),
      /** Not editable (docs/product.md §3); accepted only as the fixed value so a client cannot change it. */
      riskRatio: v.optional(v.literal(ROI_RISK_RATIO, m.riskRatio)),
    },
    {
      numberOfCases: m.numberOfCases,
      orCostPerMinute: m.orCostPerMinute,
      timeNeostigmine: m.timeNeostigmine,
      timeProduct: m.timeProduct,
      baselinePPCRate: m.baselinePPCRate,
    },
    texts,
  );
}

/**
 * The ROI calculator's inputs as the API receives them (names: docs/product.md §3; the slider ranges:
 * docs/product.md §5), with the messages of one language; `roiInputSchema` is the English one.
 */
export const roiInputSchemaFor = schemaForTexts(roiSchema, ROI_TEXTS_EN);
export const roiInputSchema = roiInputSchemaFor();
export type RoiInput = v.InferOutput<typeof roiInputSchema>;

export interface RoiResult {
  kind: 'roi';
  /** (timeNeostigmine − timeProduct) × cases, whole minutes. */
  timeSavedMin: number;
  /** timeSaved × OR cost per minute, whole SAR. */
  costSavedSar: number;
  /** cases × PPC rate × (1 − 0.62), one decimal. */
  ppcsAvoided: number;
  /** timeSaved / 60, one decimal. */
  hoursFreed: number;
  /** Time-comparison bar widths (minutes / 20 as a percentage, drawn within 0–100). */
  neostigmineBarPercent: number;
  productBarPercent: number;
  riskRatio: number;
}
export type RoiOutcome = { kind: 'invalid_input'; issues: FieldIssue[] } | RoiResult;

/** docs/product.md §9 ROI formulas. */
export function calculateRoi(rawInput: unknown, texts: RoiTexts = ROI_TEXTS_EN): RoiOutcome {
  const schema = roiInputSchemaFor(texts);
  const parsed = parseWith(schema, rawInput, Object.keys(schema.entries));
  if (!parsed.ok) return { kind: 'invalid_input', issues: parsed.issues };
  return computeRoi(parsed.value);
}

/** The formulas on already-parsed whole numbers (the widget parses its text with parseWholeNumber). */
export function computeRoi(input: Omit<RoiInput, 'riskRatio'>): RoiResult {
  const timeSavedMin = Math.round((input.timeNeostigmine - input.timeProduct) * input.numberOfCases);
  // cases × (rate / 100) × (1 − 62 / 100) = cases × rate × 38 / 10 000: an exact integer numerator.
  const ppcsAvoided = roundTo(
    (input.numberOfCases * input.baselinePPCRate * (100 - ROI_RISK_RATIO_PERCENT)) / 10_000,
    1,
  );
  return {
    kind: 'roi',
    timeSavedMin,
    costSavedSar: Math.round(timeSavedMin * input.orCostPerMinute),
    ppcsAvoided,
    hoursFreed: roundTo(timeSavedMin / 60, 1),
    neostigmineBarPercent: barWidthPercent(input.timeNeostigmine),
    productBarPercent: barWidthPercent(input.timeProduct),
    riskRatio: ROI_RISK_RATIO,
  };
}

/** docs/product.md §5: bar width = minutes / 20 as a percentage; a bar cannot be drawn wider than its track. */
export function barWidthPercent(minutes: number): number {
  const percent = (minutes / ROI_BAR_FULL_SCALE_MIN) * 100;
  return Math.min(100, Math.max(0, percent));
}
