// Language tags as the elements and the page read them, with no React: also imported by the build config
// (host/pwa/manifest.ts).

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
