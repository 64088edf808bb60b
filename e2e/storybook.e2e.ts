import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withoutIsolates } from '../clinical/bidi.ts';
import { messagesAr } from '../widgets/shared/lang/messages/ar/index.ts';
import { messagesEn } from '../widgets/shared/lang/messages/index.ts';
import { launchBrowser } from './browser.ts';
import { repoRoot } from './support.ts';

// Issue 7: the static Storybook (as `npm run build-storybook` makes it, offline) shows every story
// in real Chromium without a page error, its play function included. Issue 14: in both locales of the
// toolbar's switch (English, Arabic), which the manager shows and the iframe takes as `globals=locale:…`.
const LOCALES = ['en', 'ar'] as const;
let outDir: string;
let server: Server;
let url: string;
let browser: Browser;
let storyIds: string[] = [];

beforeAll(async () => {
  outDir = await mkdtemp(path.join(tmpdir(), 'sgx-storybook-'));
  const built = spawnSync(
    process.execPath,
    [
      path.join(repoRoot, 'node_modules/storybook/dist/bin/dispatcher.js'),
      'build',
      '-c',
      'stories/.storybook',
      '-o',
      outDir,
      '--disable-telemetry',
      '--quiet',
    ],
    {
      cwd: repoRoot,
      env: { ...process.env, NODE_ENV: 'production', STORYBOOK_DISABLE_TELEMETRY: '1' },
      encoding: 'utf8',
    },
  );
  if (built.status !== 0) throw new Error(`storybook build failed:\n${built.stdout}\n${built.stderr}`);
  const index = JSON.parse(await readFile(path.join(outDir, 'index.json'), 'utf8')) as {
    entries: Record<string, { id: string; type: string }>;
  };
  storyIds = Object.values(index.entries)
    .filter((entry) => entry.type === 'story')
    .map((entry) => entry.id);
  server = createServer(async (request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    const file = path.join(outDir, pathname === '/' ? 'index.html' : pathname);
    if (!file.startsWith(outDir)) return void response.writeHead(403).end();
    try {
      const body = await readFile(file);
      const type = file.endsWith('.html')
        ? 'text/html'
        : file.endsWith('.js') || file.endsWith('.mjs')
          ? 'text/javascript'
          : file.endsWith('.css')
            ? 'text/css'
            : file.endsWith('.json')
              ? 'application/json'
              : 'application/octet-stream';
      response.writeHead(200, { 'content-type': type }).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await rm(outDir, { recursive: true, force: true });
});

describe('the built Storybook', () => {
  it('has a story for each element and the theme', () => {
    for (const prefix of [
      'elements-dose-calculator--',
      'elements-bradycardia-advisor--',
      'elements-roi-calculator--',
      'elements-access-portal--',
      'design-theme-tokens--',
    ]) {
      expect([prefix, storyIds.some((id) => id.startsWith(prefix))]).toEqual([prefix, true]);
    }
  });

  it('shows every story in both locales, play function included, without a page error', async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    const failures: string[] = [];
    for (const id of storyIds) {
      for (const locale of LOCALES) {
        const page = await context.newPage();
        const errors: string[] = [];
        page.on('pageerror', (error) => errors.push(error.message));
        // A failing play function is reported on the console (an expect() error).
        page.on('console', (message) => {
          if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
            errors.push(message.text().slice(0, 300));
        });
        await page.goto(`${url}/iframe.html?id=${id}&viewMode=story&globals=locale:${locale}`);
        // The preview's current render reaches "finished" once the story rendered and its play function ran.
        const phase = await renderPhase(page);
        if (phase !== 'finished') errors.push(`render phase: ${String(phase)}`);
        if (await page.evaluate(() => document.body.classList.contains('sb-show-errordisplay')))
          errors.push(
            await page
              .locator('#error-message')
              .innerText()
              .catch(() => 'error display'),
          );
        // The story rendered in the locale asked for: the withLocale wrapper carries its lang and dir.
        const wrapper = await page.evaluate(() => {
          const root = document.querySelector('#storybook-root [lang]');
          return `${root?.getAttribute('lang')} ${root?.getAttribute('dir')}`;
        });
        if (wrapper !== `${locale} ${locale === 'ar' ? 'rtl' : 'ltr'}`) errors.push(`wrapper: ${wrapper}`);
        if (errors.length) failures.push(`${id} [${locale}]: ${errors.join(' | ')}`);
        await page.close();
      }
    }
    expect(failures).toEqual([]);
    await context.close();
  }, 600_000);

  it('has the locale switch in the toolbar: English by default, Arabic switches the story live', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${url}/?path=/story/${DOSE_STORY}`);
    const frame = page.frameLocator('#storybook-preview-iframe');
    const locale = page.locator('button[aria-haspopup="listbox"][aria-label^="Locale"]');
    await locale.waitFor({ timeout: 30_000 });
    await expect.poll(() => locale.textContent()).toContain('English');
    await expect.poll(() => shownBy(frame.locator('sgx-dose-calculator'))).toEqual(shown('en'));

    await locale.click();
    // The switch's own list (an explicit role; the controls panel's native <option>s are not in it).
    const options = page.locator('[role="option"]');
    expect(await options.allTextContents()).toEqual([
      expect.stringContaining('English'),
      expect.stringContaining('العربية'),
    ]);
    await page.getByRole('option', { name: /العربية/ }).click();
    await expect.poll(() => page.url()).toContain('globals=locale:ar');
    await expect.poll(() => locale.textContent()).toContain('العربية');
    // The element takes its parent's new lang: Arabic, right to left.
    await expect.poll(() => shownBy(frame.locator('sgx-dose-calculator'))).toEqual(shown('ar'));
    await page.close();
  }, 120_000);

  it('renders a story in Arabic from globals=locale:ar in the iframe URL (Arabic text, rtl shadow root)', async () => {
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${url}/iframe.html?id=${DOSE_STORY}&viewMode=story&globals=locale:ar`);
    expect(await renderPhase(page)).toBe('finished');
    const element = page.locator('sgx-dose-calculator');
    expect(await shownBy(element)).toEqual(shown('ar'));
    // The play function's result: the same figures as in English, Arabic words around them.
    const result = await element.evaluate(
      (host) => host.shadowRoot?.querySelector('[part="result"]')?.textContent ?? '',
    );
    for (const text of ['4 mg/kg', '280 mg', messagesAr.doseCalculator.vialCount(2), '2.8 mL', '295.28 SAR'])
      expect(withoutIsolates(result)).toContain(withoutIsolates(text));
    expect(result).toMatch(/[\u0600-\u06ff]/);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});

/** The dose calculator's story with a result (70 kg, TOF 0: 280 mg). */
const DOSE_STORY = 'elements-dose-calculator--dose';

/** What an element shows of its language: the direction of its shadow root's wrapper, its heading. */
const shown = (locale: 'en' | 'ar') => ({
  dir: locale === 'ar' ? 'rtl' : 'ltr',
  heading: (locale === 'ar' ? messagesAr : messagesEn).doseCalculator.title,
});
const shownBy = (element: ReturnType<Page['locator']>) =>
  element.evaluate((host) => {
    const wrapper = [...(host.shadowRoot?.children ?? [])].find((child) => child.matches('div[dir]'));
    return { dir: wrapper?.getAttribute('dir') ?? null, heading: wrapper?.querySelector('h2')?.textContent ?? null };
  });

/** The phase the preview's current render reached: "finished" once the story rendered and its play function ran. */
function renderPhase(page: Page): Promise<string> {
  return page
    .waitForFunction(
      () => {
        const render = (window as unknown as { __STORYBOOK_PREVIEW__?: { currentRender?: { phase?: string } } })
          .__STORYBOOK_PREVIEW__?.currentRender;
        return render?.phase && ['finished', 'errored', 'aborted'].includes(render.phase) ? render.phase : false;
      },
      undefined,
      { timeout: 30_000 },
    )
    .then(async (handle) => String(await handle.jsonValue()))
    .catch(() => 'timed out');
}
