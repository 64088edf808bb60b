import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_FILE_NAME } from '../storage/audit-log.ts';
import { startTestApi, type TestApi } from '../test-support/test-api.ts';

/**
 * Every audit line a request writes names that request (the X-Request-Id the server made and answered) and the
 * client's address: the context is passed by each route (request-context.ts), so a route that forgot it would
 * write lines without one. One clinician's day through the API, each request sending an X-Request-Id of its own
 * (which the trail never takes: a caller cannot pass its requests off as another's), then every line of the trail
 * read back from the store itself.
 */
describe('audit lines carry the request that wrote them', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi({ now: () => new Date('2026-11-22T10:00:00Z') });
  });
  afterAll(async () => {
    await api.close();
  });

  /** The trail as stored, whatever the store: action, request id and address of each line. */
  async function storedLines(): Promise<{ action: string; requestId?: string; address?: string }[]> {
    if (api.storeKind === 'postgres') {
      const rows = await api.sql(
        "SELECT action, request_id, address FROM audit_events WHERE action <> 'audit.key' ORDER BY id",
      );
      return rows.map((row) => ({
        action: row.action as string,
        requestId: (row.request_id as string | null) ?? undefined,
        address: (row.address as string | null) ?? undefined,
      }));
    }
    const text = await readFile(path.join(api.dataDir, AUDIT_FILE_NAME), 'utf8');
    return text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { action: string; requestId?: string; address?: string })
      .filter((line) => line.action !== 'audit.key'); // the chain's own key line
  }

  it('from sign-up to sign-out, on every route that writes one', async () => {
    let n = 0;
    const sent: string[] = [];
    const answered: string[] = [];
    const call = async (method: string, route: string, options: { token?: string; body?: unknown } = {}) => {
      n += 1;
      const id = `day-${n}`;
      sent.push(id);
      const response = await api.request(method, route, { ...options, headers: { 'X-Request-Id': id } });
      answered.push(response.headers.get('x-request-id')!);
      return response;
    };
    const signup = await call('POST', '/api/auth/signup', {
      body: {
        name: 'Dr Context',
        email: 'context@hospital.example',
        password: 'correct horse battery',
        license: 'SCFHS-12345',
        agreeTerms: true,
      },
    });
    expect(signup.status).toBe(201);
    await call('POST', '/api/auth/signin', {
      body: { email: 'context@hospital.example', password: 'not the password' },
    });
    const signin = await call('POST', '/api/auth/signin', {
      body: { email: 'context@hospital.example', password: 'correct horse battery' },
    });
    expect(signin.status).toBe(200);
    const token = signin.body.token as string;
    const patient = await call('POST', '/api/patients', { token, body: { displayName: 'R.K.' } });
    expect(patient.status).toBe(201);
    await call('GET', `/api/patients/${patient.body.id}`, { token });
    const run = await call('POST', '/api/tools/run', {
      token,
      body: {
        toolType: 'dose_calculator',
        patientId: patient.body.id,
        inputs: {
          ageGroup: 'adult',
          bodyWeight: 70,
          nmbaType: 'rocuronium',
          creatinine: 80,
          tofCount: '2',
          ptc: null,
          rsiScenario: false,
          dialysis: false,
        },
      },
    });
    expect(run.status).toBe(200);
    await call('GET', '/api/history', { token });
    await call('GET', `/api/history/${run.body.historyId}`, { token });
    await call('GET', '/api/account/activity', { token });
    expect((await call('POST', '/api/auth/signout', { token })).status).toBeLessThan(300);

    const lines = await storedLines();
    expect(lines.map((line) => line.action)).toEqual([
      'user.signup',
      'user.signin',
      'user.signin',
      'patient.create',
      'patient.read',
      'calculation.create',
      'calculation.list',
      'calculation.read',
      'audit.read',
      'user.signout',
    ]);
    for (const line of lines) expect(line.address).toBe('127.0.0.1');
    // each line names the request that wrote it, in order: by the id the server made and answered, never the
    // caller's
    for (const id of answered)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(answered).size).toBe(answered.length);
    expect(lines.map((line) => line.requestId)).toEqual(answered);
    for (const line of lines) expect(sent).not.toContain(line.requestId);
    // the caller's id is in the server log, labelled as the caller's, beside the server's
    const logged = api.serverLog
      .map((text) => JSON.parse(text) as { msg?: string; requestId?: string; callerRequestId?: string })
      .filter((line) => line.msg === 'request');
    expect(logged.map((line) => [line.callerRequestId, line.requestId])).toEqual(
      sent.map((id, index) => [id, answered[index]]),
    );
  });
});
