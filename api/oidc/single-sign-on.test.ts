import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserAgent, type AgentResponse } from '../test-support/browser-agent.ts';
import {
  OIDC_CLIENT_ID,
  OIDC_CLIENT_SECRET,
  reserveTestProvider,
  type LoginAuthentication,
  type TestProvider,
  type TestProviderOptions,
} from '../test-support/oidc-provider.ts';
import {
  DISPLAY_NAME,
  fragmentOf,
  sessionCount,
  signOn,
  ssoSettings,
  startSignOn,
  startUrl,
  userCount,
  verifierOf,
} from '../test-support/sso-flow.ts';
import { startTestApi, type TestApi } from '../test-support/test-api.ts';

// Single sign-on against a real OpenID provider (oidc-provider on 127.0.0.1, its development login), on
// each store (the node-postgres project runs this file again on PostgreSQL). The provider follows OpenID
// Connect Core section 5.4 unless a test says otherwise: the name and e-mail are only in its UserInfo answer.
const client = { clientId: OIDC_CLIENT_ID, clientSecret: OIDC_CLIENT_SECRET };

/** A provider and an app wired to each other (the provider's redirect URI is the app's callback). */
async function startPair(
  more: Parameters<typeof ssoSettings>[2] = {},
  codeTtlSeconds?: number,
  provider: TestProviderOptions = {},
  appClient: typeof client = client,
) {
  const idp = await reserveTestProvider(provider);
  const api = await startTestApi(ssoSettings(idp.issuer, appClient, more));
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

/**
 * A sign-in that UserInfo made fail (on its own pair): the status, no code, one UserInfo request, no session or
 * account, a failure audited with the reason logged, and no 500.
 */
async function expectNobodySignedIn(
  pair: Awaited<ReturnType<typeof startPair>>,
  answer: Awaited<ReturnType<typeof startSignOn>>,
  status: number,
  problem: string,
) {
  expect(answer.status).toBe(status);
  expect(fragmentOf(answer)).toBeUndefined();
  expect(pair.idp.userInfoRequests()).toBe(1);
  expect(await sessionCount(pair.api)).toBe(0);
  expect(await userCount(pair.api)).toBe(0);
  expect(await lastSignInOutcome(pair.api)).toBe('failure');
  expect(lastSignOnProblem(pair.api)).toBe(problem);
  expect(pair.api.errors).toEqual([]);
}

describe('a new clinician signs in with the hospital provider', () => {
  it('lands back on the page with a one-time code that opens the same session as a password sign-in', async () => {
    const agent = new BrowserAgent();
    const start = await agent.request(startUrl(api, `${api.url}/#calculator`, agent));
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

    const userInfoBefore = idp.userInfoRequests();
    const landed = await agent.follow(start.location!, { login: 'sara.alharbi', stopAt: `${api.url}/#` });
    expect(landed.status).toBe(303);
    // The ID token had no name or e-mail (section 5.4): UserInfo was read once, with the access token.
    expect(idp.userInfoRequests()).toBe(userInfoBefore + 1);
    const fragment = fragmentOf(landed)!;
    expect(fragment.name).toBe('sgx-sso');
    expect(landed.location).toBe(`${api.url}/#sgx-sso=${fragment.code}`);

    const verifier = verifierOf(agent);
    const session = await api.request('POST', '/api/auth/oidc/session', { body: { code: fragment.code, verifier } });
    expect(session.status).toBe(200);
    expect(Object.keys(session.body).sort()).toEqual(['token', 'user']);
    expect(session.body.user).toEqual({
      id: expect.any(String),
      email: 'sara.alharbi@hospital.example',
      name: 'Sara Alharbi', // the provider's name claim, from UserInfo
      license: null,
    });
    const token = session.body.token as string;
    expect(jwt.decode(token)).toMatchObject({ iss: 'sgx-api', aud: 'sgx-clients', sub: session.body.user.id });
    expect((await api.request('GET', '/api/auth/me', { token })).body).toEqual(session.body.user);
    expect((await api.request('GET', '/api/patients', { token })).status).toBe(200);
    const listed = await api.request('GET', '/api/auth/sessions', { token });
    expect(listed.body.sessions).toEqual([expect.objectContaining({ method: 'oidc', current: true })]);

    // The code is good once.
    const again = await api.request('POST', '/api/auth/oidc/session', { body: { code: fragment.code, verifier } });
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
      const answer = await api.request('GET', startUrl(api, returnTo, new BrowserAgent()).slice(api.url.length));
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
    const idToken = jwt.decode(end.searchParams.get('id_token_hint')!) as Record<string, unknown>;
    expect(idToken).toMatchObject({ sub: 'leaving.doctor' });
    // The provider conforms to section 5.4: the account's name and e-mail cannot have come from this ID token.
    expect(Object.keys(idToken).filter((name) => ['name', 'email', 'email_verified'].includes(name))).toEqual([]);
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
    const atProvider = await victim.request(startUrl(api, `${api.url}/`, victim));
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
      expect(shown(answer)).toContain(
        `${DISPLAY_NAME} answered with the error code invalid_grant. Please start again.`,
      );
      expect(await sessionCount(pair.api)).toBe(before);
      expect(await userCount(pair.api)).toBe(0);
    } finally {
      await pair.close();
    }
  }, 20_000);
});

/** A page's text as the clinician reads it (failure-page.ts writes every character of `&<>"'` as `&#NN;`). */
const shown = (response: { text: string }) =>
  response.text.replace(/&#(\d+);/g, (_entity, code: string) => String.fromCharCode(Number(code)));

/** Why the app refused its last sign-on, as the request's log line says (`signOnProblem`). */
function lastSignOnProblem(app: TestApi): string | undefined {
  const lines = app.serverLog.map((line) => JSON.parse(line) as { signOnProblem?: string });
  return lines.findLast((line) => line.signOnProblem !== undefined)?.signOnProblem;
}

/** The last `user.signin.oidc` audit line's outcome. */
async function lastSignInOutcome(app: TestApi) {
  return (await app.auditLines()).findLast((line) => line.action === 'user.signin.oidc')?.outcome;
}

describe('the name and e-mail from UserInfo when the ID token has none (OpenID Connect Core section 5.4)', () => {
  it('a provider with them in the ID token too (Entra ID, Keycloak): signed in, no UserInfo request', async () => {
    const pair = await startPair({}, undefined, { claimsIn: 'id_token' });
    try {
      const { user } = await signOn(pair.api, { login: 'hind.saleh' });
      expect(user).toEqual({
        id: expect.any(String),
        email: 'hind.saleh@hospital.example',
        name: 'Hind Saleh',
        license: null,
      });
      expect(pair.idp.userInfoRequests()).toBe(0);
    } finally {
      await pair.close();
    }
  });

  it('an unverified e-mail in UserInfo is refused as one in the ID token: 403', async () => {
    // The default provider: `email` and `email_verified: false` both come from UserInfo.
    const before = await sessionCount(api);
    const userInfoBefore = idp.userInfoRequests();
    const answer = await startSignOn(new BrowserAgent(), api, { login: 'unverified.nurse' });
    await expectRefused(answer, 403, before);
    expect(shown(answer)).toContain('Your e-mail address is not verified');
    expect(idp.userInfoRequests()).toBe(userInfoBefore + 1);
  });

  it('UserInfo answering about another sub than the ID token’s: 401 sso_invalid, no session, no account', async () => {
    const pair = await startPair({}, undefined, { userInfo: 'other_subject' });
    try {
      const answer = await startSignOn(new BrowserAgent(), pair.api, { login: 'swapped.identity' });
      await expectNobodySignedIn(pair, answer, 401, "UserInfo answered for another sub than the ID token's");
      expect(shown(answer)).toContain(
        "The hospital's sign-in answered about another person than the one who signed in, so you were not signed in.",
      );
    } finally {
      await pair.close();
    }
  });

  it.each([
    ['drops', 'UserInfo could not be reached: fetch failed'], // the connection closed without an answer
    ['fails', 'UserInfo answered 503'],
  ] as const)('UserInfo that %s: 503 sso_unavailable, never a 500', async (userInfo, problem) => {
    const pair = await startPair({}, undefined, { userInfo });
    try {
      const answer = await startSignOn(new BrowserAgent(), pair.api, { login: 'waiting.clinician' });
      await expectNobodySignedIn(pair, answer, 503, problem);
      expect(shown(answer)).toContain(
        "The hospital's sign-in service could not be reached. Please try again in a minute.",
      );
    } finally {
      await pair.close();
    }
  });

  it('a provider without a UserInfo endpoint: the ID token’s claims alone (none: 403 sso_no_email)', async () => {
    // oidc-provider puts the claims in the ID token when it offers no UserInfo.
    const pair = await startPair({}, undefined, { userInfo: 'absent' });
    try {
      expect((await signOn(pair.api, { login: 'token.only' })).user.email).toBe('token.only@hospital.example');
      const answer = await startSignOn(new BrowserAgent(), pair.api, { login: 'no.email' });
      expect(answer.status).toBe(403);
      expect(shown(answer)).toContain("The hospital's sign-in gave no e-mail address for you.");
      expect(pair.idp.userInfoRequests()).toBe(0);
      expect(await userCount(pair.api)).toBe(1);
      expect(await lastSignInOutcome(pair.api)).toBe('denied');
      expect(lastSignOnProblem(pair.api)).toBe(
        'the ID token has no e-mail address (the provider offers no UserInfo endpoint)',
      );
    } finally {
      await pair.close();
    }
  });
});

describe('a refused sign-in names the provider’s OAuth error code, never its description', () => {
  /** A flow started in `agent`, at the provider: its state, and the binding cookie as a header. */
  async function flowAtProvider(agent: BrowserAgent, app: TestApi = api) {
    const atProvider = await agent.request(startUrl(app, `${app.url}/`, agent));
    const state = new URL(atProvider.location!).searchParams.get('state')!;
    const binding = agent.cookie('127.0.0.1', 'sgx_oidc_binding')!;
    return { atProvider, state, cookie: `sgx_oidc_binding=${binding}` };
  }

  it('the clinician cancelling at the provider (access_denied): 401, the code and whose setting to check', async () => {
    const agent = new BrowserAgent();
    const { atProvider } = await flowAtProvider(agent);
    // The provider's own login page, and its "[ Cancel ]" link.
    const login = await agent.request((await agent.request(atProvider.location!)).location!);
    const cancel = /<a href="([^"]+)">\[ Cancel \]<\/a>/.exec(login.text)![1]!.replace(/&amp;/g, '&');
    const callback = await agent.follow(new URL(cancel, login.url).href, {
      stopAt: `${api.url}/api/auth/oidc/callback`,
    });
    expect(new URL(callback.location!).searchParams.get('error_description')).toBe('End-User aborted interaction');
    const before = await sessionCount(api);
    const answer = await agent.request(callback.location!);
    await expectRefused(answer, 401, before);
    expect(shown(answer)).toContain("The hospital's sign-in did not sign you in (it was cancelled or refused).");
    expect(shown(answer)).toContain(
      `${DISPLAY_NAME} answered with the error code access_denied. If you should be able to sign in here, ask the ` +
        `hospital's IT to give your account access to this app at ${DISPLAY_NAME}.`,
    );
    expect(shown(answer)).not.toContain('aborted');
    expect(await lastSignInOutcome(api)).toBe('failure');
  });

  it('a client not registered for a scope it asks for (invalid_scope): the registration to check', async () => {
    const pair = await startPair({}, undefined, { allowedScopes: 'openid profile' });
    try {
      const answer = await startSignOn(new BrowserAgent(), pair.api, { login: 'scoped.out' });
      expect(answer.status).toBe(401);
      expect(shown(answer)).toContain(
        `${DISPLAY_NAME} answered with the error code invalid_scope. Ask the hospital's IT to check the app's ` +
          `registration at ${DISPLAY_NAME}: it must be allowed the scopes this server asks for (OIDC_SCOPES, ` +
          '"openid profile email" by default).',
      );
      expect(shown(answer)).not.toContain('requested scope is not allowed'); // the provider's description
      expect(await sessionCount(pair.api)).toBe(0);
    } finally {
      await pair.close();
    }
  });

  describe('a wrong client secret: the token endpoint answers invalid_client', () => {
    // oidc-provider answers it with 401 and `WWW-Authenticate: Basic error="invalid_client"` (RFC 6749 section 5.2
    // requires the header when the client authenticated with HTTP Basic, as this one does), so openid-client
    // throws a WWWAuthenticateChallengeError, whose code is in the challenge, not in a body.
    let pair: Awaited<ReturnType<typeof startPair>>;
    let answer: AgentResponse;
    beforeAll(async () => {
      pair = await startPair({}, undefined, {}, { ...client, clientSecret: 'not-the-registered-secret' });
      answer = await startSignOn(new BrowserAgent(), pair.api, { login: 'wrong.secret' });
    });
    afterAll(() => pair?.close());

    it('401 sso_invalid, no account, an audit failure, the reason in the log', async () => {
      expect(answer.status).toBe(401);
      expect(fragmentOf(answer)).toBeUndefined();
      expect(shown(answer)).toContain(
        "The hospital's sign-in answer could not be verified, so you were not signed in. Please try again.",
      );
      expect(shown(answer)).not.toContain('client authentication failed'); // the provider's description
      expect(await userCount(pair.api)).toBe(0);
      expect(await lastSignInOutcome(pair.api)).toBe('failure');
      expect(lastSignOnProblem(pair.api)).toContain('OAUTH_WWW_AUTHENTICATE_CHALLENGE');
    });

    // The code of a 401 to Basic credentials is in its WWW-Authenticate challenge (RFC 6749 section 5.2); from a
    // body it is named too (recorded-providers.test.ts, "another client secret than the one registered").
    it('the page names invalid_client and the registration to check', () => {
      expect(shown(answer)).toContain(
        `${DISPLAY_NAME} answered with the error code invalid_client. Ask the hospital's IT to check the ` +
          `app's registration at ${DISPLAY_NAME}: its client ID and secret must be the ones this server is set ` +
          'up with (OIDC_CLIENT_ID, OIDC_CLIENT_SECRET).',
      );
    });
  });

  it('the description in a crafted callback is never shown; the JSON answer adds oauthError', async () => {
    const description = '<script>alert(1)</script> Call +966 800 000 0000 to restore your account';
    const agent = new BrowserAgent();
    const { state, cookie } = await flowAtProvider(agent);
    const query = new URLSearchParams({
      error: 'access_denied',
      error_description: description,
      state,
      iss: idp.issuer,
    });
    const json = await api.request('GET', `/api/auth/oidc/callback?${query}`, {
      headers: { Accept: 'application/json', Cookie: cookie },
    });
    expect(json.status).toBe(401);
    expect(json.body).toEqual({
      message: "The hospital's sign-in did not sign you in (it was cancelled or refused).",
      code: 'sso_refused',
      oauthError: 'access_denied',
    });
    // The page, from a flow of its own (a state is good for one answer).
    const page = await flowAtProvider(agent);
    query.set('state', page.state);
    const html = await agent.request(`${api.url}/api/auth/oidc/callback?${query}`);
    expect(html.status).toBe(401);
    expect(shown(html)).toContain('answered with the error code access_denied.');
    // Neither as markup nor as text: nothing of the description is on the page.
    expect(html.text).not.toContain('<script>');
    expect(shown(html)).not.toContain('<script>');
    expect(shown(html)).not.toContain('966');
  });

  it.each([
    // Not a bare code: not shown at all (no "error code" line, no oauthError).
    ['access_denied<b>', undefined, undefined],
    ['ACCESS_DENIED', undefined, undefined],
    ['x'.repeat(65), undefined, undefined],
    // A code that names an Object property finds no hint of its own (a Map): the general line, not a 500.
    ['__proto__', '__proto__', "Ask the hospital's IT to check the app's registration at"],
    ['constructor', 'constructor', "Ask the hospital's IT to check the app's registration at"],
    ['temporarily_unavailable', 'temporarily_unavailable', `${DISPLAY_NAME} had a problem. Please try again`],
  ])('error=%s: oauthError %s', async (error, oauthError, hint) => {
    const agent = new BrowserAgent();
    const { state, cookie } = await flowAtProvider(agent);
    const query = new URLSearchParams({ error, state, iss: idp.issuer });
    const json = await api.request('GET', `/api/auth/oidc/callback?${query}`, {
      headers: { Accept: 'application/json', Cookie: cookie },
    });
    expect(json.status).toBe(401);
    expect(json.body).toEqual({
      message: "The hospital's sign-in did not sign you in (it was cancelled or refused).",
      code: 'sso_refused',
      ...(oauthError ? { oauthError } : {}),
    });
    const page = await flowAtProvider(agent);
    query.set('state', page.state);
    const html = await agent.request(`${api.url}/api/auth/oidc/callback?${query}`);
    expect(html.status).toBe(401);
    if (hint) expect(shown(html)).toContain(hint);
    else expect(shown(html)).not.toContain('error code');
    expect(api.errors).toEqual([]);
  });
});

describe('an existing password account is linked only after its clinician signs in with the password', () => {
  const signUp = async (email: string, name: string, password = 'correct horse battery') => {
    const signup = await api.request('POST', '/api/auth/signup', { body: { email, password, name, agreeTerms: true } });
    expect(signup.status).toBe(201);
    return signup.body as { token: string; user: { id: string; email: string } };
  };

  it('sends the browser back with a link code; the password links; then single sign-on goes straight in', async () => {
    const password = 'correct horse battery';
    const signup = await signUp('amal.haddad@hospital.example', 'Amal Haddad', password);
    const before = await sessionCount(api);
    const agent = new BrowserAgent();
    const landed = await startSignOn(agent, api, { login: 'amal.haddad' });
    expect(fragmentOf(landed)?.name).toBe('sgx-sso-link');
    expect(await sessionCount(api)).toBe(before); // nothing signed in by the e-mail alone

    const linkCode = fragmentOf(landed)!.code;
    const linkVerifier = verifierOf(agent);
    // The prompt names what would be linked, to the page that started the sign-on; the code stays good.
    const details = await api.request('POST', '/api/auth/oidc/link', {
      body: { code: linkCode, verifier: linkVerifier },
    });
    expect(details.status).toBe(200);
    expect(details.body).toEqual({
      provider: DISPLAY_NAME,
      name: 'Amal Haddad',
      email: 'amal.haddad@hospital.example',
    });
    const wrong = await api.request('POST', '/api/auth/signin', {
      body: { email: 'amal.haddad@hospital.example', password: 'not the password', linkCode, linkVerifier },
    });
    expect(wrong.status).toBe(401);
    const linked = await api.request('POST', '/api/auth/signin', {
      body: { email: 'amal.haddad@hospital.example', password, linkCode, linkVerifier },
    });
    expect(linked.status).toBe(200);
    expect(linked.body).toEqual({ token: expect.any(String), user: signup.user, linked: true });
    // Used once.
    const reused = await api.request('POST', '/api/auth/signin', {
      body: { email: 'amal.haddad@hospital.example', password, linkCode, linkVerifier },
    });
    expect(reused.status).toBe(400);
    expect(reused.body.issues).toEqual([{ field: 'linkCode', message: expect.stringContaining('has expired') }]);

    const sso = await signOn(api, { login: 'amal.haddad' });
    expect(sso.user).toEqual(signup.user);
    const security = await api.request('GET', '/api/auth/security', { token: sso.token });
    expect(security.body.identities).toEqual([
      {
        id: expect.stringMatching(/^[\w-]{43}$/),
        issuer: idp.issuer,
        displayName: DISPLAY_NAME,
        linkedAt: expect.any(String),
      },
    ]);
  });

  it('a link code opened in another browser names no one and links nothing (security review M3)', async () => {
    const victim = await signUp('layla.omar@hospital.example', 'Layla Omar');
    // The sign-on is done in the attacker's browser; its link code is sent to the victim as a page address.
    const attacker = new BrowserAgent();
    const landed = await startSignOn(attacker, api, { login: 'layla.omar' });
    const linkCode = fragmentOf(landed)!.code;
    // The victim's page has a verifier of its own (or none): the prompt is refused, and so is the link.
    const victimsPage = verifierOf(new BrowserAgent());
    const details = await api.request('POST', '/api/auth/oidc/link', {
      body: { code: linkCode, verifier: victimsPage },
    });
    expect(details.status).toBe(403);
    expect(details.body).toEqual({
      message:
        'This link to a hospital sign-in was started on another page or in another browser, so nothing was ' +
        'linked. Use the hospital button again on this page.',
    });
    for (const linkVerifier of [victimsPage, undefined]) {
      const again = await startSignOn(attacker, api, { login: 'layla.omar' });
      const signin = await api.request('POST', '/api/auth/signin', {
        body: {
          email: 'layla.omar@hospital.example',
          password: 'correct horse battery',
          linkCode: fragmentOf(again)!.code,
          ...(linkVerifier ? { linkVerifier } : {}),
        },
      });
      expect(signin.status).toBe(403);
      expect(signin.body.message).toContain('started on another page or in another browser');
    }
    expect(await api.store.findUserByIdentity(idp.issuer, 'layla.omar')).toBeUndefined();
    expect(await api.store.listIdentities(victim.user.id)).toEqual([]);
  });

  it('a link code works only for the account of the e-mail the provider gave', async () => {
    const other = await api.signUp('Someone Else');
    await signUp('khalid.ali@hospital.example', 'Khalid');
    const agent = new BrowserAgent();
    const landed = await startSignOn(agent, api, { login: 'khalid.ali' });
    const refused = await api.request('POST', '/api/auth/signin', {
      body: {
        email: other.email,
        password: other.password,
        linkCode: fragmentOf(landed)!.code,
        linkVerifier: verifierOf(agent),
      },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain("This account's e-mail is not the one your hospital sign-in gave");
    expect(await api.store.findUserByIdentity(idp.issuer, 'khalid.ali')).toBeUndefined();
  });

  it('a provider that does not vouch for the e-mail links nothing, unless its domain is trusted', async () => {
    await signUp('silent.provider@hospital.example', 'Silent Provider');
    const before = await sessionCount(api);
    const refused = await startSignOn(new BrowserAgent(), api, { login: 'silent.provider' });
    await expectRefused(refused, 403, before);
    expect(refused.text).toContain('does not say that the address is verified, so the two cannot be joined');
    expect(lastSignOnProblem(api)).toBe(
      'an account has this e-mail and the provider does not say the e-mail is verified',
    );
    // OIDC_TRUSTED_EMAIL_DOMAINS=hospital.example: the hospital vouches for its own domain.
    const trusted = await startPair({ trustedEmailDomains: ['hospital.example'] });
    try {
      const signup = await trusted.api.request('POST', '/api/auth/signup', {
        body: {
          email: 'silent.provider@hospital.example',
          password: 'correct horse battery',
          name: 'Silent Provider',
          agreeTerms: true,
        },
      });
      const agent = new BrowserAgent();
      const landed = await startSignOn(agent, trusted.api, { login: 'silent.provider' });
      expect(fragmentOf(landed)?.name).toBe('sgx-sso-link');
      const linked = await trusted.api.request('POST', '/api/auth/signin', {
        body: {
          email: 'silent.provider@hospital.example',
          password: 'correct horse battery',
          linkCode: fragmentOf(landed)!.code,
          linkVerifier: verifierOf(agent),
        },
      });
      expect(linked.body).toMatchObject({ user: signup.body.user, linked: true });
    } finally {
      await trusted.close();
    }
  });

  it('an identity is unlinked from the profile with the password; the last way in cannot be', async () => {
    const password = 'correct horse battery';
    const signup = await signUp('rania.saad@hospital.example', 'Rania Saad', password);
    const agent = new BrowserAgent();
    const landed = await startSignOn(agent, api, { login: 'rania.saad' });
    const token = (
      await api.request('POST', '/api/auth/signin', {
        body: {
          email: 'rania.saad@hospital.example',
          password,
          linkCode: fragmentOf(landed)!.code,
          linkVerifier: verifierOf(agent),
        },
      })
    ).body.token as string;
    const [identity] = (await api.request('GET', '/api/auth/security', { token })).body.identities;
    const path = `/api/auth/identities/${identity.id}`;
    const noPassword = await api.request('DELETE', path, { token, body: {} });
    expect(noPassword.status).toBe(400);
    expect(noPassword.body.issues).toEqual([{ field: 'password', message: expect.any(String) }]);
    const wrong = await api.request('DELETE', path, { token, body: { password: 'not the password' } });
    expect(wrong.status).toBe(400);
    expect(await api.store.findUserByIdentity(idp.issuer, 'rania.saad')).toMatchObject({ id: signup.user.id });
    const unlinked = await api.request('DELETE', path, { token, body: { password } });
    expect(unlinked.status).toBe(204);
    expect(await api.store.findUserByIdentity(idp.issuer, 'rania.saad')).toBeUndefined();
    expect((await api.request('DELETE', path, { token, body: { password } })).status).toBe(404);
    const audit = (await api.auditLines()).filter((line) => line.actor === signup.user.id);
    expect(audit.map((line) => [line.action, line.outcome]).slice(-2)).toEqual([
      ['user.unlink.oidc', 'failure'],
      ['user.unlink.oidc', 'success'],
    ]);
    // The provider's sign-in now is another account's first: the password account is not reached by it.
    const sso = await signOn(api, { login: 'rania.saad' }).catch((error: Error) => error);
    expect(sso).toBeInstanceOf(Error); // a link code again (the e-mail has a password account), not a session
    // An account the hospital sign-in made has no password: its only identity stays.
    const only = await signOn(api, { login: 'only.identity' });
    const [own] = (await api.request('GET', '/api/auth/security', { token: only.token })).body.identities;
    const kept = await api.request('DELETE', `/api/auth/identities/${own.id}`, { token: only.token, body: {} });
    expect(kept.status).toBe(409);
    expect(kept.body).toEqual({
      message: 'This is the only way you sign in to this account, so it cannot be unlinked.',
    });
  });
});

describe('the hand-over is redeemed only by the page that started the sign-on (security review M4)', () => {
  it('no start without a challenge; a code redeemed with another page’s verifier gives no session', async () => {
    const bare = await api.request('GET', `/api/auth/oidc/start?returnTo=${encodeURIComponent(`${api.url}/`)}`);
    expect(bare.status).toBe(400);
    expect(bare.body).toEqual({
      message:
        "This page's sign-in button is out of date, so the sign-in was not started. Reload the page and try again.",
      code: 'sso_no_challenge',
    });
    // The attacker signs on in their own browser and plants the code in the victim's page (login CSRF).
    const attacker = new BrowserAgent();
    const landed = await startSignOn(attacker, api, { login: 'planted.session' });
    const code = fragmentOf(landed)!.code;
    const before = await sessionCount(api);
    for (const body of [{ code, verifier: verifierOf(new BrowserAgent()) }, { code }]) {
      const answer = await api.request('POST', '/api/auth/oidc/session', { body });
      expect(answer.status).toBe(body.verifier ? 401 : 400);
    }
    const planted = await api.request('POST', '/api/auth/oidc/session', {
      body: { code, verifier: verifierOf(new BrowserAgent()) },
    });
    expect(planted.status).toBe(401);
    expect(await sessionCount(api)).toBe(before);
    // Spent by the wrong page: even the attacker's own verifier gets nothing now.
    const spent = await api.request('POST', '/api/auth/oidc/session', {
      body: { code, verifier: verifierOf(attacker) },
    });
    expect(spent.status).toBe(401);
    expect(await sessionCount(api)).toBe(before);
  });

  it('the plain method, for a page without Web Crypto (plain http): the verifier itself is the challenge', async () => {
    const agent = new BrowserAgent();
    const verifier = verifierOf(agent);
    const start = `${api.url}/api/auth/oidc/start?returnTo=${encodeURIComponent(`${api.url}/`)}`;
    const landed = await agent.follow(`${start}&challenge=${verifier}&challengeMethod=plain`, {
      login: 'plain.page',
      stopAt: `${api.url}/#`,
    });
    const code = fragmentOf(landed)!.code;
    const session = await api.request('POST', '/api/auth/oidc/session', { body: { code, verifier } });
    expect(session.status).toBe(200);
    expect(session.body.user.email).toBe('plain.page@hospital.example');
    const odd = await api.request('GET', `/api/auth/oidc/start?challenge=${verifier}&challengeMethod=S512`);
    expect(odd.status).toBe(400);
  });
});

describe('OIDC_ONLY=true', () => {
  it('refuses sign-up and password sign-in with a clear 403; the button still signs in', async () => {
    // With REQUIRE_MFA too: a single sign-on session whose ID token shows the provider's second factor passes.
    const pair = await startPair({ oidcOnly: true, requireMfa: true }, undefined, {
      authentication: { amr: ['pwd', 'mfa'] },
    });
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

describe('REQUIRE_MFA: a sign-on is two-factor only when its ID token says so (OIDC_REQUIRED_AMR, _ACR)', () => {
  const PROVIDER_ONE_FACTOR = {
    message:
      "Your hospital requires a second factor, and this sign-in did not use one. Sign in again with the hospital's " +
      'second factor; if it offers none, ask IT.',
    code: 'provider_second_factor_required',
  };
  const KEYCLOAK_GOLD = { providerFactors: { amr: ['mfa'], acr: ['gold'] } };

  it.each<[string, string, LoginAuthentication | undefined, Parameters<typeof startPair>[0]]>([
    ['amr pwd and mfa, as Entra ID and Okta send (the default: mfa)', 'oidc+mfa', { amr: ['pwd', 'mfa'] }, {}],
    ['a Keycloak level listed in OIDC_REQUIRED_ACR, and no amr', 'oidc+mfa', { acr: 'gold' }, KEYCLOAK_GOLD],
    ['neither amr nor acr (oidc-provider as it comes)', 'oidc', undefined, {}],
    ['amr pwd alone', 'oidc', { amr: ['pwd'] }, {}],
    ['a Keycloak level not listed', 'oidc', { acr: 'silver' }, KEYCLOAK_GOLD],
  ])('%s: a session %s', async (_case, method, authentication, more) => {
    const pair = await startPair({ requireMfa: true, ...more }, undefined, { authentication });
    try {
      const { token } = await signOn(pair.api, { login: 'nadia.qahtani' });
      const listed = await pair.api.request('GET', '/api/auth/sessions', { token });
      expect(listed.body.sessions).toEqual([expect.objectContaining({ method, current: true })]);
      const patients = await pair.api.request('GET', '/api/patients', { token });
      if (method === 'oidc+mfa') expect([patients.status, patients.body]).toEqual([200, expect.any(Object)]);
      else expect([patients.status, patients.body]).toEqual([403, PROVIDER_ONE_FACTOR]);
      // Never sent to set up a factor of this app: only the provider can add one.
      const security = await pair.api.request('GET', '/api/auth/security', { token });
      expect(security.body).toMatchObject({ requireMfa: true, secondFactorNeeded: false });
      // What the session was judged on: the provider's signed ID token (its logout hint), exactly.
      const signedOut = await pair.api.request('POST', '/api/auth/signout', { token });
      const hint = new URL(signedOut.body.endSessionUrl).searchParams.get('id_token_hint')!;
      const idToken = jwt.decode(hint) as Record<string, unknown>;
      expect({ amr: idToken.amr, acr: idToken.acr }).toEqual({ amr: authentication?.amr, acr: authentication?.acr });
    } finally {
      await pair.close();
    }
  });

  it('an amr in UserInfo alone counts for nothing: the signed ID token alone says how one signed in', async () => {
    const pair = await startPair({ requireMfa: true }, undefined, { userInfoExtra: { amr: ['pwd', 'mfa'] } });
    try {
      const { token } = await signOn(pair.api, { login: 'userinfo.amr' });
      expect(pair.idp.userInfoRequests()).toBe(1);
      const patients = await pair.api.request('GET', '/api/patients', { token });
      expect([patients.status, patients.body]).toEqual([403, PROVIDER_ONE_FACTOR]);
    } finally {
      await pair.close();
    }
  });

  it('without REQUIRE_MFA the method still says so; a fresh oidc+mfa session may delete its account', async () => {
    const pair = await startPair({}, undefined, { authentication: { amr: ['pwd', 'mfa'] } });
    try {
      const { token } = await signOn(pair.api, { login: 'leaving.soon' });
      expect((await pair.api.request('GET', '/api/auth/sessions', { token })).body.sessions).toEqual([
        expect.objectContaining({ method: 'oidc+mfa' }),
      ]);
      expect((await pair.api.request('GET', '/api/patients', { token })).status).toBe(200);
      // account/reauthenticate.ts: a hospital sign-in under 10 minutes old, with its second factor or without.
      expect((await pair.api.request('DELETE', '/api/account', { token, body: {} })).status).toBe(204);
      expect(await userCount(pair.api)).toBe(0);
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

  it('deletes with a hospital sign-in under 10 minutes old (no password); its linked sign-in goes too', async () => {
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
