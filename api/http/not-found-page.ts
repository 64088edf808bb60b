import { readFileSync } from 'node:fs';
import path from 'node:path';
import { NOT_FOUND_TEXTS_EN, notFoundPage } from '../../contracts/not-found-page.ts';

/** The English 404 page: served for any path the site does not have. */
const NOT_FOUND_HTML = notFoundPage(NOT_FOUND_TEXTS_EN);

/** Where the build writes each other language's 404 page, under the site root (scripts/build-host.mjs). */
const TRANSLATED_NOT_FOUND_PAGES: readonly { prefix: string; file: string }[] = [
  { prefix: '/ar/', file: 'ar/404.html' },
];

/**
 * The 404 page for a path: a translated page's under its folder (`/ar/…`) when the built site has it,
 * else English. Read once, when the server starts.
 */
export function notFoundPages(root: string | undefined): (urlPath: string) => string {
  const translated = TRANSLATED_NOT_FOUND_PAGES.flatMap(({ prefix, file }) => {
    try {
      return root ? [{ prefix, html: readFileSync(path.join(root, file), 'utf8') }] : [];
    } catch {
      return [];
    }
  });
  return (urlPath) =>
    translated.find(({ prefix }) => urlPath === prefix.slice(0, -1) || urlPath.startsWith(prefix))?.html ??
    NOT_FOUND_HTML;
}
