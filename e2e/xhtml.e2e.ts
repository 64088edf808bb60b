import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbedManifest } from '../scripts/build-delivery.mjs';
import { readmePinnedSnippet } from '../scripts/embed-snippets.mjs';
import { launchBrowser } from './browser.ts';
import { serveFiles } from './static-server.ts';
import { openPage, PRODUCT_ORIGIN_PLACEHOLDER, repoRoot, startProductServer } from './support.ts';

// True XHTML: a page served as application/xhtml+xml is parsed as XML, where Chromium runs no module
// script. The README's classic-script loader (`<script>import('…')</script>`) works there, following the
// latest release (examples/intranet.xhtml) or pinned (with the README's import map, which lists the bundle).
const XHTML = 'application/xhtml+xml';
let browser: Browser;
let product: Awaited<ReturnType<typeof startProductServer>>;
let embed: EmbedManifest;
let readme: string;
beforeAll(async () => {
  product = await startProductServer();
  browser = await launchBrowser();
  embed = (await (await fetch(`${product.url}/widgets/embed.json`)).json()) as EmbedManifest;
  readme = await readFile(path.join(repoRoot, 'README.md'), 'utf8');
});
afterAll(async () => {
  await browser?.close();
  await product?.close();
});

/** The README's classic loaders, as written there: the latest and the pinned one. */
const readmeLoaders = () => [...new Set(readme.match(/<script>import\('[^']+'\)<\/script>/g) ?? [])];

const xhtmlPage = (body: string, head = '') =>
  serveFiles({
    '/': {
      body: (
        '<?xml version="1.0" encoding="UTF-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><head>' +
        `<title>XHTML</title>${head}</head><body>${body}</body></html>`
      ).replaceAll(PRODUCT_ORIGIN_PLACEHOLDER, product.url),
      type: XHTML,
    },
  });

/** The dose for 70 kg at TOF 2 (Playwright's label queries do not work in XML documents: by name). */
async function computeDose(page: Page) {
  const calculator = page.locator('sgx-dose-calculator');
  await calculator.locator('input[name="bodyWeight"]').fill('70');
  await calculator.locator('select[name="tofCount"]').selectOption('2');
  await calculator.locator('button[type="submit"]').click();
  return calculator.locator('[part="result"]').innerText();
}

const isDefined = (page: Page) => page.evaluate(() => Boolean(customElements.get('sgx-dose-calculator')));
const waitDefined = (page: Page) =>
  page.waitForFunction(() => (document.querySelector('sgx-dose-calculator')?.shadowRoot?.childElementCount ?? 0) > 0);

describe('a true XHTML page (application/xhtml+xml)', () => {
  it('README names a latest and a pinned loader; the pinned one imports the served release', () => {
    expect(readmeLoaders()).toEqual([
      `<script>import('${PRODUCT_ORIGIN_PLACEHOLDER}/widgets/sgx-dose-calculator.js')</script>`,
      `<script>import('${PRODUCT_ORIGIN_PLACEHOLDER}${embed.elements['sgx-dose-calculator']!.url}')</script>`,
    ]);
  });

  it('examples/intranet.xhtml: the loader defines the element, which computes; no error', async () => {
    const example = await readFile(path.join(repoRoot, 'examples', 'intranet.xhtml'), 'utf8');
    expect(example).toContain(readmeLoaders()[0]);
    const site = await serveFiles({
      '/': { body: example.replaceAll(PRODUCT_ORIGIN_PLACEHOLDER, product.url), type: XHTML },
    });
    const { page, errors, close } = await openPage(browser, site.url);
    expect(await page.evaluate(() => document.contentType)).toBe(XHTML);
    await waitDefined(page);
    expect(await computeDose(page)).toMatch(/Total dose\s+140 mg/);
    expect(errors).toEqual([]);
    await close();
    await site.close();
  });

  it('why: there, a module script is not run (the element stays undefined)', async () => {
    const site = await xhtmlPage(
      '<sgx-dose-calculator></sgx-dose-calculator>' +
        `<script type="module" src="${PRODUCT_ORIGIN_PLACEHOLDER}/widgets/sgx-dose-calculator.js"></script>`,
    );
    const context = await browser.newContext();
    const page = await context.newPage();
    const messages: string[] = [];
    page.on('console', (message) => messages.push(message.text()));
    await page.goto(site.url);
    await page.waitForTimeout(1000);
    expect(await isDefined(page)).toBe(false);
    expect(messages.join('\n')).toContain('Module scripts in XML documents are currently not supported');
    await context.close();
    await site.close();
  });

  it("pinned: the README's import map with the pinned loader works, and refuses an altered bundle", async () => {
    const importMap = /<script type="importmap">[\s\S]*?<\/script>/.exec(readmePinnedSnippet())![0];
    const site = await xhtmlPage(`<sgx-dose-calculator></sgx-dose-calculator>${readmeLoaders()[1]}`, importMap);
    const { page, errors, close } = await openPage(browser, site.url);
    await waitDefined(page);
    expect(await computeDose(page)).toMatch(/Total dose\s+140 mg/);
    expect(errors).toEqual([]);
    await close();

    const context = await browser.newContext();
    const altered = await context.newPage();
    const messages: string[] = [];
    altered.on('console', (message) => messages.push(message.text()));
    await altered.route(
      (url) => url.href === `${product.url}${embed.elements['sgx-dose-calculator']!.url}`,
      async (route) => {
        const response = await route.fetch();
        const headers = { ...response.headers() };
        delete headers['content-encoding'];
        delete headers['content-length'];
        const body = Buffer.concat([await response.body(), Buffer.from('\n// changed on the way\n')]);
        await route.fulfill({ status: response.status(), headers, body });
      },
    );
    await altered.goto(site.url);
    await altered.waitForTimeout(1000);
    expect(await isDefined(altered)).toBe(false);
    expect(messages.join('\n')).toContain("Failed to find a valid digest in the 'integrity' attribute");
    await context.close();
    await site.close();
  });
});
