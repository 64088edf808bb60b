/**
 * The 404 view of docs/product.md §2, as the server answers it (HTTP 404, for any path the site does not
 * have). The English texts are the spec's; the page's content (host/content) takes them from here, and the
 * build writes each other language's 404 page with its own (scripts/build-host.mjs: `ar/404.html`).
 */
export interface NotFoundTexts {
  title: string;
  text: string;
  homeLink: string;
}

export const NOT_FOUND_TEXTS_EN: NotFoundTexts = {
  title: '404 Page Not Found',
  text: 'Did you forget to add the page to the router?',
  homeLink: 'Go to the home page',
};

/** Text as HTML text or a quoted attribute value. */
export const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[char]!);

/** The whole 404 page in one language: its texts, `<html lang dir>`, and its home page's address. */
export function notFoundPage(
  texts: NotFoundTexts,
  page: { lang: string; dir: 'ltr' | 'rtl'; home: string } = { lang: 'en', dir: 'ltr', home: '/' },
): string {
  return `<!doctype html>
<html lang="${page.lang}" dir="${page.dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(texts.title)}</title>
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
  <h1>${escapeHtml(texts.title)}</h1>
  <p>${escapeHtml(texts.text)}</p>
  <p><a href="${page.home}">${escapeHtml(texts.homeLink)}</a></p>
</main>
</body>
</html>
`;
}
