import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SoftAuthenticator } from '../test-support/soft-authenticator.ts';
import { sessionCount } from '../test-support/sso-flow.ts';
import { startTestApi, type TestApi } from '../test-support/test-api.ts';
import type { SessionMethod } from '../storage/records.ts';
import { createSignInLimiter } from './sign-in-limiter.ts';
import { signSessionToken } from './tokens.ts';

// A second factor for password accounts (NIST SP 800-63B AAL2): an authenticator app (RFC 6238), ten
// single-use recovery codes, passkeys; REQUIRE_MFA. On each store (the node-postgres project runs it again).
let clock = new Date('2026-06-01T08:00:00.000Z');
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ now: () => clock });
});
afterAll(() => api?.close());

const ROI_INPUTS = { numberOfCases: 1, orCostPerMinute: 45, timeNeostigmine: 15, timeProduct: 3, baselinePPCRate: 10 };
const tick = (seconds: number) => (clock = new Date(clock.getTime() + seconds * 1000));
const codeAt = (secret: string, at = clock) => generate({ secret, epoch: Math.floor(at.getTime() / 1000) });

/** Sets up the authenticator app on a new account; answers its secret, recovery codes and credentials. */
async function withAuthenticatorApp(on: TestApi = api) {
  const account = await on.signUp();
  // the clinician again: the password (step-up.test.ts)
  const setup = await on.request('POST', '/api/auth/totp/setup', {
    token: account.token,
    body: { password: account.password },
  });
  expect(setup.status).toBe(200);
  const confirmed = await on.request('POST', '/api/auth/totp/confirm', {
    token: account.token,
    body: { setupToken: setup.body.setupToken, code: await codeAt(setup.body.secret) },
  });
  expect(confirmed.status).toBe(200);
  return {
    ...account,
    // the session opened with the factor, in place of the one it was added in
    token: confirmed.body.token as string,
    secret: setup.body.secret as string,
    recoveryCodes: confirmed.body.recoveryCodes as string[],
  };
}

const passwordStep = (account: { email: string; password: string }, on: TestApi = api) =>
  on.request('POST', '/api/auth/signin', { body: { email: account.email, password: account.password } });

describe('an authenticator app (TOTP)', () => {
  it('is set up from a QR code: the first code proves it, ten recovery codes are shown once', async () => {
    const account = await api.signUp();
    const elsewhere = await passwordStep(account); // another device, signed in before
    const setup = await api.request('POST', '/api/auth/totp/setup', {
      token: account.token,
      body: { password: account.password },
    });
    expect(setup.body).toEqual({
      setupToken: expect.stringMatching(/^[\w-]{43}$/),
      secret: expect.stringMatching(/^[A-Z2-7]{32}$/),
      uri:
        `otpauth://totp/HCP%20Portal:${encodeURIComponent(account.email)}` +
        `?secret=${setup.body.secret}&issuer=HCP%20Portal`,
      qr: { size: expect.any(Number), path: expect.stringMatching(/^(M\d+ \d+h1v1h-1z)+$/) },
    });
    expect(setup.body.qr.size).toBeGreaterThanOrEqual(29);

    const wrong = await api.request('POST', '/api/auth/totp/confirm', {
      token: account.token,
      body: { setupToken: setup.body.setupToken, code: '000000' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.issues).toEqual([{ field: 'code', message: expect.stringMatching(/^The code is not correct/) }]);

    const confirmed = await api.request('POST', '/api/auth/totp/confirm', {
      token: account.token,
      body: { setupToken: setup.body.setupToken, code: await codeAt(setup.body.secret) },
    });
    expect(confirmed.status).toBe(200);
    const codes = confirmed.body.recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){5}$/);
    expect(await api.storedData()).not.toContain(codes[0]!.replace(/-/g, ''));

    // Every session opened without the second factor is ended, this one too; a new one has it (ASVS 7.2.4).
    expect((await api.request('GET', '/api/auth/me', { token: elsewhere.body.token })).status).toBe(401);
    expect((await api.request('GET', '/api/auth/me', { token: account.token })).status).toBe(401);
    const token = confirmed.body.token as string;
    const security = await api.request('GET', '/api/auth/security', { token });
    expect(security.body).toMatchObject({
      hasPassword: true,
      totp: { createdAt: clock.toISOString() },
      recoveryCodesLeft: 10,
      passkeys: [],
    });
    const audit = (await api.auditLines()).filter((line) => line.actor === account.user.id).map((line) => line.action);
    expect(audit).toEqual(expect.arrayContaining(['mfa.totp.enable', 'session.end.second_factor_added']));
    // Set up already: another setup is refused until it is removed.
    expect((await api.request('POST', '/api/auth/totp/setup', { token })).status).toBe(409);
  });

  it('sign-in asks for it after the password; a valid code signs in, the same code again is refused', async () => {
    const account = await withAuthenticatorApp();
    tick(30); // the code of the setup's time step is used: the next one
    const sessions = await sessionCount(api);
    const first = await passwordStep(account);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      secondFactor: { mfaToken: expect.stringMatching(/^[\w-]{43}$/), methods: ['totp', 'recovery_code'] },
    });
    expect(await sessionCount(api)).toBe(sessions); // no session before the second factor

    const code = await codeAt(account.secret);
    const signedIn = await api.request('POST', '/api/auth/signin/second-factor', {
      body: { mfaToken: first.body.secondFactor.mfaToken, method: 'totp', code },
    });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toEqual({ token: expect.any(String), user: account.user });
    expect(
      (await api.request('GET', '/api/auth/sessions', { token: signedIn.body.token })).body.sessions[0],
    ).toMatchObject({
      method: 'password+totp',
      current: true,
    });

    // The same code again (a new password step, within the same 30 s): refused.
    const again = await passwordStep(account);
    const replay = await api.request('POST', '/api/auth/signin/second-factor', {
      body: { mfaToken: again.body.secondFactor.mfaToken, method: 'totp', code },
    });
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual({
      message: 'The code is not correct, or was already used. Enter the current code.',
      issues: [{ field: 'code', message: 'The code is not correct, or was already used. Enter the current code.' }],
    });
    // The next code, on the same challenge (a second try), signs in.
    tick(30);
    const next = await api.request('POST', '/api/auth/signin/second-factor', {
      body: { mfaToken: again.body.secondFactor.mfaToken, method: 'totp', code: await codeAt(account.secret) },
    });
    expect(next.status).toBe(200);
    // A code of an earlier step, still inside the ±30 s window, is refused: its step is not after the last.
    const late = await passwordStep(account);
    const earlier = await codeAt(account.secret, new Date(clock.getTime() - 30_000));
    expect(
      (
        await api.request('POST', '/api/auth/signin/second-factor', {
          body: { mfaToken: late.body.secondFactor.mfaToken, method: 'totp', code: earlier },
        })
      ).status,
    ).toBe(401);
  });

  it('a recovery code works once, in any case and spacing', async () => {
    const account = await withAuthenticatorApp();
    const [code] = account.recoveryCodes;
    const step = await passwordStep(account);
    const used = await api.request('POST', '/api/auth/signin/second-factor', {
      body: { mfaToken: step.body.secondFactor.mfaToken, method: 'recovery_code', code: ` ${code!.toLowerCase()} ` },
    });
    expect(used.status).toBe(200);
    expect(used.body).toEqual({ token: expect.any(String), user: account.user, recoveryCodesLeft: 9 });
    const again = await passwordStep(account);
    const reused = await api.request('POST', '/api/auth/signin/second-factor', {
      body: { mfaToken: again.body.secondFactor.mfaToken, method: 'recovery_code', code },
    });
    expect(reused.status).toBe(401);
    expect(reused.body.message).toBe('The recovery code is not correct, or was already used.');
    const audit = (await api.auditLines()).filter((line) => line.actor === account.user.id);
    expect(audit.filter((line) => line.action === 'mfa.recovery_code.use')).toHaveLength(1);
    expect(audit.filter((line) => line.action === 'user.signin.recovery_code').map((line) => line.outcome)).toEqual([
      'success',
      'failure',
    ]);
  });

  it('the second step expires 5 minutes after the password; an unknown token is refused alike', async () => {
    const account = await withAuthenticatorApp();
    const step = await passwordStep(account);
    tick(5 * 60 + 1);
    for (const mfaToken of [step.body.secondFactor.mfaToken, 'x'.repeat(43)]) {
      const answer = await api.request('POST', '/api/auth/signin/second-factor', {
        body: { mfaToken, method: 'totp', code: await codeAt(account.secret) },
      });
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({
        message: 'This sign-in has expired. Please enter your e-mail and password again.',
      });
    }
  });

  it('wrong codes count toward the sign-in lock-out: locked, even the right code is refused', async () => {
    const limited = await startTestApi({ now: () => clock, limiter: createSignInLimiter({ perAccount: 3 }) });
    try {
      const account = await withAuthenticatorApp(limited);
      tick(30);
      const step = await passwordStep(account, limited);
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const wrong = await limited.request('POST', '/api/auth/signin/second-factor', {
          body: { mfaToken: step.body.secondFactor.mfaToken, method: 'totp', code: '123456' },
        });
        expect(wrong.status).toBe(401);
      }
      const right = await limited.request('POST', '/api/auth/signin/second-factor', {
        body: { mfaToken: step.body.secondFactor.mfaToken, method: 'totp', code: await codeAt(account.secret) },
      });
      expect(right.status).toBe(429);
      expect(right.body.message).toMatch(/^Too many failed sign-in attempts/);
      expect((await passwordStep(account, limited)).status).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it('removing it asks for the password; the last factor takes the recovery codes with it', async () => {
    const account = await withAuthenticatorApp();
    const wrong = await api.request('POST', '/api/auth/second-factors/remove', {
      token: account.token,
      body: { password: 'not it at all', factor: 'totp' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.issues).toEqual([{ field: 'password', message: 'The password is not correct' }]);
    const removed = await api.request('POST', '/api/auth/second-factors/remove', {
      token: account.token,
      body: { password: account.password, factor: 'totp' },
    });
    expect(removed.status).toBe(204);
    expect((await api.request('GET', '/api/auth/security', { token: account.token })).body).toMatchObject({
      totp: null,
      recoveryCodesLeft: 0,
    });
    const signin = await passwordStep(account);
    expect(signin.body).toEqual({ token: expect.any(String), user: account.user });
    const audit = (await api.auditLines()).filter((line) => line.actor === account.user.id);
    expect(audit.map((line) => [line.action, line.outcome])).toEqual(
      expect.arrayContaining([
        ['mfa.totp.remove', 'failure'],
        ['mfa.totp.remove', 'success'],
      ]),
    );
  });

  it('new recovery codes (the password again) replace the old ones', async () => {
    const account = await withAuthenticatorApp();
    const renewed = await api.request('POST', '/api/auth/recovery-codes', {
      token: account.token,
      body: { password: account.password },
    });
    expect(renewed.status).toBe(200);
    expect(renewed.body.recoveryCodes).toHaveLength(10);
    const step = await passwordStep(account);
    const old = await api.request('POST', '/api/auth/signin/second-factor', {
      body: { mfaToken: step.body.secondFactor.mfaToken, method: 'recovery_code', code: account.recoveryCodes[0] },
    });
    expect(old.status).toBe(401);
    const fresh = await api.request('POST', '/api/auth/signin/second-factor', {
      body: { mfaToken: step.body.secondFactor.mfaToken, method: 'recovery_code', code: renewed.body.recoveryCodes[0] },
    });
    expect(fresh.status).toBe(200);
  });
});

describe('passkeys (WebAuthn)', () => {
  it('enrols with user verification, then signs in; a signature counter of 0 is accepted every time', async () => {
    const account = await api.signUp();
    const authenticator = new SoftAuthenticator(api.url);
    const options = await api.request('POST', '/api/auth/passkeys/options', {
      token: account.token,
      body: { password: account.password },
    });
    expect(options.status).toBe(200);
    expect(options.body.options).toMatchObject({
      rp: { name: 'HCP Portal', id: '127.0.0.1' },
      user: { name: account.email, displayName: account.user.name },
      attestation: 'none',
      authenticatorSelection: { userVerification: 'required', residentKey: 'preferred' },
    });
    const created = await api.request('POST', '/api/auth/passkeys', {
      token: account.token,
      body: { setupToken: options.body.setupToken, credential: authenticator.register(options.body.options) },
    });
    expect(created.status).toBe(201);
    expect(created.body.passkey).toEqual({
      id: expect.any(String),
      name: 'Passkey 1',
      createdAt: clock.toISOString(),
      lastUsedAt: null,
    });
    expect(created.body.recoveryCodes).toHaveLength(10);

    for (let round = 0; round < 2; round += 1) {
      const step = await passwordStep(account);
      expect(step.body.secondFactor.methods).toEqual(['passkey', 'recovery_code']);
      const challenge = await api.request('POST', '/api/auth/signin/passkey-options', {
        body: { mfaToken: step.body.secondFactor.mfaToken },
      });
      expect(challenge.body.options).toMatchObject({
        userVerification: 'required',
        allowCredentials: [{ id: created.body.passkey.id }],
      });
      const signedIn = await api.request('POST', '/api/auth/signin/second-factor', {
        body: {
          mfaToken: step.body.secondFactor.mfaToken,
          method: 'passkey',
          credential: authenticator.authenticate(challenge.body.options),
        },
      });
      expect(signedIn.status).toBe(200);
      expect(signedIn.body.user).toEqual(account.user);
    }
    const security = await api.request('GET', '/api/auth/security', { token: created.body.token });
    expect(security.body.passkeys).toEqual([{ ...created.body.passkey, lastUsedAt: clock.toISOString() }]);
  });

  it('refuses a passkey without user verification, and an answer to another challenge', async () => {
    const account = await api.signUp();
    const noPin = new SoftAuthenticator(api.url, { userVerified: false });
    const proof = { password: account.password };
    const options = await api.request('POST', '/api/auth/passkeys/options', { token: account.token, body: proof });
    const refused = await api.request('POST', '/api/auth/passkeys', {
      token: account.token,
      body: { setupToken: options.body.setupToken, credential: noPin.register(options.body.options) },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('The passkey could not be verified. Please try again.');

    const counting = new SoftAuthenticator(api.url, { counting: true });
    const again = await api.request('POST', '/api/auth/passkeys/options', { token: account.token, body: proof });
    expect(
      (
        await api.request('POST', '/api/auth/passkeys', {
          token: account.token,
          body: {
            setupToken: again.body.setupToken,
            credential: counting.register(again.body.options),
            name: 'Ward PC',
          },
        })
      ).status,
    ).toBe(201);
    const step = await passwordStep(account);
    const challenge = await api.request('POST', '/api/auth/signin/passkey-options', {
      body: { mfaToken: step.body.secondFactor.mfaToken },
    });
    const answer = counting.authenticate(challenge.body.options);
    const first = await api.request('POST', '/api/auth/signin/second-factor', {
      body: { mfaToken: step.body.secondFactor.mfaToken, method: 'passkey', credential: answer },
    });
    expect(first.status).toBe(200);
    // The same answer again, on a new sign-in: another challenge (and a counter not going up).
    const next = await passwordStep(account);
    await api.request('POST', '/api/auth/signin/passkey-options', {
      body: { mfaToken: next.body.secondFactor.mfaToken },
    });
    const replayed = await api.request('POST', '/api/auth/signin/second-factor', {
      body: { mfaToken: next.body.secondFactor.mfaToken, method: 'passkey', credential: answer },
    });
    expect(replayed.status).toBe(401);
    expect(replayed.body).toEqual({ message: 'The passkey could not be verified. Please try again.' });
  });

  it('an account made by single sign-on has no password, and so no second factors here', async () => {
    const user = { id: crypto.randomUUID(), email: 'sso.only@hospital.example', name: 'SSO Only', license: null };
    await api.store.createUserWithIdentity(
      { ...user, passwordHash: null, createdAt: clock.toISOString() },
      { issuer: 'https://idp.example', subject: 'sso-only', userId: user.id, createdAt: clock.toISOString() },
    );
    const signin = await passwordStep({ email: user.email, password: 'anything at all' });
    expect(signin.status).toBe(401);
    expect(signin.body).toEqual({ message: 'Invalid e-mail or password' });
  });
});

describe('REQUIRE_MFA=true', () => {
  let strict: TestApi;
  beforeAll(async () => {
    strict = await startTestApi({ now: () => clock, auth: { requireMfa: true } });
  });
  afterAll(() => strict?.close());

  it('keeps a password account without a second factor out of patient data, with a clear 403', async () => {
    const account = await strict.signUp();
    const expected = {
      message:
        'Your hospital requires a second factor for accounts with a password. Set up an authenticator app or a ' +
        'passkey in your profile to open patient data.',
      code: 'second_factor_required',
    };
    for (const path of ['/api/patients', '/api/history', '/api/exports', `/api/history/${crypto.randomUUID()}/fhir`]) {
      const answer = await strict.request('GET', path, { token: account.token });
      expect([path, answer.status, answer.body]).toEqual([path, 403, expected]);
    }
    const created = await strict.request('POST', '/api/patients', { token: account.token, body: { displayName: 'A' } });
    expect(created.status).toBe(403);
    const run = { toolType: 'roi_calculator', inputs: ROI_INPUTS };
    // A tool run without a patient still works; one naming a patient does not.
    expect((await strict.request('POST', '/api/tools/run', { token: account.token, body: run })).status).toBe(200);
    const named = await strict.request('POST', '/api/tools/run', {
      token: account.token,
      body: { ...run, patientId: crypto.randomUUID() },
    });
    expect(named.status).toBe(403);
    expect((await strict.request('GET', '/api/auth/security', { token: account.token })).body).toMatchObject({
      requireMfa: true,
      secondFactorNeeded: true,
    });

    // Set up: the session opened in place of this one, with the factor, reaches patient data.
    const setup = await strict.request('POST', '/api/auth/totp/setup', {
      token: account.token,
      body: { password: account.password },
    });
    const confirmed = await strict.request('POST', '/api/auth/totp/confirm', {
      token: account.token,
      body: { setupToken: setup.body.setupToken, code: await codeAt(setup.body.secret) },
    });
    const token = confirmed.body.token as string;
    expect((await strict.request('GET', '/api/patients', { token })).status).toBe(200);
    expect((await strict.request('GET', '/api/auth/security', { token })).body.secondFactorNeeded).toBe(false);
  });

  const PASSWORD_ONLY = 'second_factor_required';
  const PROVIDER_ONE_FACTOR = 'provider_second_factor_required';

  /** A new account's session as the store keeps it, opened by `method`, and its token. */
  async function sessionOpenedBy(method: string) {
    const { user } = await strict.signUp();
    const id = crypto.randomUUID();
    const at = clock.toISOString();
    await strict.store.createSession({
      id,
      userId: user.id,
      createdAt: at,
      expiresAt: new Date(clock.getTime() + 60 * 60_000).toISOString(),
      revokedAt: null,
      lastUsedAt: at,
      device: null,
      // the last case is a method this release does not know: the store keeps the text as written
      method: method as SessionMethod,
      oidc: null,
    });
    return signSessionToken(strict.jwtKey, { userId: user.id, sessionId: id }, clock);
  }

  it.each([
    ['password', 403, PASSWORD_ONLY],
    ['password+totp', 200, undefined],
    ['password+recovery', 200, undefined],
    ['password+passkey', 200, undefined],
    // The hospital's sign-in and a launch from the EHR: as their ID token showed (auth/provider-factors.ts).
    ['oidc', 403, PROVIDER_ONE_FACTOR],
    ['oidc+mfa', 200, undefined],
    ['smart', 403, PROVIDER_ONE_FACTOR],
    ['smart+mfa', 200, undefined],
    // Written by a newer release and read by this one (after a rollback): refused as a password alone.
    ['totp-only', 403, PASSWORD_ONLY],
  ])('a session opened by %s: patient data answers %s %s', async (method, status, code) => {
    const token = await sessionOpenedBy(method);
    const patients = await strict.request('GET', '/api/patients', { token });
    expect([patients.status, patients.body.code]).toEqual([status, code]);
    // A tool run for a patient asks the same (tools/routes.ts); the patient does not exist: 404 once let in.
    const run = { toolType: 'roi_calculator', inputs: ROI_INPUTS, patientId: crypto.randomUUID() };
    const named = await strict.request('POST', '/api/tools/run', { token, body: run });
    expect([named.status, named.body.code]).toEqual([status === 200 ? 404 : 403, code]);
  });

  it('a provider session without a second factor is told to use the provider’s, not to set one up here', async () => {
    const token = await sessionOpenedBy('oidc');
    const answer = await strict.request('GET', '/api/history', { token });
    expect([answer.status, answer.body]).toEqual([
      403,
      {
        message:
          'Your hospital requires a second factor, and this sign-in did not use one. ' +
          "Sign in again with the hospital's second factor; if it offers none, ask IT.",
        code: PROVIDER_ONE_FACTOR,
      },
    ]);
    // The profile is not where it gets one: the widgets open it only when secondFactorNeeded says so.
    expect((await strict.request('GET', '/api/auth/security', { token })).body).toMatchObject({
      requireMfa: true,
      secondFactorNeeded: false,
    });
    // Without a patient, the tools still run.
    const run = { toolType: 'roi_calculator', inputs: ROI_INPUTS };
    expect((await strict.request('POST', '/api/tools/run', { token, body: run })).status).toBe(200);
  });
});
