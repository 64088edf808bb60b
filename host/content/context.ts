import { createContext, useContext } from 'react';
import { contentFor, LANGS } from './languages.ts';
import type { Lang, PageContent } from './types.ts';

/** The page's content in the page's language; App provides it for its `lang`. */
export const PageContentContext = createContext<PageContent | null>(null);

/**
 * The page's language where no App provides it: a part of the page hydrated on its own (host/islands.tsx)
 * follows the document's `<html lang>`, as the prerendered markup did; English when there is none.
 */
function documentLang(): Lang {
  if (typeof document === 'undefined') return 'en';
  const primary = document.documentElement.lang.split('-')[0]!.toLowerCase();
  return LANGS.find((lang) => lang === primary) ?? 'en';
}

/** The content the components render: from the nearest PageContentContext, else the document's language. */
export function usePageContent(): PageContent {
  return useContext(PageContentContext) ?? contentFor(documentLang());
}
