import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserAgent } from '../test-support/browser-agent.ts';
import {
  OIDC_CLIENT_ID,
  OIDC_CLIENT_SECRET,
  reserveTestProvider,
  type TestProvider,
} from '../test-support/oidc-provider.ts';
import {
  DISPLAY_NAME,
  fragmentOf,
  sessionCount,
  signOn,
  ssoSettings,
  startSignOn,
  userCount,
} from '../test-support/sso-flow.ts';
import { startTestApi, type TestApi } from '../test-support/test-api.ts';

// Single sign-on against a real OpenID provider (oidc-provider on 127.0.0.1, its development login), on
// each store (the node-postgres project runs this file again on PostgreSQL).
const client = { clientId: OIDC_CLIENT_ID, clientSecret: OIDC_CLIENT_SECRET };

/** A provider and an app wired to each other (the provider's redirect URI is the app's callback). */
async function startPair(more: Parameters<typeof ssoSettings>[2] = {}, codeTtlSeconds?: number) {
  const idp = await reserveTestProvider();
  const api = await startTestApi(ssoSettings(idp.issuer, client, more));
  await idp.start({
    redirectUri: `${api.url}/api/auth/oidc/callback`,
    postLogoutRedirectUri: `${api.url}/`,
    codeTtlSeconds,
  });
  return { idp, api, close: async () => (await api.close(), await idp.close()) };
}

let idp: TestProvider;
let api: TestApi;
let closePair: () => Promise<void>;
beforeAll(async () => {
  ({ idp, api, close: closePair } = await startPair());
});
afterAll(() => closePair?.());

/** A refusal: a 4xx page, no hand-over, and nothing signed in. */
async function expectRefused(
  response: Awaited<ReturnType<typeof startSignOn>>,
  status: number,
  sessionsBefore: number,
) {
  expect(response.status).toBe(status);
  expect(response.location).toBeUndefined();
  expect(response.text).not.toMatch(/sgx-sso=/);
  expect(await sessionCount(api)).toBe(sessionsBefore);
}

describe('a new clinician signs in with the hospital provider', () => {
  it('lands back on the page with a one-time code that opens the same session as a password sign-in', async () => {
    const agent = new BrowserAgent();
    const start = await agent.request(
      `${api.url}/api/auth/oidc/start?returnTo=${encodeURIComponent(`${api.url}/#calculator`)}`,
    );
    expect(start.status).toBe(302);
    const authorization = new URL(start.location!);
    expect(authorization.origin).toBe(idp.issuer);
    // Authorization code + PKCE S256, state and nonce; the redirect URI is PUBLIC_URL's callback.
    expect(Object.fromEntries(authorization.searchParams)).toMatchObject({
      client_id: OIDC_CLIENT_ID,
      response_type: 'code',
      redirect_uri: `${api.url}/api/auth/oidc/callback`,
      scope: 'openid profile email',
      code_challenge_method: 'S256',
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      state: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      nonce: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    expect(start.headers.get('set-cookie')).toMatch(
      /^sgx_oidc_binding=[\w-]{43}; Path=\/api\/auth\/oidc; Max-Age=900;/,
    );
    // The state and the verifier stay on the server: neither is in a cookie.
    expect(start.headers.get('set-cookie')).not.toContain(authorization.searchParams.get('state')!);

    const landed = await agent.follow(start.location!, { login: 'sara.alharbi', stopAt: `${api.url}/#` });
    expect(landed.status).toBe(303);
    const fragment = fragmentOf(landed)!;
    expect(fragment.name).toBe('sgx-sso');
    expect(landed.location).toBe(`${api.url}/#sgx-sso=${fragment.code}`);

    const session = await api.request('POST', '/api/auth/oidc/session', { body: { code: fragment.code } });
    expect(session.status).toBe(200);
    expect(Object.keys(session.body).sort()).toEqual(['token', 'user']);
    expect(session.body.user).toEqual({
      id: expect.any(String),
      email: 'sara.alharbi@hospital.example',
      name: 'Sara Alharbi', // the provider's name claim
      license: null,
    });
    const token = session.body.token as string;
    expect(jwt.decode(token)).toMatchObject({ iss: 'sgx-api', aud: 'sgx-clients', sub: session.body.user.id });
    expect((await api.request('GET', '/api/auth/me', { token })).body).toEqual(session.body.user);
    expect((await api.request('GET', '/api/patients', { token })).status).toBe(200);
    const listed = await api.request('GET', '/api/auth/sessions', { token });
    expect(listed.body.sessions).toEqual([expect.objectContaining({ method: 'oidc', current: true })]);

    // The code is good once.
    const again = await api.request('POST', '/api/auth/oidc/session', { body: { code: fragment.code } });
    expect(again.status).toBe(401);
    expect(again.body).toEqual({ message: 'This sign-in has expired or was already used. Please sign in again.' });

    const lines = (await api.auditLines()).filter((line) => line.actor === session.body.user.id);
    expect(lines.map((line) => [line.action, line.outcome])).toEqual([
      ['user.signup.oidc', 'success'],
      ['user.signin.oidc', 'success'],
      ['patient.list', 'success'],
    ]);
  });

  it('the same identity signs in to the same account again; the account is keyed by (issuer, sub)', async () => {
    const first = await signOn(api, { login: 'omar.haddad' });
    const second = await signOn(api, { login: 'omar.haddad' });
    expect(second.user).toEqual(first.user);
    expect(second.token).not.toBe(first.token);
    expect((await api.store.findUserByIdentity(idp.issuer, 'omar.haddad'))?.id).toBe(first.user.id);
  });

  it('a page of an origin not allowed is never a place to send the browser back to', async () => {
    for (const returnTo of ['https://evil.example/', 'javascript:alert(1)', `//evil.example/`]) {
      const answer = await api.request('GET', `/api/auth/oidc/start?returnTo=${encodeURIComponent(returnTo)}`);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ message: 'returnTo must be a page of this site or of an allowed origin' });
    }
  });

  it('GET /api/config names the provider for the button; sign-out also ends the provider session', async () => {
    expect((await api.request('GET', '/api/config')).body.signIn).toEqual({
      sso: { displayName: DISPLAY_NAME, startPath: '/api/auth/oidc/start' },
      passwordSignIn: true,
    });
    const { token } = await signOn(api, { login: 'leaving.doctor' });
    const signedOut = await api.request('POST', '/api/auth/signout', { token });
    expect(signedOut.status).toBe(200);
    const end = new URL(signedOut.body.endSessionUrl);
    expect(`${end.origin}${end.pathname}`).toBe(`${idp.issuer}/session/end`);
    expect(end.searchParams.get('post_logout_redirect_uri')).toBe(`${api.url}/`);
    expect(end.searchParams.get('client_id')).toBe(OIDC_CLIENT_ID);
    expect(jwt.decode(end.searchParams.get('id_token_hint')!)).toMatchObject({ sub: 'leaving.doctor' });
    expect((await api.request('GET', '/api/auth/me', { token })).status).toBe(401);
    // A password session has no provider session: 204, as before.
    const password = await api.signUp();
    expect((await api.request('POST', '/api/auth/signout', { token: password.token })).status).toBe(204);
  });
});

describe('every negative case is refused with a 4xx and no session', () => {
  it('a replayed state (the same callback twice): the second is refused', async () => {
    const agent = new BrowserAgent();
    const callback = await startSignOn(agent, api, {
      login: 'replay.test',
      stopAt: `${api.url}/api/auth/oidc/callback`,
    });
    const first = await agent.request(callback.location!);
    expect(fragmentOf(first)?.name).toBe('sgx-sso');
    const before = await sessionCount(api);
    const replayed = await agent.request(callback.location!);
    await expectRefused(replayed, 400, before);
    expect(replayed.text).toContain('This sign-in has expired or was already used. Please start again.');
    expect(replayed.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('a state no sign-in was started with, and no state at all', async () => {
    const before = await sessionCount(api);
    const agent = new BrowserAgent();
    await expectRefused(
      await agent.request(`${api.url}/api/auth/oidc/callback?code=abc&state=${'x'.repeat(43)}`),
      400,
      before,
    );
    await expectRefused(await agent.request(`${api.url}/api/auth/oidc/callback?code=abc`), 400, before);
    const json = await api.request('GET', '/api/auth/oidc/callback?code=abc&state=forged');
    expect(json.status).toBe(400);
    expect(json.body).toEqual({
      message: 'This sign-in has expired or was already used. Please start again.',
      code: 'sso_expired',
    });
  });

  it('a code obtained without this flow’s PKCE challenge (an injected code) is refused at the exchange', async () => {
    // The victim's browser starts a flow and is at the provider.
    const victim = new BrowserAgent();
    const atProvider = await victim.request(`${api.url}/api/auth/oidc/start`);
    const victimState = new URL(atProvider.location!).searchParams.get('state')!;
    // An attacker gets a code of their own (their own flow, their own challenge) ...
    const attacker = new BrowserAgent();
    const theirs = await startSignOn(attacker, api, { login: 'attacker', stopAt: `${api.url}/api/auth/oidc/callback` });
    const callback = new URL(theirs.location!);
    // ... and delivers it to the victim's callback with the victim's state.
    callback.searchParams.set('state', victimState);
    const before = await sessionCount(api);
    const users = await userCount(api);
    const answer = await victim.request(callback.href);
    await expectRefused(answer, 401, before);
    expect(answer.text).toContain('sign-in answer could not be verified, so you were not signed in');
    expect(await userCount(api)).toBe(users);
  });

  it('the callback from another browser (not the one that started the flow) is refused', async () => {
    const agent = new BrowserAgent();
    const callback = await startSignOn(agent, api, {
      login: 'other.browser',
      stopAt: `${api.url}/api/auth/oidc/callback`,
    });
    const before = await sessionCount(api);
    const elsewhere = await new BrowserAgent().request(callback.location!);
    await expectRefused(elsewhere, 400, before);
    expect(elsewhere.text).toContain('started in another browser');
  });

  it('the provider refusing (access_denied) is a 401 page', async () => {
    const agent = new BrowserAgent();
    const atProvider = await agent.request(`${api.url}/api/auth/oidc/start`);
    const state = new URL(atProvider.location!).searchParams.get('state')!;
    const before = await sessionCount(api);
    const answer = await agent.request(
      `${api.url}/api/auth/oidc/callback?error=access_denied&error_description=cancelled&state=${state}` +
        `&iss=${encodeURIComponent(idp.issuer)}`,
    );
    await expectRefused(answer, 401, before);
  });

  it('an unverified e-mail, or none: 403, and no account is made', async () => {
    const users = await userCount(api);
    const before = await sessionCount(api);
    const unverified = await startSignOn(new BrowserAgent(), api, { login: 'unverified.nurse' });
    await expectRefused(unverified, 403, before);
    expect(unverified.text).toContain('Your e-mail address is not verified');
    const none = await startSignOn(new BrowserAgent(), api, { login: 'no.email' });
    await expectRefused(none, 403, before);
    expect(none.text).toContain('gave no e-mail address');
    expect(await userCount(api)).toBe(users);
    const audit = (await api.auditLines()).filter((line) => line.action === 'user.signin.oidc');
    expect(audit.slice(-2).map((line) => line.outcome)).toEqual(['denied', 'denied']);
  });

  it('an expired authorization code is refused by the provider: 401', async () => {
    const pair = await startPair({}, 1);
    try {
      const agent = new BrowserAgent();
      const callback = await startSignOn(agent, pair.api, {
        login: 'slow.clinician',
        stopAt: `${pair.api.url}/api/auth/oidc/callback`,
      });
      await new Promise((resolve) => setTimeout(resolve, 2_100));
      const before = await sessionCount(pair.api);
      const answer = await agent.request(callback.location!);
      expect(answer.status).toBe(401);
      expect(fragmentOf(answer)).toBeUndefined();
      expect(await sessionCount(pair.api)).toBe(before);
      expect(await userCount(pair.api)).toBe(0);
    } finally {
      await pair.close();
    }
  }, 20_000);
});

describe('an existing password account is linked only after its clinician signs in with the password', () => {
  it('sends the browser back with a link code; the password links; then single sign-on goes straight in', async () => {
    const password = 'correct horse battery';
    const signup = await api.request('POST', '/api/auth/signup', {
      body: { email: 'amal.haddad@hospital.example', password, name: 'Amal Haddad', agreeTerms: true },
    });
    expect(signup.status).toBe(201);
    const before = await sessionCount(api);
    const landed = await startSignOn(new BrowserAgent(), api, { login: 'amal.haddad' });
    expect(fragmentOf(landed)?.name).toBe('sgx-sso-link');
    expect(await sessionCount(api)).toBe(before); // nothing signed in by the e-mail alone

    const linkCode = fragmentOf(landed)!.code;
    const wrong = await api.request('POST', '/api/auth/signin', {
      body: { email: 'amal.haddad@hospital.example', password: 'not the password', linkCode },
    });
    expect(wrong.status).toBe(401);
    const linked = await api.request('POST', '/api/auth/signin', {
      body: { email: 'amal.haddad@hospital.example', password, linkCode },
    });
    expect(linked.status).toBe(200);
    expect(linked.body).toEqual({ token: expect.any(String), user: signup.body.user, linked: true });
    // Used once.
    const reused = await api.request('POST', '/api/auth/signin', {
      body: { email: 'amal.haddad@hospital.example', password, linkCode },
    });
    expect(reused.status).toBe(400);
    expect(reused.body.issues).toEqual([{ field: 'linkCode', message: expect.stringContaining('has expired') }]);

    const sso = await signOn(api, { login: 'amal.haddad' });
    expect(sso.user).toEqual(signup.body.user);
    const security = await api.request('GET', '/api/auth/security', { token: sso.token });
    expect(security.body.identities).toEqual([
      { issuer: idp.issuer, displayName: DISPLAY_NAME, linkedAt: expect.any(String) },
    ]);
  });

  it('a link code works only for the account of the e-mail the provider gave', async () => {
    const other = await api.signUp('Someone Else');
    await api.request('POST', '/api/auth/signup', {
      body: {
        email: 'khalid.ali@hospital.example',
        password: 'correct horse battery',
        name: 'Khalid',
        agreeTerms: true,
      },
    });
    const landed = await startSignOn(new BrowserAgent(), api, { login: 'khalid.ali' });
    const refused = await api.request('POST', '/api/auth/signin', {
      body: { email: other.email, password: other.password, linkCode: fragmentOf(landed)!.code },
    });
    expect(refused.status).toBe(403);
    expect(await api.store.findUserByIdentity(idp.issuer, 'khalid.ali')).toBeUndefined();
  });
});

describe('OIDC_ONLY=true', () => {
  it('refuses sign-up and password sign-in with a clear 403; the button still signs in', async () => {
    // With REQUIRE_MFA too: a single sign-on session passes (the provider applies its own second factor).
    const pair = await startPair({ oidcOnly: true, requireMfa: true });
    try {
      const signup = await pair.api.request('POST', '/api/auth/signup', {
        body: { email: 'x@hospital.example', password: 'correct horse battery', name: 'X', agreeTerms: true },
      });
      expect(signup.status).toBe(403);
      expect(signup.body).toEqual({
        message: 'New accounts are not made with an e-mail and password here. Use the single sign-on button.',
      });
      const signin = await pair.api.request('POST', '/api/auth/signin', {
        body: { email: 'x@hospital.example', password: 'correct horse battery' },
      });
      expect(signin.status).toBe(403);
      expect(signin.body).toEqual({
        message: 'Sign-in with an e-mail and password is turned off here. Use the single sign-on button.',
      });
      expect((await pair.api.request('GET', '/api/config')).body.signIn.passwordSignIn).toBe(false);
      const sso = await signOn(pair.api, { login: 'only.sso' });
      expect(sso.user.name).toBe('Only Sso');
      expect((await pair.api.request('GET', '/api/patients', { token: sso.token })).status).toBe(200);
    } finally {
      await pair.close();
    }
  });
});

describe('without single sign-on set up', () => {
  it('its routes answer 404 and /api/config names none', async () => {
    const plain = await startTestApi();
    try {
      const start = await plain.request('GET', '/api/auth/oidc/start');
      expect(start.status).toBe(404);
      expect(start.body).toEqual({ message: 'Single sign-on is not set up on this server' });
      expect((await plain.request('GET', '/api/config')).body.signIn).toEqual({ sso: null, passwordSignIn: true });
    } finally {
      await plain.close();
    }
  });
});

describe('an account the hospital sign-in made, and its own data (docs/API.md#my-data)', () => {
  /** A pair whose app clock the test moves (the provider keeps real time). */
  async function startClockedPair(graceDays = 0) {
    let offsetMs = 0;
    const idp = await reserveTestProvider();
    const settings = ssoSettings(idp.issuer, client);
    const api = await startTestApi((url) => ({
      ...settings(url),
      now: () => new Date(Date.now() + offsetMs),
      accountDeletionGraceDays: graceDays,
    }));
    await idp.start({ redirectUri: `${api.url}/api/auth/oidc/callback`, postLogoutRedirectUri: `${api.url}/` });
    return {
      api,
      advance: (minutes: number) => void (offsetMs += minutes * 60_000),
      close: async () => (await api.close(), await idp.close()),
    };
  }

  it('deletes with a hospital sign-in under 10 minutes old (no password), and its linked sign-in goes too', async () => {
    const pair = await startClockedPair();
    try {
      const first = await signOn(pair.api, { login: 'gone.soon' });
      pair.advance(11);
      const stale = await pair.api.request('DELETE', '/api/account', { token: first.token, body: {} });
      expect(stale.status).toBe(403);
      expect(stale.body).toEqual({
        message: 'Sign out, sign in again with your hospital account, then delete the account within 10 minutes',
      });
      expect(await userCount(pair.api)).toBe(1);
      const fresh = await signOn(pair.api, { login: 'gone.soon' });
      expect(fresh.user.id).toBe(first.user.id);
      const deleted = await pair.api.request('DELETE', '/api/account', { token: fresh.token, body: {} });
      expect(deleted.status).toBe(204);
      expect(await userCount(pair.api)).toBe(0);
      expect(await pair.api.findStored(first.user.email)).toEqual([]);
      expect(await pair.api.findStored('gone.soon')).toEqual([]); // the provider's subject: the linked identity
      // The same hospital identity signs up anew: nothing of the old account is linked to it.
      const again = await signOn(pair.api, { login: 'gone.soon' });
      expect(again.user.id).not.toBe(first.user.id);
    } finally {
      await pair.close();
    }
  });

  it('during a deletion grace period the hospital sign-in opens no session: 403 with the pending code', async () => {
    const pair = await startClockedPair(30);
    try {
      const first = await signOn(pair.api, { login: 'grace.period' });
      const asked = await pair.api.request('DELETE', '/api/account', { token: first.token, body: {} });
      expect(asked.status).toBe(204);
      const sessionsBefore = await sessionCount(pair.api);
      await expect(signOn(pair.api, { login: 'grace.period' })).rejects.toThrow(
        /hand-over refused: 403 .*"code":"account_deletion_pending","eraseAfter":"/,
      );
      expect(await sessionCount(pair.api)).toBe(sessionsBefore);
    } finally {
      await pair.close();
    }
  });
});
