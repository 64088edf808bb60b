import { carryEnglish, type EnglishTexts } from '../shared/lang/lang-packs.ts';
import { roi } from '../shared/lang/messages/roi.ts';

/**
 * What <sgx-roi-calculator> says in English, and all its bundle carries of the catalogues (each element carries its
 * own: ../shared/lang-packs.ts): the sections of the widgets' messages its code reads (../catalogues.test.ts checks
 * it). It writes no clinical text (its results are figures). Importing this module adds them to the English pack.
 */
export const ROI_CALCULATOR_CATALOGUE = {
  messages: { roi },
  clinical: {},
} satisfies EnglishTexts;

carryEnglish(ROI_CALCULATOR_CATALOGUE);
