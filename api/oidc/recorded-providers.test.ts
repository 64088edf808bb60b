import type { JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';
import { BrowserAgent } from '../test-support/browser-agent.ts';
import { startRecordedProvider, type RecordedProvider } from '../test-support/recorded-provider.ts';
import { fragmentOf, sessionCount, ssoSettings, startSignOn, userCount, verifierOf } from '../test-support/sso-flow.ts';
import { startTestApi, type TestApi } from '../test-support/test-api.ts';

// Microsoft Entra ID and Keycloak as they publish themselves (recorded discovery documents,
// api/oidc/fixtures/), answered locally with a key of the test's own: every check of the ID token and the
// Entra tenant rule, provider by provider. The node-postgres project runs this file again on PostgreSQL.
const client = { clientId: '0c7e8f52-sgx-portal', clientSecret: 'recorded-provider-client-secret-value' };
const HOSPITAL_TENANT = '72f988bf-86f1-41af-91ab-2d7cd011db47';
const OTHER_TENANT = '0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0';

interface Setup {
  provider: RecordedProvider;
  api: TestApi;
}

async function setUp(
  fixture: string,
  issuer: string,
  account: Parameters<typeof startRecordedProvider>[0]['account'],
  allowedTenants: string[] = [],
  appClient: typeof client = client,
): Promise<Setup> {
  const provider = await startRecordedProvider({ fixture, ...client, account });
  const settings = ssoSettings(issuer, appClient, { allowedTenants });
  const api = await startTestApi((url) => {
    const deps = settings(url);
    return { ...deps, auth: { ...deps.auth, oidcFetch: provider.fetch } };
  });
  return { provider, api };
}

/** The browser of the latest attempt: its page holds the verifier the hand-over is redeemed with. */
let browser: BrowserAgent;
/** A whole attempt: start, the provider, the callback; answers the callback's response. */
const attempt = ({ provider, api }: Setup) => startSignOn((browser = new BrowserAgent(provider.rewrite)), api);

async function expectRefused(setup: Setup, status: number, text: string) {
  const sessions = await sessionCount(setup.api);
  const users = await userCount(setup.api);
  const answer = await attempt(setup);
  expect(answer.status).toBe(status);
  expect(fragmentOf(answer)).toBeUndefined();
  expect(answer.text).toContain(text);
  expect(await sessionCount(setup.api)).toBe(sessions);
  expect(await userCount(setup.api)).toBe(users);
}

/** The claims without some of them (a provider that leaves them out of its ID token). */
function without(claims: JWTPayload, ...names: string[]): JWTPayload {
  return Object.fromEntries(Object.entries(claims).filter(([name]) => !names.includes(name)));
}

async function exchange(setup: Setup, answer: Awaited<ReturnType<typeof attempt>>) {
  const fragment = fragmentOf(answer);
  expect(fragment?.name).toBe('sgx-sso');
  const session = await setup.api.request('POST', '/api/auth/oidc/session', {
    body: { code: fragment!.code, verifier: verifierOf(browser) },
  });
  expect(session.status).toBe(200);
  return session.body as { token: string; user: { id: string; name: string; email: string } };
}

describe('Microsoft Entra ID, multi-tenant (organizations) with OIDC_ALLOWED_TENANTS', () => {
  let entra: Setup;
  beforeAll(async () => {
    entra = await setUp(
      'entra-id-organizations.openid-configuration.json',
      'https://login.microsoftonline.com/organizations/v2.0',
      {
        sub: 'AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ',
        name: 'Noura Al-Qahtani',
        tid: HOSPITAL_TENANT,
        email: 'noura@kfmc.example',
      },
      [HOSPITAL_TENANT],
    );
  });
  afterAll(async () => {
    await entra?.api.close();
    await entra?.provider.close();
  });

  it('signs in a clinician of an allowed tenant; the identity is keyed by that tenant’s issuer and sub', async () => {
    const { user } = await exchange(entra, await attempt(entra));
    expect(user).toMatchObject({ name: 'Noura Al-Qahtani', email: 'noura@kfmc.example' });
    const found = await entra.api.store.findUserByIdentity(
      `https://login.microsoftonline.com/${HOSPITAL_TENANT}/v2.0`,
      'AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ',
    );
    expect(found?.id).toBe(user.id);
    // The name and e-mail were in the ID token: UserInfo (Microsoft Graph's) was not asked.
    expect(entra.provider.userInfoRequests).toBe(0);
    // Entra ID publishes no code_challenge_methods_supported: PKCE is used all the same, and checked.
    expect(entra.provider.tokenRequests.at(-1)).toMatchObject({ pkceMatched: true });
  });

  it('a tenant not in OIDC_ALLOWED_TENANTS: 403', async () => {
    entra.provider.nextIdToken((claims) => ({
      ...claims,
      tid: OTHER_TENANT,
      iss: `https://login.microsoftonline.com/${OTHER_TENANT}/v2.0`,
    }));
    await expectRefused(entra, 403, 'accounts are not allowed to sign in here.');
  });

  it('a wrong issuer (another tenant’s iss on an allowed tid): 401', async () => {
    entra.provider.nextIdToken((claims) => ({
      ...claims,
      iss: `https://login.microsoftonline.com/${OTHER_TENANT}/v2.0`,
    }));
    await expectRefused(entra, 401, 'could not be verified');
  });

  it('a wrong audience (a token for another application): 401', async () => {
    entra.provider.nextIdToken((claims) => ({ ...claims, aud: 'another-application' }));
    await expectRefused(entra, 401, 'could not be verified');
  });

  it('an ID token expired beyond the 30 s leeway, or issued for another sign-in (nonce): 401', async () => {
    const now = Math.floor(Date.now() / 1000);
    entra.provider.nextIdToken((claims) => ({ ...claims, iat: now - 3700, nbf: now - 3700, exp: now - 60 }));
    await expectRefused(entra, 401, 'could not be verified');
    entra.provider.nextIdToken((claims) => ({ ...claims, nonce: 'another-sign-in' }));
    await expectRefused(entra, 401, 'could not be verified');
  });

  it('an ID token a few seconds off (within the leeway) is accepted', async () => {
    const now = Math.floor(Date.now() / 1000);
    entra.provider.nextIdToken((claims) => ({ ...claims, iat: now + 10, nbf: now + 10 }));
    await exchange(entra, await attempt(entra));
  });
});

describe('Keycloak (a realm)', () => {
  let keycloak: Setup;
  beforeAll(async () => {
    keycloak = await setUp(
      'keycloak-realm.openid-configuration.json',
      'https://keycloak.hospital.example/realms/staff',
      {
        sub: 'f3b2c5a0-8d1e-4c7a-9b2f-2a1d3c4e5f60',
        name: 'Yousef Darwish',
        email: 'yousef.darwish@hospital.example',
        email_verified: true,
      },
    );
  });
  afterAll(async () => {
    await keycloak?.api.close();
    await keycloak?.provider.close();
  });

  it('signs in; the verifier is sent and matches the S256 challenge; iss in the answer is checked', async () => {
    const { user } = await exchange(keycloak, await attempt(keycloak));
    expect(user.name).toBe('Yousef Darwish');
    expect(keycloak.provider.userInfoRequests).toBe(0); // the claims were in the ID token
    expect(keycloak.provider.tokenRequests.at(-1)).toEqual({
      codeVerifier: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      pkceMatched: true,
    });
  });

  it('a wrong issuer, a wrong audience, an unverified e-mail: refused, no session', async () => {
    keycloak.provider.nextIdToken((claims) => ({ ...claims, iss: 'https://keycloak.evil.example/realms/staff' }));
    await expectRefused(keycloak, 401, 'could not be verified');
    keycloak.provider.nextIdToken((claims) => ({ ...claims, aud: ['sgx-portal-other'] }));
    await expectRefused(keycloak, 401, 'could not be verified');
    keycloak.provider.nextIdToken((claims) => ({ ...claims, email_verified: false }));
    await expectRefused(keycloak, 403, 'Your e-mail address is not verified');
  });

  it('an ID token whose signature is not the provider’s (another key under its key id): 401', async () => {
    keycloak.provider.nextIdToken((claims) => claims, { forged: true });
    await expectRefused(keycloak, 401, 'could not be verified');
  });

  // A client scope that maps the profile or e-mail to UserInfo only ("Add to ID token" off in Keycloak).
  it('an ID token without the name: UserInfo’s; the e-mail and its email_verified stay the ID token’s', async () => {
    keycloak.provider.nextIdToken((claims) => ({
      ...without(claims, 'name', 'email_verified'),
      sub: 'kc-no-name',
      email: 'reem.odeh@hospital.example',
    }));
    // UserInfo's email_verified: false is about its own e-mail, which is not taken: the ID token's is.
    keycloak.provider.nextUserInfo((claims) => ({
      ...claims,
      sub: 'kc-no-name',
      name: 'Reem Odeh',
      email: 'reem.private@example.com',
      email_verified: false,
    }));
    const before = keycloak.provider.userInfoRequests;
    const { user } = await exchange(keycloak, await attempt(keycloak));
    expect(user).toMatchObject({ name: 'Reem Odeh', email: 'reem.odeh@hospital.example' });
    expect(keycloak.provider.userInfoRequests).toBe(before + 1);
  });

  it('an ID token without the e-mail: UserInfo’s e-mail with UserInfo’s email_verified (false: 403)', async () => {
    // The ID token's email_verified: true is about no e-mail at all: it must not vouch for UserInfo's.
    keycloak.provider.nextIdToken((claims) => ({
      ...without(claims, 'email'),
      sub: 'kc-no-email',
      email_verified: true,
    }));
    keycloak.provider.nextUserInfo((claims) => ({
      ...claims,
      sub: 'kc-no-email',
      email: 'omar.nasser@hospital.example',
      email_verified: false,
    }));
    await expectRefused(keycloak, 403, 'Your e-mail address is not verified');
  });

  it('UserInfo refusing the access token (invalid_token): 401, the code named, not its description', async () => {
    keycloak.provider.nextIdToken((claims) => ({ ...without(claims, 'email'), sub: 'kc-refused' }));
    keycloak.provider.nextUserInfo((claims) => claims, { challenge: 'invalid_token' });
    const sessions = await sessionCount(keycloak.api);
    const users = await userCount(keycloak.api);
    const answer = await attempt(keycloak);
    expect(answer.status).toBe(401);
    expect(fragmentOf(answer)).toBeUndefined();
    expect(answer.text).toContain(
      'King Fahad Medical City answered with the error code invalid_token. Ask the hospital&#39;s IT to check the ' +
        'app&#39;s registration at King Fahad Medical City: it must be allowed to read your profile and e-mail ' +
        'address (UserInfo: the profile and email scopes).',
    );
    expect(answer.text).not.toContain('policy 7'); // the challenge's error_description
    expect(await sessionCount(keycloak.api)).toBe(sessions);
    expect(await userCount(keycloak.api)).toBe(users);
  });
});

describe('Keycloak, with another client secret than the one registered', () => {
  let keycloak: Setup;
  beforeAll(async () => {
    keycloak = await setUp(
      'keycloak-realm.openid-configuration.json',
      'https://keycloak.hospital.example/realms/staff',
      { sub: 'f3b2c5a0-secret', name: 'Lina Saad', email: 'lina.saad@hospital.example', email_verified: true },
      [],
      { ...client, clientSecret: 'not-the-registered-secret' },
    );
  });
  afterAll(async () => {
    await keycloak?.api.close();
    await keycloak?.provider.close();
  });

  it('the token endpoint answers invalid_client: 401, the page names it and the registration to check', async () => {
    await expectRefused(
      keycloak,
      401,
      'King Fahad Medical City answered with the error code invalid_client. Ask the hospital&#39;s IT to check ' +
        'the app&#39;s registration at King Fahad Medical City: its client ID and secret must be the ones this ' +
        'server is set up with (OIDC_CLIENT_ID, OIDC_CLIENT_SECRET).',
    );
  });
});

describe('configuration', () => {
  it('an Entra ID multi-tenant issuer without OIDC_ALLOWED_TENANTS is refused at start', () => {
    const env = {
      PUBLIC_URL: 'https://sgx.hospital.example',
      OIDC_CLIENT_ID: 'id',
      OIDC_DISPLAY_NAME: 'KFMC',
    };
    for (const issuer of ['common', 'organizations', 'consumers'])
      expect(() => loadConfig({ ...env, OIDC_ISSUER: `https://login.microsoftonline.com/${issuer}/v2.0` })).toThrow(
        /lets any Microsoft Entra ID organisation sign in: set OIDC_ALLOWED_TENANTS/,
      );
    expect(
      loadConfig({ ...env, OIDC_ISSUER: `https://login.microsoftonline.com/${HOSPITAL_TENANT}/v2.0` }).oidc?.issuer,
    ).toBe(`https://login.microsoftonline.com/${HOSPITAL_TENANT}/v2.0`);
  });

  it.each([
    [{ OIDC_ISSUER: 'http://idp.example/realms/x' }, /OIDC_ISSUER must be the https URL/],
    [{ OIDC_ISSUER: 'https://idp.example', OIDC_DISPLAY_NAME: 'X', PUBLIC_URL: 'https://a.example' }, /OIDC_CLIENT_ID/],
    [{ OIDC_ISSUER: 'https://idp.example', OIDC_CLIENT_ID: 'x', PUBLIC_URL: 'https://a.example' }, /OIDC_DISPLAY_NAME/],
    [{ OIDC_ISSUER: 'https://idp.example', OIDC_CLIENT_ID: 'x', OIDC_DISPLAY_NAME: 'X' }, /set PUBLIC_URL too/],
    [{ OIDC_CLIENT_ID: 'x' }, /OIDC_CLIENT_ID is set but OIDC_ISSUER is not/],
    [{ OIDC_ONLY: 'true' }, /OIDC_ONLY=true needs single sign-on/],
    [{ PUBLIC_URL: 'http://sgx.hospital.example' }, /PUBLIC_URL must be the https URL/],
    [{ SESSION_IDLE_MINUTES: '0' }, /SESSION_IDLE_MINUTES must be a whole number from 1 to 720/],
    [{ REQUIRE_MFA: 'yes' }, /REQUIRE_MFA must be "true" or "false"/],
    [
      {
        OIDC_ISSUER: 'https://idp.example',
        OIDC_CLIENT_ID: 'x',
        OIDC_DISPLAY_NAME: 'X',
        PUBLIC_URL: 'https://a.example',
        OIDC_ALLOWED_TENANTS: 'contoso.onmicrosoft.com',
      },
      /OIDC_ALLOWED_TENANTS must list Entra ID tenant ids/,
    ],
  ])('refuses %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('takes http only for a provider and a PUBLIC_URL on the loopback address (trials, tests)', () => {
    const config = loadConfig({
      OIDC_ISSUER: 'http://127.0.0.1:8081',
      OIDC_CLIENT_ID: 'x',
      OIDC_DISPLAY_NAME: 'Trial',
      PUBLIC_URL: 'http://localhost:3000/',
    });
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.oidc?.issuer).toBe('http://127.0.0.1:8081');
  });
});
