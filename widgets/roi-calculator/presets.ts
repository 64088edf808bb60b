import {
  ROI_DEFAULT_BASELINE_PPC_RATE_PERCENT,
  ROI_DEFAULT_NUMBER_OF_CASES,
  ROI_DEFAULT_OR_COST_SAR_PER_MIN,
  ROI_DEFAULT_TIME_NEOSTIGMINE_MIN,
  ROI_DEFAULT_TIME_PRODUCT_MIN,
  ROI_MAX_NUMBER_OF_CASES,
  ROI_MAX_TIME_MIN,
  ROI_OR_COST_SLIDER_SAR_PER_MIN,
  ROI_PPC_RATE_SLIDER_PERCENT,
} from '../../clinical/index.ts';
import type { RoiInputsDetail } from '../shared/widget-host/events.ts';

/** The attributes that preset the inputs (strings, as r2wc passes them). */
export interface RoiPresetAttributes {
  cases?: string;
  orCostPerMinute?: string;
  timeNeostigmine?: string;
  timeProduct?: string;
  baselinePpcRate?: string;
}

/**
 * A preset as an integer on a slider's grid (min, min + step, …, max), or the fallback. A preset is
 * stricter than typing: only plain digits are taken; anything else means "use the default".
 */
function presetInteger(
  value: unknown,
  { min, max, step }: { min: number; max: number; step: number },
  fallback: number,
): number {
  const text = value == null ? '' : String(value).trim();
  if (!/^\d+$/.test(text)) return fallback;
  const number = Number(text);
  return number >= min && number <= max && (number - min) % step === 0 ? number : fallback;
}

/**
 * docs/product.md §3 defaults, overridden by valid attributes (whole fields up to the API's bounds, sliders on their
 * grid).
 */
export function resolveRoiPresets(attributes: RoiPresetAttributes): RoiInputsDetail {
  return {
    numberOfCases: presetInteger(
      attributes.cases,
      { min: 0, max: ROI_MAX_NUMBER_OF_CASES, step: 1 },
      ROI_DEFAULT_NUMBER_OF_CASES,
    ),
    orCostPerMinute: presetInteger(
      attributes.orCostPerMinute,
      ROI_OR_COST_SLIDER_SAR_PER_MIN,
      ROI_DEFAULT_OR_COST_SAR_PER_MIN,
    ),
    timeNeostigmine: presetInteger(
      attributes.timeNeostigmine,
      { min: 0, max: ROI_MAX_TIME_MIN, step: 1 },
      ROI_DEFAULT_TIME_NEOSTIGMINE_MIN,
    ),
    timeProduct: presetInteger(
      attributes.timeProduct,
      { min: 0, max: ROI_MAX_TIME_MIN, step: 1 },
      ROI_DEFAULT_TIME_PRODUCT_MIN,
    ),
    baselinePPCRate: presetInteger(
      attributes.baselinePpcRate,
      ROI_PPC_RATE_SLIDER_PERCENT,
      ROI_DEFAULT_BASELINE_PPC_RATE_PERCENT,
    ),
  };
}
