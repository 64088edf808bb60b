import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SoftAuthenticator } from '../test-support/soft-authenticator.ts';
import { startTestApi, type TestApi } from '../test-support/test-api.ts';

// Security review 1, items of issue 44 part 3: a session token alone (copied from the browser, a shared computer)
// cannot change how the account signs in. Adding a second factor asks for the password and, when there is one,
// the existing second factor; so do "Sign out of all other sessions" and ending another session (ASVS 5.0 6.4.3,
// 7.5.2); adding a factor ends every session and opens a new one (7.2.4). On each store.

let api: TestApi;
/** The authenticator's clock: each test moves it on, so each code is a new time step. */
let clock = new Date('2026-12-01T10:00:00Z');
const tick = () => (clock = new Date(clock.getTime() + 31_000));
const codeAt = (secret: string) => generate({ secret, epoch: Math.floor(clock.getTime() / 1000) });

beforeAll(async () => {
  api = await startTestApi({ now: () => clock });
});
afterAll(() => api?.close());

const PASSWORD = 'correct horse battery';
const post = (path: string, token: string, body?: unknown) => api.request('POST', path, { token, body });

/** A password account with an authenticator app set up (through the proof), and the session it now holds. */
async function withAuthenticatorApp() {
  const account = await api.signUp();
  const setup = await post('/api/auth/totp/setup', account.token, { password: PASSWORD });
  expect(setup.status).toBe(200);
  tick();
  const confirmed = await post('/api/auth/totp/confirm', account.token, {
    setupToken: setup.body.setupToken,
    code: await codeAt(setup.body.secret),
  });
  expect(confirmed.status).toBe(200);
  return { ...account, token: confirmed.body.token as string, secret: setup.body.secret as string, confirmed };
}

describe('adding a second factor asks for the clinician again', () => {
  it('a token alone cannot start an authenticator app; the password can; a wrong one counts as a failure', async () => {
    const account = await api.signUp();
    const bare = await post('/api/auth/totp/setup', account.token);
    expect(bare.status).toBe(400);
    expect(bare.body).toMatchObject({
      message: 'Enter your password to confirm',
      issues: [{ field: 'password', message: 'Enter your password to confirm' }],
    });
    const wrong = await post('/api/auth/totp/setup', account.token, { password: 'not the password' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.issues).toEqual([{ field: 'password', message: 'The password is not correct' }]);
    expect((await post('/api/auth/passkeys/options', account.token)).status).toBe(400);
    const right = await post('/api/auth/totp/setup', account.token, { password: PASSWORD });
    expect(right.status).toBe(200);
    expect(right.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    const audit = (await api.auditLines()).filter((line) => line.actor === account.user.id);
    expect(audit.map((line) => [line.action, line.outcome])).toContainEqual(['mfa.totp.enable', 'failure']);
  });

  it('with an authenticator app already: a passkey is added only with the password and a current code', async () => {
    const account = await withAuthenticatorApp();
    const passwordOnly = await post('/api/auth/passkeys/options', account.token, { password: PASSWORD });
    expect(passwordOnly.status).toBe(400);
    expect(passwordOnly.body).toEqual({
      message: 'Confirm with your second factor too: a code from your authenticator app, a passkey or a recovery code.',
      issues: [
        {
          field: 'code',
          message:
            'Confirm with your second factor too: a code from your authenticator app, a passkey or a recovery code.',
        },
      ],
    });
    const badCode = await post('/api/auth/passkeys/options', account.token, {
      password: PASSWORD,
      factor: 'totp',
      code: '000000',
    });
    expect(badCode.status).toBe(400);
    expect(badCode.body.issues[0].field).toBe('code');
    tick();
    const code = await codeAt(account.secret);
    const proven = await post('/api/auth/passkeys/options', account.token, {
      password: PASSWORD,
      factor: 'totp',
      code,
    });
    expect(proven.status).toBe(200);
    // The same code a second time (a replay within its 30 s): refused.
    const replayed = await post('/api/auth/passkeys/options', account.token, {
      password: PASSWORD,
      factor: 'totp',
      code,
    });
    expect(replayed.status).toBe(400);
  });

  it('a recovery code stands for the second factor once', async () => {
    const account = await withAuthenticatorApp();
    const [recovery] = account.confirmed.body.recoveryCodes as string[];
    const proof = { password: PASSWORD, factor: 'recovery_code', code: recovery };
    expect((await post('/api/auth/passkeys/options', account.token, proof)).status).toBe(200);
    expect((await post('/api/auth/passkeys/options', account.token, proof)).status).toBe(400);
    const security = await api.request('GET', '/api/auth/security', { token: account.token });
    expect(security.body.recoveryCodesLeft).toBe(9);
  });

  it('with a passkey only: its answer to a fresh challenge is the second factor', async () => {
    const account = await api.signUp();
    const authenticator = new SoftAuthenticator(api.url);
    const options = await post('/api/auth/passkeys/options', account.token, { password: PASSWORD });
    const created = await post('/api/auth/passkeys', account.token, {
      setupToken: options.body.setupToken,
      credential: authenticator.register(options.body.options),
    });
    expect(created.status).toBe(201);
    const token = created.body.token as string;
    expect((await post('/api/auth/totp/setup', token, { password: PASSWORD })).status).toBe(400);
    const challenge = await post('/api/auth/step-up/passkey-options', token);
    expect(challenge.status).toBe(200);
    expect(challenge.body.options).toMatchObject({ userVerification: 'required' });
    const credential = authenticator.authenticate(challenge.body.options);
    const setup = await post('/api/auth/totp/setup', token, { password: PASSWORD, factor: 'passkey', credential });
    expect(setup.status).toBe(200);
    // That answer is spent: the challenge is good once.
    const again = await post('/api/auth/totp/setup', token, { password: PASSWORD, factor: 'passkey', credential });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('The passkey could not be verified. Please try again.');
  });
});

describe('adding a second factor renews the session (ASVS 7.2.4)', () => {
  it('every session of the account ends, the one it was added in too; the new token carries the factor', async () => {
    const account = await api.signUp();
    const other = await api.request('POST', '/api/auth/signin', { body: { email: account.email, password: PASSWORD } });
    const setup = await post('/api/auth/totp/setup', account.token, { password: PASSWORD });
    tick();
    const confirmed = await post('/api/auth/totp/confirm', account.token, {
      setupToken: setup.body.setupToken,
      code: await codeAt(setup.body.secret),
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({
      recoveryCodes: expect.arrayContaining([expect.any(String)]),
      token: expect.any(String),
      user: account.user,
    });
    expect(confirmed.body.token).not.toBe(account.token);
    for (const old of [account.token, other.body.token])
      expect((await api.request('GET', '/api/auth/me', { token: old })).status).toBe(401);
    const sessions = await api.request('GET', '/api/auth/sessions', { token: confirmed.body.token });
    expect(sessions.body.sessions.map((session: any) => [session.method, session.current])).toEqual([
      ['password+totp', true],
    ]);
  });
});

describe('signing other sessions out asks for the clinician again (ASVS 7.5.2)', () => {
  it('"Sign out of all other sessions": nothing ends without the password and the second factor', async () => {
    const account = await withAuthenticatorApp();
    const signIn = async () => {
      const step = await api.request('POST', '/api/auth/signin', {
        body: { email: account.email, password: PASSWORD },
      });
      tick();
      return api.request('POST', '/api/auth/signin/second-factor', {
        body: { mfaToken: step.body.secondFactor.mfaToken, method: 'totp', code: await codeAt(account.secret) },
      });
    };
    const other = await signIn();
    expect(other.status).toBe(200);
    for (const proof of [undefined, { password: PASSWORD }, { password: 'wrong', factor: 'totp', code: '123456' }]) {
      const refused = await post('/api/auth/sessions/end-others', account.token, proof);
      expect(refused.status).toBe(400);
    }
    expect((await api.request('GET', '/api/auth/me', { token: other.body.token })).status).toBe(200);
    tick();
    const ended = await post('/api/auth/sessions/end-others', account.token, {
      password: PASSWORD,
      factor: 'totp',
      code: await codeAt(account.secret),
    });
    expect(ended.status).toBe(200);
    expect(ended.body).toEqual({ ended: 1 });
    expect((await api.request('GET', '/api/auth/me', { token: other.body.token })).status).toBe(401);
  });

  it('ending another session takes the password; ending this one is signing out and takes nothing', async () => {
    const account = await api.signUp();
    const other = await api.request('POST', '/api/auth/signin', { body: { email: account.email, password: PASSWORD } });
    const listed = await api.request('GET', '/api/auth/sessions', { token: account.token });
    const otherId = listed.body.sessions.find((session: any) => !session.current).id as string;
    const currentId = listed.body.sessions.find((session: any) => session.current).id as string;
    const bare = await api.request('DELETE', `/api/auth/sessions/${otherId}`, { token: account.token });
    expect(bare.status).toBe(400);
    expect((await api.request('GET', '/api/auth/me', { token: other.body.token })).status).toBe(200);
    const ended = await api.request('DELETE', `/api/auth/sessions/${otherId}`, {
      token: account.token,
      body: { password: PASSWORD },
    });
    expect(ended.status).toBe(204);
    expect((await api.request('GET', '/api/auth/me', { token: other.body.token })).status).toBe(401);
    const own = await api.request('DELETE', `/api/auth/sessions/${currentId}`, { token: account.token });
    expect(own.status).toBe(204);
    expect((await api.request('GET', '/api/auth/me', { token: account.token })).status).toBe(401);
  });
});
