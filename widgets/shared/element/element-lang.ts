import { useSyncExternalStore } from 'react';
import { resolveLang, type WidgetLang } from '../lang/lang.ts';

export { directionOf, langOf, resolveLang, type WidgetLang } from '../lang/lang.ts';

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
