import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Locator, Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { startServerProcess, stopServerProcess, type ServerProcess } from '../api/test-support/server-process.ts';
import { serveFiles, type StaticFiles } from './static-server.ts';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const PRODUCT_ORIGIN_PLACEHOLDER = 'https://reversal.example.org';

/** The real built server (as `npm start` runs it) on a free port with a fresh DATA_DIR. */
export async function startProductServer(
  env: Record<string, string> = {},
): Promise<ServerProcess & { close: () => Promise<void> }> {
  const { serverFile } = inject('e2eBuild');
  const dataDir = await mkdtemp(path.join(tmpdir(), 'sgx-e2e-data-'));
  const server = await startServerProcess(serverFile, dataDir, env);
  return {
    ...server,
    close: async () => {
      await stopServerProcess(server);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Serves an example page of examples/ on its own origin, pointed at the product's origin. */
export async function serveExample(file: string, productOrigin: string, extra: StaticFiles = {}) {
  const html = (await readFile(path.join(repoRoot, 'examples', file), 'utf8')).replaceAll(
    PRODUCT_ORIGIN_PLACEHOLDER,
    productOrigin,
  );
  return serveFiles({ '/': { body: html, type: 'text/html; charset=utf-8' }, ...extra });
}

/** A page that records every page error and console error, to assert there were none, and its warnings. */
export async function openPage(
  browser: Browser,
  url: string,
  options: {
    viewport?: { width: number; height: number };
    /**
     * Load the page again until it is drawn in its own fonts (they come from the browser's cache then): they are
     * `font-display: optional` (host/fonts.ts), and on a busy machine Chromium may lay a first visit out in the
     * fallback fonts for that page's life; a test of how the page's own fonts lay it out wants them in place.
     */
    fontsCached?: boolean;
  } = {},
) {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 900 },
    acceptDownloads: true,
  });
  const page = await context.newPage();
  const errors: string[] = [];
  /** Console warnings (an element's advice to the page's authors, such as two releases on one page). */
  const warnings: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text());
    // Failed loads are reported below with their address; the browser's own favicon probe is not ours.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      errors.push(`console: ${message.text()}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400 && !response.url().endsWith('/favicon.ico'))
      errors.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  page.on('requestfailed', (request) => errors.push(`failed: ${request.url()} ${request.failure()?.errorText ?? ''}`));
  await page.goto(url);
  if (options.fontsCached) {
    for (let load = 1; !(await drawsInPageFonts(page)); load += 1) {
      if (load === 4) throw new Error(`${url}: still not in the page's own fonts after ${load} loads`);
      await page.reload();
      errors.length = 0; // what the load left behind (its requests cut short by the reload) is not this load's
      warnings.length = 0;
    }
  }
  return { page, errors, warnings, close: () => context.close() };
}

/** Whether the page draws its text in its own fonts (host/fonts.ts), not in a fallback: a probe's width tells. */
export async function drawsInPageFonts(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const width = (family: string) => {
      const probe = document.createElement('span');
      probe.textContent = 'Sugammadex 2 mg/kg';
      probe.style.cssText = `position:absolute;visibility:hidden;white-space:nowrap;font:16px ${family}`;
      document.body.append(probe);
      const result = probe.getBoundingClientRect().width;
      probe.remove();
      return result;
    };
    return width("'SGX Noto Sans', monospace") !== width('monospace');
  });
}

/**
 * Waits until a custom element is defined and has rendered into its shadow root. The product page defines
 * each element as the reader comes near it (host/elements.ts), so it is scrolled into view first, as a
 * reader would.
 */
export async function waitForWidget(page: Page, selector: string) {
  await page.locator(selector).first().scrollIntoViewIfNeeded();
  await page.waitForFunction(
    (sel) => {
      const element = document.querySelector(sel);
      return Boolean(
        element &&
        customElements.get(element.localName) &&
        element.shadowRoot &&
        element.shadowRoot.childElementCount > 0,
      );
    },
    selector,
    { timeout: 10_000 },
  );
}

/** The product page's four elements, the bar's access control first. */
export const PAGE_WIDGETS = [
  'sgx-access-portal',
  'sgx-dose-calculator',
  'sgx-bradycardia-advisor',
  'sgx-roi-calculator',
];

/** Scrolls to each of the product page's elements in turn until it has rendered, then back to the top. */
export async function waitForAllWidgets(page: Page) {
  for (const tag of PAGE_WIDGETS) await waitForWidget(page, tag);
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
}

/** Screenshots go to e2e/.artifacts (ignored by git) for a person to look at. */
export const artifactsDir = path.join(repoRoot, 'e2e', '.artifacts');

/** The access portal's dialog for Sign In or Sign Up, opened from its "Sign In / Quick Use" button. */
export async function accessDialog(portal: Locator, choice: 'Sign In' | 'Sign Up'): Promise<Locator> {
  await portal.getByRole('button', { name: 'Sign In / Quick Use' }).click();
  await portal.getByRole('dialog', { name: 'Choose Access Mode' }).getByRole('button', { name: choice }).click();
  return portal.getByRole('dialog', { name: 'HCP Access Portal' });
}

/** The one of a field's twins (the sign-in and sign-up forms share labels) that is on screen. */
export const visible = (locator: Locator) => locator.filter({ visible: true });

/**
 * Signs a new clinician up through the portal's form (name, e-mail, password, the declaration) and waits
 * until the portal greets them ("Welcome, Dr. …").
 */
export async function signUpInPortal(
  portal: Locator,
  { name, email, password }: { name: string; email: string; password: string },
): Promise<void> {
  const dialog = await accessDialog(portal, 'Sign Up');
  await dialog.getByLabel(/^Full name/).fill(name);
  await visible(dialog.getByLabel(/^E-mail/)).fill(email);
  await visible(dialog.getByLabel(/^Password/)).fill(password);
  await dialog.getByRole('checkbox').check();
  await dialog.getByRole('button', { name: 'Create Account' }).click();
  await expect.poll(() => portal.getByText(`Welcome, Dr. ${name}`).count()).toBe(1);
}
