import type { Catalogue } from './catalogue.ts';
import { EMERGENCY_TEXTS_EN } from './emergency-en.ts';
import {
  DOSE_TEXTS_EN,
  DOSE_INPUT_TEXTS_EN,
  FIELDS_TEXTS_EN,
  ADVISOR_TEXTS_EN,
  ADVISOR_INPUT_TEXTS_EN,
  PLAN_TEXTS_EN,
  REPARALYSIS_TEXTS_EN,
  COCKCROFT_GAULT_TEXTS_EN,
  ROI_INPUT_TEXTS_EN,
  PATIENT_TEXTS_EN,
} from './sections-en.ts';

// Each section is a constant of its own (./sections-en.ts, ./emergency-en.ts), which code imports from there.
export {
  DOSE_TEXTS_EN,
  DOSE_INPUT_TEXTS_EN,
  FIELDS_TEXTS_EN,
  ADVISOR_TEXTS_EN,
  ADVISOR_INPUT_TEXTS_EN,
  PLAN_TEXTS_EN,
  REPARALYSIS_TEXTS_EN,
  COCKCROFT_GAULT_TEXTS_EN,
  ROI_INPUT_TEXTS_EN,
  PATIENT_TEXTS_EN,
} from './sections-en.ts';
export { EMERGENCY_TEXTS_EN } from './emergency-en.ts';

/**
 * Every text clinical/ produces, in English: the outcomes, warnings and indications of the dose calculator,
 * the advisor's factors, plan and re-paralysis lines, and the validation messages of every tool's inputs.
 * The spec's strings (docs/product.md §5, §8, §9) are exact and tests compare them; the safety additions come
 * from docs/clinical-reference.md §1, §3 and §4. Another language is a `ClinicalTexts` of the same shape
 * (texts/index.ts). Each section is also a constant of its own (`DOSE_TEXTS_EN`…), so that a bundle carries only
 * the sections its code reads: each function takes the sections it needs (`ClinicalTextsOf`), English by default,
 * imported from ./sections-en.ts or ./emergency-en.ts (an import of this module would bring every section).
 */
export const CLINICAL_TEXTS_EN = {
  dose: DOSE_TEXTS_EN,
  doseInput: DOSE_INPUT_TEXTS_EN,
  fields: FIELDS_TEXTS_EN,
  advisor: ADVISOR_TEXTS_EN,
  advisorInput: ADVISOR_INPUT_TEXTS_EN,
  plan: PLAN_TEXTS_EN,
  reparalysis: REPARALYSIS_TEXTS_EN,
  cockcroftGault: COCKCROFT_GAULT_TEXTS_EN,
  roiInput: ROI_INPUT_TEXTS_EN,
  patient: PATIENT_TEXTS_EN,
  emergency: EMERGENCY_TEXTS_EN,
} as const;

/** The shape of every language's clinical texts: the English catalogue's keys and arguments, with any text. */
export type ClinicalTexts = Catalogue<typeof CLINICAL_TEXTS_EN>;

/** The sections of the clinical texts a function reads: its `texts` argument is any catalogue holding them. */
export type ClinicalTextsOf<K extends keyof ClinicalTexts> = Pick<ClinicalTexts, K>;
