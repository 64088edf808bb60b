import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authFlows, type AuthFlows } from '../auth/flows.ts';
import { NOTES_PDF_BYTES } from '../fhir/fhir-fixtures.test-support.ts';
import { EHR_PATIENT_ID, EHR_PATIENT_MRN } from '../test-support/smart-ehr.ts';
import { handoffOf, launched, launchFrom, pair, type Pair } from '../test-support/smart-pair.ts';

// What erasing an account and deleting a patient leave in the store: nothing that names them. Beside what
// account.test.ts checks (records, sessions, PDFs), the sign-in steps under way (api/auth/flows.ts: a hand-over not
// yet redeemed, an authenticator app being set up, a provider identity waiting to be linked by e-mail) and the EHR
// links kept under the account's sessions (the EHR's access token and the patient banner), and the Idempotency-Key
// answers that hold a deleted patient's name and MRN. The flows' data may be encrypted in the store, so each is
// looked for by its handle, as the server would find it, as well as by text. On each store (node-postgres too).

let p: Pair;
let flows: AuthFlows;
beforeAll(async () => {
  p = await pair();
  flows = authFlows(p.api.store, () => new Date());
});
afterAll(() => p?.close());

const TEN_MINUTES = 10 * 60 * 1000;

describe('erasing an account', () => {
  it('a launched clinician: its EHR links and an unredeemed hand-over go; another clinician keeps theirs', async () => {
    const erased = await launched(p, p.ehr, { patient: EHR_PATIENT_ID, need_patient_banner: true }, 'dr.erased');
    const kept = await launched(p, p.ehr, { patient: EHR_PATIENT_ID, need_patient_banner: true }, 'dr.stays');
    // a second launch of the same clinician, landed but its hand-over never redeemed
    const handoff = handoffOf(await launchFrom(p, p.ehr, { patient: EHR_PATIENT_ID }, { login: 'dr.erased' }))!;
    expect(handoff).toBeTruthy();
    const sessions = (await p.api.store.listSessions(erased.user.id)).map((session) => session.id);
    expect(sessions).toHaveLength(1);

    const deleted = await p.api.request('DELETE', '/api/account', { token: erased.token, body: {} });
    expect(deleted.status).toBe(204);

    // Neither the session's EHR link (the access token, the banner) nor the hand-over is there to be found.
    expect(await flows.take('smart-ehr-link', sessions[0])).toBeUndefined();
    expect(await flows.take('smart-handoff', handoff)).toBeUndefined();
    expect(await p.api.findStored(erased.user.id)).toEqual([]);
    // The other clinician's link is untouched.
    const context = await p.api.request('GET', '/api/smart/context', { token: kept.token });
    expect([context.status, context.body.banner?.mrn]).toEqual([200, EHR_PATIENT_MRN]);
  });

  it('a password account: a setup under way and a provider identity waiting to be linked by e-mail go', async () => {
    const clinician = await p.api.signUp('Dr Erased Password');
    const other = await p.api.signUp('Dr Other Password');
    // As the routes keep them (auth/security-routes.ts, oidc/routes.ts), through the same flows.
    const setup = await flows.start(
      'totp-setup',
      { userId: clinician.user.id, secret: 'JBSWY3DPEHPK3PXP', attempts: 0 },
      TEN_MINUTES,
    );
    const link = await flows.start(
      'oidc-link',
      { issuer: 'https://idp.example', subject: 'sub-1', email: clinician.email.toUpperCase(), name: 'Dr Erased' },
      TEN_MINUTES,
    );
    const othersLink = await flows.start(
      'oidc-link',
      { issuer: 'https://idp.example', subject: 'sub-2', email: other.email, name: 'Dr Other' },
      TEN_MINUTES,
    );

    const deleted = await p.api.request('DELETE', '/api/account', {
      token: clinician.token,
      body: { password: clinician.password },
    });
    expect(deleted.status).toBe(204);

    expect(await flows.take('totp-setup', setup)).toBeUndefined();
    expect(await flows.take('oidc-link', link)).toBeUndefined();
    for (const value of [clinician.user.id, clinician.email])
      expect([value, await p.api.findStored(value)]).toEqual([value, []]);
    expect((await flows.take<{ email: string }>('oidc-link', othersLink))?.data.email).toBe(other.email);
  });
});

describe('deleting a patient', () => {
  it('forgets the Idempotency-Key answers that name it: its record, a calculation and an export for it', async () => {
    const { token } = await p.api.signUp('Dr Keys');
    const keyed = (key: string) => ({ 'Idempotency-Key': key });
    const doomed = { displayName: 'Noura Qahtani-Unique', mrn: 'MRN-UNIQUE-7731' };
    const created = await p.api.request('POST', '/api/patients', { token, body: doomed, headers: keyed('k-patient') });
    expect(created.status).toBe(201);
    const control = { displayName: 'Control Keeper', mrn: 'MRN-CONTROL-1' };
    const kept = await p.api.request('POST', '/api/patients', { token, body: control, headers: keyed('k-other') });
    expect(kept.status).toBe(201);
    const run = {
      toolType: 'roi_calculator',
      patientId: created.body.id,
      inputs: { numberOfCases: 120, orCostPerMinute: 45, timeNeostigmine: 15, timeProduct: 3, baselinePPCRate: 10 },
    };
    const saved = await p.api.request('POST', '/api/tools/run', { token, body: run, headers: keyed('k-run') });
    expect(saved.status).toBe(200);
    expect(saved.body.patientId).toBe(created.body.id);
    const upload = () =>
      p.api.request('POST', `/api/exports?calculationId=${saved.body.historyId}&patientId=${created.body.id}`, {
        token,
        rawBody: NOTES_PDF_BYTES,
        headers: { 'Content-Type': 'application/pdf', ...keyed('k-export') },
      });
    const exported = await upload();
    expect([exported.status, exported.body.patientId]).toEqual([201, created.body.id]);
    for (const value of Object.values(doomed)) expect((await p.api.findStored(value)).length).toBeGreaterThan(0);

    expect((await p.api.request('DELETE', `/api/patients/${created.body.id}`, { token })).status).toBe(204);

    // Nothing in the store holds the patient's name or MRN any more.
    for (const value of Object.values(doomed)) expect([value, await p.api.findStored(value)]).toEqual([value, []]);
    // The keys are forgotten: sent again, a request is new (the calculation's patient is gone: 404), never the
    // answer that named the patient.
    const runAgain = await p.api.request('POST', '/api/tools/run', { token, body: run, headers: keyed('k-run') });
    expect(runAgain.status).toBe(404);
    expect((await upload()).status).toBe(404);
    const createdAgain = await p.api.request('POST', '/api/patients', {
      token,
      body: doomed,
      headers: keyed('k-patient'),
    });
    expect(createdAgain.status).toBe(201);
    expect(createdAgain.body.id).not.toBe(created.body.id);
    // Another patient's key still answers its first answer.
    const keptAgain = await p.api.request('POST', '/api/patients', { token, body: control, headers: keyed('k-other') });
    expect([keptAgain.status, keptAgain.body.id]).toEqual([201, kept.body.id]);
  });
});
