import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Download, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../api/test-support/postgres-cluster.ts';
import { launchBrowser } from './browser.ts';
import { startProductServer, signUpInPortal, waitForWidget } from './support.ts';
import { formatDate } from '../widgets/shared/lang/format.ts';

// Issue 6: the account area end to end on the product page, against the real server: once on the
// embedded store (DATA_DIR) and once on PostgreSQL (DATABASE_URL), which must behave the same.
let browser: Browser;
let product: Awaited<ReturnType<typeof startProductServer>>;
let downloads: string;
beforeAll(async () => {
  browser = await launchBrowser();
  downloads = await mkdtemp(path.join(tmpdir(), 'sgx-account-'));
});
afterAll(async () => {
  await browser?.close();
  await rm(downloads, { recursive: true, force: true });
});

const today = () => formatDate(new Date());
async function pdfText(download: Download, name: string) {
  const file = path.join(downloads, name);
  await download.saveAs(file);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}
async function openPage(page: Page) {
  await page.goto(`${product.url}/`);
  await waitForWidget(page, 'sgx-access-portal');
  await waitForWidget(page, 'sgx-dose-calculator');
}
const signUp = (portal: Locator, name: string) =>
  signUpInPortal(portal, {
    name,
    email: `${name.replace(/\W/g, '').toLowerCase()}.${Date.now()}@hospital.example`,
    password: 'correct horse battery',
  });
async function openAccount(portal: Locator, tab: string) {
  await portal.getByRole('button', { name: 'Profile' }).click();
  const account = portal.getByRole('dialog', { name: 'Account' });
  await account.getByRole('tab', { name: tab }).click();
  return account;
}

describe.each(['embedded', 'postgres'] as const)('account area, %s store', (store) => {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    if (store === 'postgres') database = await createTestDatabase(inject('postgresBaseUrl'));
    product = await startProductServer(database ? { DATABASE_URL: database.url } : {});
    if (database) expect(product.output()).toContain('data in PostgreSQL at');
  });
  afterAll(async () => {
    await product?.close();
    await database?.drop();
  });

  it('sign up to export and download; Quick Use and another clinician see none of it', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    const page = await context.newPage();
    const confirmations: string[] = [];
    page.on('dialog', (dialog) => {
      confirmations.push(dialog.message());
      void dialog.accept();
    });
    await openPage(page);
    const portal = page.locator('sgx-access-portal');
    const calculator = page.locator('sgx-dose-calculator');
    await signUp(portal, 'Sara Al-Harbi');

    // a patient, found by searching as you type, chosen for the tools
    let account = await openAccount(portal, 'Patients');
    await account.getByRole('button', { name: 'Add patient' }).click();
    await account.getByLabel(/^Display name or initials/).fill('F.A. Flowtest');
    await account.getByLabel(/^MRN \/ hospital number/).fill('KFH-7781');
    await account.getByLabel(/^Year of birth/).fill('1961');
    await account.getByLabel(/^Weight/).fill('72');
    await account.getByRole('button', { name: 'Save' }).click();
    await account.getByLabel(/^Search patients/).fill('kfh-77');
    await expect.poll(() => account.locator('[data-patient-id]').count()).toBe(1);
    await account.getByRole('button', { name: 'Use for calculations' }).click();
    await expect.poll(() => account.getByRole('button', { name: 'In use' }).count()).toBe(1);
    await account.getByRole('button', { name: 'Close' }).click();

    // the calculator takes the weight, records the calculation and shows the patient
    await expect.poll(() => calculator.getByLabel(/^Body weight/).inputValue()).toBe('72');
    await calculator.getByLabel(/^TOF count/).selectOption('2');
    await calculator.getByRole('button', { name: 'Calculate Dose' }).click();
    const result = calculator.locator('[part="result"]');
    await expect.poll(() => result.innerText()).toContain('Saved to your history');
    expect(await result.innerText()).toContain('Patient: F.A. Flowtest (KFH-7781)');
    expect(await result.innerText()).toContain('144 mg'); // 2 mg/kg × 72 kg

    // export to notes: downloaded and stored
    const exported = page.waitForEvent('download');
    await calculator.getByRole('button', { name: 'Export PDF to notes' }).click();
    const notes = await pdfText(await exported, 'notes.pdf');
    for (const text of [
      'F.A. Flowtest',
      'KFH-7781',
      '1961',
      '144 mg',
      'Dr. Sara Al-Harbi',
      today(),
      'Decision support only',
    ])
      expect([text, notes.includes(text)]).toEqual([text, true]);
    await expect
      .poll(() => calculator.getByRole('region', { name: 'Notifications' }).innerText())
      .toContain('Downloaded and stored with your exports.');

    // history: newest first, by patient and tool, opened as computed then
    account = await openAccount(portal, 'History');
    await expect.poll(() => account.locator('[data-history-id]').count()).toBe(1);
    expect(await account.locator('[data-history-id]').innerText()).toContain('Dose calculator · F.A. Flowtest');
    await account.getByLabel(/^Tool/).selectOption('roi_calculator');
    await expect.poll(() => account.locator('[data-history-id]').count()).toBe(0);
    await account.getByLabel(/^Tool/).selectOption('dose_calculator');
    await account.getByRole('button', { name: 'Open' }).click();
    expect(await account.getByRole('article').innerText()).toContain('Dose: 2 mg/kg = 144 mg');

    // the stored export: listed for the patient, downloads again
    await account.getByRole('tab', { name: 'Exports' }).click();
    await expect.poll(() => account.locator('[data-export-id]').count()).toBe(1);
    const again = page.waitForEvent('download');
    await account.getByRole('button', { name: 'Download' }).click();
    expect(await pdfText(await again, 'again.pdf')).toContain('F.A. Flowtest');

    // delete it: confirmed, gone from the list (also when loaded again), its download URL answers 404
    const row = account.locator('[data-export-id]');
    const exportId = (await row.getAttribute('data-export-id'))!;
    const fileName = await row.locator('strong').innerText();
    expect(fileName).toMatch(/\.pdf$/);
    const download = () =>
      page.evaluate(async (id) => {
        const authorization = `bearer ${localStorage.getItem('authToken')}`;
        return (await fetch(`/api/exports/${id}`, { headers: { Authorization: authorization } })).status;
      }, exportId);
    expect(await download()).toBe(200);
    await account.getByRole('button', { name: `Delete ${fileName}` }).click();
    await expect.poll(() => account.locator('[data-export-id]').count()).toBe(0);
    expect(confirmations.at(-1)).toBe(
      `Delete ${fileName}? The stored PDF is removed from your account and cannot be downloaded again.`,
    );
    expect(await account.getByText('No exports yet.').count()).toBe(1);
    // the focus, lost with the row's button, is on the line that replaced the list
    expect(
      await account
        .getByText('No exports yet.')
        .evaluate((line) => (line.getRootNode() as ShadowRoot).activeElement === line),
    ).toBe(true);
    await expect
      .poll(() => account.getByRole('region', { name: 'Notifications' }).innerText())
      .toContain('Export deleted');
    expect(await download()).toBe(404);
    await account.getByRole('tab', { name: 'History' }).click();
    await account.getByRole('tab', { name: 'Exports' }).click();
    await expect.poll(() => account.getByText('No exports yet.').count()).toBe(1);
    expect(await account.locator('[data-export-id]').count()).toBe(0);
    await account.getByRole('button', { name: 'Close' }).click();

    // sign out: the page reloads; Quick Use shows and stores nothing
    // the reload comes after the sign-out request: wait for that page load, not the current one
    const reloaded = page.waitForEvent('load');
    await portal.getByRole('button', { name: 'Log Out' }).click();
    await reloaded;
    await page.waitForFunction(() => document.querySelector('sgx-access-portal')?.shadowRoot?.childElementCount);
    expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeNull();
    await portal.getByRole('button', { name: 'Sign In / Quick Use' }).click();
    await portal.getByRole('dialog', { name: 'Choose Access Mode' }).getByRole('button', { name: 'Quick Use' }).click();
    await expect.poll(() => portal.getByText('Quick Use - nothing is saved').count()).toBe(1);
    expect(await calculator.getByLabel(/^Body weight/).inputValue()).toBe('');
    await calculator.getByLabel(/^Body weight/).fill('70');
    await calculator.getByLabel(/^TOF count/).selectOption('2');
    await calculator.getByRole('button', { name: 'Calculate Dose' }).click();
    expect(await result.innerText()).not.toContain('F.A. Flowtest');
    const quick = page.waitForEvent('download');
    await calculator.getByRole('button', { name: 'Export PDF to notes' }).click();
    expect(await pdfText(await quick, 'quick.pdf')).toContain('not signed in (Quick Use)');
    await expect
      .poll(() => calculator.getByRole('region', { name: 'Notifications' }).innerText())
      .toContain('Quick Use: nothing is stored.');
    await page.waitForTimeout(300);
    expect(await result.innerText()).not.toContain('Saved to your history');

    // another clinician sees none of the first one's data
    await page.reload();
    await page.waitForFunction(() => document.querySelector('sgx-access-portal')?.shadowRoot?.childElementCount);
    await signUp(portal, 'Omar Haddad');
    account = await openAccount(portal, 'Patients');
    await expect.poll(() => account.getByText('No patients yet. Add one below.').count()).toBe(1);
    await account.getByRole('tab', { name: 'History' }).click();
    await expect.poll(() => account.getByText(/^No calculations yet/).count()).toBe(1);
    await account.getByRole('tab', { name: 'Exports' }).click();
    await expect.poll(() => account.getByText('No exports yet.').count()).toBe(1);
    await context.close();
  });
});
