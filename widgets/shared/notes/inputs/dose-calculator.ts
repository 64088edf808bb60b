import { doseCalculator as en } from '../../lang/messages/dose-calculator.ts';
import { oneOf, yesNo, type ToolInputs } from '../notes-content.ts';

/** The dose calculator's inputs as the notes and the history word them (English: ../notes-content.ts). */
export const DOSE_CALCULATOR_INPUTS: ToolInputs = {
  ageGroup: { label: en.ageGroup, value: oneOf(en.ageGroups) },
  bodyWeight: { label: en.bodyWeight, unit: en.unitKg },
  nmbaType: { label: en.nmbaType, value: oneOf(en.nmbaTypes) },
  creatinine: { label: en.creatinine, unit: en.unitMlPerMin },
  // how the creatinine clearance was found, when from the Cockcroft-Gault helper (the FHIR export codes it)
  creatinineMethod: {
    label: 'Creatinine clearance from',
    value: (value) => (value === 'cockcroft_gault' ? 'Cockcroft-Gault, from serum creatinine' : String(value)),
    detail: true,
  },
  tofCount: { label: en.tofCount },
  ptc: { label: en.ptc },
  rsiScenario: { label: 'RSI scenario (immediate reversal)', value: yesNo },
  dialysis: { label: 'Dialysis', value: yesNo },
};
