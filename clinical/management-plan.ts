import { ADULT_MIN_AGE_YEARS } from './constants.ts';
import {
  ADRENALINE_BRADYCARDIA_CHILD_MAX_MG,
  ADRENALINE_BRADYCARDIA_CHILD_MG_PER_KG,
  ATROPINE_ADULT_MAX_TOTAL_MG,
  ATROPINE_ADULT_MG,
  ATROPINE_CHILD_MAX_MG,
  ATROPINE_CHILD_MG_PER_KG,
  ATROPINE_CHILD_MIN_MG,
  MICROGRAMS_PER_MG,
} from './emergency-constants.ts';
import type { BradycardiaInput } from './bradycardia-schema.ts';
import type { RiskBand } from './bradycardia-model.ts';
import { renalFunctionBand } from './renal.ts';
import { roundTo } from './rounding.ts';
import type { ClinicalTextsOf } from './texts/en.ts';
import { PLAN_TEXTS_EN } from './texts/sections-en.ts';

// Atropine for bradycardia: adults 1 mg (AHA 2020); under 18 years 0.02 mg/kg, min 0.1 mg, max 0.5 mg single
// dose (PALS); adrenaline for children 0.01 mg/kg IV, max 1 mg a dose (PALS 2020), every 3-5 min.
// docs/clinical-reference.md §4: the same
// numbers as the emergency card's (emergency-constants.ts), written there once.

export function atropineDoseMg(ageYears: number, weightKg: number): number {
  if (ageYears >= ADULT_MIN_AGE_YEARS) return ATROPINE_ADULT_MG;
  const byWeight = ATROPINE_CHILD_MG_PER_KG * weightKg;
  return roundTo(Math.min(ATROPINE_CHILD_MAX_MG, Math.max(ATROPINE_CHILD_MIN_MG, byWeight)), 2);
}

/** A child's adrenaline for bradycardia: 0.01 mg/kg in whole micrograms, never above 1 mg (1000 micrograms). */
export function pediatricAdrenalineMicrograms(weightKg: number): number {
  return Math.min(
    ADRENALINE_BRADYCARDIA_CHILD_MAX_MG * MICROGRAMS_PER_MG,
    roundTo(ADRENALINE_BRADYCARDIA_CHILD_MG_PER_KG * weightKg * MICROGRAMS_PER_MG, 0),
  );
}

export interface ManagementPlan {
  preparation: string[];
  treatment: string[];
}

/** Preparation and treatment protocol (docs/clinical-reference.md#management-plan), in the language of `texts`. */
export function managementPlan(
  input: BradycardiaInput,
  risk: { riskBand: RiskBand },
  dose: { doseMg: number; doseMl: number },
  texts: ClinicalTextsOf<'plan'> = { plan: PLAN_TEXTS_EN },
): ManagementPlan {
  const text = texts.plan;
  const adult = input.age >= ADULT_MIN_AGE_YEARS;
  const atropine = text.atropine(atropineDoseMg(input.age, input.weight));
  const preparation = [
    text.dose(dose.doseMg, dose.doseMl),
    text.quantitativeMonitoring,
    text.continuousMonitoring,
    ...bandPreparation(risk.riskBand, atropine, text),
  ];
  if (input.cardiacHistory === 'pacemaker') preparation.push(text.pacemaker);
  if (input.cardiacHistory === 'av_block') preparation.push(text.avBlock);
  if (input.dexmedetomidine) preparation.push(text.dexmedetomidine);
  if (renalFunctionBand(input.creatinine) === 'severe') preparation.push(text.severeRenal);

  const treatment = adult
    ? [text.adultAtropine(atropine, ATROPINE_ADULT_MAX_TOTAL_MG), text.adultEpinephrine]
    : [text.pediatricAtropine(atropine), text.pediatricEpinephrine(pediatricAdrenalineMicrograms(input.weight))];
  treatment.push(text.pacing, text.pulseless, text.anaphylaxis, text.report);
  return { preparation, treatment };
}

function bandPreparation(band: RiskBand, atropine: string, text: ClinicalTextsOf<'plan'>['plan']): string[] {
  switch (band) {
    case 'LOW':
      return [text.lowRiskAtropine(atropine)];
    case 'MODERATE':
      return [text.moderateRiskAtropine(atropine)];
    case 'HIGH':
      return [text.highRiskDrugs(atropine), text.highRiskPacingPads, text.highRiskSecondClinician];
  }
}
