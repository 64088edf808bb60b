import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLINICAL_TEXTS_AR, digitRuns } from '../../clinical/index.ts';
import { startTestApi, type TestApi } from '../test-support/test-api.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ now: () => new Date('2026-11-22T10:00:00Z') });
});
afterAll(() => api.close());

const roi = (cases: number) => ({
  toolType: 'roi_calculator',
  inputs: { numberOfCases: cases, orCostPerMinute: 45, timeNeostigmine: 15, timeProduct: 3, baselinePPCRate: 10 },
});
const dose = (weight: number) => ({
  toolType: 'dose_calculator',
  inputs: {
    ageGroup: 'adult',
    bodyWeight: weight,
    nmbaType: 'rocuronium',
    creatinine: 100,
    tofCount: '2',
    ptc: null,
    rsiScenario: false,
    dialysis: false,
  },
});

describe('patients', () => {
  it('create, read, update, search and delete', async () => {
    const { token } = await api.signUp();
    const created = await api.request('POST', '/api/patients', {
      token,
      body: {
        displayName: '  Fatimah A.  ',
        mrn: 'KFH-004512',
        yearOfBirth: 1958,
        ageGroup: 'adult',
        weightKg: 72.5,
        notes: 'Pacemaker (DDD)',
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      displayName: 'Fatimah A.',
      mrn: 'KFH-004512',
      yearOfBirth: 1958,
      ageGroup: 'adult',
      weightKg: 72.5,
      notes: 'Pacemaker (DDD)',
      createdAt: '2026-11-22T10:00:00.000Z',
      updatedAt: '2026-11-22T10:00:00.000Z',
    });
    const id = created.body.id;
    expect((await api.request('GET', `/api/patients/${id}`, { token })).body).toEqual(created.body);

    const updated = await api.request('PATCH', `/api/patients/${id}`, {
      token,
      body: { weightKg: 70, notes: null, mrn: '' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      displayName: 'Fatimah A.',
      weightKg: 70,
      notes: null,
      mrn: null,
      yearOfBirth: 1958,
    });

    await api.request('POST', '/api/patients', { token, body: { displayName: 'M.K.', mrn: 'KFH-777' } });
    await api.request('POST', '/api/patients', { token, body: { displayName: 'zaid b' } });
    const names = async (q: string) =>
      (await api.request('GET', `/api/patients?q=${encodeURIComponent(q)}`, { token })).body.patients.map(
        (p: { displayName: string }) => p.displayName,
      );
    expect(await names('')).toEqual(['Fatimah A.', 'M.K.', 'zaid b']);
    expect(await names('fAtI')).toEqual(['Fatimah A.']);
    expect(await names('kfh-')).toEqual(['M.K.']); // Fatimah's MRN was cleared above
    expect(await names('777')).toEqual(['M.K.']);
    expect(await names('ZAID')).toEqual(['zaid b']);
    expect(await names('nobody')).toEqual([]);
    const nul = await api.request('GET', '/api/patients?q=za%00id', { token });
    expect([nul.status, nul.body.message]).toEqual([
      400,
      'The request holds a character that cannot be stored (U+0000 or half of a surrogate pair)',
    ]);

    expect((await api.request('DELETE', `/api/patients/${id}`, { token })).status).toBe(204);
    expect((await api.request('GET', `/api/patients/${id}`, { token })).status).toBe(404);
    expect((await api.request('DELETE', `/api/patients/${id}`, { token })).status).toBe(404);
  });

  it.each([
    { body: {}, message: 'Enter a display name or initials (1-80 characters)', field: 'displayName' },
    {
      body: { displayName: '   ' },
      message: 'Enter a display name or initials (1-80 characters)',
      field: 'displayName',
    },
    {
      body: { displayName: 'x'.repeat(81) },
      message: 'Enter a display name or initials (1-80 characters)',
      field: 'displayName',
    },
    { body: { displayName: 'A', weightKg: 0 }, message: 'Weight must be between 1 and 200 kg', field: 'weightKg' },
    { body: { displayName: 'A', weightKg: 201 }, message: 'Weight must be between 1 and 200 kg', field: 'weightKg' },
    {
      body: { displayName: 'A', yearOfBirth: 2027 },
      message: 'Year of birth must be a year from 1900 to 2026',
      field: 'yearOfBirth',
    },
    {
      body: { displayName: 'A', yearOfBirth: 1899 },
      message: 'Year of birth must be a year from 1900 to 2026',
      field: 'yearOfBirth',
    },
    {
      body: { displayName: 'A', ageGroup: 'elderly' },
      message: 'Age group must be adult, pediatric or infant',
      field: 'ageGroup',
    },
    {
      body: { displayName: 'A', notes: 'n'.repeat(501) },
      message: 'Notes must be at most 500 characters',
      field: 'notes',
    },
    {
      body: { displayName: 'A', nationalId: '1234567890' },
      message: 'Unknown field "nationalId"',
      field: 'nationalId',
    },
  ])('refuses $field: "$message"', async ({ body, message, field }) => {
    const { token } = await api.signUp();
    const before = await api.storedData();
    const response = await api.request('POST', '/api/patients', { token, body });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message, issues: [{ field, message }] });
    expect(await api.storedData()).toBe(before);
  });

  it('a PATCH with a bad field changes nothing', async () => {
    const { token } = await api.signUp();
    const created = await api.request('POST', '/api/patients', {
      token,
      body: { displayName: 'Before', weightKg: 60 },
    });
    const response = await api.request('PATCH', `/api/patients/${created.body.id}`, {
      token,
      body: { displayName: 'After', weightKg: 999 },
    });
    expect(response.status).toBe(400);
    expect((await api.request('GET', `/api/patients/${created.body.id}`, { token })).body).toMatchObject({
      displayName: 'Before',
      weightKg: 60,
    });
  });

  it.each([
    {
      name: 'a text/plain body',
      type: 'text/plain',
      body: '{"displayName":"After"}',
      status: 415,
      message: 'Send the body as application/json',
    },
    {
      name: 'a form body',
      type: 'application/x-www-form-urlencoded',
      body: 'displayName=After',
      status: 415,
      message: 'Send the body as application/json',
    },
    {
      name: 'an empty JSON body',
      type: 'application/json',
      body: '',
      status: 400,
      message: 'Send the changes as a JSON object, such as {"weightKg": 70}',
    },
    {
      name: 'no body at all',
      type: undefined,
      body: undefined,
      status: 400,
      message: 'Send the changes as a JSON object, such as {"weightKg": 70}',
    },
    {
      name: 'a JSON array',
      type: 'application/json',
      body: '[]',
      status: 400,
      message: 'Send the changes as a JSON object, such as {"weightKg": 70}',
    },
    {
      name: 'a JSON array of changes',
      type: 'application/json',
      body: '[{"displayName":"After"}]',
      status: 400,
      message: 'Send the changes as a JSON object, such as {"weightKg": 70}',
    },
    {
      name: 'JSON null',
      type: 'application/json',
      body: 'null',
      status: 400,
      message: 'The request body is not valid JSON',
    },
  ])(
    'a PATCH with $name → $status, the usual JSON message, and nothing changed',
    async ({ type, body, status, message }) => {
      const { token } = await api.signUp();
      const created = await api.request('POST', '/api/patients', {
        token,
        body: { displayName: 'Before', weightKg: 60 },
      });
      const before = await api.storedData();
      const response = await fetch(`${api.url}/api/patients/${created.body.id}`, {
        method: 'PATCH',
        headers: { Authorization: `Bearer ${token}`, ...(type ? { 'Content-Type': type } : {}) },
        body,
      });
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toContain('application/json');
      expect(await response.json()).toEqual({ message });
      expect(await api.storedData()).toBe(before);
      expect((await api.request('GET', `/api/patients/${created.body.id}`, { token })).body).toEqual(created.body);
    },
  );

  it('account routes need a session', async () => {
    for (const [method, url] of [
      ['GET', '/api/patients'],
      ['POST', '/api/patients'],
      ['GET', '/api/patients/x'],
      ['PATCH', '/api/patients/x'],
      ['DELETE', '/api/patients/x'],
      ['GET', '/api/history'],
      ['GET', '/api/history/x'],
    ] as const) {
      const response = await api.request(
        method,
        url,
        method === 'POST' || method === 'PATCH' ? { body: { displayName: 'A' } } : {},
      );
      expect([method, url, response.status, response.body]).toEqual([
        method,
        url,
        401,
        { message: 'Please sign in to use this feature.' },
      ]);
    }
  });
});

describe('history', () => {
  it('newest first, filtered by patient and tool, paginated', async () => {
    const { token } = await api.signUp();
    const patient = (await api.request('POST', '/api/patients', { token, body: { displayName: 'P1', weightKg: 80 } }))
      .body;
    const ids: string[] = [];
    for (const body of [
      roi(1),
      dose(60),
      { ...dose(80), patientId: patient.id },
      roi(2),
      { ...dose(81), patientId: patient.id },
    ]) {
      ids.push((await api.request('POST', '/api/tools/run', { token, body })).body.historyId);
    }
    const list = async (query: string) => (await api.request('GET', `/api/history${query}`, { token })).body;
    const all = await list('');
    expect(all.total).toBe(5);
    expect(all.page).toBe(1);
    expect(all.pageSize).toBe(20);
    expect(all.items.map((item: { id: string }) => item.id)).toEqual([...ids].reverse());
    expect(all.items[0]).not.toHaveProperty('ownerId');

    expect((await list(`?patientId=${patient.id}`)).items.map((item: { id: string }) => item.id)).toEqual([
      ids[4],
      ids[2],
    ]);
    expect((await list('?toolType=roi_calculator')).items.map((item: { id: string }) => item.id)).toEqual([
      ids[3],
      ids[0],
    ]);
    expect((await list(`?toolType=dose_calculator&patientId=${patient.id}`)).total).toBe(2);
    const page2 = await list('?page=2&pageSize=2');
    expect(page2).toMatchObject({ page: 2, pageSize: 2, total: 5 });
    expect(page2.items.map((item: { id: string }) => item.id)).toEqual([ids[2], ids[1]]);
    expect((await list('?page=4&pageSize=2')).items).toEqual([]);

    // deleting the patient keeps the calculations, unlinked
    await api.request('DELETE', `/api/patients/${patient.id}`, { token });
    const entry = await api.request('GET', `/api/history/${ids[4]}`, { token });
    expect(entry.body.patientId).toBeNull();
  });

  it.each([
    ['?page=0', 'page must be a whole number from 1'],
    ['?page=abc', 'page must be a whole number from 1'],
    ['?pageSize=101', 'pageSize must be a whole number from 1 to 100'],
    ['?toolType=other', 'toolType must be one of: dose_calculator, bradycardia_advisor, roi_calculator'],
    ['?sort=asc', 'Unknown field "sort"'],
    ['?page=1&page=2', 'page must be a whole number from 1'],
  ])('GET /api/history%s → 400 "%s"', async (query, message) => {
    const { token } = await api.signUp();
    const response = await api.request('GET', `/api/history${query}`, { token });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe(message);
  });
});

describe('isolation: clinician B sees none of clinician A', () => {
  it("answers 404 on every one of A's patients and history entries, and lists none of them", async () => {
    const a = await api.signUp('Clinician A');
    const b = await api.signUp('Clinician B');
    const patients = [];
    for (const name of ['A-one', 'A-two'])
      patients.push(
        (
          await api.request('POST', '/api/patients', {
            token: a.token,
            body: { displayName: name, mrn: `${name}-MRN` },
          })
        ).body,
      );
    const entries = [];
    for (const patient of patients) {
      entries.push(
        (await api.request('POST', '/api/tools/run', { token: a.token, body: { ...dose(70), patientId: patient.id } }))
          .body.historyId,
      );
    }
    entries.push((await api.request('POST', '/api/tools/run', { token: a.token, body: roi(5) })).body.historyId);

    for (const patient of patients) {
      for (const [method, body] of [
        ['GET', undefined],
        ['PATCH', { displayName: 'hijacked' }],
        ['DELETE', undefined],
      ] as const) {
        const response = await api.request(method, `/api/patients/${patient.id}`, { token: b.token, body });
        expect([method, response.status, response.body]).toEqual([method, 404, { message: 'Patient not found' }]);
      }
      const filtered = await api.request('GET', `/api/history?patientId=${patient.id}`, { token: b.token });
      expect(filtered.status).toBe(404);
      const run = await api.request('POST', '/api/tools/run', {
        token: b.token,
        body: { ...dose(70), patientId: patient.id },
      });
      expect(run.status).toBe(404);
    }
    for (const id of entries) {
      const response = await api.request('GET', `/api/history/${id}`, { token: b.token });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: 'History entry not found' });
    }
    expect((await api.request('GET', '/api/patients?q=A-', { token: b.token })).body.patients).toEqual([]);
    expect((await api.request('GET', '/api/history', { token: b.token })).body.total).toBe(0);

    // A still has everything, unchanged
    for (const patient of patients) {
      expect((await api.request('GET', `/api/patients/${patient.id}`, { token: a.token })).body).toEqual(patient);
    }
    expect((await api.request('GET', '/api/history', { token: a.token })).body.total).toBe(3);
  });
});

describe('audit log', () => {
  it('writes who, action, record id and time, and no patient values', async () => {
    const { token, user } = await api.signUp();
    const created = await api.request('POST', '/api/patients', {
      token,
      body: { displayName: 'Secret Name', mrn: 'MRN-SECRET-42', weightKg: 66, notes: 'private note' },
    });
    await api.request('GET', `/api/patients/${created.body.id}`, { token });
    const lines = await api.auditLines();
    const mine = lines.filter((line) => line.actor === user.id);
    expect(mine.map((line) => [line.action, line.recordId ?? null])).toEqual([
      ['user.signup', user.id],
      ['patient.create', created.body.id],
      ['patient.read', created.body.id],
    ]);
    for (const line of mine)
      expect(Object.keys(line).sort()).toEqual(expect.arrayContaining(['action', 'actor', 'time']));
    const text = JSON.stringify(lines);
    for (const secret of ['Secret Name', 'MRN-SECRET-42', 'private note', 'correct horse battery'])
      expect(text).not.toContain(secret);
  });
});

describe('in Arabic (?lang=ar or Accept-Language: ar)', () => {
  it('patient validation messages are Arabic, naming the same fields with the same limits', async () => {
    const { token } = await api.signUp();
    const body = { displayName: '', yearOfBirth: 1850, weightKg: 500 };
    const english = await api.request('POST', '/api/patients', { token, body });
    const arabic = await api.request('POST', '/api/patients?lang=ar', { token, body });
    expect(arabic.status).toBe(400);
    expect(arabic.body.message).toBe(CLINICAL_TEXTS_AR.patient.displayName);
    expect(arabic.body.issues).toEqual([
      { field: 'displayName', message: CLINICAL_TEXTS_AR.patient.displayName },
      { field: 'yearOfBirth', message: CLINICAL_TEXTS_AR.patient.yearOfBirth(2026) },
      { field: 'weightKg', message: CLINICAL_TEXTS_AR.patient.weight },
    ]);
    expect(arabic.body.issues.map((issue: { message: string }) => digitRuns(issue.message))).toEqual(
      english.body.issues.map((issue: { message: string }) => digitRuns(issue.message)),
    );

    const created = await api.request('POST', '/api/patients?lang=ar', { token, body: { displayName: 'ف.ع.' } });
    expect(created.status).toBe(201);
    const changed = await api.request('PATCH', `/api/patients/${created.body.id}`, {
      token,
      body: { notes: 'x'.repeat(501), unknown: 1 },
      headers: { 'Accept-Language': 'ar-SA,ar;q=0.9' },
    });
    expect(changed.status).toBe(400);
    expect(changed.body.issues).toEqual([
      { field: 'notes', message: CLINICAL_TEXTS_AR.patient.notes },
      { field: 'unknown', message: CLINICAL_TEXTS_AR.fields.unknown('unknown') },
    ]);
  });

  it('lang is accepted beside every query of the account routes (not an unknown field)', async () => {
    const { token } = await api.signUp();
    const patient = await api.request('POST', '/api/patients', { token, body: { displayName: 'A.' } });
    await api.request('POST', '/api/tools/run?lang=ar', { token, body: { ...roi(10), patientId: patient.body.id } });
    for (const path of [
      `/api/history?lang=ar&patientId=${patient.body.id}&toolType=roi_calculator`,
      '/api/history?lang=fr',
      '/api/patients?lang=ar&q=A',
      `/api/exports?lang=ar&patientId=${patient.body.id}`,
    ]) {
      const response = await api.request('GET', path, { token });
      expect(response.status, path).toBe(200);
    }
    const history = await api.request('GET', '/api/history?lang=ar', { token });
    expect(history.body.total).toBe(1);
    const unknown = await api.request('GET', '/api/history?language=ar', { token });
    expect(unknown.status).toBe(400);
  });
});
