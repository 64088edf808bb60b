// The page rendered at build time (scripts/build-host.mjs): the HTML every visitor gets before any
// script runs, in each language. The custom elements stay empty sized boxes here; the browser defines them
// after the page has hydrated this markup (host/main.tsx).
import { PassThrough } from 'node:stream';
import { prerenderToNodeStream } from 'react-dom/static';
import { escapeHtml, notFoundPage } from '../contracts/not-found-page.ts';
import { App } from './App.tsx';
import { contentFor, LANG_PAGES, LANGS, loadContent } from './content/languages.ts';
import type { Lang } from './content/types.ts';

export { LANG_PAGES, LANGS };

// every language's content, for the pages and 404 pages rendered here
await Promise.all(LANGS.map(loadContent));

/** The page's markup in `lang`, for inside <div id="root">. */
export async function renderPage(lang: Lang = 'en'): Promise<string> {
  const { prelude } = await prerenderToNodeStream(<App lang={lang} />);
  const chunks: Buffer[] = [];
  for await (const chunk of prelude.pipe(new PassThrough())) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}

/** What the HTML around the markup says in `lang`: <html lang dir>, the title and the description (as HTML). */
export function pageHead(lang: Lang) {
  const { site } = contentFor(lang);
  return {
    lang: site.lang,
    dir: site.dir,
    titleHtml: escapeHtml(site.title),
    descriptionHtml: escapeHtml(site.description),
  };
}

/** The 404 page in `lang`, served for a missing path under that language's page (api/http/not-found-page.ts). */
export function renderNotFoundPage(lang: Lang, home: string): string {
  const { site, notFound } = contentFor(lang);
  return notFoundPage(notFound, { lang: site.lang, dir: site.dir, home });
}
