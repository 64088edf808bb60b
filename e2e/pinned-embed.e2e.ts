import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { FRESH_ADDRESSES, type EmbedManifest } from '../scripts/build-delivery.mjs';
import { pinnedImportMap, pinnedSnippet, readmePinnedSnippet } from '../scripts/embed-snippets.mjs';
import { staticImportGraph } from '../scripts/module-graph.mjs';
import { launchBrowser } from './browser.ts';
import { serveFiles } from './static-server.ts';
import { openPage, PRODUCT_ORIGIN_PLACEHOLDER, startProductServer, waitForWidget } from './support.ts';

// A hospital page pins a release: the README's snippet (an import map whose integrity lists the bundle and
// every chunk it may load later, then the versioned bundle with its integrity and crossorigin="anonymous"),
// on another origin. The element works, and any file altered on the way is refused: the bundle (all the
// element runs at first: one self-contained file) leaves the element undefined, a part loaded later leaves
// that feature out, and the element says so in the console.
let browser: Browser;
let product: Awaited<ReturnType<typeof startProductServer>>;
let embed: EmbedManifest;
beforeAll(async () => {
  product = await startProductServer();
  browser = await launchBrowser();
  embed = (await (await fetch(`${product.url}/widgets/embed.json`)).json()) as EmbedManifest;
});
afterAll(async () => {
  await browser?.close();
  await product?.close();
});

const TAGS = ['sgx-dose-calculator', 'sgx-bradycardia-advisor', 'sgx-roi-calculator', 'sgx-access-portal'];
const BROWSER_REFUSED = "Failed to find a valid digest in the 'integrity' attribute";
const ELEMENT_SAYS = (tag: string) =>
  `<${tag}> (release ${embed.version}): a part loaded on demand could not be loaded`;

/** A page of another origin holding `html`, with the README's placeholder address replaced by the product's. */
const pageOf = (html: string, lang = 'en') =>
  serveFiles({
    '/': {
      body:
        `<!doctype html><html lang="${lang}"><meta charset="utf-8"><title>pinned</title>\n` +
        html.replaceAll(PRODUCT_ORIGIN_PLACEHOLDER, product.url),
      type: 'text/html; charset=utf-8',
    },
  });

/** The README's snippet as a reader pastes it (checked below to be the served build's). */
const readmePage = (lang = 'en') => pageOf(readmePinnedSnippet(), lang);

/** A snippet made from the served embed.json like the README's, for another bundle. */
const pinnedPage = (bundle: string, body = '') =>
  pageOf(`${pinnedSnippet(embed, bundle, product.url).replace(/<sgx-[a-z-]+><\/sgx-[a-z-]+>\n/, '')}\n${body}`);

/** Every response from `url` reaches the page with one comment appended, as a proxy on the way could do it. */
async function alterOnTheWay(page: Page, url: string) {
  const altered: string[] = [];
  await page.route(
    (candidate) => candidate.href === url,
    async (route) => {
      const response = await route.fetch();
      const headers = { ...response.headers() };
      delete headers['content-encoding'];
      delete headers['content-length'];
      const body = Buffer.concat([await response.body(), Buffer.from('\n// changed on the way\n')]);
      altered.push(route.request().url());
      await route.fulfill({ status: response.status(), headers, body });
    },
  );
  return altered;
}

/** A fresh tab recording every console message (warnings included). */
async function tabWithConsole() {
  const context = await browser.newContext();
  const page = await context.newPage();
  const messages: string[] = [];
  page.on('console', (message) => messages.push(message.text()));
  page.on('pageerror', (error) => messages.push(`pageerror: ${error.message}`));
  return { page, messages, close: () => context.close() };
}

async function computeDose(page: Page) {
  const calculator = page.locator('sgx-dose-calculator');
  await calculator.getByLabel(/^Body weight/).fill('70');
  await calculator.getByLabel(/^TOF count/).selectOption('2');
  await calculator.getByRole('button', { name: 'Calculate Dose' }).click();
  return calculator.getByRole('region', { name: 'Result' }).innerText();
}

describe('embed.json', () => {
  it('lists every bundle at the package version, each with what it may load later', async () => {
    expect(Object.keys(embed.elements).sort()).toEqual([...TAGS, 'sgx-widgets'].sort());
    const listed = new Set<string>();
    for (const [name, element] of Object.entries(embed.elements)) {
      expect(element.url).toBe(`/widgets/${embed.version}/${name}.js`);
      expect(element.integrity).toMatch(/^sha384-[A-Za-z0-9+/]{64}$/);
      expect([name, Object.keys(element.chunks).length > 0]).toEqual([name, true]);
      for (const [address, integrity] of Object.entries(element.chunks)) {
        // each chunk at its own address and at the fresh ones a retry may use (widgets/shared/loading/load-once.ts)
        expect(address).toMatch(
          new RegExp(`^/widgets/${embed.version.replaceAll('.', '\\.')}/chunks/[^/]+\\.js(\\?retry=[1-9])?$`),
        );
        const file = address.replace(/\?retry=\d$/, '');
        expect(embed.chunks[file]).toBe(integrity);
        listed.add(file);
      }
      for (const file of new Set(Object.keys(element.chunks).map((address) => address.replace(/\?.*$/, ''))))
        for (let retry = 1; retry <= FRESH_ADDRESSES; retry += 1)
          expect(element.chunks[`${file}?retry=${retry}`]).toBe(element.chunks[file]);
    }
    // every chunk of the release is one some element loads, and each hash is that of the bytes served
    expect([...listed].sort()).toEqual(Object.keys(embed.chunks).sort());
    for (const [url, integrity] of Object.entries(embed.chunks)) {
      const bytes = Buffer.from(await (await fetch(`${product.url}${url}`)).arrayBuffer());
      expect([url, `sha384-${createHash('sha384').update(bytes).digest('base64')}`]).toEqual([url, integrity]);
    }
  });

  it('each versioned bundle is one self-contained file: it imports no chunk statically', () => {
    const versionDir = path.join(inject('e2eBuild').widgetsDir, embed.version);
    for (const name of Object.keys(embed.elements))
      expect([name, staticImportGraph(versionDir, `${name}.js`)]).toEqual([name, [`${name}.js`]]);
  });
});

describe("the README's pinned snippet", () => {
  it('is the served build’s (else run `npm run readme:embed`)', () => {
    expect(readmePinnedSnippet(), 'README.md pins other files than those built: run `npm run readme:embed`').toBe(
      pinnedSnippet(embed),
    );
  });

  it('pasted into a page of another origin: the element renders and computes, with no error', async () => {
    const site = await readmePage();
    const { page, errors, close } = await openPage(browser, site.url);
    await waitForWidget(page, 'sgx-dose-calculator');
    expect(await computeDose(page)).toMatch(/Total dose\s+140 mg/);
    expect(errors).toEqual([]);
    await close();
    await site.close();
  });

  it('on an Arabic page, its Arabic texts arrive under the import map’s integrity', async () => {
    const site = await readmePage('ar');
    const { page, errors, close } = await openPage(browser, site.url);
    const arabic = page.locator('sgx-dose-calculator').getByRole('button', { name: 'احسب الجرعة' });
    await arabic.waitFor({ timeout: 10_000 });
    expect(errors).toEqual([]);
    await close();
    await site.close();
  });

  it('a chunk loaded later, altered on the way, is refused: the element stays English and says so', async () => {
    const chunk = Object.keys(embed.elements['sgx-dose-calculator']!.chunks).find((url) => /arabic-pack/.test(url));
    expect(chunk).toBeDefined();
    const site = await readmePage('ar');
    const { page, messages, close } = await tabWithConsole();
    const altered = await alterOnTheWay(page, `${product.url}${chunk}`);
    await page.goto(site.url);
    // the altered chunk would have made it Arabic: it is shown in English, the texts it has without that chunk
    const english = page.locator('sgx-dose-calculator').getByRole('button', { name: 'Calculate Dose' });
    await english.waitFor({ timeout: 10_000 });
    expect(altered).toEqual([`${product.url}${chunk}`]);
    const said = messages.join('\n');
    expect(said).toContain(BROWSER_REFUSED);
    expect(said).toContain(ELEMENT_SAYS('sgx-dose-calculator'));
    expect(said).toContain(`${product.url}${chunk}`);
    expect(await computeDose(page)).toMatch(/Total dose\s+140 mg/);
    await close();
    await site.close();
  });

  it('a retry under a fresh address is checked as the first load was: altered, refused; intact, Arabic', async () => {
    // A browser that keeps a failed import for the page's life tries the chunk again under ?retry=1, then
    // ?retry=2 (widgets/shared/loading/load-once.ts); the import map lists both with the chunk's integrity.
    const chunk = Object.keys(embed.elements['sgx-dose-calculator']!.chunks).find((url) => /arabic-pack/.test(url))!;
    const site = await readmePage('ar');
    const { page, messages, close } = await tabWithConsole();
    await page.route(`${product.url}${chunk}`, (route) => route.abort('internetdisconnected'));
    const altered = await alterOnTheWay(page, `${product.url}${chunk}?retry=1`);
    await page.goto(site.url);
    const calculator = page.locator('sgx-dose-calculator');
    await calculator.getByRole('button', { name: 'Calculate Dose' }).waitFor({ timeout: 10_000 });
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    // (fetched to see the network answers, then imported: both altered)
    await expect.poll(() => [...new Set(altered)]).toEqual([`${product.url}${chunk}?retry=1`]);
    await expect.poll(() => messages.join('\n')).toContain(BROWSER_REFUSED);
    expect(await calculator.getByRole('button', { name: 'Calculate Dose' }).count()).toBe(1);
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    await calculator.getByRole('button', { name: 'احسب الجرعة' }).waitFor({ timeout: 10_000 });
    await close();
    await site.close();
  });

  it('a part the element needs at first, altered on the way, leaves the element undefined', async () => {
    // with the bundle self-contained, that part is the bundle itself; were it to import chunks, each is tried
    const bundle = embed.elements['sgx-dose-calculator']!.url;
    const versionDir = path.join(inject('e2eBuild').widgetsDir, embed.version);
    const needed = staticImportGraph(versionDir, 'sgx-dose-calculator.js').map(
      (file) => `${product.url}/widgets/${embed.version}/${file}`,
    );
    expect(needed[0]).toBe(`${product.url}${bundle}`);
    for (const url of needed) {
      const site = await readmePage();
      const { page, messages, close } = await tabWithConsole();
      const altered = await alterOnTheWay(page, url);
      await page.goto(site.url);
      await page.waitForTimeout(1000);
      expect([url, altered.length]).toEqual([url, 1]);
      expect([url, await page.evaluate(() => Boolean(customElements.get('sgx-dose-calculator')))]).toEqual([
        url,
        false,
      ]);
      expect(await page.evaluate(() => document.querySelector('sgx-dose-calculator')!.shadowRoot)).toBeNull();
      expect(messages.join('\n')).toContain(BROWSER_REFUSED);
      await close();
      await site.close();
    }
  });
});

describe('a pinned release on another origin', () => {
  it.each(TAGS)('<%s> from its versioned URL with its import map renders, with no error', async (tag) => {
    const site = await pinnedPage(tag, `<${tag} api-base="${product.url}"></${tag}>`);
    const { page, errors, close } = await openPage(browser, site.url);
    await waitForWidget(page, tag);
    expect(await page.evaluate((name) => Boolean(customElements.get(name)), tag)).toBe(true);
    expect(errors).toEqual([]);
    await close();
    await site.close();
  });

  it('pinned all-in-one: a dose is computed; the ROI PDF chunks come from the release, checked', async () => {
    const site = await pinnedPage(
      'sgx-widgets',
      '<sgx-dose-calculator></sgx-dose-calculator><sgx-roi-calculator></sgx-roi-calculator>',
    );
    const { page, errors, close } = await openPage(browser, site.url);
    await waitForWidget(page, 'sgx-dose-calculator');
    expect(await computeDose(page)).toMatch(/Total dose\s+140 mg/);
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    const download = page.waitForEvent('download');
    await page.locator('sgx-roi-calculator').getByRole('button', { name: 'Download PDF' }).click();
    expect((await download).suggestedFilename()).toBe('sugammadex-roi-report.pdf');
    const chunks = requested.filter((url) => url.includes('/chunks/'));
    expect(chunks.some((url) => /jspdf/.test(url))).toBe(true);
    const pinned = pinnedImportMap(embed, 'sgx-widgets', product.url).integrity;
    for (const url of chunks) expect([url, url in pinned]).toEqual([url, true]);
    expect(errors).toEqual([]);
    await close();
    await site.close();
  });

  it('the versioned bundle alone, served by the hospital itself, renders and computes', async () => {
    const bytes = await readFile(path.join(inject('e2eBuild').widgetsDir, embed.version, 'sgx-dose-calculator.js'));
    const { integrity } = embed.elements['sgx-dose-calculator']!;
    const site = await serveFiles({
      '/': {
        body:
          '<!doctype html><meta charset="utf-8"><title>self-hosted</title><sgx-dose-calculator></sgx-dose-calculator>' +
          `<script type="module" src="/js/sgx-dose-calculator.js" integrity="${integrity}"></script>`,
        type: 'text/html; charset=utf-8',
      },
      '/js/sgx-dose-calculator.js': { body: bytes, type: 'text/javascript' },
    });
    const { page, errors, close } = await openPage(browser, site.url);
    await waitForWidget(page, 'sgx-dose-calculator');
    expect(await computeDose(page)).toMatch(/Total dose\s+140 mg/);
    expect(errors).toEqual([]);
    await close();
    await site.close();
  });

  it('a tampered integrity value is refused: the element stays undefined', async () => {
    const element = embed.elements['sgx-dose-calculator']!;
    const wrong = `sha384-${Buffer.alloc(48, 7).toString('base64')}`;
    const site = await pageOf(
      `<sgx-dose-calculator></sgx-dose-calculator><script type="module" src="${product.url}${element.url}" ` +
        `integrity="${wrong}" crossorigin="anonymous"></script>`,
    );
    const { page, messages, close } = await tabWithConsole();
    await page.goto(site.url);
    await page.waitForTimeout(1000);
    expect(await page.evaluate(() => Boolean(customElements.get('sgx-dose-calculator')))).toBe(false);
    expect(await page.evaluate(() => document.querySelector('sgx-dose-calculator')!.shadowRoot)).toBeNull();
    expect(messages.join('\n')).toContain('integrity');
    await close();
    await site.close();
  });
});

/** One GET as a browser sends it, without decoding, so the body is the bytes on the wire. */
function wire(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown>; bytes: number }>((resolve, reject) => {
    const request = httpRequest(url, { headers: { 'Accept-Encoding': 'br, gzip', ...headers } }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, bytes }));
    });
    request.on('error', reject);
    request.end();
  });
}

describe('the real build, as served', () => {
  it('the page, its script and the dose calculator travel brotli-compressed, under 40% of their size', async () => {
    const html = await (await fetch(`${product.url}/`)).text();
    const script = /<script type="module"[^>]*src="([^"]+)"/.exec(html)![1]!;
    for (const urlPath of ['/', script, '/widgets/sgx-dose-calculator.js']) {
      const size = (
        await (await fetch(`${product.url}${urlPath}`, { headers: { 'Accept-Encoding': 'identity' } })).arrayBuffer()
      ).byteLength;
      const answer = await wire(`${product.url}${urlPath}`);
      expect([urlPath, answer.headers['content-encoding']]).toEqual([urlPath, 'br']);
      expect([urlPath, answer.bytes < size * 0.4]).toEqual([urlPath, true]);
    }
  });

  it('entry points revalidate (304 to their ETag); hashed and versioned files are immutable', async () => {
    for (const urlPath of ['/', '/widgets/sgx-dose-calculator.js', '/widgets/embed.json']) {
      const first = await wire(`${product.url}${urlPath}`);
      expect([urlPath, first.headers['cache-control']]).toEqual([urlPath, 'no-cache']);
      const again = await wire(`${product.url}${urlPath}`, { 'If-None-Match': String(first.headers.etag) });
      expect([urlPath, again.status]).toEqual([urlPath, 304]);
    }
    const pinned = await wire(`${product.url}${embed.elements['sgx-dose-calculator']!.url}`);
    expect(pinned.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});
