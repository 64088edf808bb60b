/**
 * The emergency card's numbers (docs/clinical-reference.md §7): doses, caps and the usual strengths, units in the
 * names. Kept apart from emergency.ts so that the texts (texts/en.ts, texts/ar.ts) can write the same numbers.
 *
 * Child doses are by weight and never above the adult dose (the reference's rule). Where the reference gives a
 * child's maximum, it is used (atropine 0.5 mg, adrenaline IM 0.5 mg); where it gives none, the adult dose is the
 * cap (adrenaline IV for anaphylaxis: 50 micrograms; crystalloid: the adult bolus's upper end, 1000 mL). The
 * child's adrenaline for bradycardia (0.01 mg/kg) has no adult bolus to compare with (the adult step is an
 * infusion); its maximum is PALS 2020's 1 mg a dose.
 */

export const MICROGRAMS_PER_MG = 1000;

// Bradycardia with poor perfusion: AHA 2020 adult bradycardia algorithm; PALS 2020.
export const ATROPINE_ADULT_MG = 1;
export const ATROPINE_ADULT_MAX_TOTAL_MG = 3;
export const ATROPINE_REPEAT_MIN = '3-5';
export const ATROPINE_CHILD_MG_PER_KG = 0.02;
export const ATROPINE_CHILD_MIN_MG = 0.1;
export const ATROPINE_CHILD_MAX_MG = 0.5;
/** Adult second line: adrenaline infusion 2-10 micrograms/min, or dopamine 5-20 micrograms/kg/min. */
export const ADRENALINE_INFUSION_ADULT_MICROGRAMS_PER_MIN = '2-10';
export const DOPAMINE_INFUSION_ADULT_MICROGRAMS_PER_KG_PER_MIN = '5-20';
/** Child second line: adrenaline 0.01 mg/kg IV (10 micrograms/kg; 0.1 mL/kg of 0.1 mg/mL), every 3-5 min. */
export const ADRENALINE_BRADYCARDIA_CHILD_MG_PER_KG = 0.01;
export const ADRENALINE_BRADYCARDIA_CHILD_MICROGRAMS_PER_KG =
  ADRENALINE_BRADYCARDIA_CHILD_MG_PER_KG * MICROGRAMS_PER_MG;
export const ADRENALINE_BRADYCARDIA_CHILD_ML_PER_KG = 0.1;
/** The child's bradycardia adrenaline: at most 1 mg a dose (PALS 2020), reached at 100 kg. */
export const ADRENALINE_BRADYCARDIA_CHILD_MAX_MG = 1;
/** Minutes between the child's bradycardia adrenaline doses. */
export const ADRENALINE_BRADYCARDIA_REPEAT_MIN = '3-5';
/** Child: start CPR if the heart rate stays below this with poor perfusion despite oxygenation and ventilation. */
export const CHILD_CPR_HEART_RATE_BELOW_BPM = 60;

// Anaphylaxis: NAP6 management (Harper 2018); Resuscitation Council UK 2021.
export const ADRENALINE_IV_ANAPHYLAXIS_ADULT_MICROGRAMS = 50;
export const ADRENALINE_IV_ANAPHYLAXIS_CHILD_MICROGRAMS_PER_KG = 1;
/** No child maximum in the reference: the adult dose, by its rule that a child's dose never exceeds the adult's. */
export const ADRENALINE_IV_ANAPHYLAXIS_CHILD_MAX_MICROGRAMS = ADRENALINE_IV_ANAPHYLAXIS_ADULT_MICROGRAMS;
export const ADRENALINE_IV_REPEAT_MIN = '1-2';
export const ADRENALINE_IM_ADULT_MG = 0.5;
export const ADRENALINE_IM_CHILD_MG_PER_KG = 0.01;
export const ADRENALINE_IM_CHILD_MAX_MG = 0.5;
export const CRYSTALLOID_ADULT_MIN_ML = 500;
export const CRYSTALLOID_ADULT_MAX_ML = 1000;
export const CRYSTALLOID_CHILD_ML_PER_KG = 10;
/** No child maximum in the reference: the adult bolus's upper end (a child's dose never exceeds the adult's). */
export const CRYSTALLOID_CHILD_MAX_ML = CRYSTALLOID_ADULT_MAX_ML;
/** Refractory: after this many adrenaline boluses. */
export const REFRACTORY_AFTER_BOLUSES = 3;
export const OXYGEN_PERCENT = 100;

// The usual strengths the reference names, each for its line. Atropine has none: its strengths vary between
// hospitals (0.1, 0.4, 0.5, 0.6 and 1 mg/mL), so the card gives its dose in mg only and says why.
/** The atropine strengths found in hospitals (docs/clinical-reference.md §7): why no usual one is named. */
export const ATROPINE_STRENGTHS_MG_PER_ML = [0.1, 0.4, 0.5, 0.6, 1] as const;
/** Adrenaline for a child's bradycardia: 0.1 mg/mL (the same solution as 100 micrograms/mL). */
export const ADRENALINE_BRADYCARDIA_STRENGTH_MG_PER_ML = 0.1;
/** Adrenaline IV for anaphylaxis: 100 micrograms/mL. */
export const ADRENALINE_IV_STRENGTH_MICROGRAMS_PER_ML = 100;
/** Adrenaline IM: 1 mg/mL. */
export const ADRENALINE_IM_STRENGTH_MG_PER_ML = 1;

// Rounding, stated once: mg to 2 decimals, micrograms and crystalloid mL to whole numbers, a volume of a drug
// (mL of its strength) to 2 decimals, computed from the dose as shown. A dose in micrograms of 1 mg or more is
// shown in mg (the child's bradycardia adrenaline at its 1 mg cap): below 1 mg, whole micrograms.
export const MG_DECIMALS = 2;
export const MICROGRAM_DECIMALS = 0;
export const FLUID_ML_DECIMALS = 0;
export const DRUG_VOLUME_ML_DECIMALS = 2;

// Sugammadex-specific context: anaphylaxis in about 1 in 2,500 administrations (0.039%, Miyazaki 2018, one
// Japanese centre) to 1 in 5,000 (0.02%, Orihara 2020, four Japanese centres); most within 5 minutes.
export const SUGAMMADEX_ANAPHYLAXIS_ONE_IN_MIYAZAKI_2018 = 2500;
export const SUGAMMADEX_ANAPHYLAXIS_ONE_IN_ORIHARA_2020 = 5000;
export const SUGAMMADEX_ANAPHYLAXIS_WITHIN_MIN = 5;
