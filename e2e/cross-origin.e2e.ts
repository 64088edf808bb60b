import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { serveFiles, type StaticFiles } from './static-server.ts';
import { openPage, PRODUCT_ORIGIN_PLACEHOLDER, serveExample, startProductServer, waitForWidget } from './support.ts';

// Trap 9: the advisor on a CMS page of another origin calls the API cross-origin. A listed origin
// works (and reads a 401); an unlisted one is refused by CORS and the user sees an error toast.
let browser: Browser;
let listedPage: Awaited<ReturnType<typeof serveFiles>>;
let unlistedPage: Awaited<ReturnType<typeof serveFiles>>;
let product: Awaited<ReturnType<typeof startProductServer>>;

beforeAll(async () => {
  // The pages' origins must be known before the API starts (ALLOWED_ORIGINS); their HTML is set after
  // (serveFiles reads its file table at request time).
  const listedFiles: StaticFiles = {};
  const unlistedFiles: StaticFiles = {};
  listedPage = await serveFiles(listedFiles);
  unlistedPage = await serveFiles(unlistedFiles);
  product = await startProductServer({ ALLOWED_ORIGINS: listedPage.url });
  const cms = await serveExample('cms.html', product.url);
  const html = await (await fetch(cms.url)).text();
  await cms.close();
  listedFiles['/'] = unlistedFiles['/'] = { body: html, type: 'text/html; charset=utf-8' };
  expect(html).not.toContain(PRODUCT_ORIGIN_PLACEHOLDER);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await listedPage?.close();
  await unlistedPage?.close();
  await product?.close();
});

async function assess(page: import('playwright-core').Page) {
  const widget = page.locator('sgx-bradycardia-advisor');
  await widget.getByLabel(/^Weight/).fill('70');
  await widget.getByLabel(/^Age/).fill('80');
  await widget.getByLabel(/^Baseline heart rate/).fill('55');
  await widget.getByLabel(/^Creatinine clearance/).fill('60');
  await widget.getByRole('checkbox', { name: 'Beta-blocker' }).check();
  await widget.getByRole('button', { name: 'Assess Risk' }).click();
  return widget;
}

describe('the advisor on a CMS page of another origin', () => {
  it('a listed origin: the API answers with CORS headers and the results show', async () => {
    const { page, errors, close } = await openPage(browser, listedPage.url);
    await waitForWidget(page, 'sgx-bradycardia-advisor');
    const widget = await assess(page);
    // × 2 (beta-blocker) × 1.5 (age 80) × 1.5 (HR 55) = × 4.5 → 8.4 % MODERATE; 2 mg/kg × 70 kg = 140 mg
    await expect
      .poll(() =>
        widget
          .getByTestId('risk-band')
          .innerText()
          .catch(() => ''),
      )
      .toBe('MODERATE');
    expect(await widget.getByTestId('risk-percent').innerText()).toBe('8.4%');
    expect(await widget.getByTestId('advisor-dose').innerText()).toBe('140 mg (1.4 mL)');
    expect(await widget.getByRole('region', { name: 'Notifications' }).innerText()).toContain(
      'Bradycardia risk: MODERATE (8.4%)',
    );
    expect(errors).toEqual([]);
    // a 401 is readable from the listed origin (CORS headers on errors too)
    const status = await page.evaluate(
      async (api) => (await fetch(`${api}/api/auth/me`, { credentials: 'include' })).status,
      product.url,
    );
    expect(status).toBe(401);
    await close();
  });

  // A refused answer (CORS) and no answer look the same to a page: the advisor computes on the device, with
  // the same clinical/ code, and says the result was not saved (README "Offline and installing").
  it('an unlisted origin: refused by CORS, and the advisor computes on the device and says so', async () => {
    const { page, close } = await openPage(browser, unlistedPage.url);
    await waitForWidget(page, 'sgx-bradycardia-advisor');
    const refused = page.waitForEvent('requestfailed', (request) => request.url().includes('/api/tools/run'));
    const widget = await assess(page);
    await refused;
    await expect
      .poll(() => widget.getByRole('region', { name: 'Notifications' }).innerText())
      .toContain('Computed on this device');
    expect(await widget.getByTestId('advisor-offline').innerText()).toBe('Computed on this device; not saved');
    // the same figures as the API's (the listed origin's test above)
    expect(await widget.getByTestId('risk-band').innerText()).toBe('MODERATE');
    expect(await widget.getByTestId('risk-percent').innerText()).toBe('8.4%');
    expect(await widget.getByTestId('advisor-dose').innerText()).toBe('140 mg (1.4 mL)');
    await close();
  });

  it('with the API down, the advisor computes on the device and says so', async () => {
    const down = await serveFiles({
      '/': {
        body:
          `<!doctype html><title>down</title><sgx-bradycardia-advisor ` +
          `api-base="http://127.0.0.1:9"></sgx-bradycardia-advisor><script ` +
          `type="module" src="${product.url}/widgets/sgx-bradycardia-advisor.js"></script>`,
        type: 'text/html',
      },
    });
    const { page, close } = await openPage(browser, down.url);
    await waitForWidget(page, 'sgx-bradycardia-advisor');
    const widget = await assess(page);
    await expect
      .poll(() => widget.getByRole('region', { name: 'Notifications' }).innerText())
      .toContain('Computed on this device');
    expect(await widget.getByTestId('advisor-offline').innerText()).toBe('Computed on this device; not saved');
    expect(await widget.getByTestId('risk-band').innerText()).toBe('MODERATE');
    expect(await widget.getByRole('button', { name: 'Assess Risk' }).isEnabled()).toBe(true);
    await close();
    await down.close();
  });
});
