import { CONTENT_AR } from '../../host/content/ar/index.ts';
import { CONTENT_EN } from '../../host/content/en.ts';
import type { PageContent } from '../../host/content/types.ts';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[char]!);

/** The 404 view of docs/product.md §2 in the page's language, with its home page's address. */
function notFoundPage({ site, notFound }: PageContent, home: string): string {
  return `<!doctype html>
<html lang="${site.lang}" dir="${site.dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(notFound.title)}</title>
<style>
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #f8fafc; color: #0f172a;
    font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  main { max-width: 28rem; margin: 1rem; padding: 2rem; background: #fff; border-radius: 12px;
    box-shadow: 0 1px 3px rgb(0 0 0 / 0.12); }
  h1 { margin: 0 0 0.5rem; font-size: 1.5rem; color: #b91c1c; }
  a { color: #1d4ed8; }
</style>
</head>
<body>
<main>
  <h1>${escapeHtml(notFound.title)}</h1>
  <p>${escapeHtml(notFound.text)}</p>
  <p><a href="${home}">${escapeHtml(notFound.homeLink)}</a></p>
</main>
</body>
</html>
`;
}

/** Served with HTTP 404 for any path the site does not have (English). */
export const NOT_FOUND_HTML = notFoundPage(CONTENT_EN, '/');
/** The same for a path under /ar/, in Arabic, right to left. */
export const NOT_FOUND_HTML_AR = notFoundPage(CONTENT_AR, '/ar/');

/** The 404 page for `path`: Arabic under /ar/, else English. */
export const notFoundHtmlFor = (path: string): string =>
  path === '/ar' || path.startsWith('/ar/') ? NOT_FOUND_HTML_AR : NOT_FOUND_HTML;
