import * as v from 'valibot';
import {
  BODY_WEIGHT_MAX_KG,
  BODY_WEIGHT_MIN_KG,
  CRCL_MAX_ML_PER_MIN,
  CRCL_MIN_ML_PER_MIN,
  DEEP_BLOCK_DOSE_MG_PER_KG,
  IMMEDIATE_REVERSAL_DOSE_MG_PER_KG,
  MODERATE_BLOCK_DOSE_MG_PER_KG,
} from './constants.ts';
import { numberInRange, strictFields } from './validation.ts';

export const CARDIAC_HISTORIES = ['none', 'bradycardia', 'av_block', 'pacemaker'] as const;
export const BLOCK_DEPTHS = ['tof_2_plus', 'ptc_1_2', 'immediate'] as const;
export const ADVISOR_NMBA_TYPES = ['rocuronium', 'vecuronium'] as const;
export type CardiacHistory = (typeof CARDIAC_HISTORIES)[number];
export type AdvisorBlockDepth = (typeof BLOCK_DEPTHS)[number];

/** docs/product.md §3: "tof_2_plus gives 2, ptc_1_2 gives 4, immediate gives 16". */
export const DOSE_MG_PER_KG_BY_DEPTH = {
  tof_2_plus: MODERATE_BLOCK_DOSE_MG_PER_KG,
  ptc_1_2: DEEP_BLOCK_DOSE_MG_PER_KG,
  immediate: IMMEDIATE_REVERSAL_DOSE_MG_PER_KG,
} as const satisfies Record<AdvisorBlockDepth, number>;

// Plausible clinical ranges for the advisor's own fields (not given by the spec).
export const ADVISOR_AGE_MAX_YEARS = 120;
export const BASELINE_HR_MIN_BPM = 20;
export const BASELINE_HR_MAX_BPM = 250;

// docs/product.md §5/§8: the advisor's required fields are weight, age, baselineHr and creatinine.
export const MISSING_INFORMATION_MESSAGE = 'Please fill in all required fields';

const flag = (label: string) => v.boolean(`${label} must be ticked or unticked (true or false)`);
const BOOLEAN_FACTORS = {
  betaBlocker: 'Beta-blocker',
  dexmedetomidine: 'Dexmedetomidine',
  digoxin: 'Digoxin',
  amiodarone: 'Amiodarone',
  highDoseOpioids: 'High-dose opioids',
  vagalStimulus: 'Vagal stimulus',
} as const;

const weightMessage = `Weight must be between ${BODY_WEIGHT_MIN_KG} and ${BODY_WEIGHT_MAX_KG} kg`;
const ageMessage = `Age must be between 0 and ${ADVISOR_AGE_MAX_YEARS} years`;
const hrMessage = `Baseline heart rate must be between ${BASELINE_HR_MIN_BPM} and ${BASELINE_HR_MAX_BPM} bpm`;
const crclMessage = `Creatinine clearance must be between ${CRCL_MIN_ML_PER_MIN} and ${CRCL_MAX_ML_PER_MIN} mL/min`;

/**
 * The advisor's inputs (docs/product.md §3 names). `dose` and `conductionDisease` are derived by the browser
 * and sent (docs/product.md §3); the server recomputes them and refuses a request where they disagree.
 */
export const bradycardiaInputSchema = v.pipe(
  strictFields(
    {
      weight: numberInRange(BODY_WEIGHT_MIN_KG, BODY_WEIGHT_MAX_KG, weightMessage),
      age: numberInRange(0, ADVISOR_AGE_MAX_YEARS, ageMessage),
      baselineHr: numberInRange(BASELINE_HR_MIN_BPM, BASELINE_HR_MAX_BPM, hrMessage),
      cardiacHistory: v.picklist(
        CARDIAC_HISTORIES,
        'Choose a cardiac history: none, bradycardia, AV block or pacemaker',
      ),
      betaBlocker: flag(BOOLEAN_FACTORS.betaBlocker),
      dexmedetomidine: flag(BOOLEAN_FACTORS.dexmedetomidine),
      digoxin: flag(BOOLEAN_FACTORS.digoxin),
      amiodarone: flag(BOOLEAN_FACTORS.amiodarone),
      highDoseOpioids: flag(BOOLEAN_FACTORS.highDoseOpioids),
      vagalStimulus: flag(BOOLEAN_FACTORS.vagalStimulus),
      depth: v.picklist(BLOCK_DEPTHS, 'Choose the block depth: TOF 2 or more, PTC 1-2, or immediate reversal'),
      nmba: v.picklist(ADVISOR_NMBA_TYPES, 'Choose the blocking agent: rocuronium or vecuronium'),
      creatinine: numberInRange(CRCL_MIN_ML_PER_MIN, CRCL_MAX_ML_PER_MIN, crclMessage),
      dose: v.optional(v.picklist([2, 4, 16], 'Dose must be 2, 4 or 16 mg/kg')),
      conductionDisease: v.optional(v.boolean('conductionDisease must be true or false')),
    },
    {
      weight: MISSING_INFORMATION_MESSAGE,
      age: MISSING_INFORMATION_MESSAGE,
      baselineHr: MISSING_INFORMATION_MESSAGE,
      creatinine: MISSING_INFORMATION_MESSAGE,
      cardiacHistory: 'Choose a cardiac history: none, bradycardia, AV block or pacemaker',
      betaBlocker: `${BOOLEAN_FACTORS.betaBlocker} must be ticked or unticked (true or false)`,
      dexmedetomidine: `${BOOLEAN_FACTORS.dexmedetomidine} must be ticked or unticked (true or false)`,
      digoxin: `${BOOLEAN_FACTORS.digoxin} must be ticked or unticked (true or false)`,
      amiodarone: `${BOOLEAN_FACTORS.amiodarone} must be ticked or unticked (true or false)`,
      highDoseOpioids: `${BOOLEAN_FACTORS.highDoseOpioids} must be ticked or unticked (true or false)`,
      vagalStimulus: `${BOOLEAN_FACTORS.vagalStimulus} must be ticked or unticked (true or false)`,
      depth: 'Choose the block depth: TOF 2 or more, PTC 1-2, or immediate reversal',
      nmba: 'Choose the blocking agent: rocuronium or vecuronium',
    },
  ),
  v.forward(
    v.partialCheck(
      [['dose'], ['depth']],
      (input) => input.dose === undefined || input.dose === DOSE_MG_PER_KG_BY_DEPTH[input.depth],
      'Dose does not match the block depth (TOF 2 or more: 2, PTC 1-2: 4, immediate: 16 mg/kg)',
    ),
    ['dose'],
  ),
  v.forward(
    v.partialCheck(
      [['conductionDisease'], ['cardiacHistory']],
      (input) =>
        input.conductionDisease === undefined || input.conductionDisease === (input.cardiacHistory === 'av_block'),
      'conductionDisease must be true exactly when the cardiac history is AV block',
    ),
    ['conductionDisease'],
  ),
);
export type BradycardiaInput = v.InferOutput<typeof bradycardiaInputSchema>;

export const BRADYCARDIA_FIELD_ORDER = [
  'weight',
  'age',
  'baselineHr',
  'creatinine',
  'cardiacHistory',
  'betaBlocker',
  'dexmedetomidine',
  'digoxin',
  'amiodarone',
  'highDoseOpioids',
  'vagalStimulus',
  'depth',
  'nmba',
  'dose',
  'conductionDisease',
] as const;
