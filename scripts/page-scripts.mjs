// What a browser downloads before anyone touches the page: every script in Chromium's network log
// (playwright-core), not one file or a static import graph. Used by the size budgets
// (e2e/size-budgets.e2e.ts, `npm run bench:check`) and by `npm run bench`.
import { gzipSync } from 'node:zlib';

/**
 * Opens `url` in a new context of `browser` and records every script it fetches until `ready` holds in
 * the page and no request has been in flight for `quietMs`, with no input of any kind.
 *
 * Sizes are gzip: the context asks for `Accept-Encoding: gzip` only, so the product's server sends its
 * precompressed .gz (level 9) and `transferBytes` is the body as received; `gzipBytes` is gzip -9 of the
 * script's bytes, the same figure for a file served by the product and comparable for one that is not
 * (a test page's own server). Budgets use `gzipBytes`.
 *
 * `html`: the page is this document, served at `url` (a blank page on that origin holding one script).
 * `initScript`: runs in the page before its scripts (e.g. a stored session).
 */
export async function scriptsBeforeInteraction(
  browser,
  url,
  { viewport = { width: 1280, height: 900 }, html, ready = '() => true', initScript, quietMs = 1000 } = {},
) {
  const context = await browser.newContext({ viewport, extraHTTPHeaders: { 'Accept-Encoding': 'gzip' } });
  try {
    const page = await context.newPage();
    if (html) await page.route(url, (route) => route.fulfill({ body: html, contentType: 'text/html; charset=utf-8' }));
    if (initScript) await page.addInitScript(initScript);
    const requests = [];
    const pending = [];
    let inFlight = 0;
    let lastActivity = Date.now();
    const settle = () => {
      inFlight -= 1;
      lastActivity = Date.now();
    };
    page.on('request', (request) => {
      inFlight += 1;
      lastActivity = Date.now();
      requests.push(request.url());
    });
    page.on('requestfailed', settle);
    page.on('requestfinished', (request) => {
      if (request.resourceType() === 'script') pending.push(scriptSize(request));
      settle();
    });
    await page.goto(url);
    await page.waitForFunction(ready, undefined, { timeout: 20_000 });
    while (inFlight > 0 || Date.now() - lastActivity < quietMs) await page.waitForTimeout(100);
    const scripts = await Promise.all(pending);
    return {
      scripts,
      requests,
      gzipBytes: scripts.reduce((total, script) => total + script.gzipBytes, 0),
    };
  } finally {
    await context.close();
  }
}

async function scriptSize(request) {
  const response = await request.response();
  const body = response ? await response.body() : Buffer.alloc(0);
  const { responseBodySize } = await request.sizes();
  return {
    url: request.url(),
    path: new URL(request.url()).pathname,
    encoding: response?.headers()['content-encoding'] ?? null,
    transferBytes: responseBodySize,
    gzipBytes: gzipSync(body, { level: 9 }).length,
  };
}

/** A blank page that loads one element's script and holds the element. */
export const blankElementPage = (scriptUrl, tag, lang = 'en') =>
  `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${tag}</title></head>` +
  `<body><${tag}></${tag}><script type="module" src="${scriptUrl}"></script></body></html>`;

/** A `ready` function source: the element is defined and has rendered into its shadow root. */
export const elementRendered = (tag) =>
  `() => Boolean(customElements.get('${tag}') && document.querySelector('${tag}')?.shadowRoot?.childElementCount)`;
