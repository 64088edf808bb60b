import { DOSE_TEXTS_EN } from './texts/sections-en.ts';

/**
 * The dose calculator's texts in English, under their historical names (the values of `CLINICAL_TEXTS_EN.dose`,
 * texts/en.ts). The spec's strings (docs/product.md §5, §8, §9) are exact; the safety additions come from
 * docs/clinical-reference.md §1. Another language: `calculateDose(input, clinicalTextsFor(lang))`.
 */
const dose = DOSE_TEXTS_EN;

export const OUTCOME_TITLES = dose.outcomeTitles;
export const NOT_INDICATED_WARNING = dose.notIndicatedWarning;
export const RENAL_WARNING = dose.renalWarning;
export const RENAL_LABEL_NOTE = dose.renalLabelNote;
export const INFANT_WARNING = dose.infantWarning;
export const PEDIATRIC_RSI_WARNING = dose.pediatricRsiWarning;
export const SPECIFY_DEPTH = dose.specifyDepth;
export const PROFOUND_BLOCK_REASON = dose.profoundBlockReason;
export const countTofReason = dose.countTofReason;
export const PROFOUND_WITH_TOF_WARNING = dose.profoundWithTofWarning;
export const RSI_VECURONIUM_WARNING = dose.rsiVecuroniumWarning;
export const CRCL_NOT_ENTERED_WARNING = dose.crclNotEnteredWarning;
export const CRCL_NO_ADJUSTMENT_NOTE = dose.crclNoAdjustmentNote;
export const UNDER_DOSING_WARNING = dose.underDosingWarning;
export const moreThanOneBoxWarning = dose.moreThanOneBoxWarning;
export const smallVolumeWarning = dose.smallVolumeWarning;
export const IMMEDIATE_INDICATION = dose.immediateIndication;
export const moderateIndication = dose.moderateIndication;
export const deepIndication = dose.deepIndication;
export const ADMINISTRATION_TEXT = dose.administration;
export const MONITORING_CHECKLIST = dose.monitoring;

// EU SmPC 4.2 (paediatric): below this volume the small-volume warning shows (measure with 1 mL, or dilute).
export const SMALL_VOLUME_BELOW_ML = 1;
