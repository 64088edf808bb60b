import * as v from 'valibot';
import {
  ADVISOR_AGE_MAX_YEARS,
  BASELINE_HR_MAX_BPM,
  BASELINE_HR_MIN_BPM,
  BODY_WEIGHT_MAX_KG,
  BODY_WEIGHT_MIN_KG,
  CRCL_MAX_ML_PER_MIN,
  CRCL_MIN_ML_PER_MIN,
  DEEP_BLOCK_DOSE_MG_PER_KG,
  IMMEDIATE_REVERSAL_DOSE_MG_PER_KG,
  MODERATE_BLOCK_DOSE_MG_PER_KG,
} from './constants.ts';
import type { ClinicalTextsOf } from './texts/en.ts';
import { ADVISOR_INPUT_TEXTS_EN, FIELDS_TEXTS_EN } from './texts/sections-en.ts';
import { numberInRange, schemaForTexts, strictFields } from './validation.ts';

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

// Plausible clinical ranges for the advisor's own fields (not given by the spec): constants.ts.
export { ADVISOR_AGE_MAX_YEARS, BASELINE_HR_MAX_BPM, BASELINE_HR_MIN_BPM };

// docs/product.md §5/§8: the advisor's required fields are weight, age, baselineHr and creatinine.
export const MISSING_INFORMATION_MESSAGE = ADVISOR_INPUT_TEXTS_EN.missingInformation;

/** The sections of the clinical texts the advisor's inputs are checked with. */
export type AdvisorInputTexts = ClinicalTextsOf<'advisorInput' | 'fields'>;

function bradycardiaSchema(texts: AdvisorInputTexts) {
  const m = texts.advisorInput;
  return v.pipe(
    strictFields(
      {
        weight: numberInRange(BODY_WEIGHT_MIN_KG, BODY_WEIGHT_MAX_KG, m.weight),
        age: numberInRange(0, ADVISOR_AGE_MAX_YEARS, m.age),
        baselineHr: numberInRange(BASELINE_HR_MIN_BPM, BASELINE_HR_MAX_BPM, m.baselineHr),
        cardiacHistory: v.picklist(CARDIAC_HISTORIES, m.cardiacHistory),
        betaBlocker: v.boolean(m.betaBlocker),
        dexmedetomidine: v.boolean(m.dexmedetomidine),
        digoxin: v.boolean(m.digoxin),
        amiodarone: v.boolean(m.amiodarone),
        highDoseOpioids: v.boolean(m.highDoseOpioids),
        vagalStimulus: v.boolean(m.vagalStimulus),
        depth: v.picklist(BLOCK_DEPTHS, m.depth),
        nmba: v.picklist(ADVISOR_NMBA_TYPES, m.nmba),
        creatinine: numberInRange(CRCL_MIN_ML_PER_MIN, CRCL_MAX_ML_PER_MIN, m.creatinine),
        dose: v.optional(v.picklist([2, 4, 16], m.dose)),
        conductionDisease: v.optional(v.boolean(m.conductionDisease)),
      },
      {
        weight: m.missingInformation,
        age: m.missingInformation,
        baselineHr: m.missingInformation,
        creatinine: m.missingInformation,
        cardiacHistory: m.cardiacHistory,
        betaBlocker: m.betaBlocker,
        dexmedetomidine: m.dexmedetomidine,
        digoxin: m.digoxin,
        amiodarone: m.amiodarone,
        highDoseOpioids: m.highDoseOpioids,
        vagalStimulus: m.vagalStimulus,
        depth: m.depth,
        nmba: m.nmba,
      },
      texts,
    ),
    v.forward(
      v.partialCheck(
        [['dose'], ['depth']],
        (input) => input.dose === undefined || input.dose === DOSE_MG_PER_KG_BY_DEPTH[input.depth],
        m.doseMismatch,
      ),
      ['dose'],
    ),
    v.forward(
      v.partialCheck(
        [['conductionDisease'], ['cardiacHistory']],
        (input) =>
          input.conductionDisease === undefined || input.conductionDisease === (input.cardiacHistory === 'av_block'),
        m.conductionDiseaseMismatch,
      ),
      ['conductionDisease'],
    ),
  );
}

/**
 * The advisor's inputs (docs/product.md §3 names), with the messages of one language. `dose` and
 * `conductionDisease` are derived by the browser and sent (docs/product.md §3); the server recomputes them and
 * refuses a request where they disagree.
 */
export const bradycardiaInputSchemaFor = schemaForTexts(bradycardiaSchema, {
  advisorInput: ADVISOR_INPUT_TEXTS_EN,
  fields: FIELDS_TEXTS_EN,
});
/** The advisor's inputs, with English messages. */
export const bradycardiaInputSchema = bradycardiaInputSchemaFor();
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
