import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EHR_PATIENT_ID } from '../test-support/smart-ehr.ts';
import { launched, pair, type Pair } from '../test-support/smart-pair.ts';

// A launch from the EHR opens a session of its own method, `smart`, which REQUIRE_MFA takes as two-factor only
// when the EHR's ID token shows a second factor (auth/provider-factors.ts: OIDC_REQUIRED_AMR, OIDC_REQUIRED_ACR),
// as for the hospital's single sign-on (oidc/single-sign-on.test.ts). The stand-in EHR's ID token carries no
// `amr` or `acr`, as SMART's reference launcher's: one factor.

const PROVIDER_ONE_FACTOR = {
  message:
    "Your hospital requires a second factor, and this sign-in did not use one. Sign in again with the hospital's " +
    'second factor; if it offers none, ask IT.',
  code: 'provider_second_factor_required',
};

describe('REQUIRE_MFA=true: a launch whose ID token shows no second factor', () => {
  let strict: Pair;
  beforeAll(async () => {
    strict = await pair({}, { requireMfa: true });
  });
  afterAll(() => strict?.close());

  it('opens a smart session, refused the launch context and the patient data with its own 403', async () => {
    const opened = await launched(strict, strict.ehr, { patient: EHR_PATIENT_ID });
    const { token } = opened;
    // The hand-over itself answers (the page needs the session), with the launch's patient.
    expect(opened.ehr.patient.displayName).toBe('Layla Al-Harbi');
    const listed = await strict.api.request('GET', '/api/auth/sessions', { token });
    expect(listed.body.sessions).toEqual([expect.objectContaining({ method: 'smart', current: true })]);
    for (const path of ['/api/smart/context', '/api/patients', '/api/history']) {
      const answer = await strict.api.request('GET', path, { token });
      expect([path, answer.status, answer.body]).toEqual([path, 403, PROVIDER_ONE_FACTOR]);
    }
    const sent = await strict.api.request('POST', '/api/smart/send', {
      token,
      body: { calculationId: crypto.randomUUID() },
    });
    expect([sent.status, sent.body]).toEqual([403, PROVIDER_ONE_FACTOR]);
    // Not sent to the profile to set up a factor there: the EHR's sign-in is where one comes from.
    expect((await strict.api.request('GET', '/api/auth/security', { token })).body).toMatchObject({
      requireMfa: true,
      secondFactorNeeded: false,
    });
    // The sign-in is audited as before: a SMART sign-in that opened this session.
    const [line] = (await strict.api.auditLines()).filter((entry) => entry.action === 'user.signin.smart');
    expect(line).toMatchObject({ actor: opened.user.id, outcome: 'success', recordType: 'session' });
  });

  it('an EHR whose ID token has amr mfa opens a smart+mfa session that reaches the launch context', async () => {
    const twoFactor = await pair({}, { requireMfa: true, ehr: { idTokenAuthentication: { amr: ['pwd', 'mfa'] } } });
    try {
      const { token } = await launched(twoFactor, twoFactor.ehr, { patient: EHR_PATIENT_ID });
      const listed = await twoFactor.api.request('GET', '/api/auth/sessions', { token });
      expect(listed.body.sessions).toEqual([expect.objectContaining({ method: 'smart+mfa', current: true })]);
      const context = await twoFactor.api.request('GET', '/api/smart/context', { token });
      expect([context.status, context.body.patient?.displayName]).toEqual([200, 'Layla Al-Harbi']);
      expect((await twoFactor.api.request('GET', '/api/patients', { token })).status).toBe(200);
    } finally {
      await twoFactor.close();
    }
  });
});

describe('without REQUIRE_MFA', () => {
  let open: Pair;
  beforeAll(async () => {
    open = await pair();
  });
  afterAll(() => open?.close());

  it('the session is smart too, and reaches the launch context', async () => {
    const { token } = await launched(open, open.ehr, { patient: EHR_PATIENT_ID });
    const listed = await open.api.request('GET', '/api/auth/sessions', { token });
    expect(listed.body.sessions).toEqual([expect.objectContaining({ method: 'smart', current: true })]);
    const context = await open.api.request('GET', '/api/smart/context', { token });
    expect([context.status, context.body.patient?.displayName]).toEqual([200, 'Layla Al-Harbi']);
  });

  it('a launch under 10 minutes old stands for the clinician again: the account it made may be deleted', async () => {
    const { token, user } = await launched(open, open.ehr, { patient: EHR_PATIENT_ID }, 'dr.leaving.soon');
    expect((await open.api.request('DELETE', '/api/account', { token, body: {} })).status).toBe(204);
    expect(await open.api.store.findUserById(user.id)).toBeUndefined();
  });
});
