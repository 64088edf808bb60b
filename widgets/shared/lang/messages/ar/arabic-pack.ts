import { CLINICAL_TEXTS_AR } from '../../../../../clinical/texts/ar.ts';
import type { LangPack } from '../../lang-pack.ts';
import { serverMessageInArabic } from '../server.ts';
import { messagesAr } from './index.ts';

/**
 * Arabic, as one chunk (widgets/shared/lang/lang-packs.ts loads it when an element first speaks Arabic): the
 * widgets' catalogue, clinical/'s texts and the API's messages, registered there when it arrives.
 */
export const arabicPack: LangPack = {
  messages: messagesAr,
  clinical: CLINICAL_TEXTS_AR,
  serverMessage: serverMessageInArabic,
};
