import { advisor as en } from '../../lang/messages/advisor.ts';
import { doseCalculator } from '../../lang/messages/dose-calculator.ts';
import { oneOf, yesNo, type ToolInputs } from '../notes-content.ts';

/** The advisor's inputs as the notes and the history word them (English: ../notes-content.ts). */
export const BRADYCARDIA_ADVISOR_INPUTS: ToolInputs = {
  weight: { label: en.weight, unit: en.units.kg },
  age: { label: en.age, unit: en.units.years },
  baselineHr: { label: en.baselineHr, unit: en.units.bpm },
  creatinine: { label: en.creatinine, unit: en.units.mlPerMin },
  cardiacHistory: { label: en.cardiacHistory, value: oneOf(en.cardiacHistories) },
  betaBlocker: { label: en.betaBlocker, value: yesNo },
  dexmedetomidine: { label: en.dexmedetomidine, value: yesNo },
  digoxin: { label: en.digoxin, value: yesNo },
  amiodarone: { label: en.amiodarone, value: yesNo },
  highDoseOpioids: { label: en.highDoseOpioids, value: yesNo },
  vagalStimulus: { label: en.vagalStimulus, value: yesNo },
  conductionDisease: { label: 'Conduction disease', value: yesNo },
  depth: { label: en.depth, value: oneOf(en.depths) },
  nmba: { label: en.nmba, value: oneOf(en.nmbas) },
  dose: { label: doseCalculator.dosePerKg, unit: doseCalculator.unitMgPerKg },
};
