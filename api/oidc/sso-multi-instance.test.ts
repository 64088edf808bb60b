import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { BrowserAgent } from '../test-support/browser-agent.ts';
import {
  OIDC_CLIENT_ID,
  OIDC_CLIENT_SECRET,
  reserveTestProvider,
  type TestProvider,
} from '../test-support/oidc-provider.ts';
import { createTestDatabase, type TestDatabase } from '../test-support/postgres-cluster.ts';
import { fragmentOf, ssoSettings, startUrl, verifierOf } from '../test-support/sso-flow.ts';
import { startTestApi, type TestApi } from '../test-support/test-api.ts';

// Two instances of the app on one PostgreSQL database, behind one PUBLIC_URL (a load balancer sends each
// request to either): a sign-in started on one finishes on the other, the second factor may follow the
// password on the other, and "sign out of all other sessions" on one ends them on both at once.
let database: TestDatabase;
let idp: TestProvider;
let a: TestApi;
let b: TestApi;
beforeAll(async () => {
  database = await createTestDatabase(inject('postgresBaseUrl'));
  idp = await reserveTestProvider();
  let publicUrl = '';
  const settings = ssoSettings(idp.issuer, { clientId: OIDC_CLIENT_ID, clientSecret: OIDC_CLIENT_SECRET });
  a = await startTestApi((url) => settings((publicUrl = url)), { sharedDatabaseUrl: database.url });
  b = await startTestApi(() => settings(publicUrl), { sharedDatabaseUrl: database.url });
  await idp.start({ redirectUri: `${publicUrl}/api/auth/oidc/callback`, postLogoutRedirectUri: `${publicUrl}/` });
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await idp?.close();
  await database?.drop();
});

/** The same path and query on the other instance (the balancer chose it). */
const on = (api: TestApi, url: string) => `${api.url}${new URL(url).pathname}${new URL(url).search}`;

describe('two instances on one PostgreSQL', () => {
  it('a sign-in started on one is finished by the other, and its session works on both', async () => {
    const userInfoBefore = idp.userInfoRequests();
    for (const [first, second] of [
      [a, b],
      [b, a],
    ] as const) {
      const agent = new BrowserAgent();
      const atProvider = await agent.request(startUrl(first, `${a.url}/`, agent));
      expect(atProvider.status).toBe(302);
      const callback = await agent.follow(atProvider.location!, {
        login: 'dana.mansour',
        stopAt: `${a.url}/api/auth/oidc/callback`,
      });
      const landed = await agent.request(on(second, callback.location!));
      const fragment = fragmentOf(landed);
      expect(fragment?.name).toBe('sgx-sso');
      const body = { code: fragment!.code, verifier: verifierOf(agent) };
      const session = await first.request('POST', '/api/auth/oidc/session', { body });
      expect(session.status).toBe(200);
      // From UserInfo (the test provider follows OpenID Connect Core section 5.4), read by the instance that finished.
      expect(session.body.user).toMatchObject({ name: 'Dana Mansour', email: 'dana.mansour@hospital.example' });
      for (const api of [a, b])
        expect((await api.request('GET', '/api/patients', { token: session.body.token })).status).toBe(200);
      // Taken once, whichever instance is asked again.
      expect((await second.request('POST', '/api/auth/oidc/session', { body })).status).toBe(401);
      expect((await agent.request(on(first, callback.location!))).status).toBe(400);
    }
    expect(idp.userInfoRequests()).toBe(userInfoBefore + 2); // one for each sign-in
  });

  it('the second factor may follow the password on the other instance', async () => {
    const account = await a.signUp();
    const setup = await a.request('POST', '/api/auth/totp/setup', {
      token: account.token,
      body: { password: account.password },
    });
    const code = () => generate({ secret: setup.body.secret });
    const confirmed = await b.request('POST', '/api/auth/totp/confirm', {
      token: account.token,
      body: { setupToken: setup.body.setupToken, code: await code() },
    });
    // the factor's session, opened by the other instance in place of the first
    const token = confirmed.body.token as string;
    const step = await a.request('POST', '/api/auth/signin', {
      body: { email: account.email, password: account.password },
    });
    const recovery = (
      await a.request('POST', '/api/auth/recovery-codes', {
        token,
        body: { password: account.password },
      })
    ).body.recoveryCodes as string[];
    const signedIn = await b.request('POST', '/api/auth/signin/second-factor', {
      body: { mfaToken: step.body.secondFactor.mfaToken, method: 'recovery_code', code: recovery[0] },
    });
    expect(signedIn.status).toBe(200);
  });

  it('"sign out of all other sessions" on one instance ends them on the other at once', async () => {
    const account = await a.signUp();
    const elsewhere = await b.request('POST', '/api/auth/signin', {
      body: { email: account.email, password: account.password },
    });
    expect((await b.request('GET', '/api/patients', { token: elsewhere.body.token })).status).toBe(200);
    const ended = await a.request('POST', '/api/auth/sessions/end-others', {
      token: account.token,
      body: { password: account.password },
    });
    expect(ended.body).toEqual({ ended: 1 });
    expect((await b.request('GET', '/api/patients', { token: elsewhere.body.token })).status).toBe(401);
    expect((await b.request('GET', '/api/patients', { token: account.token })).status).toBe(200);
  });
});
