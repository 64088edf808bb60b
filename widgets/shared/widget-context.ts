import { createContext, useContext } from 'react';
import { messagesEn, type Messages } from './messages/index.ts';
import { dispatchSgxEvent, type SgxEventDetails, type SgxEventName } from './events.ts';

export interface WidgetHost {
  /** Sends an `sgx-*` event from the element (bubbling, composed). No element (a test, a story): a no-op. */
  emit<N extends SgxEventName>(name: N, detail: SgxEventDetails[N]): void;
  messages: Messages;
  /** Writing direction of the element ("ltr" now; "rtl" for a later Arabic catalogue). */
  dir: 'ltr' | 'rtl';
}

export function hostFor(element: Element | null, messages: Messages = messagesEn): WidgetHost {
  return {
    emit: (name, detail) => {
      if (element) dispatchSgxEvent(element, name, detail);
    },
    messages,
    dir: 'ltr',
  };
}

export const WidgetHostContext = createContext<WidgetHost>(hostFor(null));
export const useWidgetHost = (): WidgetHost => useContext(WidgetHostContext);
export const useMessages = (): Messages => useContext(WidgetHostContext).messages;
