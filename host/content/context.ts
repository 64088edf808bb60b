import { createContext, useContext } from 'react';
import { langOf } from '../../widgets/shared/lang/lang.ts';
import { contentFor } from './languages.ts';
import type { Lang, PageContent } from './types.ts';

/** The page's content in the page's language; App provides it for its `lang`. */
export const PageContentContext = createContext<PageContent | null>(null);

/**
 * The page's language where no App provides it: a part of the page hydrated on its own (host/islands.tsx)
 * follows the document's `<html lang>`, as the prerendered markup did; English when there is none.
 */
export function documentLang(): Lang {
  // read as the elements read it (widgets/shared/element/element-lang.ts): `ar`, `ar-SA`… are Arabic, else English
  return typeof document === 'undefined' ? 'en' : langOf(document.documentElement.getAttribute('lang'));
}

/** The content the components render: from the nearest PageContentContext, else the document's language. */
export function usePageContent(): PageContent {
  return useContext(PageContentContext) ?? contentFor(documentLang());
}
