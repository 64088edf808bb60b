import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BrowserAgent } from '../test-support/browser-agent.ts';
import { EHR_PATIENT_ID } from '../test-support/smart-ehr.ts';
import {
  doseWithNotes,
  launched,
  launchFrom,
  launchUrl,
  pair,
  whileEhr,
  type Pair,
} from '../test-support/smart-pair.ts';
import { sessionCount } from '../test-support/sso-flow.ts';

// The server's calls to an EHR (api/smart/ehr-http.ts): a redirect is never followed, whether from the EHR's SMART
// configuration, its token endpoint or its FHIR server (blind SSRF, and a 307 re-posting the notes PDF elsewhere),
// and no text of the EHR's answers reaches the server log, only statuses and codes. Against the stand-in EHR
// (api/test-support/smart-ehr.ts) and a "trap" server on 127.0.0.1 that records whatever reaches it.

/** What a patient's name or identifier in an EHR's error text would be: it must stay out of the log. */
const MARKER = 'Leaked-Layla-Al-Harbi-MRN-447120';

let main: Pair;
let trap: Server;
let trapUrl: string;
const trapped: { method: string; url: string; bytes: number }[] = [];
beforeAll(async () => {
  trap = createServer((request, response) => {
    let bytes = 0;
    request.on('data', (chunk: Buffer) => (bytes += chunk.length));
    request.on('end', () => {
      trapped.push({ method: request.method ?? '', url: request.url ?? '', bytes });
      response.writeHead(200, { 'Content-Type': 'application/fhir+json' });
      response.end(JSON.stringify({ resourceType: 'Patient', id: EHR_PATIENT_ID, name: [{ family: 'Trap' }] }));
    });
  });
  await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
  trapUrl = `http://127.0.0.1:${(trap.address() as AddressInfo).port}/internal/admin`;
  main = await pair();
});
beforeEach(() => {
  trapped.length = 0;
});
afterAll(async () => {
  await main?.close();
  trap?.closeAllConnections();
  await new Promise<void>((resolve) => trap?.close(() => resolve()) ?? resolve());
});

/** The server log's request lines, as JSON, from `from` on. */
const requestLines = (p: Pair, from = 0) =>
  p.api.serverLog
    .slice(from)
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.msg === 'request');

describe('a redirect from the EHR is not followed', () => {
  it('from its FHIR server while reading the launch patient: 502, nothing reaches the address it names', async () => {
    const sessions = await sessionCount(main.api);
    const logFrom = main.api.serverLog.length;
    const response = await whileEhr(main.ehr, { redirect: { at: 'fhir', location: trapUrl } }, () =>
      launchFrom(main, main.ehr, { patient: EHR_PATIENT_ID }),
    );
    expect(response.status).toBe(502);
    expect(response.text).toContain('The patient could not be read from the EHR&#39;s FHIR server.');
    expect(trapped).toEqual([]);
    expect(await sessionCount(main.api)).toBe(sessions);
    const [callback] = requestLines(main, logFrom).filter((line) => line.route === '/smart/callback');
    expect(callback).toMatchObject({
      status: 502,
      signOnProblem: `GET Patient/${EHR_PATIENT_ID}: the EHR answered with a redirect, which is not followed`,
    });
  });

  it('a 307 to a write: Send to EHR is 502 "not accepted", the notes PDF goes nowhere else', async () => {
    const opened = await launched(main, main.ehr, { patient: EHR_PATIENT_ID }, 'dr.redirected');
    const dose = await doseWithNotes(main.api, opened.token, opened.ehr.patient.id);
    expect((await dose.upload()).status).toBe(201);
    const before = main.ehr.created.length;
    for (const status of [307, 308] as const) {
      const sent = await whileEhr(main.ehr, { redirect: { at: 'fhir', location: trapUrl, status } }, () =>
        main.api.request('POST', '/api/smart/send', { token: opened.token, body: { calculationId: dose.id } }),
      );
      expect([status, sent.status, sent.body.code]).toEqual([status, 502, 'ehr_refused']);
    }
    expect(trapped).toEqual([]);
    expect(main.ehr.created.length).toBe(before);
    // Once the EHR answers as it should, the same send files the document.
    const again = await main.api.request('POST', '/api/smart/send', {
      token: opened.token,
      body: { calculationId: dose.id },
    });
    expect(again.status).toBe(200);
    expect(main.ehr.created.length).toBe(before + 1);
  });

  it('from its SMART configuration: the launch is refused (503), the address named is never asked', async () => {
    const fresh = await pair();
    try {
      const id = fresh.ehr.launch({ patient: EHR_PATIENT_ID });
      const response = await whileEhr(fresh.ehr, { redirect: { at: 'configuration', location: trapUrl } }, () =>
        new BrowserAgent().request(launchUrl(fresh.api, fresh.ehr.fhirBase, id)),
      );
      expect(response.status).toBe(503);
      expect(response.text).toContain('is not set up for SMART');
      expect(fresh.ehr.authorizationRequests).toEqual([]);
      expect(trapped).toEqual([]);
      const [launch] = requestLines(fresh).filter((line) => line.route === '/smart/launch');
      expect(launch!.signOnProblem).toContain('the EHR answered with a redirect, which is not followed');
    } finally {
      await fresh.close();
    }
  });

  it('from its token endpoint: the sign-in is refused (401), the code is never sent on', async () => {
    const sessions = await sessionCount(main.api);
    const response = await whileEhr(main.ehr, { redirect: { at: 'token', location: trapUrl, status: 307 } }, () =>
      launchFrom(main, main.ehr, { patient: EHR_PATIENT_ID }),
    );
    expect(response.status).toBe(401);
    expect(response.text).toContain('answer could not be verified, so you were not signed in');
    expect(trapped).toEqual([]);
    expect(await sessionCount(main.api)).toBe(sessions);
  });
});

describe('no EHR answer text in the server log', () => {
  it('FHIR errors are logged by status and OperationOutcome code, never their diagnostics', async () => {
    const logFrom = main.api.serverLog.length;
    await whileEhr(main.ehr, { errorText: MARKER }, async () => {
      // a weight search that fails (500), a patient the EHR does not have (404), a write it refuses (403)
      await whileEhr(main.ehr, { weightSearch: 'fail' }, () =>
        launched(main, main.ehr, { patient: EHR_PATIENT_ID }, 'dr.logged'),
      );
      expect((await launchFrom(main, main.ehr, { patient: 'pat-unknown' })).status).toBe(502);
      const opened = await launched(main, main.ehr, { patient: EHR_PATIENT_ID }, 'dr.logged');
      const dose = await doseWithNotes(main.api, opened.token, opened.ehr.patient.id);
      expect((await dose.upload()).status).toBe(201);
      const sent = await whileEhr(main.ehr, { writes: 'refuse' }, () =>
        main.api.request('POST', '/api/smart/send', { token: opened.token, body: { calculationId: dose.id } }),
      );
      expect(sent.status).toBe(502);
    });
    const lines = requestLines(main, logFrom);
    expect(lines.map((line) => line.signOnProblem).filter(Boolean)).toEqual([
      'the body weight search failed: GET Observation: 500 (OperationOutcome processing)',
      'GET Patient/pat-unknown: 404 (OperationOutcome processing)',
      'POST DocumentReference: 403 (OperationOutcome processing)',
    ]);
    expect(main.api.serverLog.slice(logFrom).join('')).not.toContain(MARKER);
  });

  it("the token endpoint's error_description stays out; its OAuth error code is logged", async () => {
    const wrong = await pair({ clientSecret: 'not-the-registered-secret-0123456789' });
    try {
      wrong.ehr.behaviour.errorText = MARKER;
      const response = await launchFrom(wrong, wrong.ehr, { patient: EHR_PATIENT_ID });
      expect(response.status).toBe(401);
      expect(response.text).toContain('The EHR answered: <code>invalid_client</code>.');
      expect(wrong.ehr.tokenRefusals).toEqual(['Invalid client_secret in the basic auth header']);
      const [callback] = requestLines(wrong).filter((line) => line.route === '/smart/callback');
      expect(callback!.signOnProblem).toMatch(/^invalid_response: .* · OAuth error invalid_client$/);
      expect(wrong.api.serverLog.join('')).not.toContain(MARKER);
      expect(response.text).not.toContain(MARKER);
    } finally {
      await wrong.close();
    }
  });

  it("the authorization server's error_description at the callback stays out too", async () => {
    const logFrom = main.api.serverLog.length;
    const agent = new BrowserAgent();
    const id = main.ehr.launch({ patient: EHR_PATIENT_ID });
    const callback = await agent.follow(launchUrl(main.api, main.ehr.fhirBase, id), {
      login: 'dr.amal.haddad',
      stopAt: `${main.api.url}/smart/callback`,
    });
    const url = new URL(callback.location!);
    const state = url.searchParams.get('state')!;
    const refused = await agent.request(
      `${main.api.url}/smart/callback?error=access_denied&error_description=${MARKER}&state=${state}`,
    );
    expect(refused.status).toBe(401);
    const [line] = requestLines(main, logFrom).filter((entry) => entry.route === '/smart/callback');
    expect(line!.signOnProblem).toBe(
      "provider_error: the EHR's authorization server refused · OAuth error access_denied",
    );
    expect(main.api.serverLog.slice(logFrom).join('')).not.toContain(MARKER);
  });
});
