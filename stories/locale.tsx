import type { Decorator } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { withoutIsolates } from '../clinical/bidi.ts';
import { directionOf, langOf, type WidgetLang } from '../widgets/shared/element/element-lang.ts';
import { arabicPack } from '../widgets/shared/lang/messages/ar/arabic-pack.ts';
import { registerLangPack } from '../widgets/shared/lang/lang-packs.ts';
import { hostFor } from '../widgets/shared/widget-host/widget-context.ts';

// Designers switch the toolbar between languages at will: the Arabic catalogues are here from the start
// (a page's elements fetch them when they first speak Arabic, widgets/shared/lang/lang-packs.ts).
registerLangPack('ar', arabicPack);

/**
 * The story's language, from the toolbar's `locale` global (issue 14): every story renders in English
 * and in Arabic, and its play function runs in both (stories.test.tsx runs each story once per locale).
 */
export type Locale = WidgetLang;
export const LOCALES: readonly Locale[] = ['en', 'ar'];

/** The locale a story's globals name (English unless `locale` is Arabic). */
export const localeOf = (globals: { locale?: unknown } | undefined): Locale =>
  langOf(typeof globals?.locale === 'string' ? globals.locale : undefined);

/**
 * What a play function needs in the story's locale: the widgets' catalogue (`t`), clinical/'s texts
 * (results, warnings, validation), and the API's messages as an element of that language shows them.
 * The same catalogues the elements use, so a play function holds no English label, button or message.
 */
export function localeKit(globals: { locale?: unknown } | undefined) {
  const locale = localeOf(globals);
  const { messages, clinical, serverMessage } = hostFor(null, locale);
  return { locale, t: messages, clinical, serverMessage };
}
export type LocaleKit = ReturnType<typeof localeKit>;

/**
 * Renders the story inside `<div lang dir>`: the elements take their language from that ancestor
 * (widgets/shared/element/element-lang.ts) and follow it live when the toolbar switches.
 */
export const withLocale: Decorator = (Story, context) => {
  const locale = localeOf(context.globals);
  return (
    <div lang={locale} dir={directionOf(locale)}>
      <Story />
    </div>
  );
};

/** A catalogue string as a literal in a RegExp (Arabic labels hold parentheses, e.g. «(TOF)»). */
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Matches a text that starts with `text` (a field's label, followed by its required or optional mark), isolates
 * aside: on screen an isolated run is a <bdi> (widgets/shared/ui/bidi-text.tsx), in an attribute it keeps its marks.
 */
export const startingWith = (text: string) =>
  new RegExp(`^${[...withoutIsolates(text)].map(escapeRegExp).join('[\u2066-\u2069]*')}`);

/**
 * The text as read, for comparing across languages: without the Unicode isolates that keep a number
 * and its unit together in Arabic text (clinical/bidi.ts), whitespace collapsed as toHaveTextContent does.
 */
const plain = (text: string | null | undefined) =>
  withoutIsolates(text ?? '')
    .replace(/\s+/g, ' ')
    .trim();

/** An accessible name (getByRole's `name`) equal to `text`, isolates aside. */
export const named = (text: string) => (name: string) => plain(name) === plain(text);

/** The element's text contains `text` (a substring, like toHaveTextContent), isolates aside. Usable in waitFor. */
export function expectText(element: Element | null | undefined, text: string) {
  expect(plain(element?.textContent)).toContain(plain(text));
}

/** The element's text does not contain `text`, isolates aside. */
export function expectNoText(element: Element | null | undefined, text: string) {
  expect(element).toBeTruthy();
  expect(plain(element?.textContent)).not.toContain(plain(text));
}

/** The element's whole text is exactly `text`, isolates aside (no whitespace change). */
export function expectExactText(element: Element | null | undefined, text: string) {
  expect(withoutIsolates(element?.textContent ?? '')).toBe(withoutIsolates(text));
}
