import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../test-support/test-api.ts';

// What one signed-in client can make the server write: malformed ids are refused before anything
// is logged, and each clinician's requests are rate-limited.
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ requestsPerClinicianPerMinute: 5 });
});
afterAll(() => api.close());

const auditText = async () => (await api.auditLines()).map((line) => JSON.stringify(line)).join('\n');

describe('malformed record ids', () => {
  it.each([
    ['GET', '/api/patients/', 'Patient not found'],
    ['PATCH', '/api/patients/', 'Patient not found'],
    ['DELETE', '/api/patients/', 'Patient not found'],
    ['GET', '/api/history/', 'History entry not found'],
    ['GET', '/api/exports/', 'Export not found'],
  ])('%s %s<malformed> → 404 "%s", and no audit line', async (method, prefix, message) => {
    const { token } = await api.signUp();
    for (const id of ['x'.repeat(15_000), 'not-a-uuid', '00000000-0000-4000-8000-00000000000Z', '%3Cscript%3E']) {
      const before = await auditText();
      const response = await api.request(method, `${prefix}${id}`, {
        token,
        ...(method === 'PATCH' ? { body: { displayName: 'A' } } : {}),
      });
      expect([id.slice(0, 20), response.status, response.body]).toEqual([id.slice(0, 20), 404, { message }]);
      expect(await auditText()).toBe(before);
    }
  });

  it("a well-formed id that is not the caller's is still audited (outcome failure)", async () => {
    const { token, user } = await api.signUp();
    const id = '00000000-0000-4000-8000-000000000000';
    expect((await api.request('GET', `/api/patients/${id}`, { token })).status).toBe(404);
    const lines = (await auditText())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.at(-1)).toMatchObject({ actor: user.id, action: 'patient.read', recordId: id, outcome: 'failure' });
  });
});

describe('per-clinician request limit', () => {
  it('answers 429 with a JSON message and Retry-After past the limit, for that clinician only', async () => {
    const limited = await api.signUp();
    const other = await api.signUp();
    for (let index = 1; index <= 5; index += 1) {
      expect((await api.request('GET', '/api/patients', { token: limited.token })).status).toBe(200);
    }
    const refused = await api.request('GET', '/api/history', { token: limited.token });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ message: 'Too many requests. Please wait a minute and try again.' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    const before = await auditText();
    expect(
      (await api.request('GET', '/api/patients/00000000-0000-4000-8000-000000000000', { token: limited.token })).status,
    ).toBe(429);
    expect(await auditText()).toBe(before); // a refused request writes nothing

    // auth has its own limits
    expect((await api.request('GET', '/api/auth/me', { token: limited.token })).status).toBe(200);
    expect((await api.request('GET', '/api/patients', { token: other.token })).status).toBe(200);
    // Quick Use (anonymous) is not counted against anyone
    const roi = {
      toolType: 'roi_calculator',
      inputs: { numberOfCases: 1, orCostPerMinute: 45, timeNeostigmine: 15, timeProduct: 3, baselinePPCRate: 10 },
    };
    for (let index = 0; index < 8; index += 1)
      expect((await api.request('POST', '/api/tools/run', { body: roi })).status).toBe(200);
  });
});
