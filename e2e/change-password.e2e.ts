import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../api/test-support/postgres-cluster.ts';
import { launchBrowser } from './browser.ts';
import { accessDialog, signUpInPortal, startProductServer, waitForWidget } from './support.ts';

// Issue 31: "Change password" in the account area's profile, in real Chromium against the built server,
// on the embedded store and on PostgreSQL: the clinician signed in on two browsers changes the password
// in one; the other is signed out at once, the old password no longer signs in, the new one does.
let browser: Browser;
let product: Awaited<ReturnType<typeof startProductServer>>;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const OLD_PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'a new passphrase 2026';

async function open(context: BrowserContext): Promise<{ page: Page; portal: Locator }> {
  const page = await context.newPage();
  await page.goto(`${product.url}/`);
  await waitForWidget(page, 'sgx-access-portal');
  return { page, portal: page.locator('sgx-access-portal') };
}
async function signIn(portal: Locator, email: string, password: string) {
  const dialog = await accessDialog(portal, 'Sign In');
  await dialog
    .getByLabel(/^E-mail/)
    .filter({ visible: true })
    .fill(email);
  await dialog
    .getByLabel(/^Password/)
    .filter({ visible: true })
    .fill(password);
  await dialog.getByRole('button', { name: 'Sign In' }).filter({ visible: true }).last().click();
  return dialog;
}
const signedIn = (portal: Locator) => portal.getByRole('button', { name: 'Profile' }).count();

describe.each(['embedded', 'postgres'] as const)('change password, %s store', (store) => {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    if (store === 'postgres') database = await createTestDatabase(inject('postgresBaseUrl'));
    product = await startProductServer(database ? { DATABASE_URL: database.url } : {});
  });
  afterAll(async () => {
    await product?.close();
    await database?.drop();
  });

  it('the other browser is signed out, the old password refused, the new one signs in', async () => {
    const email = `dr.change.${Date.now()}@hospital.example`;
    const first = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const second = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      // one clinician, signed in on two browsers
      const a = await open(first);
      await signUpInPortal(a.portal, { name: 'Sara Al-Harbi', email, password: OLD_PASSWORD });
      await expect.poll(() => signedIn(a.portal)).toBe(1);
      const b = await open(second);
      await signIn(b.portal, email, OLD_PASSWORD);
      await expect.poll(() => signedIn(b.portal)).toBe(1);

      // the first changes the password in the profile, checked as typed
      await a.portal.getByRole('button', { name: 'Profile' }).click();
      const account = a.portal.getByRole('dialog', { name: 'Account' });
      await account.getByRole('tab', { name: 'Profile' }).click();
      await account.getByRole('button', { name: 'Change password' }).click();
      const form = account.getByRole('form', { name: 'Change password' });
      await form.getByLabel(/^Current password/).fill('not my password');
      await form.getByLabel(/^New password/).fill(NEW_PASSWORD);
      await form.getByLabel(/^Confirm new password/).fill(`${NEW_PASSWORD}!`);
      await form.getByRole('button', { name: 'Change password' }).click();
      await expect.poll(() => form.getByText('The two new passwords do not match').count()).toBe(1);
      await form.getByLabel(/^Confirm new password/).fill(NEW_PASSWORD);
      await form.getByRole('button', { name: 'Change password' }).click();
      // a wrong current password: the server's answer under the field
      await expect.poll(() => form.getByText('The current password is not correct').count()).toBe(1);
      await form.getByLabel(/^Current password/).fill(OLD_PASSWORD);
      await form.getByRole('button', { name: 'Change password' }).click();
      await expect
        .poll(() => account.getByRole('region', { name: 'Notifications' }).innerText())
        .toContain('Every other session of your account has been signed out. You stay signed in here.');
      expect(await account.getByRole('form', { name: 'Change password' }).count()).toBe(0);

      // the second browser's session has ended: its next look at the server signs it out
      await b.page.reload();
      await waitForWidget(b.page, 'sgx-access-portal');
      await expect.poll(() => b.page.evaluate(() => localStorage.getItem('authToken'))).toBeNull();
      await expect.poll(() => b.portal.getByRole('button', { name: 'Sign In / Quick Use' }).count()).toBe(1);
      // the old password is refused, the new one signs in
      const refused = await signIn(b.portal, email, OLD_PASSWORD);
      await expect
        .poll(() => refused.getByRole('alert').filter({ hasText: 'Invalid e-mail or password' }).first().isVisible())
        .toBe(true);
      await refused.getByRole('button', { name: 'Close' }).click();
      await signIn(b.portal, email, NEW_PASSWORD);
      await expect.poll(() => signedIn(b.portal)).toBe(1);

      // the first browser, which made the change, is still signed in after a reload
      await a.page.reload();
      await waitForWidget(a.page, 'sgx-access-portal');
      await expect.poll(() => signedIn(a.portal)).toBe(1);
    } finally {
      await first.close();
      await second.close();
    }
  });
});
