import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COMMON_NEW_PASSWORD_MESSAGE,
  RECOVERY_CODE_REQUIRED_MESSAGE,
  SECOND_FACTOR_LOCKED_MESSAGE,
} from '../messages.ts';
import { startTestApi, type TestApi } from '../test-support/test-api.ts';
import { MAX_SECOND_FACTOR_FAILURES } from './mfa/failure-cap.ts';
import { normaliseRecoveryCode, recoveryCodeHash } from './mfa/recovery-codes.ts';

// Security review 1, L2 (recovery codes of 120 bits), L3 (a cap on failed second factors in a row), L4 (new
// passwords against a list of common ones) and L5 ("Keep my account" only after the second factor). On each store
// (the node-postgres project runs it again).
let clock = new Date('2026-06-01T08:00:00.000Z');
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ now: () => clock, accountDeletionGraceDays: 30 });
});
afterAll(() => api?.close());

const tick = (seconds: number) => (clock = new Date(clock.getTime() + seconds * 1000));
const codeAt = (secret: string, at = clock) => generate({ secret, epoch: Math.floor(at.getTime() / 1000) });
const CROCKFORD = '[0-9A-HJKMNP-TV-Z]';

/** A new account with an authenticator app: its secret, recovery codes and the session opened with the factor. */
async function withAuthenticatorApp() {
  const account = await api.signUp();
  const setup = await api.request('POST', '/api/auth/totp/setup', {
    token: account.token,
    body: { password: account.password },
  });
  const confirmed = await api.request('POST', '/api/auth/totp/confirm', {
    token: account.token,
    body: { setupToken: setup.body.setupToken, code: await codeAt(setup.body.secret) },
  });
  expect(confirmed.status).toBe(200);
  tick(30); // the setup's code used its time step
  return {
    ...account,
    token: confirmed.body.token as string,
    secret: setup.body.secret as string,
    recoveryCodes: confirmed.body.recoveryCodes as string[],
  };
}

type Account = Awaited<ReturnType<typeof withAuthenticatorApp>>;

const passwordStep = (account: Account, extra: Record<string, unknown> = {}) =>
  api.request('POST', '/api/auth/signin', { body: { email: account.email, password: account.password, ...extra } });
const secondStep = (mfaToken: string, method: string, code?: string) =>
  api.request('POST', '/api/auth/signin/second-factor', { body: { mfaToken, method, code } });
const failures = (account: Account) => api.store.secondFactorFailures(account.user.id);
/** The account's count brought to `count` failures in a row, as the sign-in would have counted them. */
async function failedTimes(account: Account, count: number) {
  for (let index = (await failures(account)) + 1; index <= count; index += 1)
    expect(await api.store.recordSecondFactorFailure(account.user.id, clock.toISOString())).toBe(index);
}
const actions = async (account: Account) =>
  (await api.auditLines())
    .filter((line) => line.actor === account.user.id)
    .map((line) => `${line.action} ${line.outcome}`);

describe('recovery codes of 120 bits (L2)', () => {
  it('ten codes of 24 Crockford letters, in six groups of four; the store holds none of them', async () => {
    const { recoveryCodes } = await withAuthenticatorApp();
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(new RegExp(`^${CROCKFORD}{4}(-${CROCKFORD}{4}){5}$`));
    const stored = await api.storedData();
    for (const code of recoveryCodes) expect(stored).not.toContain(code.replace(/-/g, ''));
    expect(await api.findStored(recoveryCodeHash(normaliseRecoveryCode(recoveryCodes[0])!))).not.toEqual([]);
  });

  it('a code of an earlier release (16 letters, 80 bits) still signs in, once; other lengths never', async () => {
    const account = await withAuthenticatorApp();
    const earlier = 'ABCD-EFGH-JKMN-PQRS';
    // what an earlier release stored for its codes: the same hash of the normalised code
    const changed = await api.store.changeSecondFactors({
      userId: account.user.id,
      at: clock.toISOString(),
      recoveryCodeHashes: [recoveryCodeHash('ABCDEFGHJKMNPQRS'), recoveryCodeHash('A'.repeat(20))],
    });
    expect(changed).toEqual({ endedSessions: 0 });
    const twenty = await secondStep(
      (await passwordStep(account)).body.secondFactor.mfaToken,
      'recovery_code',
      'A'.repeat(20),
    );
    expect(twenty.status).toBe(401);
    const step = await passwordStep(account);
    const used = await secondStep(step.body.secondFactor.mfaToken, 'recovery_code', 'abcd efgh jkmn pqrs');
    expect([used.status, used.body.recoveryCodesLeft]).toEqual([200, 1]);
    const again = await secondStep((await passwordStep(account)).body.secondFactor.mfaToken, 'recovery_code', earlier);
    expect(again.status).toBe(401);
  });
});

describe(`at most ${MAX_SECOND_FACTOR_FAILURES} failed second factors in a row (L3, NIST SP 800-63B 5.2.2)`, () => {
  it('each wrong code is counted in the store; a second factor that succeeds clears the count', async () => {
    const account = await withAuthenticatorApp();
    const step = await passwordStep(account);
    const { mfaToken } = step.body.secondFactor;
    expect((await secondStep(mfaToken, 'totp', '000000')).status).toBe(401);
    expect((await secondStep(mfaToken, 'recovery_code', 'ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZ')).status).toBe(401);
    expect(await failures(account)).toBe(2);
    // another sign-in goes on counting: the count is the account's, not the step's
    const next = (await passwordStep(account)).body.secondFactor.mfaToken;
    expect((await secondStep(next, 'totp', '000000')).status).toBe(401);
    expect(await failures(account)).toBe(3);
    const signedIn = await secondStep(next, 'totp', await codeAt(account.secret));
    expect(signedIn.status).toBe(200);
    expect(await failures(account)).toBe(0);
  });

  it(`past ${MAX_SECOND_FACTOR_FAILURES}: no code of the app or passkey, only a recovery code`, async () => {
    const account = await withAuthenticatorApp();
    await failedTimes(account, MAX_SECOND_FACTOR_FAILURES - 1);
    const first = (await passwordStep(account)).body.secondFactor;
    expect(first.methods).toEqual(['totp', 'recovery_code']);
    expect((await secondStep(first.mfaToken, 'totp', '000000')).status).toBe(401); // the 100th
    expect(await failures(account)).toBe(MAX_SECOND_FACTOR_FAILURES);

    const capped = (await passwordStep(account)).body.secondFactor;
    expect(capped.methods).toEqual(['recovery_code']);
    // The right code is refused unchecked: no guess is spent, and nothing is counted.
    const right = await secondStep(capped.mfaToken, 'totp', await codeAt(account.secret));
    expect([right.status, right.body]).toEqual([
      403,
      { message: RECOVERY_CODE_REQUIRED_MESSAGE, code: 'recovery_code_required' },
    ]);
    const passkey = await api.request('POST', '/api/auth/signin/passkey-options', {
      body: { mfaToken: capped.mfaToken },
    });
    expect([passkey.status, passkey.body.code]).toEqual([403, 'recovery_code_required']);
    expect(await failures(account)).toBe(MAX_SECOND_FACTOR_FAILURES);

    // The same step goes on with a recovery code; it signs in and clears the count.
    const recovered = await secondStep(capped.mfaToken, 'recovery_code', account.recoveryCodes[0]);
    expect([recovered.status, recovered.body.recoveryCodesLeft]).toEqual([200, 9]);
    expect(await failures(account)).toBe(0);
    tick(30);
    const open = (await passwordStep(account)).body.secondFactor;
    expect(open.methods).toEqual(['totp', 'recovery_code']);
    expect((await secondStep(open.mfaToken, 'totp', await codeAt(account.secret))).status).toBe(200);
    expect(await actions(account)).toEqual(
      expect.arrayContaining(['user.signin.totp denied', 'user.signin.recovery_code success']),
    );
  });

  it('with no recovery code left either: 403 at the password step, and nothing opens', async () => {
    const account = await withAuthenticatorApp();
    await api.store.changeSecondFactors({ userId: account.user.id, at: clock.toISOString(), recoveryCodeHashes: [] });
    await failedTimes(account, MAX_SECOND_FACTOR_FAILURES);
    const refused = await passwordStep(account);
    expect([refused.status, refused.body]).toEqual([
      403,
      { message: SECOND_FACTOR_LOCKED_MESSAGE, code: 'second_factor_locked' },
    ]);
    expect(await actions(account)).toContain('user.signin.password denied');
  });

  it('confirming the clinician again counts too, and past the cap takes only a recovery code', async () => {
    const account = await withAuthenticatorApp();
    const endOthers = (body: Record<string, unknown>) =>
      api.request('POST', '/api/auth/sessions/end-others', {
        token: account.token,
        body: { password: account.password, ...body },
      });
    expect((await endOthers({ factor: 'totp', code: '000000' })).status).toBe(400);
    expect(await failures(account)).toBe(1);
    await failedTimes(account, MAX_SECOND_FACTOR_FAILURES);
    const right = await endOthers({ factor: 'totp', code: await codeAt(account.secret) });
    expect([right.status, right.body.code]).toEqual([403, 'recovery_code_required']);
    const recovered = await endOthers({ factor: 'recovery_code', code: account.recoveryCodes[1] });
    expect(recovered.status).toBe(200);
    expect(await failures(account)).toBe(0);
  });
});

describe('"Keep my account" only after the second factor (L5)', () => {
  it('the password alone does not cancel the deletion; the second factor does', async () => {
    const account = await withAuthenticatorApp();
    const deleted = await api.request('DELETE', '/api/account', {
      token: account.token,
      body: { password: account.password },
    });
    expect(deleted.status).toBe(204);
    const pending = async () => (await api.store.findUserById(account.user.id))?.deletion;
    expect(await pending()).toBeDefined();

    const step = await passwordStep(account, { cancelDeletion: true });
    expect(step.status).toBe(200);
    expect(step.body.secondFactor.methods).toEqual(['totp', 'recovery_code']);
    expect(await pending()).toBeDefined(); // was: cancelled here, with the password alone
    expect((await secondStep(step.body.secondFactor.mfaToken, 'totp', '000000')).status).toBe(401);
    expect(await pending()).toBeDefined();
    expect(await actions(account)).not.toContain('account.deletion_cancel success');

    const kept = await secondStep(step.body.secondFactor.mfaToken, 'totp', await codeAt(account.secret));
    expect(kept.status).toBe(200);
    expect(await pending()).toBeUndefined();
    expect((await api.request('GET', '/api/auth/me', { token: kept.body.token })).status).toBe(200);
    expect(await actions(account)).toContain('account.deletion_cancel success');
  });

  it('a second step begun before the deletion was asked for opens no session of the pending account', async () => {
    const account = await withAuthenticatorApp();
    const step = await passwordStep(account);
    const deleted = await api.request('DELETE', '/api/account', {
      token: account.token,
      body: { password: account.password },
    });
    expect(deleted.status).toBe(204);
    const late = await secondStep(step.body.secondFactor.mfaToken, 'totp', await codeAt(account.secret));
    expect([late.status, late.body.code]).toEqual([403, 'account_deletion_pending']);
    expect((await api.store.findUserById(account.user.id))?.deletion).toBeDefined();
  });
});

describe('a new password on the list of common and leaked ones (L4)', () => {
  it('a password change to one is a 400 on newPassword, and changes nothing', async () => {
    const account = await api.signUp();
    const changed = await api.request('POST', '/api/auth/password', {
      token: account.token,
      body: { currentPassword: account.password, newPassword: 'Password123' },
    });
    expect([changed.status, changed.body]).toEqual([
      400,
      {
        message: COMMON_NEW_PASSWORD_MESSAGE,
        issues: [{ field: 'newPassword', message: COMMON_NEW_PASSWORD_MESSAGE }],
      },
    ]);
    const signIn = await api.request('POST', '/api/auth/signin', {
      body: { email: account.email, password: account.password },
    });
    expect(signIn.status).toBe(200);
  });
});
