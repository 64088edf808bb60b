import { IMMEDIATE_REVERSAL_DOSE_MG_PER_KG } from './constants.ts';
import { renalFunctionBand } from './renal.ts';

/**
 * Re-paralysis (re-NMBA) guidance after a reversal dose (docs/clinical-reference.md §3).
 * Waits are from the reversal dose to the next steroidal NMBA.
 */
export function reparalysisGuidance(doseMgPerKg: number, creatinineClearanceMlPerMin: number): string[] {
  const renal = renalFunctionBand(creatinineClearanceMlPerMin);
  const lines: string[] = [];
  if (renal === 'severe') {
    // US PI: after any dose in severe renal impairment.
    lines.push(
      'Severe renal impairment (CrCl < 30 mL/min), any dose: wait 24 h before giving rocuronium or vecuronium again.',
    );
  } else if (doseMgPerKg >= IMMEDIATE_REVERSAL_DOSE_MG_PER_KG) {
    // EU SmPC 4.4.
    lines.push('After 16 mg/kg: wait 24 h before giving rocuronium or vecuronium again.');
  } else {
    // US PI table; Cammu 2010.
    lines.push('Rocuronium 1.2 mg/kg: wait at least 5 min (onset about 3 min; shorter duration, about 18 min).');
    lines.push('Rocuronium 0.6 mg/kg or vecuronium 0.1 mg/kg: wait at least 4 h.');
    if (renal === 'mild_moderate') {
      // US PI 2.5: the table's waits are for normal renal function.
      lines.push(
        'Mild or moderate renal impairment (CrCl 30-80 mL/min): wait 24 h ' +
          'before rocuronium 0.6 mg/kg or vecuronium 0.1 mg/kg; if a shorter ' +
          'wait is needed, use rocuronium 1.2 mg/kg.',
      );
    }
  }
  // EU SmPC 4.4.
  lines.push(
    'If block is needed before the wait is over: use a non-steroidal NMBA ' +
      '(e.g. cisatracurium); a depolarising NMBA may have a slower onset.',
  );
  return lines;
}
