import { ADULT_MIN_AGE_YEARS } from './constants.ts';
import type { BradycardiaInput } from './bradycardia-schema.ts';
import type { RiskBand } from './bradycardia-model.ts';
import { renalFunctionBand } from './renal.ts';
import { roundTo } from './rounding.ts';

// Atropine for bradycardia: adults 1 mg (AHA 2020); under 18 years 0.02 mg/kg, min 0.1 mg,
// max 0.5 mg single dose (PALS). docs/clinical-reference.md §4.
export const ATROPINE_ADULT_DOSE_MG = 1;
export const ATROPINE_ADULT_MAX_TOTAL_MG = 3;
export const ATROPINE_PEDIATRIC_DOSE_MG_PER_KG = 0.02;
export const ATROPINE_PEDIATRIC_MIN_DOSE_MG = 0.1;
export const ATROPINE_PEDIATRIC_MAX_DOSE_MG = 0.5;
// Epinephrine for children: 0.01 mg/kg IV every 3-5 min (PALS bradycardia algorithm).
export const EPINEPHRINE_PEDIATRIC_DOSE_MG_PER_KG = 0.01;

export function atropineDoseMg(ageYears: number, weightKg: number): number {
  if (ageYears >= ADULT_MIN_AGE_YEARS) return ATROPINE_ADULT_DOSE_MG;
  const byWeight = ATROPINE_PEDIATRIC_DOSE_MG_PER_KG * weightKg;
  return roundTo(Math.min(ATROPINE_PEDIATRIC_MAX_DOSE_MG, Math.max(ATROPINE_PEDIATRIC_MIN_DOSE_MG, byWeight)), 2);
}

export interface ManagementPlan {
  preparation: string[];
  treatment: string[];
}

/** Preparation and treatment protocol (docs/clinical-reference.md#management-plan). */
export function managementPlan(
  input: BradycardiaInput,
  risk: { riskBand: RiskBand },
  dose: { doseMg: number; doseMl: number },
): ManagementPlan {
  const adult = input.age >= ADULT_MIN_AGE_YEARS;
  const atropine = `Atropine ${atropineDoseMg(input.age, input.weight)} mg`;
  const preparation = [
    `${dose.doseMg} mg (${dose.doseMl.toFixed(1)} mL) single IV bolus over about 10 seconds`,
    'Quantitative neuromuscular monitoring: confirm TOF ratio ≥ 0.9 before extubation',
    'Continuous ECG, heart rate and blood pressure from injection until at ' +
      'least 30 min after (68.9% of reported reactions occur within 30 min)',
    ...bandPreparation(risk.riskBand, atropine),
  ];
  if (input.cardiacHistory === 'pacemaker')
    preparation.push('Pacemaker: confirm the pacing mode and capture before injection');
  if (input.cardiacHistory === 'av_block')
    preparation.push('AV block: atropine may fail in high-grade block; have pacing ready');
  if (input.dexmedetomidine) preparation.push('Dexmedetomidine: review the infusion before injection');
  if (renalFunctionBand(input.creatinine) === 'severe') {
    preparation.push(
      'CrCl < 30 mL/min: not recommended in severe renal impairment; if ' +
        'given, wait 24 h before re-paralysis with rocuronium or vecuronium',
    );
  }

  const treatment = adult
    ? [
        `${atropine} IV, repeated every 3-5 min to a total of ${ATROPINE_ADULT_MAX_TOTAL_MG} mg`,
        'If no response: epinephrine 10 µg IV boluses or a 2-10 µg/min infusion (or dopamine 5-20 µg/kg/min)',
      ]
    : [
        `${atropine} IV (0.02 mg/kg, min 0.1 mg, max 0.5 mg); may be repeated once`,
        `If no response: epinephrine ${roundTo(EPINEPHRINE_PEDIATRIC_DOSE_MG_PER_KG * input.weight * 1000, 0)} ` +
          `µg (0.01 mg/kg) IV every 3-5 min`,
      ];
  treatment.push(
    'Transcutaneous pacing for persistent bradycardia with poor perfusion',
    'Pulseless or asystole: start CPR and follow ACLS',
    'Consider anaphylaxis or coronary spasm (rash, bronchospasm, ST change): give epinephrine and send tryptase',
    'Report the event to the national pharmacovigilance centre (SFDA in Saudi Arabia)',
  );
  return { preparation, treatment };
}

function bandPreparation(band: RiskBand, atropine: string): string[] {
  switch (band) {
    case 'LOW':
      return [`${atropine} available in the room`];
    case 'MODERATE':
      return [`${atropine} drawn up before injection; epinephrine (10 µg/mL) available`];
    case 'HIGH':
      return [
        `${atropine} and epinephrine (10 µg/mL) drawn up before injection`,
        'Transcutaneous pacing pads applied before injection',
        'A second anaesthesia clinician present',
      ];
  }
}
