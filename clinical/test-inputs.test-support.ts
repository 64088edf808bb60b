// Inputs the clinical tests share (tests only: it may use fast-check, like a *.test.ts file).
import fc from 'fast-check';
import { ADVISOR_NMBA_TYPES, BLOCK_DEPTHS, CARDIAC_HISTORIES, type BradycardiaInput } from './bradycardia-schema.ts';
import { AGE_GROUPS, DOSE_NMBA_TYPES, TOF_COUNTS } from './dose-schema.ts';

/** A 70 kg, 45-year-old adult with no risk factor, moderate block, rocuronium, CrCl 90 mL/min: LOW risk. */
export const ADULT_ADVISOR_INPUT: BradycardiaInput = {
  weight: 70,
  age: 45,
  baselineHr: 72,
  cardiacHistory: 'none',
  betaBlocker: false,
  dexmedetomidine: false,
  digoxin: false,
  amiodarone: false,
  highDoseOpioids: false,
  vagalStimulus: false,
  depth: 'tof_2_plus',
  nmba: 'rocuronium',
  creatinine: 90,
};

/** Every valid dose calculator input (docs/product.md §5 field ranges). */
export const validDoseInput = fc.record({
  ageGroup: fc.constantFrom(...AGE_GROUPS),
  bodyWeight: fc.double({ min: 1, max: 200, noNaN: true }),
  nmbaType: fc.constantFrom(...DOSE_NMBA_TYPES),
  creatinine: fc.option(fc.double({ min: 10, max: 200, noNaN: true }), { nil: null }),
  tofCount: fc.option(fc.constantFrom(...TOF_COUNTS), { nil: null }),
  ptc: fc.option(fc.integer({ min: 0, max: 15 }), { nil: null }),
  rsiScenario: fc.boolean(),
  dialysis: fc.boolean(),
});

/** Every valid advisor input (the schema's ranges). */
export const validAdvisorInput = fc.record({
  weight: fc.double({ min: 1, max: 200, noNaN: true }),
  age: fc.integer({ min: 0, max: 120 }),
  baselineHr: fc.integer({ min: 20, max: 250 }),
  cardiacHistory: fc.constantFrom(...CARDIAC_HISTORIES),
  betaBlocker: fc.boolean(),
  dexmedetomidine: fc.boolean(),
  digoxin: fc.boolean(),
  amiodarone: fc.boolean(),
  highDoseOpioids: fc.boolean(),
  vagalStimulus: fc.boolean(),
  depth: fc.constantFrom(...BLOCK_DEPTHS),
  nmba: fc.constantFrom(...ADVISOR_NMBA_TYPES),
  creatinine: fc.integer({ min: 10, max: 200 }),
});
