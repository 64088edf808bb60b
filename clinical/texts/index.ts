import { CLINICAL_TEXTS_AR } from './ar.ts';
import { CLINICAL_TEXTS_EN, type ClinicalTexts } from './en.ts';

export { CLINICAL_TEXTS_AR } from './ar.ts';
export { CLINICAL_TEXTS_EN, type ClinicalTexts, type ClinicalTextsOf } from './en.ts';
export type { Catalogue } from './catalogue.ts';

/** The languages clinical/ writes its texts in. */
export const LANGS = ['en', 'ar'] as const;
export type Lang = (typeof LANGS)[number];

export const isLang = (value: unknown): value is Lang => LANGS.includes(value as Lang);

const CATALOGUES: Readonly<Record<Lang, ClinicalTexts>> = { en: CLINICAL_TEXTS_EN, ar: CLINICAL_TEXTS_AR };

/** The catalogue of one language, to pass as the last argument of calculateDose, assessBradycardia, … */
export function clinicalTextsFor(lang: Lang): ClinicalTexts {
  return CATALOGUES[lang];
}
