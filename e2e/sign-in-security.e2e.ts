import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, reserveTestProvider } from '../api/test-support/oidc-provider.ts';
import { startTestApi } from '../api/test-support/test-api.ts';
import { launchBrowser } from './browser.ts';
import { accessDialog, signUpInPortal, startProductServer, visible, waitForWidget } from './support.ts';

// Issue 32 in real Chromium: the hospital's single sign-on (oidc-provider started here, following OpenID
// Connect Core section 5.4 as it does by default: the name and e-mail only in its UserInfo answer; the built server
// configured by OIDC_*), a passkey enrolled and used with Chromium's virtual authenticator, and a session that
// ends when idle (the app in this process, on the built site, with a clock the test moves).
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const PASSWORD = 'correct horse battery';

/** A free port on 127.0.0.1 (the server's PUBLIC_URL must name it before it starts). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function open(context: BrowserContext, url: string): Promise<{ page: Page; portal: Locator }> {
  const page = await context.newPage();
  await page.goto(url);
  await waitForWidget(page, 'sgx-access-portal');
  return { page, portal: page.locator('sgx-access-portal') };
}
const welcome = (portal: Locator) => portal.locator('[part="welcome"]').textContent();

describe('single sign-on with the hospital provider', () => {
  let idp: Awaited<ReturnType<typeof reserveTestProvider>>;
  let product: Awaited<ReturnType<typeof startProductServer>>;
  beforeAll(async () => {
    idp = await reserveTestProvider({ claimsIn: 'userinfo' }); // the default, said here: the point of the test
    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${port}`;
    await idp.start({ redirectUri: `${publicUrl}/api/auth/oidc/callback`, postLogoutRedirectUri: `${publicUrl}/` });
    product = await startProductServer({
      PORT: String(port),
      PUBLIC_URL: publicUrl,
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID,
      OIDC_CLIENT_SECRET,
      OIDC_DISPLAY_NAME: 'King Fahad Medical City',
    });
  });
  afterAll(async () => {
    await product?.close();
    await idp?.close();
  });

  it('a new clinician signs in by the button, lands back signed in and sees their patients area', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const { page, portal } = await open(context, `${product.url}/`);
      const dialog = await accessDialog(portal, 'Sign In');
      const button = dialog.getByRole('button', { name: 'Sign in with King Fahad Medical City' });
      await button.click();
      // The provider's own sign-in page (oidc-provider's development login), then its consent page.
      await page.waitForURL((url) => url.origin === idp.issuer);
      await page.locator('input[name="login"]').fill('layla.hassan');
      await page.locator('input[name="password"]').fill('any password');
      await page.getByRole('button', { name: 'Sign-in' }).click();
      await page.getByRole('button', { name: 'Continue' }).click();
      // Back on the page, signed in with the same session token a password sign-in stores.
      await page.waitForURL(`${product.url}/`);
      await waitForWidget(page, 'sgx-access-portal');
      // The name and e-mail from the provider's UserInfo (its ID token has neither), read once.
      await expect.poll(() => welcome(portal), { timeout: 15_000 }).toBe('Welcome, Dr. Layla Hassan');
      expect(idp.userInfoRequests()).toBe(1);
      expect(page.url()).toBe(`${product.url}/`); // the one-time code is out of the address bar
      const token = await page.evaluate(() => localStorage.getItem('authToken'));
      expect(token).toMatch(/^ey[\w-]+\.[\w-]+\.[\w-]+$/);
      const me = await fetch(`${product.url}/api/auth/me`, { headers: { Authorization: `Bearer ${token}` } });
      expect(me.status).toBe(200);
      expect(await me.json()).toEqual({
        id: expect.any(String),
        email: 'layla.hassan@hospital.example',
        name: 'Layla Hassan',
        license: null,
      });
      await portal.getByRole('button', { name: 'Profile' }).click();
      const account = portal.getByRole('dialog', { name: 'Account' });
      await expect.poll(() => account.getByText('No patients yet. Add one below.').count()).toBe(1);
      await account.getByRole('tab', { name: 'Profile' }).click();
      await expect.poll(() => account.getByText('Linked to King Fahad Medical City', { exact: false }).count()).toBe(1);
      expect(await account.getByRole('button', { name: 'Change password' }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});

describe('a passkey as the second factor (Chromium’s virtual authenticator)', () => {
  let product: Awaited<ReturnType<typeof startProductServer>>;
  let origin: string;
  beforeAll(async () => {
    // Passkeys belong to a domain: localhost, not an IP address.
    const port = await freePort();
    origin = `http://localhost:${port}`;
    product = await startProductServer({ PORT: String(port), PUBLIC_URL: origin });
  });
  afterAll(() => product?.close());

  it('enrols from the profile and signs in with it after the password', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const { page, portal } = await open(context, `${origin}/`);
      const cdp = await context.newCDPSession(page);
      await cdp.send('WebAuthn.enable', { enableUI: false });
      const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: {
          protocol: 'ctap2',
          transport: 'internal',
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
          automaticPresenceSimulation: true,
        },
      });
      const email = `dr.passkey.${Date.now()}@hospital.example`;
      await signUpInPortal(portal, { name: 'Nadia Karim', email, password: PASSWORD });

      await portal.getByRole('button', { name: 'Profile' }).click();
      const account = portal.getByRole('dialog', { name: 'Account' });
      await account.getByRole('tab', { name: 'Profile' }).click();
      await account.getByLabel(/^Name \(optional\)/).fill('Ward laptop');
      const before = await page.evaluate(() => localStorage.getItem('authToken'));
      await account.getByRole('button', { name: 'Add a passkey' }).click();
      // The clinician again first: a token alone cannot add a factor (the account has none yet: the password).
      const proof = account.getByRole('form', { name: 'Add a passkey' });
      await proof.getByLabel(/^Your password/).fill(PASSWORD);
      await proof.getByRole('button', { name: 'Confirm' }).click();
      const codes = account.locator('[part="recovery-codes"] li');
      await expect.poll(() => codes.count(), { timeout: 15_000 }).toBe(10);
      await account.getByRole('button', { name: 'I have saved them' }).click();
      await expect.poll(() => account.locator('[part="passkeys"]').innerText()).toContain('Ward laptop');
      // A new session with the factor took the old one's place (ASVS 7.2.4): the page keeps its token.
      const after = await page.evaluate(() => localStorage.getItem('authToken'));
      expect(after).not.toBe(before);
      const me = (stored: string) =>
        fetch(`${origin}/api/auth/me`, { headers: { Authorization: `Bearer ${stored}` } }).then(
          (answer) => answer.status,
        );
      expect(await me(before!)).toBe(401);
      expect(await me(after!)).toBe(200);
      await account.getByRole('button', { name: 'Close' }).click();

      // Log Out reloads the page once the server has ended the session: wait for that load, not the current one.
      const reloaded = page.waitForEvent('load');
      await portal.getByRole('button', { name: 'Log Out' }).click();
      await reloaded;
      await waitForWidget(page, 'sgx-access-portal');
      const signIn = await accessDialog(portal, 'Sign In');
      await visible(signIn.getByLabel(/^E-mail/)).fill(email);
      await visible(signIn.getByLabel(/^Password/)).fill(PASSWORD);
      await visible(signIn.getByRole('button', { name: 'Sign In' }))
        .last()
        .click();
      const step = signIn.getByRole('form', { name: 'Second factor' });
      await step.getByRole('button', { name: 'Use a passkey' }).click();
      await expect.poll(() => welcome(portal), { timeout: 15_000 }).toBe('Welcome, Dr. Nadia Karim');
      // The one passkey, for this domain, used twice (made, then signed in with) as the authenticator counts.
      const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
      expect(credentials).toEqual([expect.objectContaining({ rpId: 'localhost', isResidentCredential: true })]);
      expect(credentials[0]!.signCount).toBeGreaterThanOrEqual(1);
    } finally {
      await context.close();
    }
  });
});

describe('sessions that end (SESSION_IDLE_MINUTES=1, the server’s clock moved by the test)', () => {
  let clock = new Date();
  let api: Awaited<ReturnType<typeof startTestApi>>;
  beforeAll(async () => {
    api = await startTestApi({
      staticRoot: inject('e2eBuild').siteDir,
      now: () => clock,
      auth: { idleMinutes: 1 },
    });
  });
  afterAll(() => api?.close());

  async function signedInPage(path: string, token: string) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addInitScript((stored) => localStorage.setItem('authToken', stored), token);
    const opened = await open(context, `${api.url}${path}`);
    return { context, ...opened };
  }

  it.each([
    ['/', 'You were signed out after 1 minutes without activity.', 'What you typed is kept.'],
    ['/ar/', 'سُجّل خروجك بعد', 'ما كتبته محفوظ.'],
  ])(
    '%s: a request after the idle time is a 401; the element says why and keeps what was typed',
    async (path, why, kept) => {
      const { token } = await api.signUp('Omar Saleh');
      const { context, page, portal } = await signedInPage(path, token);
      try {
        await expect.poll(() => portal.locator('[part="welcome"]').count()).toBe(1);
        const calculator = page.locator('sgx-dose-calculator');
        await waitForWidget(page, 'sgx-dose-calculator');
        const weight = calculator.locator('input[name="bodyWeight"]');
        await weight.fill('73');
        clock = new Date(clock.getTime() + 2 * 60_000);
        // The next request (a calculation recorded to the history) is refused: signed out, and told why.
        await calculator.locator('select[name="tofCount"]').selectOption('2');
        await calculator.getByRole('button', { name: /Calculate Dose|احسب الجرعة/ }).click();
        const barToast = portal.getByRole('region').locator('[role="alert"]');
        await expect.poll(() => barToast.innerText(), { timeout: 15_000 }).toContain(why);
        expect(await barToast.innerText()).toContain(kept);
        await expect.poll(() => page.evaluate(() => localStorage.getItem('authToken'))).toBeNull();
        expect(await weight.inputValue()).toBe('73');
      } finally {
        await context.close();
      }
    },
  );

  it('"Sign out of all other sessions" ends the other browser’s session at once', async () => {
    const account = await api.signUp('Huda Nasser');
    const other = await api.request('POST', '/api/auth/signin', {
      body: { email: account.email, password: account.password },
    });
    const first = await signedInPage('/', account.token);
    const second = await signedInPage('/', other.body.token);
    try {
      await first.portal.getByRole('button', { name: 'Profile' }).click();
      const dialog = first.portal.getByRole('dialog', { name: 'Account' });
      await dialog.getByRole('tab', { name: 'Profile' }).click();
      await expect.poll(() => dialog.locator('[part="sessions"] li').count()).toBe(2);
      await dialog.getByRole('button', { name: 'Sign out of all other sessions' }).click();
      // Nothing ends before the clinician confirms with the password.
      const proof = dialog.getByRole('form', { name: 'Sign out of all other sessions' });
      await proof.getByLabel(/^Your password/).fill('not the password');
      await proof.getByRole('button', { name: 'Confirm' }).click();
      await expect.poll(() => proof.innerText()).toContain('The password is not correct');
      expect((await api.request('GET', '/api/auth/me', { token: other.body.token })).status).toBe(200);
      await proof.getByLabel(/^Your password/).fill(account.password);
      await proof.getByRole('button', { name: 'Confirm' }).click();
      await expect.poll(() => dialog.getByText('The other session was signed out.').count()).toBe(1);
      // The other browser's next request is refused.
      await second.portal.getByRole('button', { name: 'Profile' }).click();
      await expect
        .poll(() => second.page.evaluate(() => localStorage.getItem('authToken')), { timeout: 15_000 })
        .toBeNull();
      await expect.poll(() => second.portal.getByRole('button', { name: 'Sign In / Quick Use' }).count()).toBe(1);
    } finally {
      await first.context.close();
      await second.context.close();
    }
  });
});
