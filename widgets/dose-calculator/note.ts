import type { DoseCalculatorInput, DoseResult } from '../../clinical/index.ts';
import { formatDateTime, formatOneDecimal, formatSarPrice } from '../shared/format.ts';

/**
 * The plain-text summary "Copy as note" puts on the clipboard, for pasting into the patient's
 * notes. The time is passed in.
 */
export function doseNote(input: DoseCalculatorInput, result: DoseResult, at: Date): string {
  const crcl = input.creatinine != null ? `${input.creatinine} mL/min` : 'not entered';
  const tof = input.tofCount ? input.tofCount : 'not counted';
  const ptc = input.ptc != null ? String(input.ptc) : 'not counted';
  const lines = [
    'Sugammadex reversal dose (decision support only)',
    `Calculated: ${formatDateTime(at)}`,
    `Patient: ${input.ageGroup}, ${input.bodyWeight} kg (actual body weight)`,
    `Block: ${input.nmbaType}; TOF count ${tof}; PTC ${ptc}; RSI ${input.rsiScenario ? 'yes' : 'no'}`,
    `Renal: CrCl ${crcl}; dialysis ${input.dialysis ? 'yes' : 'no'}`,
    `Indication: ${result.indication}`,
    `Dose: ${result.doseMgPerKg} mg/kg x ${result.weightKg} kg = ${result.totalDoseMg} mg`,
    `Draw up: ${formatOneDecimal(result.volumeMl)} mL at 100 mg/mL (${result.vials} ` +
      `x 200 mg/2 mL ${result.vials === 1 ? 'vial' : 'vials'}; ${formatSarPrice(result.costSar)} ` +
      `SAR)`,
    `Administration: ${result.administration}`,
    `Monitoring: ${result.monitoring.join('; ')}`,
  ];
  if (result.warnings.length) lines.push('Warnings:', ...result.warnings.map((warning) => `- ${warning}`));
  return lines.join('\n');
}
