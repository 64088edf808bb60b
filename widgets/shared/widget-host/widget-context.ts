import { createContext, useContext } from 'react';
import type { ClinicalTexts } from '../../../clinical/texts/en.ts';
import { directionOf, type WidgetLang } from '../lang/lang.ts';
import { loadedLangPack, type LangPack } from '../lang/lang-packs.ts';
import type { Messages } from '../lang/messages/index.ts';
import { dispatchSgxEvent, type SgxEventDetails, type SgxEventName } from './events.ts';

export interface WidgetHost {
  /** Sends an `sgx-*` event from the element (bubbling, composed). No element (a test, a story): a no-op. */
  emit<N extends SgxEventName>(name: N, detail: SgxEventDetails[N]): void;
  /** The element's language (widgets/shared/element/element-lang.ts), its catalogue and writing direction. */
  lang: WidgetLang;
  messages: Messages;
  /** The texts clinical/ writes into results, warnings and validation messages, in the same language. */
  clinical: ClinicalTexts;
  /** A message the API (or the API client) wrote, in the element's language when it is a known one. */
  serverMessage: (text: string) => string;
  dir: 'ltr' | 'rtl';
}

/**
 * The host of an element (or of a component outside one) in `lang`, with that language's pack: the one
 * loaded (widgets/shared/lang/lang-packs.ts; English always is), unless given.
 */
export function hostFor(
  element: Element | null,
  lang: WidgetLang = 'en',
  pack: LangPack | undefined = loadedLangPack(lang),
): WidgetHost {
  if (!pack) throw new Error(`The ${lang} catalogue is not loaded yet: await loadLangPack('${lang}') first`);
  return {
    emit: (name, detail) => {
      if (element) dispatchSgxEvent(element, name, detail);
    },
    lang,
    messages: pack.messages,
    clinical: pack.clinical,
    serverMessage: pack.serverMessage,
    dir: directionOf(lang),
  };
}

export const WidgetHostContext = createContext<WidgetHost>(hostFor(null));
export const useWidgetHost = (): WidgetHost => useContext(WidgetHostContext);
export const useMessages = (): Messages => useContext(WidgetHostContext).messages;
export const useWidgetLang = (): WidgetLang => useContext(WidgetHostContext).lang;
export const useClinicalTexts = (): ClinicalTexts => useContext(WidgetHostContext).clinical;
