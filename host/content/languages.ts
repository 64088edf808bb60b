import { CONTENT_EN } from './en.ts';
import type { Lang, PageContent } from './types.ts';

/** The page's languages, English first (the page at `/`). */
export const LANGS: readonly Lang[] = ['en', 'ar'];

/** Where each language's page is served (scripts/build-host.mjs writes them there). */
export const LANG_PAGES: Readonly<Record<Lang, string>> = { en: '/', ar: '/ar/' };

/**
 * Each language's content: English in the page's own script; Arabic a chunk of its own (about 20 KiB gzip),
 * so a reader of the English page never downloads it.
 */
const LOADERS: Readonly<Record<Lang, () => Promise<PageContent>>> = {
  en: async () => CONTENT_EN,
  ar: async () => (await import('./ar/index.ts')).CONTENT_AR,
};
const loaded: Partial<Record<Lang, PageContent>> = { en: CONTENT_EN };

/** Fetches the page's content in `lang` (at once for English), for contentFor. */
export async function loadContent(lang: Lang): Promise<PageContent> {
  return (loaded[lang] ??= await LOADERS[lang]());
}

/** The page's content in `lang`, once loaded: host/main.tsx loads the page's language before it hydrates. */
export function contentFor(lang: Lang): PageContent {
  const content = loaded[lang];
  if (!content) throw new Error(`The page's content in "${lang}" is not loaded: await loadContent('${lang}') first.`);
  return content;
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
