import { carryEnglish, type EnglishTexts } from '../shared/lang/lang-packs.ts';
import { account } from '../shared/lang/messages/account.ts';
import { patientSheet } from '../shared/lang/messages/patient-sheet.ts';
import { portal } from '../shared/lang/messages/portal.ts';
import { records } from '../shared/lang/messages/records.ts';

/**
 * What <sgx-access-portal> says in English, its account area included, and all its bundle carries of the catalogues
 * (each element carries its own: ../shared/lang-packs.ts): the sections of the widgets' messages its code reads
 * (../catalogues.test.ts checks it; `common` every element has: ../shared/lang-packs.ts). The patient records it
 * checks are worded by clinical/'s English texts (the API words them in the element's language). Importing this
 * module adds them to the English pack.
 */
export const ACCESS_PORTAL_CATALOGUE = {
  messages: { portal, account, records, patientSheet },
  clinical: {},
} satisfies EnglishTexts;

carryEnglish(ACCESS_PORTAL_CATALOGUE);
