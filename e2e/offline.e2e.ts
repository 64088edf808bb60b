import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, launchBrowser } from './browser.ts';
import { startProductServer, waitForWidget } from './support.ts';

// The page offline (README "Offline and installing"): after one visit its service worker (vite.config.ts)
// serves the pages, their scripts and the HCP guide with the network off; the tools compute; the advisor
// computes on the device; /api/ is never answered from a cache; a new version waits for the reader's
// "Update available – reload"; and Chromium finds the page installable.
let browser: Browser;
let product: Awaited<ReturnType<typeof startProductServer>>;
beforeAll(async () => {
  product = await startProductServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await product?.close();
});

const HERO = 'Fast, predictable reversal of rocuronium and vecuronium block';

/** Errors a page reports, but not the failed loads of a network that is off (checked where they matter). */
function recordErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      errors.push(`console: ${message.text()}`);
  });
  return errors;
}

/**
 * Opens `url` in `context` and waits until the service worker controls the page: it is registered after
 * hydration, load and idle (host/main.tsx), precaches everything while installing, then claims the page.
 */
async function visitUntilControlled(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForFunction(() => navigator.serviceWorker?.controller?.state === 'activated', undefined, {
    timeout: 30_000,
  });
  return page;
}

async function computeDose(page: Page, labels = { weight: /^Body weight/, tof: /^TOF count/, go: 'Calculate Dose' }) {
  await waitForWidget(page, 'sgx-dose-calculator');
  const widget = page.locator('sgx-dose-calculator');
  await widget.getByLabel(labels.weight).fill('70');
  await widget.getByLabel(labels.tof).selectOption('2');
  await widget.getByRole('button', { name: labels.go, exact: true }).click();
  return widget.getByText('140 mg', { exact: true }).innerText({ timeout: 10_000 });
}

/** An API call from the page: its status, or "failed" when no answer came. */
const callApi = (page: Page) =>
  page.evaluate(() =>
    fetch('/api/auth/me').then(
      (response) => response.status,
      () => 'failed',
    ),
  );

describe('after one visit, with the network off', () => {
  it('/ renders from the service worker; the dose and ROI calculators compute; /api/ is not cached', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await visitUntilControlled(context, `${product.url}/`);
    // online, the worker answers no API call: it goes to the server (401 with no session)
    const apiFromWorker: boolean[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname.startsWith('/api/')) apiFromWorker.push(response.fromServiceWorker());
    });
    expect(await callApi(page)).toBe(401);
    expect(apiFromWorker).toEqual([false]);

    await context.setOffline(true);
    const errors = recordErrors(page);
    const served: { urlPath: string; fromWorker: boolean }[] = [];
    page.on('response', (response) =>
      served.push({ urlPath: new URL(response.url()).pathname, fromWorker: response.fromServiceWorker() }),
    );
    await page.reload();
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(HERO);
    const pageFiles = served.filter(({ urlPath }) => urlPath === '/' || urlPath.startsWith('/assets/'));
    expect(pageFiles.length).toBeGreaterThan(1);
    expect(pageFiles.filter(({ fromWorker }) => !fromWorker)).toEqual([]);

    expect(await computeDose(page)).toBe('140 mg');

    await waitForWidget(page, 'sgx-roi-calculator');
    const roi = page.locator('sgx-roi-calculator');
    // the final figures, as the results line announces them (the cards animate towards them)
    const timeSaved = async () =>
      Number((await roi.getByText(/^Time saved \d+ min/).innerText()).match(/^Time saved (\d+) min/)![1]);
    await roi.getByLabel(/^Number of cases$/).fill('100');
    await expect.poll(timeSaved).toBeGreaterThan(0);
    const perHundred = await timeSaved();
    await roi.getByLabel(/^Number of cases$/).fill('250');
    await expect.poll(timeSaved).toBe(perHundred * 2.5);

    // the API is not answered from any cache: the call fails, as does opening an API address
    expect(await callApi(page)).toBe('failed');
    const apiTab = await context.newPage();
    await expect(apiTab.goto(`${product.url}/api/auth/me`)).rejects.toThrow(/ERR_INTERNET_DISCONNECTED/);
    await apiTab.close();

    // the HCP guide is precached too
    const guide = await page.evaluate(() =>
      fetch('/hcp-guide.pdf').then(async (response) => [response.status, (await response.text()).slice(0, 5)]),
    );
    expect(guide).toEqual([200, '%PDF-']);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the bar\'s "Emergency" button opens the card, which computes a 20 kg child\'s doses', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await visitUntilControlled(context, `${product.url}/`);
    await context.setOffline(true);
    const errors = recordErrors(page);
    await page.reload();
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(HERO);
    // on a phone too, the button is in the bar without opening the menu
    const button = page.locator('#root header button[data-emergency]');
    expect(await button.getAttribute('title')).toBe('Emergency');
    await button.click();
    const card = page.getByTestId('emergency-card');
    await card.waitFor();
    await card.getByRole('radio', { name: 'Child (under 18)' }).check();
    await card.getByLabel(/^Weight/).fill('20');
    const dose = (section: string, step: string) =>
      card.locator(`[data-section="${section}"] [data-step="${step}"] [data-testid="emergency-dose"]`).innerText();
    // docs/clinical-reference.md §7 worked checks: 0.02 mg/kg × 20 = 0.4 mg; 1 microgram/kg × 20 = 20 micrograms
    await expect.poll(() => dose('bradycardia', 'atropine')).toBe('0.4 mg');
    expect(await dose('anaphylaxis', 'adrenalineIv')).toBe('20 micrograms');
    expect(await card.innerText()).toContain('Check against local protocol');
    // Escape closes it and gives focus back to the button
    await page.keyboard.press('Escape');
    await card.waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => document.activeElement?.hasAttribute('data-emergency'))).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('/ar/ too (and / and /ar/ each work offline after a visit to the other)', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await visitUntilControlled(context, `${product.url}/ar/`);
    const heading = await page.getByRole('heading', { level: 1 }).innerText();
    expect(heading).toMatch(/[\u0600-\u06ff]/);
    await context.setOffline(true);
    const errors = recordErrors(page);
    await page.reload();
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([
      'ar',
      'rtl',
    ]);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(heading);
    const dose = await computeDose(page, {
      weight: /^وزن الجسم/,
      tof: /^عدد سلسلة الأربع/,
      go: 'احسب الجرعة',
    });
    expect(dose.replace(/[\u2066-\u2069]/g, '')).toBe('140 mg');
    // the English page was precached by the same visit
    await page.goto(`${product.url}/`);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(HERO);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the advisor computes on the device and says so', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await visitUntilControlled(context, `${product.url}/`);
    await context.setOffline(true);
    await page.reload();
    await waitForWidget(page, 'sgx-bradycardia-advisor');
    const widget = page.locator('sgx-bradycardia-advisor');
    await widget.getByLabel(/^Weight/).fill('70');
    await widget.getByLabel(/^Age/).fill('80');
    await widget.getByLabel(/^Baseline heart rate/).fill('55');
    await widget.getByLabel(/^Creatinine clearance/).fill('60');
    await widget.getByRole('checkbox', { name: 'Beta-blocker' }).check();
    await widget.getByRole('button', { name: 'Assess Risk' }).click();
    expect(await widget.getByTestId('advisor-offline').innerText({ timeout: 10_000 })).toBe(
      'Computed on this device; not saved',
    );
    // 80 years × 1.5, beta-blocker × 2 (HR 55 adds nothing): 2.0 % → 5.8 %, MODERATE; 2 mg/kg × 70 kg
    expect(await widget.getByTestId('risk-band').innerText()).toBe('MODERATE');
    expect(await widget.getByTestId('advisor-dose').innerText()).toBe('140 mg (1.4 mL)');
    await context.close();
  });
});

/**
 * The product behind a proxy that can publish a "new version" of the page at `pagePath`: the page gains a
 * marker and /sw.js a new revision for it (what a rebuild with a changed page does); everything else passes
 * through unchanged.
 */
async function proxyWithNextVersion(upstream: string, pagePath: string) {
  let nextVersion = false;
  const MARKER = '<meta name="sgx-test-version" content="2" />';
  const precached = `${pagePath.slice(1)}index.html`;
  const server: Server = createServer((request, response) => {
    const urlPath = new URL(request.url ?? '/', 'http://localhost').pathname;
    const changed = nextVersion && [pagePath, `/${precached}`, '/sw.js'].includes(urlPath);
    const headers = { ...request.headers, 'accept-encoding': 'identity' };
    // the changed files are new bytes: never a 304 for the browser's copy of the old ones
    if (changed) {
      delete headers['if-none-match'];
      delete headers['if-modified-since'];
    }
    const forward = httpRequest(`${upstream}${request.url}`, { method: request.method, headers }, (answer) => {
      if (!changed) {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
        return;
      }
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        let body = Buffer.concat(chunks).toString('utf8');
        if (urlPath === '/sw.js') {
          const revision = new RegExp(`(\\{url:"${precached.replace('.', '\\.')}",revision:")[0-9a-f]+(")`);
          if (!revision.test(body)) throw new Error(`sw.js does not precache ${precached}`);
          body = body.replace(revision, '$1next-version$2');
        } else body = body.replace('</head>', `${MARKER}</head>`);
        response.writeHead(200, {
          'content-type': String(answer.headers['content-type']),
          'cache-control': 'no-cache',
        });
        response.end(body);
      });
    });
    forward.on('error', () => response.writeHead(502).end());
    request.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    publish: () => (nextVersion = true),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const hasWaitingWorker = (page: Page) =>
  page.evaluate(() => navigator.serviceWorker.getRegistration().then((registration) => Boolean(registration?.waiting)));

describe('a new version', () => {
  it.each([
    { pagePath: '/', prompt: 'Update available – reload' },
    { pagePath: '/ar/', prompt: 'يتوفر تحديث – أعد التحميل' },
  ])('$pagePath: waits for "$prompt"; the reload runs under the new worker, all new', async ({ pagePath, prompt }) => {
    const proxy = await proxyWithNextVersion(product.url, pagePath);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await visitUntilControlled(context, `${proxy.url}${pagePath}`);
      const errors = recordErrors(page);
      const marked = () => page.locator('meta[name="sgx-test-version"]').count();
      const heading = await page.getByRole('heading', { level: 1 }).innerText();
      const button = page.getByRole('button', { name: prompt });
      expect(await button.count()).toBe(0);
      proxy.publish();
      // the browser looks for a new worker on navigation: the new one installs beside the old and waits
      await page.reload();
      await button.waitFor({ timeout: 30_000 });
      expect(await page.getByRole('status').filter({ has: button }).count()).toBe(1);
      // meanwhile the page is still the old version, whole: served by the old worker from its own precache
      expect(await marked()).toBe(0);
      expect(await hasWaitingWorker(page)).toBe(true);
      await page.reload();
      expect(await marked()).toBe(0); // a plain reload does not switch versions either
      await button.waitFor({ timeout: 30_000 });

      const reloaded = page.waitForEvent('load');
      await button.click();
      await reloaded;
      await page.waitForFunction(() => navigator.serviceWorker?.controller?.state === 'activated');
      expect(await marked()).toBe(1);
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(heading);
      expect(await button.count()).toBe(0);
      expect(await hasWaitingWorker(page)).toBe(false);
      // the new version offline as well
      await context.setOffline(true);
      await page.reload();
      expect(await marked()).toBe(1);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await proxy.close();
    }
  });
});

describe('installing', () => {
  it.each(['/', '/ar/'])(
    '%s: Chromium finds no installability error; the manifest is the page’s own',
    async (pagePath) => {
      // a browser profile on disk: Chromium installs nothing from an incognito context (Playwright's default)
      const profile = await mkdtemp(path.join(tmpdir(), 'sgx-install-'));
      const context = await chromium.launchPersistentContext(profile, {
        executablePath: process.env.CHROME_PATH,
        args: CHROMIUM_ARGS,
      });
      try {
        const page = await visitUntilControlled(context, `${product.url}${pagePath}`);
        const cdp = await context.newCDPSession(page);
        const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
        expect(installabilityErrors).toEqual([]);
        const manifest = await cdp.send('Page.getAppManifest');
        expect(manifest.errors).toEqual([]);
        expect(new URL(manifest.url).pathname).toBe(`${pagePath}manifest.webmanifest`);
        const data = JSON.parse(manifest.data ?? '{}');
        expect(data).toMatchObject({
          id: pagePath,
          start_url: pagePath,
          scope: '/',
          display: 'standalone',
          theme_color: '#0f766e',
          lang: pagePath === '/' ? 'en' : 'ar',
          dir: pagePath === '/' ? 'ltr' : 'rtl',
        });
        expect(data.icons.map((icon: { sizes: string; purpose: string }) => `${icon.sizes} ${icon.purpose}`)).toEqual([
          '192x192 any',
          '512x512 any',
          '512x512 maskable',
        ]);
        // each icon is a PNG of the size it claims
        for (const icon of data.icons as { src: string; sizes: string }[]) {
          const bytes = Buffer.from(await (await fetch(`${product.url}${icon.src}`)).arrayBuffer());
          expect(bytes.subarray(1, 4).toString()).toBe('PNG');
          expect(`${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`).toBe(icon.sizes);
        }
      } finally {
        await context.close();
        await rm(profile, { recursive: true, force: true });
      }
    },
  );
});
