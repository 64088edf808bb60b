import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import yauzl from 'yauzl';
import { createTestDatabase, type TestDatabase } from '../api/test-support/postgres-cluster.ts';
import { account as accountAr } from '../widgets/shared/lang/messages/ar/account.ts';
import { portal as portalAr } from '../widgets/shared/lang/messages/ar/portal.ts';
import { withoutIsolates } from '../clinical/bidi.ts';
import { launchBrowser } from './browser.ts';
import { startProductServer, signUpInPortal, waitForWidget } from './support.ts';

// Issue 34 in real Chromium against the built server, on the embedded store and on PostgreSQL: "Activity"
// lists a patient created and an export downloaded, in English and in Arabic; "Download all my data"
// downloads the ZIP (read back: it holds them); "Delete my account" signs the clinician out and their old
// token is refused.
let browser: Browser;
let product: Awaited<ReturnType<typeof startProductServer>>;
let downloads: string;
beforeAll(async () => {
  browser = await launchBrowser();
  downloads = await mkdtemp(path.join(tmpdir(), 'sgx-my-data-'));
});
afterAll(async () => {
  await browser?.close();
  await rm(downloads, { recursive: true, force: true });
});

const PASSWORD = 'correct horse battery';
/** The smallest file the server takes as a PDF. */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

function zipNames(file: string): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const entries = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) =>
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        }),
      );
      zip.on('end', () => resolve(entries));
      zip.readEntry();
    });
  });
}

async function openPage(page: Page, at: '/' | '/ar/') {
  await page.goto(`${product.url}${at}`);
  await waitForWidget(page, 'sgx-access-portal');
  return page.locator('sgx-access-portal');
}
const signUp = (portal: Locator, email: string) =>
  signUpInPortal(portal, { name: 'Mona Activity', email, password: PASSWORD });
const api = (method: string, route: string, token: string, body?: BodyInit, type = 'application/json') =>
  fetch(`${product.url}${route}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': type } : {}) },
    body,
  });
/** The activity list's rows as read, marks of direction removed. */
const rows = async (account: Locator) =>
  (await account.getByRole('list').last().getByRole('listitem').allInnerTexts()).map(withoutIsolates);

describe.each(['embedded', 'postgres'] as const)('My data and Activity, %s store', (store) => {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    if (store === 'postgres') database = await createTestDatabase(inject('postgresBaseUrl'));
    product = await startProductServer(database ? { DATABASE_URL: database.url } : {});
  });
  afterAll(async () => {
    await product?.close();
    await database?.drop();
  });

  it('Activity in both languages, Download all my data, Delete my account', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    try {
      const page = await context.newPage();
      const email = `dr.activity.${store}.${Date.now()}@hospital.example`;
      let portal = await openPage(page, '/');
      await signUp(portal, email);
      const token = (await page.evaluate(() => localStorage.getItem('authToken')))!;

      // a patient created and an export stored (through the API the page uses), then the export downloaded here
      const patient = await (
        await api('POST', '/api/patients', token, JSON.stringify({ displayName: 'Activity Patient', mrn: 'ACT-1' }))
      ).json();
      const stored = await api(
        'POST',
        `/api/exports?patientId=${patient.id}&fileName=activity-notes.pdf`,
        token,
        PDF,
        'application/pdf',
      );
      expect(stored.status).toBe(201);
      await portal.getByRole('button', { name: 'Profile' }).click();
      let account = portal.getByRole('dialog', { name: 'Account' });
      await account.getByRole('tab', { name: 'Exports' }).click();
      const pdf = page.waitForEvent('download');
      await account.getByRole('button', { name: 'Download' }).click();
      expect((await pdf).suggestedFilename()).toBe('activity-notes.pdf');

      // Activity: newest first, the download and the patient among them
      await account.getByRole('tab', { name: 'Activity' }).click();
      const list = account.getByRole('list', { name: 'Your activity' });
      await expect.poll(() => list.getByRole('listitem').count()).toBeGreaterThan(3);
      const english = await rows(account);
      expect(english[0]).toContain('Export downloaded');
      expect(english.join('\n')).toContain('Patient created');
      expect(english.join('\n')).toContain(`Record ${patient.id}`);
      expect(english.join('\n')).toContain('From 127.0.0.1');
      expect(english.join('\n')).not.toContain('Activity Patient');
      // filtered by action
      await account.getByLabel('Action').selectOption('patient.create');
      await expect.poll(async () => (await rows(account)).length).toBe(1);
      expect((await rows(account))[0]).toContain('Patient created');
      await account.getByRole('button', { name: 'Close' }).click();

      // the same in Arabic (/ar/): reading the list is itself a line now
      portal = await openPage(page, '/ar/');
      await portal.getByRole('button', { name: portalAr.profile }).click();
      account = portal.getByRole('dialog', { name: accountAr.title });
      await account.getByRole('tab', { name: accountAr.tabs.activity }).click();
      const arabicList = account.getByRole('list', { name: accountAr.activityList });
      await expect.poll(() => arabicList.getByRole('listitem').count()).toBeGreaterThan(3);
      const arabic = (await rows(account)).join('\n');
      expect(arabic).toContain(accountAr.actions['patient.create']);
      expect(arabic).toContain(accountAr.actions['export.read']);
      expect(arabic).toContain(accountAr.actions['audit.read']);

      // Download all my data (بياناتي → تنزيل جميع بياناتي): the ZIP, with the patient and the PDF as stored
      await account.getByRole('tab', { name: accountAr.tabs.data }).click();
      const zip = page.waitForEvent('download');
      await account.getByRole('button', { name: accountAr.downloadData }).click();
      const download = await zip;
      expect(download.suggestedFilename()).toMatch(/^sgx-my-data-\d{4}-\d{2}-\d{2}\.zip$/);
      const file = path.join(downloads, `${store}.zip`);
      await download.saveAs(file);
      const entries = await zipNames(file);
      const data = JSON.parse(entries.get('account.json')!.toString('utf8'));
      expect(data.profile.email).toBe(email);
      expect(data.patients.map((entry: { displayName: string }) => entry.displayName)).toEqual(['Activity Patient']);
      expect(entries.get(data.exports[0].file)!.equals(PDF)).toBe(true);
      expect((await readFile(file)).subarray(0, 2).toString()).toBe('PK');
      await expect.poll(() => account.getByRole('region').last().innerText()).toContain(accountAr.downloadedTitle);

      // Delete my account: the password, then signed out; the old token is refused everywhere
      await account.getByRole('button', { name: accountAr.deleteAccount }).click();
      const form = account.getByRole('form', { name: accountAr.deleteAccountFormLabel });
      await form.getByLabel(new RegExp(`^${accountAr.deletePassword}`)).fill('not my password');
      await form.getByRole('button', { name: accountAr.deleteAccountConfirm }).click();
      await expect.poll(() => form.getByText('كلمة المرور غير صحيحة').count()).toBe(1);
      await form.getByLabel(new RegExp(`^${accountAr.deletePassword}`)).fill(PASSWORD);
      const reloaded = page.waitForEvent('load'); // signed out as at logout: the page loads again
      await form.getByRole('button', { name: accountAr.deleteAccountConfirm }).click();
      await reloaded;
      await waitForWidget(page, 'sgx-access-portal');
      await expect.poll(() => page.evaluate(() => localStorage.getItem('authToken'))).toBeNull();
      await expect
        .poll(() => page.locator('sgx-access-portal').getByRole('button', { name: portalAr.openAccess }).count())
        .toBe(1);
      expect((await api('GET', '/api/auth/me', token)).status).toBe(401);
      expect((await api('GET', '/api/patients', token)).status).toBe(401);
      const signIn = await fetch(`${product.url}/api/auth/signin`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email, password: PASSWORD }),
      });
      expect(signIn.status).toBe(401);
    } finally {
      await context.close();
    }
  });
});
