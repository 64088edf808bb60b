import { ADVISOR_CLINICAL_TEXTS_EN } from '../../clinical/index.ts';
import { carryEnglish, type EnglishTexts } from '../shared/lang/lang-packs.ts';
import { advisor } from '../shared/lang/messages/advisor.ts';
import { doseCalculator } from '../shared/lang/messages/dose-calculator.ts';
import { emergency } from '../shared/lang/messages/emergency.ts';
import { records } from '../shared/lang/messages/records.ts';

/**
 * What <sgx-bradycardia-advisor> says in English, and all its bundle carries of the catalogues (each element carries
 * its own: ../shared/lang-packs.ts): the sections of the widgets' messages its code reads (../catalogues.test.ts
 * checks it; `common` every element has: ../shared/lang-packs.ts), and the clinical texts it assesses with. The
 * emergency card brings its own clinical texts when it loads. Importing this module adds them to the English pack.
 */
export const BRADYCARDIA_ADVISOR_CATALOGUE = {
  messages: { advisor, doseCalculator, records, emergency },
  clinical: ADVISOR_CLINICAL_TEXTS_EN,
} satisfies EnglishTexts;

carryEnglish(BRADYCARDIA_ADVISOR_CATALOGUE);
