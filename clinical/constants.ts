/**
 * Product and dosing constants. Units live in the names; each value cites where it comes from
 * (docs/product.md and docs/clinical-reference.md).
 */

// Presentation: docs/product.md §1 and §9; docs/clinical-reference.md §1 (US PI; EU SmPC).
export const VIAL_CONTENT_MG = 200;
export const VIAL_VOLUME_ML = 2;
export const CONCENTRATION_MG_PER_ML = 100;
export const VIALS_PER_BOX = 10;

// Price per vial: docs/product.md §9 ("cost per dose = vials x 147.64 SAR"). Held in halalas (1/100 SAR) so
// cost arithmetic is done on integers.
export const VIAL_PRICE_HALALAS = 14_764;
export const VIAL_PRICE_SAR = VIAL_PRICE_HALALAS / 100;

// Doses by block depth: docs/product.md §5 and §9; docs/clinical-reference.md §1 (US PI 2.2; EU SmPC 4.2).
export const MODERATE_BLOCK_DOSE_MG_PER_KG = 2;
export const DEEP_BLOCK_DOSE_MG_PER_KG = 4;
export const IMMEDIATE_REVERSAL_DOSE_MG_PER_KG = 16;
// The rocuronium dose after which immediate reversal was studied: docs/product.md §5; docs/clinical-reference.md §1.
export const RSI_ROCURONIUM_DOSE_MG_PER_KG = 1.2;

// Extubation readiness: docs/product.md §9; ASA 2023 guideline (docs/clinical-reference.md §5, Thilen 2023).
export const TOF_RATIO_TARGET = 0.9;

// Renal function: docs/product.md §5 and §9 (cutoff); docs/clinical-reference.md §1 (CrCl 30–80 needs no adjustment).
export const SEVERE_RENAL_IMPAIRMENT_BELOW_CRCL_ML_PER_MIN = 30;
export const NO_ADJUSTMENT_UP_TO_CRCL_ML_PER_MIN = 80;

// Age groups: docs/product.md §9.
export const ADULT_MIN_AGE_YEARS = 18;
export const PEDIATRIC_MIN_AGE_YEARS = 2;

// Input ranges: docs/product.md §3 (dose calculator fields); docs/clinical-reference.md §1 ("refused with a message,
// never clamped").
export const BODY_WEIGHT_MIN_KG = 1;
export const BODY_WEIGHT_MAX_KG = 200;
export const CRCL_MIN_ML_PER_MIN = 10;
export const CRCL_MAX_ML_PER_MIN = 200;
export const TOF_COUNT_MAX = 4;
export const PTC_MAX = 15;

// ROI calculator defaults and slider ranges: docs/product.md §3 and §5.
export const ROI_DEFAULT_NUMBER_OF_CASES = 100;
export const ROI_DEFAULT_OR_COST_SAR_PER_MIN = 45;
export const ROI_DEFAULT_TIME_NEOSTIGMINE_MIN = 15;
export const ROI_DEFAULT_TIME_PRODUCT_MIN = 3;
export const ROI_DEFAULT_BASELINE_PPC_RATE_PERCENT = 10;
export const ROI_OR_COST_MIN_SAR_PER_MIN = 10;
export const ROI_OR_COST_MAX_SAR_PER_MIN = 150;
export const ROI_OR_COST_STEP_SAR_PER_MIN = 5;
export const ROI_PPC_RATE_MIN_PERCENT = 0;
export const ROI_PPC_RATE_MAX_PERCENT = 20;
export const ROI_PPC_RATE_STEP_PERCENT = 1;
/** The two sliders' grids, as one value each for the form and the preset attributes (SAR/min; %). */
export const ROI_OR_COST_SLIDER_SAR_PER_MIN = {
  min: ROI_OR_COST_MIN_SAR_PER_MIN,
  max: ROI_OR_COST_MAX_SAR_PER_MIN,
  step: ROI_OR_COST_STEP_SAR_PER_MIN,
} as const;
export const ROI_PPC_RATE_SLIDER_PERCENT = {
  min: ROI_PPC_RATE_MIN_PERCENT,
  max: ROI_PPC_RATE_MAX_PERCENT,
  step: ROI_PPC_RATE_STEP_PERCENT,
} as const;
// Fixed PPC risk ratio "from a 2025 systematic review": docs/product.md §3; closest published figure
// Wang 2021 (OR 0.62), docs/clinical-reference.md §5. Held as a percentage for integer arithmetic as well.
export const ROI_RISK_RATIO = 0.62;
export const ROI_RISK_RATIO_PERCENT = 62;
// Bar chart: docs/product.md §5 ("width is minutes divided by 20, as a percentage").
export const ROI_BAR_FULL_SCALE_MIN = 20;
// Count-up animation: docs/product.md §4 and §9.
export const ROI_ANIMATION_STEPS = 60;
export const ROI_ANIMATION_STEP_MS = 25;
// Upper bounds the API accepts for the whole-number ROI fields (the widget parses any text;
// these stop absurd values reaching storage). Not from the spec: chosen as a year of a large
// hospital's cases and a very long reversal time.
export const ROI_MAX_NUMBER_OF_CASES = 1_000_000;
export const ROI_MAX_TIME_MIN = 240;

// Hero animation: docs/product.md §2 and §9.
export const HERO_TOF_START = 0.4;
export const HERO_TOF_END = 0.9;
export const HERO_TOF_STEP = 0.01;
export const HERO_TOF_INTERVAL_MS = 50;

// Bradycardia advisor's own input ranges: plausible clinical ranges, not given by the spec.
export const ADVISOR_AGE_MAX_YEARS = 120;
export const BASELINE_HR_MIN_BPM = 20;
export const BASELINE_HR_MAX_BPM = 250;

// Creatinine clearance helper (Cockcroft-Gault): serum creatinine 1 mg/dL = 88.4 µmol/L (molar mass of creatinine
// 113.12 g/mol); the accepted range, in both units (whole µmol/L); the formula is for adults up to this age.
export const UMOL_PER_L_PER_MG_PER_DL = 88.4;
export const SERUM_CREATININE_MIN_MG_PER_DL = 0.1;
export const SERUM_CREATININE_MAX_MG_PER_DL = 20;
export const SERUM_CREATININE_MIN_UMOL_PER_L = Math.round(SERUM_CREATININE_MIN_MG_PER_DL * UMOL_PER_L_PER_MG_PER_DL);
export const SERUM_CREATININE_MAX_UMOL_PER_L = Math.round(SERUM_CREATININE_MAX_MG_PER_DL * UMOL_PER_L_PER_MG_PER_DL);
export const COCKCROFT_GAULT_AGE_MAX_YEARS = 120;

// Patient record limits (data minimisation: the account area and the API).
export const PATIENT_NAME_MAX_LENGTH = 80;
export const PATIENT_MRN_MAX_LENGTH = 40;
export const PATIENT_NOTES_MAX_LENGTH = 500;
export const PATIENT_EARLIEST_BIRTH_YEAR = 1900;
