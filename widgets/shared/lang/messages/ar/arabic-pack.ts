import { CLINICAL_TEXTS_AR } from '../../../../../clinical/texts/ar.ts';
import { registerLangPack, type LangPack } from '../../lang-packs.ts';
import { serverMessageInArabic } from '../server.ts';
import { messagesAr } from './index.ts';

/**
 * Arabic, as one chunk (widgets/shared/lang/lang-packs.ts loads it when an element first speaks Arabic): the
 * widgets' catalogue, clinical/'s texts and the API's messages. Importing it registers it.
 */
const arabicPack: LangPack = {
  messages: messagesAr,
  clinical: CLINICAL_TEXTS_AR,
  serverMessage: serverMessageInArabic,
};
registerLangPack('ar', arabicPack);
