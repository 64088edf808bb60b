import { IMMEDIATE_REVERSAL_DOSE_MG_PER_KG } from './constants.ts';
import { renalFunctionBand } from './renal.ts';
import type { ClinicalTextsOf } from './texts/en.ts';
import { REPARALYSIS_TEXTS_EN } from './texts/sections-en.ts';

/**
 * Re-paralysis (re-NMBA) guidance after a reversal dose (docs/clinical-reference.md §3), in the language of
 * `texts`. Waits are from the reversal dose to the next steroidal NMBA.
 */
export function reparalysisGuidance(
  doseMgPerKg: number,
  creatinineClearanceMlPerMin: number,
  texts: ClinicalTextsOf<'reparalysis'> = { reparalysis: REPARALYSIS_TEXTS_EN },
): string[] {
  const text = texts.reparalysis;
  const renal = renalFunctionBand(creatinineClearanceMlPerMin);
  const lines: string[] = [];
  if (renal === 'severe') {
    // US PI: after any dose in severe renal impairment.
    lines.push(text.severeRenal);
  } else if (doseMgPerKg >= IMMEDIATE_REVERSAL_DOSE_MG_PER_KG) {
    // EU SmPC 4.4.
    lines.push(text.afterImmediateDose);
  } else {
    // US PI table; Cammu 2010.
    lines.push(text.rocuroniumHighDose, text.standardDoses);
    // US PI 2.5: the table's waits are for normal renal function.
    if (renal === 'mild_moderate') lines.push(text.mildModerateRenal);
  }
  // EU SmPC 4.4.
  lines.push(text.nonSteroidal);
  return lines;
}
