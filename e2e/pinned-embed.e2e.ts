import { request as httpRequest } from 'node:http';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { serveFiles } from './static-server.ts';
import { openPage, startProductServer, waitForWidget } from './support.ts';

// A hospital page pins a release: the versioned URL from /widgets/embed.json with its Subresource
// Integrity hash and crossorigin="anonymous", on another origin. The element works (its chunks load
// from the same release), and bytes that do not match the hash are refused.
let browser: Browser;
let product: Awaited<ReturnType<typeof startProductServer>>;
let embed: { version: string; elements: Record<string, { url: string; integrity: string }> };
beforeAll(async () => {
  product = await startProductServer();
  browser = await launchBrowser();
  embed = (await (await fetch(`${product.url}/widgets/embed.json`)).json()) as typeof embed;
});
afterAll(async () => {
  await browser?.close();
  await product?.close();
});

const pinnedPage = (tag: string, element: { url: string; integrity: string }) =>
  serveFiles({
    '/': {
      body:
        `<!doctype html><meta charset="utf-8"><title>pinned</title><${tag} api-base="${product.url}"></${tag}>\n` +
        `<script type="module" src="${product.url}${element.url}" integrity="${element.integrity}" ` +
        `crossorigin="anonymous"></script>`,
      type: 'text/html; charset=utf-8',
    },
  });

describe('a pinned release on another origin', () => {
  it('embed.json lists every bundle at the package version', () => {
    expect(Object.keys(embed.elements).sort()).toEqual([
      'sgx-access-portal',
      'sgx-bradycardia-advisor',
      'sgx-dose-calculator',
      'sgx-roi-calculator',
      'sgx-widgets',
    ]);
    for (const [name, element] of Object.entries(embed.elements)) {
      expect(element.url).toBe(`/widgets/${embed.version}/${name}.js`);
      expect(element.integrity).toMatch(/^sha384-[A-Za-z0-9+/]{64}$/);
    }
  });

  it.each(['sgx-dose-calculator', 'sgx-bradycardia-advisor', 'sgx-roi-calculator', 'sgx-access-portal'])(
    '<%s> from its versioned URL with integrity renders, with no error',
    async (tag) => {
      const site = await pinnedPage(tag, embed.elements[tag]!);
      const { page, errors, close } = await openPage(browser, site.url);
      await waitForWidget(page, tag);
      expect(await page.evaluate((name) => Boolean(customElements.get(name)), tag)).toBe(true);
      expect(errors).toEqual([]);
      await close();
      await site.close();
    },
  );

  it('pinned: a dose is computed; the ROI PDF chunks come from the same release', async () => {
    const site = await pinnedPage('sgx-widgets-demo', embed.elements['sgx-widgets']!);
    const { page, errors, close } = await openPage(browser, site.url);
    await page.evaluate(() => {
      document.body.insertAdjacentHTML(
        'beforeend',
        '<sgx-dose-calculator></sgx-dose-calculator><sgx-roi-calculator></sgx-roi-calculator>',
      );
    });
    await waitForWidget(page, 'sgx-dose-calculator');
    const calculator = page.locator('sgx-dose-calculator');
    await calculator.getByLabel(/^Body weight/).fill('70');
    await calculator.getByLabel(/^TOF count/).selectOption('2');
    await calculator.getByRole('button', { name: 'Calculate Dose' }).click();
    expect(await calculator.getByRole('region', { name: 'Result' }).innerText()).toMatch(/Total dose\s+140 mg/);
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    const download = page.waitForEvent('download');
    await page.locator('sgx-roi-calculator').getByRole('button', { name: 'Download PDF' }).click();
    expect((await download).suggestedFilename()).toBe('sugammadex-roi-report.pdf');
    const chunks = requested.filter((url) => url.includes('/chunks/'));
    expect(chunks.length).toBeGreaterThan(0);
    for (const url of chunks) expect(url).toContain(`/widgets/${embed.version}/chunks/`);
    expect(errors).toEqual([]);
    await close();
    await site.close();
  });

  it('a tampered integrity value is refused: the element stays undefined', async () => {
    const element = embed.elements['sgx-dose-calculator']!;
    const wrong = `sha384-${Buffer.alloc(48, 7).toString('base64')}`;
    const site = await pinnedPage('sgx-dose-calculator', { ...element, integrity: wrong });
    const context = await browser.newContext();
    const page = await context.newPage();
    const console: string[] = [];
    page.on('console', (message) => console.push(message.text()));
    await page.goto(site.url);
    await page.waitForTimeout(1000);
    expect(await page.evaluate(() => Boolean(customElements.get('sgx-dose-calculator')))).toBe(false);
    expect(await page.evaluate(() => document.querySelector('sgx-dose-calculator')!.shadowRoot)).toBeNull();
    expect(console.join('\n')).toContain('integrity');
    await context.close();
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
