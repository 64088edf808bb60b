import type { ReactNode } from 'react';
import { usePageContent } from '../content/context.ts';

/**
 * Text kept in English inside a page in another language (study titles, authors, journals, citations):
 * isolated left to right and marked English on a right-to-left page, so its punctuation stays in place
 * and a screen reader reads it in English. On the English page: the text as it is.
 */
export function InEnglish({ children }: { children: ReactNode }) {
  const { site } = usePageContent();
  if (site.dir === 'ltr') return <>{children}</>;
  return (
    <bdi lang="en" dir="ltr">
      {children}
    </bdi>
  );
}

/** A number (or number and unit) rendered next to text: isolated left to right on a right-to-left page. */
export function Ltr({ children }: { children: ReactNode }) {
  const { site } = usePageContent();
  if (site.dir === 'ltr') return <>{children}</>;
  return <bdi dir="ltr">{children}</bdi>;
}

/**
 * After a link to a PDF: the note that the document is in another language than the page ("(بالإنجليزية)"),
 * nothing on the English page. `hrefLang` goes on the link itself.
 */
export function PdfLanguageNote() {
  const { chrome } = usePageContent();
  if (!chrome.pdfLanguageNote) return null;
  return <span css={{ fontWeight: 400, fontSize: '0.9em' }}>{chrome.pdfLanguageNote}</span>;
}

/** The `hreflang` of a link to a PDF: English when the page says the documents are in English. */
export function usePdfHrefLang(): { hrefLang?: string } {
  const { chrome } = usePageContent();
  return chrome.pdfLanguageNote ? { hrefLang: 'en' } : {};
}
