import { CONTENT_AR } from './ar/index.ts';
import { CONTENT_EN } from './en.ts';
import type { Lang, PageContent } from './types.ts';

/** The page's languages, English first (the page at `/`). */
export const LANGS: readonly Lang[] = ['en', 'ar'];

/** Where each language's page is served (scripts/build-host.mjs writes them there). */
export const LANG_PAGES: Readonly<Record<Lang, string>> = { en: '/', ar: '/ar/' };

const CONTENT: Record<Lang, PageContent> = { en: CONTENT_EN, ar: CONTENT_AR };

/** The page's content in `lang`. */
export function contentFor(lang: Lang): PageContent {
  return CONTENT[lang];
}

/** Where the reader's choice of language is remembered (`localStorage`): 'en' or 'ar'. */
export const LANG_STORAGE_KEY = 'sgx-lang';

/** Remembers the reader's choice of language; storage may be blocked (private mode, policy): then nothing. */
export function rememberLang(lang: Lang): void {
  try {
    localStorage.setItem(LANG_STORAGE_KEY, lang);
  } catch {
    // not remembered; the link still leads to the page in that language
  }
}

/** The language the reader chose last, if any (null when none, unknown, or storage is blocked). */
export function rememberedLang(): Lang | null {
  try {
    const value = localStorage.getItem(LANG_STORAGE_KEY);
    return LANGS.find((lang) => lang === value) ?? null;
  } catch {
    return null;
  }
}
