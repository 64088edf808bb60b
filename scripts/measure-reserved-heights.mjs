#!/usr/bin/env node
// Measures the height each tool element renders at on the built page (dist/site: run `npm run build` first), at
// the width of every row of host/components/reserved-heights.ts, in Chromium, and prints the table to paste
// there. The page's own fonts (host/fonts.ts) make the figures the same on any machine; re-measure when an
// element's layout or text changes (e2e/prerendered-page.e2e.ts fails when a row is off by 8 % or more).
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, chromePath } from './chromium.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const site = path.join(root, 'dist/site');
const TOOLS = { dose: 'sgx-dose-calculator', advisor: 'sgx-bradycardia-advisor', roi: 'sgx-roi-calculator' };
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.svg': 'image/svg+xml', '.woff2': 'font/woff2' };
/** The rows' widths: up to `maxWidth` px of viewport, measured at `measuredAt` (reserved-heights.ts). */
const ROWS = {
  en: [
    [350, 340],
    [380, 375],
    [420, 412],
    [500, 480],
    [660, 600],
    [800, 768],
    [980, 900],
    [1150, 1024],
    [null, 1280],
  ],
  ar: [
    [350, 340],
    [380, 370],
    [420, 400],
    [500, 460],
    [660, 600],
    [800, 740],
    [980, 900],
    [1150, 1060],
    [null, 1280],
  ],
};

/** In the page: whether it draws its text in its own fonts (a probe's width; e2e/support.ts does the same). */
function inPageFonts() {
  const width = (family) => {
    const probe = document.createElement('span');
    probe.textContent = 'Sugammadex 2 mg/kg';
    probe.style.cssText = `position:absolute;visibility:hidden;white-space:nowrap;font:16px ${family}`;
    document.body.append(probe);
    const result = probe.getBoundingClientRect().width;
    probe.remove();
    return result;
  };
  return width("'SGX Noto Sans', monospace") !== width('monospace');
}

if (!existsSync(path.join(site, 'index.html'))) throw new Error('dist/site/index.html is missing: run npm run build');
const server = createServer((request, response) => {
  let file = path.join(site, decodeURIComponent(new URL(request.url, 'http://x').pathname));
  if (existsSync(file) && statSync(file).isDirectory()) file = path.join(file, 'index.html');
  if (!file.startsWith(site) || !existsSync(file)) return response.writeHead(404).end();
  response.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
  createReadStream(file).pipe(response);
}).listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch({ executablePath: chromePath(), args: CHROMIUM_ARGS });
try {
  for (const [lang, rows] of Object.entries(ROWS)) {
    console.log(`  ${lang}: [`);
    for (const [maxWidth, width] of rows) {
      const page = await browser.newPage({ viewport: { width, height: 900 }, serviceWorkers: 'block' });
      await page.goto(`${origin}${lang === 'en' ? '/' : `/${lang}/`}`);
      // On a busy machine a first load may be drawn in the fallback fonts (host/fonts.ts: `optional`); the next
      // takes them from the cache. The figures are for the page's own fonts, checked below.
      for (let load = 1; load < 4 && !(await page.evaluate(inPageFonts)); load += 1) await page.reload();
      const px = {};
      for (const [tool, tag] of Object.entries(TOOLS)) {
        await page.locator(tag).scrollIntoViewIfNeeded();
        await page.waitForFunction((name) => document.querySelector(name)?.shadowRoot?.childElementCount > 0, tag);
        px[tool] = Math.ceil(await page.locator(tag).evaluate((element) => element.getBoundingClientRect().height));
      }
      if (!(await page.evaluate(inPageFonts))) throw new Error(`${lang} at ${width} px: not in the page's own fonts`);
      const heights = `dose: ${px.dose}, advisor: ${px.advisor}, roi: ${px.roi}`;
      console.log(`    { maxWidth: ${maxWidth}, measuredAt: ${width}, px: { ${heights} } },`);
      await page.close();
    }
    console.log('  ],');
  }
} finally {
  await browser.close();
  server.close();
}
