import { createContext, useContext } from 'react';
import { clinicalTextsFor, type ClinicalTexts } from '../../clinical/texts/index.ts';
import { directionOf, type WidgetLang } from './element-lang.ts';
import { messagesAr } from './messages/ar/index.ts';
import { messagesEn, type Messages } from './messages/index.ts';
import { serverMessageInArabic } from './messages/server.ts';
import { dispatchSgxEvent, type SgxEventDetails, type SgxEventName } from './events.ts';

export interface WidgetHost {
  /** Sends an `sgx-*` event from the element (bubbling, composed). No element (a test, a story): a no-op. */
  emit<N extends SgxEventName>(name: N, detail: SgxEventDetails[N]): void;
  /** The element's language (widgets/shared/element-lang.ts), its catalogue and writing direction. */
  lang: WidgetLang;
  messages: Messages;
  /** The texts clinical/ writes into results, warnings and validation messages, in the same language. */
  clinical: ClinicalTexts;
  /** A message the API (or the API client) wrote, in the element's language when it is a known one. */
  serverMessage: (text: string) => string;
  dir: 'ltr' | 'rtl';
}

export function hostFor(element: Element | null, lang: WidgetLang = 'en'): WidgetHost {
  return {
    emit: (name, detail) => {
      if (element) dispatchSgxEvent(element, name, detail);
    },
    lang,
    messages: lang === 'ar' ? messagesAr : messagesEn,
    clinical: clinicalTextsFor(lang),
    serverMessage: lang === 'ar' ? serverMessageInArabic : (text) => text,
    dir: directionOf(lang),
  };
}

export const WidgetHostContext = createContext<WidgetHost>(hostFor(null));
export const useWidgetHost = (): WidgetHost => useContext(WidgetHostContext);
export const useMessages = (): Messages => useContext(WidgetHostContext).messages;
export const useWidgetLang = (): WidgetLang => useContext(WidgetHostContext).lang;
export const useClinicalTexts = (): ClinicalTexts => useContext(WidgetHostContext).clinical;
