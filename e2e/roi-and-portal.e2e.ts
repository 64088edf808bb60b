import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { serveFiles } from './static-server.ts';
import { openPage, startProductServer, waitForWidget } from './support.ts';

// Trap 11 (jsPDF only on click; the PDF's text), trap 12 (dialogs in the shadow root: focus kept,
// Escape, focus returned), and the shared session across elements, bundles and tabs.
let browser: Browser;
let product: Awaited<ReturnType<typeof startProductServer>>;
let downloads: string;
beforeAll(async () => {
  product = await startProductServer();
  browser = await launchBrowser();
  downloads = await mkdtemp(path.join(tmpdir(), 'sgx-downloads-'));
});
afterAll(async () => {
  await browser?.close();
  await product?.close();
  await rm(downloads, { recursive: true, force: true });
});

/** A page of the test's own, served on the product's origin through a browser route. */
async function openOnProductOrigin(html: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.route(`${product.url}/e2e-page`, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: html }),
  );
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400 && !response.url().endsWith('/favicon.ico'))
      errors.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  await page.goto(`${product.url}/e2e-page`);
  return { page, errors, close: () => context.close() };
}

describe('ROI calculator: jsPDF on demand', () => {
  it('fetches no PDF code before "Download PDF"; the report has the figures', async () => {
    const page = await serveFiles({
      '/': {
        body:
          `<!doctype html><title>roi</title><sgx-roi-calculator cases="250"></sgx-roi-calculator><script ` +
          `type="module" src="${product.url}/widgets/sgx-roi-calculator.js"></script>`,
        type: 'text/html',
      },
    });
    const { page: tab, errors, close } = await openPage(browser, page.url);
    const requested: string[] = [];
    tab.on('request', (request) => requested.push(request.url()));
    await waitForWidget(tab, 'sgx-roi-calculator');
    await tab.waitForTimeout(300);
    expect(requested.filter((url) => url.includes('/widgets/chunks/'))).toEqual([]);
    const before = requested.length;

    const download = tab.waitForEvent('download');
    await tab.locator('sgx-roi-calculator').getByRole('button', { name: 'Download PDF' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('sugammadex-roi-report.pdf');
    expect(requested.slice(before).some((url) => url.includes('/widgets/chunks/'))).toBe(true);
    const saved = path.join(downloads, 'roi.pdf');
    await file.saveAs(saved);
    const text = execFileSync('pdftotext', ['-layout', saved, '-'], { encoding: 'utf8' });
    // 250 cases × (15 − 3) min = 3000 min = 50.0 h; × 45 SAR = 135,000 SAR; 250 × 10% × 0.38 = 9.5 PPCs
    for (const figure of ['3000', '50.0', '135,000', '9.5', '0.62', 'SAR'])
      expect([figure, text.includes(figure)]).toEqual([figure, true]);
    expect(text).not.toMatch(/[¼"]e/); // no garbled ≥
    expect(errors).toEqual([]);
    await close();
    await page.close();
  });
});

describe('access portal dialogs inside the shadow root', () => {
  it('keep Tab inside, close on Escape and return focus to the trigger', async () => {
    // On the product's own origin (the API refuses other origins unless listed).
    const {
      page: tab,
      errors,
      close,
    } = await openOnProductOrigin(
      `<!doctype html><title>portal</title><a href="#" ` +
        `id="before">before</a><sgx-access-portal></sgx-access-portal><a ` +
        `href="#" id="after">after</a><script type="module" ` +
        `src="/widgets/sgx-access-portal.js"></script>`,
    );
    await waitForWidget(tab, 'sgx-access-portal');
    const portal = tab.locator('sgx-access-portal');
    const trigger = portal.getByRole('button', { name: 'Sign In / Quick Use' });
    await trigger.focus();
    await tab.keyboard.press('Enter');
    const chooser = portal.getByRole('dialog', { name: 'Choose Access Mode' });
    await expect.poll(() => chooser.isVisible()).toBe(true);

    const insideDialog = () =>
      tab.evaluate(() => {
        const root = document.querySelector('sgx-access-portal')!.shadowRoot!;
        const active = root.activeElement;
        return Boolean(active && active.closest('dialog[open]'));
      });
    for (let press = 0; press < 8; press += 1) {
      await tab.keyboard.press('Tab');
      expect(await insideDialog()).toBe(true);
    }
    await tab.keyboard.press('Escape');
    await expect.poll(() => chooser.isVisible()).toBe(false);
    const focusedLabel = await tab.evaluate(
      () => document.querySelector('sgx-access-portal')!.shadowRoot!.activeElement?.textContent,
    );
    expect(focusedLabel).toBe('Sign In / Quick Use');

    // Sign In opens the HCP Access Portal on the sign-in tab; a failed sign-in shows its toast inside the dialog
    await trigger.click();
    await chooser.getByRole('button', { name: 'Sign In' }).click();
    const portalDialog = portal.getByRole('dialog', { name: 'HCP Access Portal' });
    await expect.poll(() => portalDialog.isVisible()).toBe(true);
    expect(await portalDialog.getByRole('tab', { name: 'Sign In' }).getAttribute('aria-selected')).toBe('true');
    await portalDialog
      .getByLabel(/^E-mail/)
      .filter({ visible: true })
      .fill('nobody@hospital.example');
    await portalDialog
      .getByLabel(/^Password/)
      .filter({ visible: true })
      .fill('wrong password');
    await portalDialog.getByRole('button', { name: 'Sign In', exact: true }).last().click();
    const toast = portalDialog.getByRole('region', { name: 'Notifications' });
    await expect.poll(() => toast.innerText()).toContain('Sign In Failed');
    expect(await toast.innerText()).toContain('Invalid e-mail or password');
    expect(await portalDialog.getByRole('alert').first().innerText()).toContain('Invalid e-mail or password');
    expect(errors.filter((error) => !error.includes('/api/auth/signin'))).toEqual([]);
    await close();
  });
});

describe('one session for every element', () => {
  it('a portal sign-in signs in the other elements on the page (another bundle) and in another tab', async () => {
    const html = `<!doctype html><title>session</title>
<sgx-access-portal></sgx-access-portal><sgx-bradycardia-advisor></sgx-bradycardia-advisor>
<script type="module" src="/widgets/sgx-access-portal.js"></script>
<script type="module" src="/widgets/sgx-bradycardia-advisor.js"></script>`;
    const context = await browser.newContext();
    // Same origin as the API: the page is served by a route of this test on the product's origin.
    await context.route(`${product.url}/session-test`, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: html }),
    );
    const first = await context.newPage();
    const second = await context.newPage();
    await first.goto(`${product.url}/session-test`);
    await second.goto(`${product.url}/session-test`);
    await waitForWidget(first, 'sgx-access-portal');
    await waitForWidget(second, 'sgx-access-portal');

    // an account with one patient, made through the API
    const email = `sara.${Date.now()}@hospital.example`;
    const signup = await fetch(`${product.url}/api/auth/signup`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password: 'correct horse battery', name: 'Sara Al-Harbi', agreeTerms: true }),
    });
    const { token: apiToken } = (await signup.json()) as { token: string };
    await fetch(`${product.url}/api/patients`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${apiToken}` },
      body: JSON.stringify({ displayName: 'F.A.', weightKg: 77 }),
    });

    const portal = first.locator('sgx-access-portal');
    expect(await first.locator('sgx-bradycardia-advisor').getByRole('combobox', { name: 'Patient' }).count()).toBe(0);
    await portal.getByRole('button', { name: 'Sign In / Quick Use' }).click();
    await portal.getByRole('dialog', { name: 'Choose Access Mode' }).getByRole('button', { name: 'Sign In' }).click();
    const dialog = portal.getByRole('dialog', { name: 'HCP Access Portal' });
    await dialog
      .getByLabel(/^E-mail/)
      .filter({ visible: true })
      .fill(email);
    await dialog
      .getByLabel(/^Password/)
      .filter({ visible: true })
      .fill('correct horse battery');
    await dialog.getByRole('button', { name: 'Sign In', exact: true }).last().click();
    await expect.poll(() => portal.getByText('Welcome, Dr. Sara Al-Harbi').count()).toBe(1);
    expect(await first.evaluate(() => localStorage.getItem('authToken'))).toBeTruthy();
    // the advisor on the same page (another bundle) follows: it lists the clinician's patients
    await expect
      .poll(() => first.locator('sgx-bradycardia-advisor').getByRole('combobox', { name: 'Patient' }).count(), {
        timeout: 10_000,
      })
      .toBe(1);

    // the other tab follows through the storage event
    await expect
      .poll(() => second.locator('sgx-access-portal').getByText('Welcome, Dr. Sara Al-Harbi').count(), {
        timeout: 10_000,
      })
      .toBe(1);
    // the advisor of the other tab (another bundle) sees the session: its patient list
    await expect
      .poll(() => second.locator('sgx-bradycardia-advisor').getByRole('combobox', { name: 'Patient' }).count(), {
        timeout: 10_000,
      })
      .toBe(1);

    // logging out in the first tab signs the second out too (and reloads the first: wait for it, since a page
    // closed while its reload is answered by this test's route does not close until the route times out)
    const reloaded = first.waitForEvent('load');
    await portal.getByRole('button', { name: 'Log Out' }).click();
    await reloaded;
    await expect
      .poll(() => second.locator('sgx-access-portal').getByRole('button', { name: 'Sign In / Quick Use' }).count(), {
        timeout: 10_000,
      })
      .toBe(1);
    expect(await second.evaluate(() => localStorage.getItem('authToken'))).toBeNull();
    await context.close();
  });
});
