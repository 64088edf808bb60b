import { generateKeyPairSync } from 'node:crypto';
import type {
  Bundle,
  DocumentReference,
  MedicationRequest,
  Patient as FhirPatient,
  Resource,
  RiskAssessment,
} from '@medplum/fhirtypes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADULT_ADVISOR_INPUT } from '../../clinical/test-inputs.test-support.ts';
import { DOSE_INPUT, MRN_SYSTEM, NOTES_PDF_BYTES } from '../fhir/fhir-fixtures.test-support.ts';
import { BrowserAgent, type AgentResponse } from '../test-support/browser-agent.ts';
import { fhirProblems } from '../test-support/fhir-validation.ts';
import {
  EHR_PATIENT_ID,
  EHR_PATIENT_MRN,
  EHR_WEIGHT_KG,
  SMART_CLIENT_ID,
  SMART_CLIENT_SECRET,
  startSmartEhr,
  type LaunchContext,
  type SmartEhr,
} from '../test-support/smart-ehr.ts';
import { sessionCount } from '../test-support/sso-flow.ts';
import { startTestApi, type TestApi } from '../test-support/test-api.ts';
import type { SmartConfig } from '../config.ts';

// SMART App Launch (EHR launch) against a stand-in EHR: oidc-provider as its authorization server, a small
// FHIR server beside it (api/test-support/smart-ehr.ts). On each store (node-postgres runs it again).

interface Pair {
  ehr: SmartEhr;
  api: TestApi;
  close(): Promise<void>;
}

/** An EHR and an app wired to each other (the EHR's redirect URI is the app's callback). */
async function startPair(smart: Partial<SmartConfig> = {}, ehrOptions: { withoutS256?: boolean } = {}) {
  let ehr: SmartEhr | undefined;
  const api = await startTestApi((url) => ({
    auth: {
      publicUrl: url,
      smart: {
        clientId: SMART_CLIENT_ID,
        clientSecret: SMART_CLIENT_SECRET,
        privateKeyPem: undefined,
        // filled in below, once the EHR listens (the config object is read at each launch)
        allowedIssuers: [],
        writeDraftOrders: false,
        ...smart,
      },
    },
    fhir: { mrnSystem: MRN_SYSTEM },
  }));
  ehr = await startSmartEhr({ redirectUri: `${api.url}/smart/callback`, ...ehrOptions });
  return { ehr, api, close: async () => (await api.close(), await ehr!.close()) } satisfies Pair;
}

/** The app's settings need the EHR's address, the EHR needs the app's: the allow-list is filled in after. */
async function pair(smart: Partial<SmartConfig> = {}, ehrOptions: { withoutS256?: boolean } = {}) {
  const allowed: string[] = [];
  const made = await startPair({ allowedIssuers: allowed, ...smart }, ehrOptions);
  allowed.push(made.ehr.fhirBase);
  return made;
}

const launchUrl = (api: TestApi, iss: string, launch: string) =>
  `${api.url}/smart/launch?iss=${encodeURIComponent(iss)}&launch=${encodeURIComponent(launch)}`;

/** A launch from the EHR as the browser follows it, to where the app sends the page (or a refusal). */
function launchFrom(p: Pair, context: LaunchContext, options: { login?: string; agent?: BrowserAgent } = {}) {
  const id = p.ehr.launch(context);
  return (options.agent ?? new BrowserAgent()).follow(launchUrl(p.api, p.ehr.fhirBase, id), {
    login: options.login ?? 'dr.amal.haddad',
    stopAt: `${p.api.url}/#`,
  });
}

const handoffOf = (response: AgentResponse) => /#sgx-smart=([A-Za-z0-9_-]+)$/.exec(response.location ?? '')?.[1];

async function session(p: Pair, landed: AgentResponse) {
  const code = handoffOf(landed);
  if (!code) throw new Error(`no hand-over: ${landed.status} ${landed.location ?? landed.text.slice(0, 300)}`);
  const response = await p.api.request('POST', '/api/smart/session', { body: { code } });
  expect(response.status).toBe(200);
  return response.body as { token: string; user: { id: string; name: string }; ehr: any };
}

let main: Pair;
beforeAll(async () => {
  main = await pair();
});
afterAll(() => main?.close());

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
    // No cookie: inside the EHR's frame a third-party cookie would be dropped; the state is the key.
    expect(start.headers.get('set-cookie')).toBeNull();
  });

  it('signs in with the EHR patient chosen and their latest weight; the EHR gets the verifier', async () => {
    const before = main.ehr.tokenRequests.length;
    const landed = await launchFrom(main, { patient: EHR_PATIENT_ID, need_patient_banner: true });
    expect(landed.status).toBe(303);
    const opened = await session(main, landed);
    expect(opened.user.name).toBe('Dr Amal Haddad');
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
    });
    // The token request carried the PKCE verifier and the client secret (client_secret_basic).
    expect(main.ehr.tokenRequests.slice(before)).toEqual([
      { codeVerifier: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), clientAuth: 'client_secret_basic' },
    ]);
    // The session works like any other, and knows its EHR link (never the access token).
    const me = await main.api.request('GET', '/api/auth/me', { token: opened.token });
    expect(me.status).toBe(200);
    const context = await main.api.request('GET', '/api/smart/context', { token: opened.token });
    expect(context.status).toBe(200);
    expect(context.body).toEqual(opened.ehr);
    expect(context.text).not.toMatch(/access_token|accessToken/);
    // The local patient is the clinician's own record, found by MRN.
    const patients = await main.api.request('GET', '/api/patients', { token: opened.token });
    expect(patients.body.patients.map((patient: any) => patient.mrn)).toEqual([EHR_PATIENT_MRN]);
    // Signing out drops the link (and the EHR's access token with it). The embedded store's records show it;
    // PostgreSQL's probe leaves the flows out.
    const embedded = main.api.storeKind === 'embedded';
    if (embedded) expect(await main.api.storedData()).toContain('smart-ehr-link');
    expect((await main.api.request('POST', '/api/auth/signout', { token: opened.token })).status).toBe(204);
    if (embedded) expect(await main.api.storedData()).not.toContain('smart-ehr-link');
  });

  it('a second launch signs in the same account (iss + fhirUser) and updates the same patient', async () => {
    const first = await session(main, await launchFrom(main, { patient: EHR_PATIENT_ID }, { login: 'dr.noor' }));
    const second = await session(main, await launchFrom(main, { patient: EHR_PATIENT_ID }, { login: 'dr.noor' }));
    expect(second.user.id).toBe(first.user.id);
    expect(second.ehr.patient.id).toBe(first.ehr.patient.id);
    expect(second.ehr.banner).toBeNull();
    const other = await session(main, await launchFrom(main, { patient: EHR_PATIENT_ID }, { login: 'dr.omar' }));
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
    const landed = await launchFrom(main, { patient: EHR_PATIENT_ID });
    await session(main, landed);
    const again = await main.api.request('POST', '/api/smart/session', { body: { code: handoffOf(landed) } });
    expect(again.status).toBe(401);
    expect(again.body).toEqual({
      message: 'This launch from the EHR has expired or was already used. Open the app from the EHR again.',
    });
  });
});

describe('Send to EHR', () => {
  async function doseWithNotes(token: string, patientId: string) {
    const run = await main.api.request('POST', '/api/tools/run', {
      token,
      body: { toolType: 'dose_calculator', inputs: { ...DOSE_INPUT, bodyWeight: EHR_WEIGHT_KG }, patientId },
    });
    expect(run.status).toBe(200);
    const id = run.body.historyId as string;
    return {
      id,
      upload: () =>
        main.api.request('POST', `/api/exports?calculationId=${id}&patientId=${patientId}`, {
          token,
          rawBody: NOTES_PDF_BYTES,
          headers: { 'Content-Type': 'application/pdf' },
        }),
    };
  }

  it('writes the notes PDF as a DocumentReference on the launch patient and answers the id the EHR gave', async () => {
    const opened = await session(main, await launchFrom(main, { patient: EHR_PATIENT_ID }));
    const dose = await doseWithNotes(opened.token, opened.ehr.patient.id);
    const early = await main.api.request('POST', '/api/smart/send', {
      token: opened.token,
      body: { calculationId: dose.id },
    });
    expect(early.status).toBe(409);
    expect(early.body.message).toBe('Export the notes PDF of this calculation first, then send it to the EHR.');
    expect((await dose.upload()).status).toBe(201);

    const before = main.ehr.created.length;
    const sent = await main.api.request('POST', '/api/smart/send', {
      token: opened.token,
      body: { calculationId: dose.id },
    });
    expect(sent.status).toBe(200);
    const written = main.ehr.created.slice(before);
    expect(written.map(({ resourceType }) => resourceType)).toEqual(['DocumentReference']);
    expect(sent.body).toEqual({ documentReference: { id: written[0]!.id }, medicationRequest: null });
    const document = written[0]!.resource as DocumentReference;
    expect(document.subject).toEqual({ reference: `Patient/${EHR_PATIENT_ID}` });
    expect(document.type?.coding?.[0]).toMatchObject({ system: 'http://loinc.org' });
    expect(document.author).toEqual([{ reference: 'Practitioner/dr.amal.haddad', display: 'Dr Amal Haddad' }]);
    expect(Buffer.from(document.content[0]!.attachment.data!, 'base64')).toEqual(NOTES_PDF_BYTES);
    const bundle: Bundle = { resourceType: 'Bundle', type: 'collection', entry: [{ resource: document as Resource }] };
    expect(fhirProblems(bundle)).toEqual([]);
  });

  it('refuses a calculation of another patient, and a session not opened from the EHR', async () => {
    const opened = await session(main, await launchFrom(main, { patient: EHR_PATIENT_ID }));
    const patient = await main.api.request('POST', '/api/patients', {
      token: opened.token,
      body: { displayName: 'Another patient', mrn: 'MRN-OTHER' },
    });
    const dose = await doseWithNotes(opened.token, patient.body.id);
    await dose.upload();
    const sent = await main.api.request('POST', '/api/smart/send', {
      token: opened.token,
      body: { calculationId: dose.id },
    });
    expect(sent.status).toBe(409);
    expect(sent.body.message).toBe(
      'This calculation is not for the patient the EHR opened the app with, so it was not sent.',
    );
    const plain = await main.api.signUp('Password Clinician');
    const refused = await main.api.request('POST', '/api/smart/send', {
      token: plain.token,
      body: { calculationId: dose.id },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/^This session was not opened from the EHR/);
    expect((await main.api.request('GET', '/api/smart/context', { token: plain.token })).status).toBe(404);
  });

  it('with FHIR_WRITE_DRAFT_ORDERS=true: asks for MedicationRequest.c and writes the draft order too', async () => {
    const drafts = await pair({ writeDraftOrders: true });
    try {
      const id = drafts.ehr.launch({ patient: EHR_PATIENT_ID });
      const start = await new BrowserAgent().request(launchUrl(drafts.api, drafts.ehr.fhirBase, id));
      expect(new URL(start.location!).searchParams.get('scope')).toBe(
        'launch openid fhirUser patient/Patient.rs patient/Observation.rs patient/DocumentReference.c ' +
          'patient/MedicationRequest.c',
      );
      const landed = await new BrowserAgent().follow(launchUrl(drafts.api, drafts.ehr.fhirBase, id), {
        login: 'dr.amal.haddad',
        stopAt: `${drafts.api.url}/#`,
      });
      const code = handoffOf(landed)!;
      const opened = (await drafts.api.request('POST', '/api/smart/session', { body: { code } })).body;
      expect(opened.ehr.draftOrders).toBe(true);
      const run = await drafts.api.request('POST', '/api/tools/run', {
        token: opened.token,
        body: { toolType: 'dose_calculator', inputs: DOSE_INPUT, patientId: opened.ehr.patient.id },
      });
      await drafts.api.request('POST', `/api/exports?calculationId=${run.body.historyId}`, {
        token: opened.token,
        rawBody: NOTES_PDF_BYTES,
        headers: { 'Content-Type': 'application/pdf' },
      });
      const sent = await drafts.api.request('POST', '/api/smart/send', {
        token: opened.token,
        body: { calculationId: run.body.historyId },
      });
      expect(sent.status).toBe(200);
      const [order, document] = drafts.ehr.created;
      expect(sent.body).toEqual({ documentReference: { id: document!.id }, medicationRequest: { id: order!.id } });
      const request = order!.resource as MedicationRequest;
      expect(request).toMatchObject({
        status: 'draft',
        intent: 'proposal',
        subject: { reference: 'Patient/pat-8812' },
      });
      expect(request.dosageInstruction?.[0]?.doseAndRate?.[0]?.doseQuantity).toEqual({
        value: 140,
        unit: 'mg',
        system: 'http://unitsofmeasure.org',
        code: 'mg',
      });
      expect((document!.resource as DocumentReference).context?.related).toEqual([
        { reference: `MedicationRequest/${order!.id}` },
      ]);
    } finally {
      await drafts.close();
    }
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
    const opened = await session(main, await launchFrom(main, { patient: EHR_PATIENT_ID }, { login: 'dr.rana' }));
    const ehrPatient = `${main.ehr.fhirBase}/Patient/${EHR_PATIENT_ID}`;
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
    expect(request!.subject).toEqual({ reference: ehrPatient });
    expect(new Set(outsideReferences(dose))).toEqual(new Set([ehrPatient]));
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
    expect(assessment!.subject).toEqual({ reference: ehrPatient });
    expect(assessment!.basis!.every((basis) => basis.reference!.startsWith('urn:uuid:'))).toBe(true);
    expect(new Set(outsideReferences(advisor))).toEqual(new Set([ehrPatient]));

    // the link is the server's: not in the patient API's answers, and not settable through it
    const shown = await main.api.request('GET', `/api/patients/${patientId}`, { token: opened.token });
    expect(shown.status).toBe(200);
    expect(shown.text).not.toContain('ehrPatient');
    expect(shown.text).not.toContain(main.ehr.fhirBase);
    const link = { fhirBase: 'https://other.example/fhir', patientId: 'x' };
    for (const [method, path, body] of [
      ['POST', '/api/patients', { displayName: 'Forged', ehrPatient: link }],
      ['PATCH', `/api/patients/${patientId}`, { ehrPatient: link }],
    ] as const) {
      const refused = await main.api.request(method, path, { token: opened.token, body });
      expect(refused.status, `${method} ${path}`).toBe(400);
      expect(JSON.stringify(refused.body)).toContain('ehrPatient');
    }
    expect(new Set(outsideReferences(await fhirOf(opened.token, dose.identifier!.value!.slice(9))))).toEqual(
      new Set([ehrPatient]),
    );
  });

  it('a patient made by hand still gets a Patient entry with the MRN; a later launch links them', async () => {
    const opened = await session(main, await launchFrom(main, { patient: EHR_PATIENT_ID }, { login: 'dr.hana' }));
    // The launched record goes; the clinician makes the same patient (same MRN) by hand.
    const launchedId = opened.ehr.patient.id as string;
    expect((await main.api.request('DELETE', `/api/patients/${launchedId}`, { token: opened.token })).status).toBe(204);
    const byHand = await main.api.request('POST', '/api/patients', {
      token: opened.token,
      body: { displayName: 'L. Al-Harbi', mrn: EHR_PATIENT_MRN, weightKg: 70 },
    });
    expect(byHand.status).toBe(201);
    const id = await run(opened.token, 'dose_calculator', DOSE_INPUT, byHand.body.id);
    const before = await fhirOf(opened.token, id);
    const patients = resourcesOf(before).filter(
      (resource): resource is FhirPatient => resource.resourceType === 'Patient',
    );
    expect(patients).toHaveLength(1);
    expect(patients[0]!.identifier).toEqual([
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

    // Opened from the EHR again: the record with the EHR's MRN is updated and linked, and its calculations
    // now refer to the EHR's Patient.
    const again = await session(main, await launchFrom(main, { patient: EHR_PATIENT_ID }, { login: 'dr.hana' }));
    expect(again.ehr.patient.id).toBe(byHand.body.id);
    const after = await fhirOf(again.token, id);
    expect(resourcesOf(after).some((resource) => resource.resourceType === 'Patient')).toBe(false);
    expect(new Set(outsideReferences(after))).toEqual(new Set([`${main.ehr.fhirBase}/Patient/${EHR_PATIENT_ID}`]));
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
    await session(main, await launchFrom(main, { patient: EHR_PATIENT_ID }));
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
    const plain = await pair({}, { withoutS256: true });
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
    const response = await launchFrom(main, {});
    await expectRefused(response, 403, 'The EHR opened the app without a patient.', sessions);
  });
});

describe('private_key_jwt (SMART_PRIVATE_KEY)', () => {
  it('proves the app with a signed assertion whose key the EHR reads from /smart/jwks.json', async () => {
    const pem = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const allowed: string[] = [];
    let ehr: SmartEhr | undefined;
    const api = await startTestApi((url) => ({
      auth: {
        publicUrl: url,
        smart: {
          clientId: SMART_CLIENT_ID,
          clientSecret: undefined,
          privateKeyPem: pem,
          allowedIssuers: allowed,
          writeDraftOrders: false,
        },
      },
    }));
    try {
      const jwks = await api.request('GET', '/smart/jwks.json');
      expect(jwks.status).toBe(200);
      expect(jwks.body.keys).toEqual([expect.objectContaining({ kty: 'RSA', alg: 'RS384', use: 'sig' })]);
      expect(JSON.stringify(jwks.body)).not.toMatch(/"d"|"p"|"q"/);
      ehr = await startSmartEhr({ redirectUri: `${api.url}/smart/callback`, clientJwks: jwks.body });
      allowed.push(ehr.fhirBase);
      const landed = await new BrowserAgent().follow(
        launchUrl(api, ehr.fhirBase, ehr.launch({ patient: EHR_PATIENT_ID })),
        {
          login: 'dr.amal.haddad',
          stopAt: `${api.url}/#`,
        },
      );
      expect(
        handoffOf(landed),
        `${landed.status} ${landed.text.replace(/[\s\S]*<body>/, '').slice(0, 600)}`,
      ).toBeDefined();
      expect(ehr.tokenRequests).toEqual([{ codeVerifier: expect.any(String), clientAuth: 'private_key_jwt' }]);
    } finally {
      await api.close();
      await ehr?.close();
    }
  });
});
