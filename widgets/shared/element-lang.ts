import { useSyncExternalStore } from 'react';

/** The languages the elements speak. */
export type WidgetLang = 'en' | 'ar';

/** `ar`, `ar-SA`, `AR`… are Arabic; anything else (or nothing) is English. */
export const langOf = (tag: string | null | undefined): WidgetLang =>
  tag && /^ar(-|$)/i.test(tag.trim()) ? 'ar' : 'en';

export const directionOf = (lang: WidgetLang): 'ltr' | 'rtl' => (lang === 'ar' ? 'rtl' : 'ltr');

/**
 * An element's language: its own `lang` attribute, else its nearest ancestor's, else the document's
 * (issue 14). `from` is the element (or, outside an element, the node the widget renders into).
 */
export function resolveLang(from: Element | null): WidgetLang {
  const owner = from?.closest('[lang]');
  if (owner) return langOf(owner.getAttribute('lang'));
  return langOf(globalThis.document?.documentElement.getAttribute('lang'));
}

// One observer for the whole page, whatever the number of elements: any `lang` attribute that changes
// (on an element, on an ancestor, on <html>) makes every subscribed element resolve its language again.
const listeners = new Set<() => void>();
let observer: MutationObserver | undefined;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!observer && typeof MutationObserver !== 'undefined' && globalThis.document) {
    observer = new MutationObserver(() => {
      for (const notify of [...listeners]) notify();
    });
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['lang'], subtree: true });
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      observer?.disconnect();
      observer = undefined;
    }
  };
}

/** The language of `from`, kept up to date: changing a `lang` attribute re-renders the element live. */
export function useElementLang(from: Element | null): WidgetLang {
  return useSyncExternalStore(
    subscribe,
    () => resolveLang(from),
    () => 'en',
  );
}
