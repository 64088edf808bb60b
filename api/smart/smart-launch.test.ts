import type { Bundle, MedicationRequest, Patient as FhirPatient, Resource, RiskAssessment } from '@medplum/fhirtypes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADULT_ADVISOR_INPUT } from '../../clinical/test-inputs.test-support.ts';
import { DOSE_INPUT, MRN_SYSTEM } from '../fhir/fhir-fixtures.test-support.ts';
import { BrowserAgent, type AgentResponse } from '../test-support/browser-agent.ts';
import { fhirProblems } from '../test-support/fhir-validation.ts';
import {
  daysAgo,
  EHR_MRN_SYSTEM,
  EHR_PATIENT_ID,
  EHR_PATIENT_MRN,
  EHR_WEIGHT_AGE_DAYS,
  EHR_WEIGHT_KG,
  ehrPatient,
  ehrPatientWeights,
  PRODUCT_SCOPES,
  SMART_CLIENT_ID,
  SMART_CLIENT_SECRET,
} from '../test-support/smart-ehr.ts';
import {
  doseWithNotes,
  handoffOf,
  launched,
  launchFrom,
  launchUrl,
  pair,
  session,
  type Pair,
  whileEhr,
  bindingCookieOf,
} from '../test-support/smart-pair.ts';
import { sessionCount } from '../test-support/sso-flow.ts';
import { startTestApi } from '../test-support/test-api.ts';

// SMART App Launch (EHR launch) against a stand-in EHR as strict as SMART's reference launcher: oidc-provider as
// its authorization server behind the launcher's checks, a small FHIR server beside it
// (api/test-support/smart-ehr.ts). On each store (node-postgres runs it again). Send to EHR: send-to-ehr.test.ts;
// client authentication: client-auth.test.ts.

let main: Pair;
beforeAll(async () => {
  main = await pair();
});
afterAll(() => main?.close());

const DAY_MS = 24 * 60 * 60 * 1000;

describe('a launch from the EHR', () => {
  it('asks for the SMART scopes with PKCE S256, aud = iss and the launch; the state kept on the server', async () => {
    const agent = new BrowserAgent();
    const launch = main.ehr.launch({ patient: EHR_PATIENT_ID });
    const start = await agent.request(launchUrl(main.api, main.ehr.fhirBase, launch));
    expect(start.status).toBe(302);
    const authorization = new URL(start.location!);
    expect(`${authorization.origin}${authorization.pathname}`).toBe(`${main.ehr.issuer}/auth`);
    expect(Object.fromEntries(authorization.searchParams)).toEqual({
      client_id: SMART_CLIENT_ID,
      response_type: 'code',
      redirect_uri: `${main.api.url}/smart/callback`,
      scope: 'launch openid fhirUser patient/Patient.rs patient/Observation.rs patient/DocumentReference.c',
      code_challenge_method: 'S256',
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      state: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      nonce: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      launch,
      aud: main.ehr.fhirBase,
    });
    // The state is the key, and a cookie binds the launch to this browser, made to live in the EHR's frame.
    expect(start.headers.get('set-cookie')).toMatch(
      /^sgx_smart_binding=[\w-]{43}; Path=\/; Max-Age=900; HttpOnly; SameSite=None; Secure; Partitioned$/,
    );
    expect(start.headers.get('set-cookie')).not.toContain(authorization.searchParams.get('state')!);
  });

  it('over https the binding cookie is SameSite=None; Secure; Partitioned, to live in the EHR’s frame', async () => {
    const secure = await startTestApi({
      auth: {
        publicUrl: 'https://sgx.hospital.example',
        smart: {
          clientId: SMART_CLIENT_ID,
          clientSecret: 'never-used-0123456789',
          privateKeyPem: undefined,
          allowedIssuers: [main.ehr.fhirBase],
          writeDraftOrders: false,
        },
      },
    });
    try {
      const start = await new BrowserAgent().request(
        launchUrl(secure, main.ehr.fhirBase, main.ehr.launch({ patient: EHR_PATIENT_ID })),
      );
      expect(start.status).toBe(302);
      expect(start.headers.get('set-cookie')).toMatch(
        /^sgx_smart_binding=[\w-]{43}; Path=\/; Max-Age=900; HttpOnly; SameSite=None; Secure; Partitioned$/,
      );
    } finally {
      await secure.close();
    }
  });

  it('a callback in a browser that dropped the cookie, or with another browser’s, is refused (M4)', async () => {
    const callbackOf = async (agent: BrowserAgent) => {
      const id = main.ehr.launch({ patient: EHR_PATIENT_ID });
      return agent.follow(launchUrl(main.api, main.ehr.fhirBase, id), {
        login: 'dr.amal.haddad',
        stopAt: `${main.api.url}/smart/callback`,
      });
    };
    const before = await sessionCount(main.api);
    // The EHR's frame refused the cookie: the same browser comes back without it.
    const dropped = await callbackOf(new BrowserAgent());
    const refused = await new BrowserAgent().request(dropped.location!);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('Your browser did not keep the cookie this launch needs');
    expect(refused.text).toContain('لم يحتفظ متصفحك بملف تعريف الارتباط');
    // Another browser, with a launch cookie of its own.
    const other = new BrowserAgent();
    await other.request(launchUrl(main.api, main.ehr.fhirBase, main.ehr.launch({ patient: EHR_PATIENT_ID })));
    const elsewhere = await other.request((await callbackOf(new BrowserAgent())).location!);
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.text).toContain('This launch was started in another browser or window.');
    expect(await sessionCount(main.api)).toBe(before);
  });

  it('the hand-over needs the launch’s cookie: a planted or stolen code gives no session', async () => {
    const landed = await launchFrom(main, main.ehr, { patient: EHR_PATIENT_ID });
    const before = await sessionCount(main.api);
    const otherBrowser = await launchFrom(main, main.ehr, { patient: EHR_PATIENT_ID });
    for (const headers of [{}, bindingCookieOf(otherBrowser.agent)]) {
      const fresh = await launchFrom(main, main.ehr, { patient: EHR_PATIENT_ID });
      const answer = await main.api.request('POST', '/api/smart/session', {
        body: { code: handoffOf(fresh) },
        headers,
      });
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({
        message:
          'This launch from the EHR went through another browser or window, so it was not used here. Open the app ' +
          'from the EHR again.',
        code: 'smart_other_browser',
      });
      // Spent: not even its own browser can use it now.
      const own = await main.api.request('POST', '/api/smart/session', {
        body: { code: handoffOf(fresh) },
        headers: bindingCookieOf(fresh.agent),
      });
      expect(own.status).toBe(401);
    }
    expect(await sessionCount(main.api)).toBe(before);
    const opened = await session(main, landed);
    expect(opened.user.name).toBe('Amal Haddad');
    await main.api.request('POST', '/api/auth/signout', { token: opened.token });
  });

  it('signs in named from the EHR, the EHR patient chosen with the weight it read; raw Basic credentials', async () => {
    const before = main.ehr.tokenRequests.length;
    const credentials = main.ehr.tokenCredentials.length;
    const landed = await launchFrom(main, main.ehr, { patient: EHR_PATIENT_ID, need_patient_banner: true });
    expect(landed.status).toBe(303);
    const opened = await session(main, landed);
    // The ID token had fhirUser and no name (as the reference launcher's): the name is the Practitioner's.
    expect(opened.user.name).toBe('Amal Haddad');
    expect(opened.ehr).toEqual({
      patient: expect.objectContaining({
        displayName: 'Layla Al-Harbi',
        mrn: EHR_PATIENT_MRN,
        yearOfBirth: 1979,
        ageGroup: 'adult',
        weightKg: EHR_WEIGHT_KG,
      }),
      banner: { name: 'Layla Al-Harbi', mrn: EHR_PATIENT_MRN, birthDate: '1979-04-12', gender: 'female' },
      draftOrders: false,
      weight: { source: 'ehr', kg: EHR_WEIGHT_KG, recordedAt: expect.any(String) },
      weightMaxAgeDays: 30,
      keptWeight: null,
    });
    const recordedAgo = Date.now() - Date.parse(opened.ehr.weight.recordedAt);
    expect(Math.round(recordedAgo / DAY_MS)).toBe(EHR_WEIGHT_AGE_DAYS);
    // The token request carried the PKCE verifier and the client id and secret as they are.
    expect(main.ehr.tokenRequests.slice(before)).toEqual([
      { codeVerifier: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), clientAuth: 'client_secret_basic' },
    ]);
    expect(main.ehr.tokenCredentials.slice(credentials).map((sent) => sent.authorization)).toEqual([
      `Basic ${Buffer.from(`${SMART_CLIENT_ID}:${SMART_CLIENT_SECRET}`).toString('base64')}`,
    ]);
    // The session works like any other, and knows its EHR link (never the access token).
    const me = await main.api.request('GET', '/api/auth/me', { token: opened.token });
    expect(me.status).toBe(200);
    expect(me.body.name).toBe('Amal Haddad');
    const context = await main.api.request('GET', '/api/smart/context', { token: opened.token });
    expect(context.status).toBe(200);
    expect(context.body).toEqual(opened.ehr);
    expect(context.text).not.toMatch(/access_token|accessToken/);
    const patients = await main.api.request('GET', '/api/patients', { token: opened.token });
    expect(patients.body.patients.map((patient: any) => [patient.mrn, patient.weightKg])).toEqual([
      [EHR_PATIENT_MRN, EHR_WEIGHT_KG],
    ]);
    // Signing out drops the link (and the EHR's access token with it). The embedded store's records show it;
    // PostgreSQL's probe leaves the flows out.
    const embedded = main.api.storeKind === 'embedded';
    if (embedded) expect(await main.api.storedData()).toContain('smart-ehr-link');
    expect((await main.api.request('POST', '/api/auth/signout', { token: opened.token })).status).toBe(204);
    if (embedded) expect(await main.api.storedData()).not.toContain('smart-ehr-link');
  });

  it('a second launch signs in the same account (iss + fhirUser) and updates the same patient', async () => {
    const first = await launched(main, main.ehr, { patient: EHR_PATIENT_ID }, 'dr.noor');
    const second = await launched(main, main.ehr, { patient: EHR_PATIENT_ID }, 'dr.noor');
    expect(second.user.id).toBe(first.user.id);
    expect(second.ehr.patient.id).toBe(first.ehr.patient.id);
    expect(second.ehr.banner).toBeNull();
    const other = await launched(main, main.ehr, { patient: EHR_PATIENT_ID }, 'dr.omar');
    expect(other.user.id).not.toBe(first.user.id);
  });

  it('lands on the Arabic page when the registered launch URL says lang=ar', async () => {
    const id = main.ehr.launch({ patient: EHR_PATIENT_ID });
    const landed = await new BrowserAgent().follow(`${launchUrl(main.api, main.ehr.fhirBase, id)}&lang=ar`, {
      login: 'dr.amal.haddad',
      stopAt: `${main.api.url}/ar/#`,
    });
    expect(landed.location).toMatch(new RegExp(`^${main.api.url}/ar/#sgx-smart=[A-Za-z0-9_-]{43}$`));
  });

  it('the hand-over code is good once', async () => {
    const landed = await launchFrom(main, main.ehr, { patient: EHR_PATIENT_ID });
    await session(main, landed);
    const again = await main.api.request('POST', '/api/smart/session', { body: { code: handoffOf(landed) } });
    expect(again.status).toBe(401);
    expect(again.body).toEqual({
      message: 'This launch from the EHR has expired or was already used. Open the app from the EHR again.',
    });
  });

  it('an EHR that names nobody: the account has no name (never "EHR user"); a later launch names it', async () => {
    const unnamed = await whileEhr(main.ehr, { practitioner: 'forbidden' }, () =>
      launched(main, main.ehr, { patient: EHR_PATIENT_ID }, 'dr.sara.qahtani'),
    );
    expect(unnamed.user.name).toBe('');
    const named = await launched(main, main.ehr, { patient: EHR_PATIENT_ID }, 'dr.sara.qahtani');
    expect(named.user.id).toBe(unnamed.user.id);
    expect(named.user.name).toBe('Sara Qahtani');
  });
});

describe('only the EHR weight is called the EHR weight', () => {
  /** A first launch that reads 70 kg, then a relaunch with the EHR as `change` leaves it. */
  async function relaunch(login: string, change: (p: Pair) => void) {
    const first = await launched(main, main.ehr, { patient: EHR_PATIENT_ID }, login);
    expect(first.ehr.patient.weightKg).toBe(EHR_WEIGHT_KG);
    change(main);
    try {
      return { first, again: await launched(main, main.ehr, { patient: EHR_PATIENT_ID }, login) };
    } finally {
      main.ehr.behaviour.weightSearch = 'answer';
      main.ehr.setWeights(EHR_PATIENT_ID, ehrPatientWeights());
    }
  }
  const launchTimeOf = (opened: { ehr: any }) => opened.ehr.patient.updatedAt as string;

  it.each([
    ['the weight search fails', (p: Pair) => (p.ehr.behaviour.weightSearch = 'fail'), { reason: 'unreadable' }],
    ['the EHR holds no weight now', (p: Pair) => (p.ehr.behaviour.weightSearch = 'empty'), { reason: 'not_recorded' }],
    [
      'the newest weight is out of range',
      (p: Pair) => p.ehr.setWeights(EHR_PATIENT_ID, [{ id: 'w', kg: 720, effective: daysAgo(1) }]),
      { reason: 'unusable', ehrKg: 720 },
    ],
    [
      'the newest weight is older than the limit (30 days)',
      (p: Pair) => p.ehr.setWeights(EHR_PATIENT_ID, [{ id: 'w', kg: 71, effective: daysAgo(45) }]),
      { reason: 'too_old', ehrKg: 71 },
    ],
    [
      'the newest weight has no date',
      (p: Pair) => p.ehr.setWeights(EHR_PATIENT_ID, [{ id: 'w', kg: 71 }]),
      { reason: 'undated', ehrKg: 71, recordedAt: null },
    ],
  ])('%s: the field is left empty, the kept 70 kg is told as from the earlier launch', async (_name, change, why) => {
    const { first, again } = await relaunch(`dr.weight.${Object.values(why).join('-')}`, change);
    expect(again.ehr.patient.id).toBe(first.ehr.patient.id);
    expect(again.ehr.patient.weightKg).toBeNull();
    expect(again.ehr.weight).toMatchObject({ source: 'none', ehrKg: null, ...why });
    expect(again.ehr.keptWeight).toEqual({ kg: EHR_WEIGHT_KG, savedAt: launchTimeOf(first), fromLaunch: true });
    // Nothing is lost: the record still holds the weight, and a reload tells the same.
    const record = await main.api.request('GET', `/api/patients/${first.ehr.patient.id}`, { token: again.token });
    expect(record.body.weightKg).toBe(EHR_WEIGHT_KG);
    const context = await main.api.request('GET', '/api/smart/context', { token: again.token });
    expect(context.body).toEqual(again.ehr);
  });

  it('a weight the clinician typed into the record is told as typed, with when the record was changed', async () => {
    const first = await launched(main, main.ehr, { patient: EHR_PATIENT_ID }, 'dr.typed');
    const typed = await main.api.request('PATCH', `/api/patients/${first.ehr.patient.id}`, {
      token: first.token,
      body: { weightKg: 66.5 },
    });
    expect(typed.status).toBe(200);
    const again = await whileEhr(main.ehr, { weightSearch: 'fail' }, () =>
      launched(main, main.ehr, { patient: EHR_PATIENT_ID }, 'dr.typed'),
    );
    expect(again.ehr.patient.weightKg).toBeNull();
    expect(again.ehr.keptWeight).toEqual({ kg: 66.5, savedAt: typed.body.updatedAt, fromLaunch: false });
  });

  it('a first launch that reads no weight has nothing kept either', async () => {
    const opened = await whileEhr(main.ehr, { weightSearch: 'fail' }, () =>
      launched(main, main.ehr, { patient: EHR_PATIENT_ID }, 'dr.first.nothing'),
    );
    expect(opened.ehr.patient.weightKg).toBeNull();
    expect(opened.ehr.weight).toEqual({ source: 'none', reason: 'unreadable', ehrKg: null, recordedAt: null });
    expect(opened.ehr.keptWeight).toBeNull();
  });

  it('SMART_WEIGHT_MAX_AGE_DAYS: a hospital that accepts older weights gets the 45-day-old one filled in', async () => {
    const lenient = await pair({ weightMaxAgeDays: 60 });
    try {
      lenient.ehr.setWeights(EHR_PATIENT_ID, [{ id: 'w', kg: 71, effective: daysAgo(45) }]);
      const opened = await launched(lenient, lenient.ehr, { patient: EHR_PATIENT_ID });
      expect(opened.ehr.patient.weightKg).toBe(71);
      expect(opened.ehr.weight).toMatchObject({ source: 'ehr', kg: 71 });
      expect(opened.ehr.weightMaxAgeDays).toBe(60);
    } finally {
      await lenient.close();
    }
  });
});

describe('a launch never merges two patients', () => {
  it('same MRN value under another identifier system at the same EHR: two local patients', async () => {
    main.ehr.addPatient(ehrPatient('pat-other-system', ['Huda', 'Al-Zahrani'], EHR_PATIENT_MRN, 'urn:oid:9.9.9'), [
      { id: 'w2', kg: 58, effective: daysAgo(2) },
    ]);
    const layla = await launched(main, main.ehr, { patient: EHR_PATIENT_ID }, 'dr.merge.one');
    const huda = await launched(main, main.ehr, { patient: 'pat-other-system' }, 'dr.merge.one');
    expect(huda.ehr.patient.id).not.toBe(layla.ehr.patient.id);
    expect(huda.ehr.patient).toMatchObject({ displayName: 'Huda Al-Zahrani', mrn: EHR_PATIENT_MRN, weightKg: 58 });
    const list = await main.api.request('GET', '/api/patients', { token: huda.token });
    expect(list.body.patients.map((patient: any) => [patient.displayName, patient.weightKg]).sort()).toEqual([
      ['Huda Al-Zahrani', 58],
      ['Layla Al-Harbi', EHR_WEIGHT_KG],
    ]);
    // Layla's calculation, sent in the session the EHR opened for Huda, is refused: nothing reaches a chart.
    const dose = await doseWithNotes(main.api, huda.token, layla.ehr.patient.id);
    expect((await dose.upload()).status).toBe(201);
    const before = main.ehr.created.length;
    const sent = await main.api.request('POST', '/api/smart/send', {
      token: huda.token,
      body: { calculationId: dose.id },
    });
    expect(sent.status).toBe(409);
    expect(sent.body.message).toBe(
      'This calculation is not for the patient the EHR opened the app with, so it was not sent.',
    );
    expect(main.ehr.created.length).toBe(before);
  });

  it('one Patient id and MRN at two EHRs: two local patients; one is never sent into the other’s chart', async () => {
    const two = await pair({}, { others: [{}] });
    try {
      const [other] = two.others;
      const atA = await launched(two, two.ehr, { patient: EHR_PATIENT_ID }, 'dr.two.ehrs');
      const dose = await doseWithNotes(two.api, atA.token, atA.ehr.patient.id);
      expect((await dose.upload()).status).toBe(201);
      const atB = await launched(two, other!, { patient: EHR_PATIENT_ID }, 'dr.two.ehrs');
      // An account is (iss, fhirUser) and a local patient (FHIR base, Patient id): two of each.
      expect(atB.user.id).not.toBe(atA.user.id);
      expect(atB.ehr.patient.id).not.toBe(atA.ehr.patient.id);
      // A's calculation cannot be sent in B's session, into B's chart.
      const sent = await two.api.request('POST', '/api/smart/send', {
        token: atB.token,
        body: { calculationId: dose.id },
      });
      expect(sent.status).toBe(404); // another account's history entry: not found
      expect(other!.created).toEqual([]);
      expect(two.ehr.created).toEqual([]);
    } finally {
      await two.close();
    }
  });

  it('a patient made by hand with the EHR’s MRN is never merged with the launched one', async () => {
    const opened = await launched(main, main.ehr, { patient: EHR_PATIENT_ID }, 'dr.hand');
    const byHand = await main.api.request('POST', '/api/patients', {
      token: opened.token,
      body: { displayName: 'L. Al-Harbi (typed)', mrn: EHR_PATIENT_MRN, weightKg: 81 },
    });
    expect(byHand.status).toBe(201);
    await main.api.request('DELETE', `/api/patients/${opened.ehr.patient.id}`, { token: opened.token });
    const again = await launched(main, main.ehr, { patient: EHR_PATIENT_ID }, 'dr.hand');
    expect(again.ehr.patient.id).not.toBe(byHand.body.id);
    expect(again.ehr.patient.weightKg).toBe(EHR_WEIGHT_KG);
    const typed = await main.api.request('GET', `/api/patients/${byHand.body.id}`, { token: again.token });
    expect(typed.body).toMatchObject({ displayName: 'L. Al-Harbi (typed)', weightKg: 81 });
  });

  it('the same EHR, a new Patient id with the same MRN identifier (a merge there): the same local record', async () => {
    const first = await launched(main, main.ehr, { patient: EHR_PATIENT_ID }, 'dr.renumbered');
    main.ehr.addPatient({ ...ehrPatient('pat-8812-new', ['Layla', 'Al-Harbi'], EHR_PATIENT_MRN, EHR_MRN_SYSTEM) }, [
      { id: 'w3', kg: 69, effective: daysAgo(1) },
    ]);
    const again = await launched(main, main.ehr, { patient: 'pat-8812-new' }, 'dr.renumbered');
    expect(again.ehr.patient.id).toBe(first.ehr.patient.id);
    expect(again.ehr.patient.weightKg).toBe(69);
  });
});

describe('the FHIR export of a launched patient’s calculation refers to the EHR’s Patient', () => {
  const fhirOf = async (token: string, id: string) => {
    const response = await main.api.request('GET', `/api/history/${id}/fhir`, { token });
    expect(response.status).toBe(200);
    const bundle = JSON.parse(response.text) as Bundle;
    expect(fhirProblems(bundle)).toEqual([]);
    return bundle;
  };
  const run = async (token: string, toolType: string, inputs: object, patientId: string) => {
    const response = await main.api.request('POST', '/api/tools/run', { token, body: { toolType, inputs, patientId } });
    expect(response.status).toBe(200);
    return response.body.historyId as string;
  };
  const resourcesOf = (bundle: Bundle) => (bundle.entry ?? []).map((entry) => entry.resource as Resource);
  /** Every `reference` in the Bundle that is not to one of its own entries. */
  const outsideReferences = (bundle: Bundle) =>
    [...JSON.stringify(bundle).matchAll(/"reference":"([^"]+)"/g)]
      .map((match) => match[1]!)
      .filter((reference) => !reference.startsWith('urn:uuid:'));

  it('a dose and an advisor entry: no Patient entry, every reference is {fhirBase}/Patient/{id}', async () => {
    const opened = await launched(main, main.ehr, { patient: EHR_PATIENT_ID }, 'dr.rana');
    const ehrPatientUrl = `${main.ehr.fhirBase}/Patient/${EHR_PATIENT_ID}`;
    const patientId = opened.ehr.patient.id as string;

    const dose = await fhirOf(opened.token, await run(opened.token, 'dose_calculator', DOSE_INPUT, patientId));
    expect(resourcesOf(dose).map((resource) => resource.resourceType)).toEqual([
      'Observation',
      'Observation',
      'MedicationRequest',
      'Device',
      'Provenance',
    ]);
    const [request] = resourcesOf(dose).filter((resource): resource is MedicationRequest => 'intent' in resource);
    expect(request!.subject).toEqual({ reference: ehrPatientUrl });
    expect(new Set(outsideReferences(dose))).toEqual(new Set([ehrPatientUrl]));
    expect(outsideReferences(dose)).toHaveLength(3); // the weight, the CrCl and the MedicationRequest
    expect(dose.entry!.map((entry) => entry.request?.ifNoneExist)).toEqual(dose.entry!.map(() => undefined));

    const advisor = await fhirOf(
      opened.token,
      await run(opened.token, 'bradycardia_advisor', ADULT_ADVISOR_INPUT, patientId),
    );
    expect(resourcesOf(advisor).some((resource) => resource.resourceType === 'Patient')).toBe(false);
    const [assessment] = resourcesOf(advisor).filter(
      (resource): resource is RiskAssessment => resource.resourceType === 'RiskAssessment',
    );
    expect(assessment!.subject).toEqual({ reference: ehrPatientUrl });
    expect(assessment!.basis!.every((basis) => basis.reference!.startsWith('urn:uuid:'))).toBe(true);
    expect(new Set(outsideReferences(advisor))).toEqual(new Set([ehrPatientUrl]));

    // the link is the server's: not in the patient API's answers, and not settable through it
    const shown = await main.api.request('GET', `/api/patients/${patientId}`, { token: opened.token });
    expect(shown.status).toBe(200);
    expect(shown.text).not.toContain('ehrPatient');
    expect(shown.text).not.toContain(main.ehr.fhirBase);
    expect(shown.text).not.toContain(EHR_MRN_SYSTEM);
    const link = { fhirBase: 'https://other.example/fhir', patientId: 'x' };
    for (const [method, path, body] of [
      ['POST', '/api/patients', { displayName: 'Forged', ehrPatient: link }],
      ['PATCH', `/api/patients/${patientId}`, { ehrPatient: link }],
    ] as const) {
      const refused = await main.api.request(method, path, { token: opened.token, body });
      expect(refused.status, `${method} ${path}`).toBe(400);
      expect(JSON.stringify(refused.body)).toContain('ehrPatient');
    }
  });

  it('a patient made by hand has a Patient entry with the MRN, before and after a launch of that MRN', async () => {
    const opened = await launched(main, main.ehr, { patient: EHR_PATIENT_ID }, 'dr.hana');
    const byHand = await main.api.request('POST', '/api/patients', {
      token: opened.token,
      body: { displayName: 'L. Al-Harbi', mrn: EHR_PATIENT_MRN, weightKg: 70 },
    });
    expect(byHand.status).toBe(201);
    const id = await run(opened.token, 'dose_calculator', DOSE_INPUT, byHand.body.id);
    const patientsOf = (bundle: Bundle) =>
      resourcesOf(bundle).filter((resource): resource is FhirPatient => resource.resourceType === 'Patient');
    const before = await fhirOf(opened.token, id);
    expect(patientsOf(before)).toHaveLength(1);
    expect(patientsOf(before)[0]!.identifier).toEqual([
      {
        use: 'usual',
        type: {
          coding: [
            { system: 'http://terminology.hl7.org/CodeSystem/v2-0203', code: 'MR', display: 'Medical record number' },
          ],
        },
        system: MRN_SYSTEM,
        value: EHR_PATIENT_MRN,
      },
    ]);
    expect(outsideReferences(before)).toEqual([]);
    // Opened from the EHR again: the typed record is not taken over, so its calculations stay its own.
    await launched(main, main.ehr, { patient: EHR_PATIENT_ID }, 'dr.hana');
    const after = await fhirOf(opened.token, id);
    expect(patientsOf(after)).toHaveLength(1);
    expect(outsideReferences(after)).toEqual([]);
  });
});

describe('refused launches: a clear page, a 4xx, nobody signed in', () => {
  async function expectRefused(response: AgentResponse, status: number, message: string, sessionsBefore: number) {
    expect(response.status).toBe(status);
    expect(response.location).toBeUndefined();
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.text).toContain(message);
    expect(response.text).toContain('lang="ar"');
    expect(await sessionCount(main.api)).toBe(sessionsBefore);
  }

  it('an iss that is not in SMART_ALLOWED_ISSUERS', async () => {
    const sessions = await sessionCount(main.api);
    const response = await new BrowserAgent().request(launchUrl(main.api, 'https://evil.example/fhir', 'abc'));
    await expectRefused(response, 403, 'This EHR is not one this app is set up to open from', sessions);
    expect(main.ehr.authorizationRequests.every((request) => request.aud === main.ehr.fhirBase)).toBe(true);
  });

  it('a launch without iss or launch', async () => {
    const sessions = await sessionCount(main.api);
    const response = await new BrowserAgent().request(`${main.api.url}/smart/launch?launch=abc`);
    await expectRefused(response, 400, 'This address is opened by the EHR', sessions);
  });

  it('a callback with a state the app never issued, or one already used (replayed)', async () => {
    const sessions = await sessionCount(main.api);
    const forged = await new BrowserAgent().request(`${main.api.url}/smart/callback?code=abc&state=${'x'.repeat(43)}`);
    await expectRefused(forged, 400, 'This launch has expired or was already used.', sessions);

    const agent = new BrowserAgent();
    const id = main.ehr.launch({ patient: EHR_PATIENT_ID });
    const callback = await agent.follow(launchUrl(main.api, main.ehr.fhirBase, id), {
      login: 'dr.amal.haddad',
      stopAt: `${main.api.url}/smart/callback`,
    });
    const first = await agent.request(callback.location!);
    expect(first.status).toBe(303);
    const replayed = await agent.request(callback.location!);
    await expectRefused(replayed, 400, 'This launch has expired or was already used.', sessions);
  });

  it('PKCE: the EHR refuses a code without its verifier, and the app always sends one', async () => {
    await launched(main, main.ehr, { patient: EHR_PATIENT_ID });
    const agent = new BrowserAgent();
    const id = main.ehr.launch({ patient: EHR_PATIENT_ID });
    const callback = await agent.follow(launchUrl(main.api, main.ehr.fhirBase, id), {
      login: 'dr.amal.haddad',
      stopAt: `${main.api.url}/smart/callback`,
    });
    const code = new URL(callback.location!).searchParams.get('code')!;
    const appRequests = main.ehr.tokenRequests.length;
    // Someone holding the code but not the verifier (it never left the app's server) gets nothing.
    const stolen = await fetch(`${main.ehr.issuer}/token`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Authorization: `Basic ${Buffer.from(`${SMART_CLIENT_ID}:${SMART_CLIENT_SECRET}`).toString('base64')}`,
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: `${main.api.url}/smart/callback`,
      }),
    });
    expect(stolen.status).toBe(400);
    expect(await stolen.json()).toMatchObject({ error: 'invalid_grant' });
    expect(main.ehr.tokenRequests[appRequests]).toEqual({ codeVerifier: undefined, clientAuth: 'client_secret_basic' });
    // Every token request the app ever made carried a verifier.
    const made = main.ehr.tokenRequests.slice(0, appRequests);
    expect(made.length).toBeGreaterThan(0);
    expect(made.every((request) => /^[A-Za-z0-9_-]{43}$/.test(request.codeVerifier ?? ''))).toBe(true);
  });

  it('an EHR whose configuration does not offer PKCE S256', async () => {
    const plain = await pair({}, { ehr: { withoutS256: true } });
    try {
      const id = plain.ehr.launch({ patient: EHR_PATIENT_ID });
      const response = await new BrowserAgent().request(launchUrl(plain.api, plain.ehr.fhirBase, id));
      expect(response.status).toBe(503);
      expect(response.text).toContain('is not set up for SMART');
      expect(plain.ehr.authorizationRequests).toEqual([]);
    } finally {
      await plain.close();
    }
  });

  it('a token without patient context', async () => {
    const sessions = await sessionCount(main.api);
    const response = await launchFrom(main, main.ehr, {});
    await expectRefused(response, 403, 'The EHR opened the app without a patient.', sessions);
  });

  it('unregistered scopes: the page names invalid_scope and the scopes to check, never the EHR’s text', async () => {
    const narrow = await pair(
      {},
      { ehr: { registeredScopes: PRODUCT_SCOPES.filter((scope) => scope !== 'patient/DocumentReference.c') } },
    );
    try {
      const sessions = await sessionCount(narrow.api);
      const response = await launchFrom(narrow, narrow.ehr, { patient: EHR_PATIENT_ID });
      expect(response.status).toBe(401);
      expect(response.text).toContain('The EHR did not authorise the app');
      expect(response.text).toContain('The EHR answered: <code>invalid_scope</code>.');
      expect(response.text).toContain('check the scopes the app is registered for at the EHR');
      expect(response.text).toContain('أجاب السجل الصحي الإلكتروني: <bdi dir="ltr"><code>invalid_scope</code></bdi>.');
      expect(response.text).not.toContain('Scope(s) not granted'); // the EHR's free text: not in the log either
      expect(await sessionCount(narrow.api)).toBe(sessions);
    } finally {
      await narrow.close();
    }
  });

  it('a secret the EHR does not know: the page names invalid_client and the settings to compare', async () => {
    const wrong = await pair({ clientSecret: 'not-the-registered-secret-0123456789' });
    try {
      const response = await launchFrom(wrong, wrong.ehr, { patient: EHR_PATIENT_ID });
      expect(response.status).toBe(401);
      expect(response.text).toContain('answer could not be verified, so you were not signed in');
      expect(response.text).toContain('The EHR answered: <code>invalid_client</code>.');
      expect(response.text).toContain('SMART_CLIENT_ID, its secret or key, SMART_CLIENT_AUTH');
      expect(wrong.ehr.tokenRefusals).toEqual(['Invalid client_secret in the basic auth header']);
    } finally {
      await wrong.close();
    }
  });

  it('a patient the FHIR server does not have: 502, the page names the HTTP status', async () => {
    const sessions = await sessionCount(main.api);
    const response = await launchFrom(main, main.ehr, { patient: 'pat-unknown' });
    await expectRefused(response, 502, 'The patient could not be read from the EHR&#39;s FHIR server.', sessions);
    expect(response.text).toContain('The EHR answered: <code>HTTP 404</code>.');
    expect(response.text).toContain('did not find the patient');
  });
});
