import { COCKCROFT_GAULT_HELPER_TEXTS_EN, DOSE_CALCULATOR_TEXTS_EN } from '../../clinical/index.ts';
import { carryEnglish, type EnglishTexts } from '../shared/lang/lang-packs.ts';
import { doseCalculator } from '../shared/lang/messages/dose-calculator.ts';
import { emergency } from '../shared/lang/messages/emergency.ts';
import { patientSheet } from '../shared/lang/messages/patient-sheet.ts';
import { records } from '../shared/lang/messages/records.ts';

/**
 * What <sgx-dose-calculator> says in English, and all its bundle carries of the catalogues (each element carries its
 * own, not the other elements': ../shared/lang-packs.ts): the sections of the widgets' messages its code reads
 * (../catalogues.test.ts checks it; `common` every element has: ../shared/lang-packs.ts), and the clinical texts it
 * computes with. The emergency card brings its own clinical texts when it loads. Importing this module adds them to
 * the English pack.
 */
export const DOSE_CALCULATOR_CATALOGUE = {
  messages: { doseCalculator, records, emergency, patientSheet },
  clinical: { ...DOSE_CALCULATOR_TEXTS_EN, ...COCKCROFT_GAULT_HELPER_TEXTS_EN },
} satisfies EnglishTexts;

carryEnglish(DOSE_CALCULATOR_CATALOGUE);
