import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type ApiResponse, type TestApi } from '../test-support/test-api.ts';

// GET /api/history by cursor (keyset paging) beside page= (docs/API.md#history-signed-in), on both stores.
let api: TestApi;
let token: string;
let patientId: string;
/** The ids saved, oldest first, and each one's tool and patient. */
const saved: { id: string; toolType: string; patientId: string | null }[] = [];

const run = (toolType: string, withPatient: boolean) => {
  const inputs =
    toolType === 'roi_calculator'
      ? { numberOfCases: 100, orCostPerMinute: 45, timeNeostigmine: 15, timeProduct: 3, baselinePPCRate: 10 }
      : {
          ageGroup: 'adult',
          bodyWeight: 70,
          nmbaType: 'rocuronium',
          creatinine: 100,
          tofCount: '2',
          ptc: null,
          rsiScenario: false,
          dialysis: false,
        };
  return { toolType, inputs, ...(withPatient ? { patientId } : {}) };
};

beforeAll(async () => {
  api = await startTestApi();
  ({ token } = await api.signUp());
  patientId = (await api.request('POST', '/api/patients', { token, body: { displayName: 'P' } })).body.id;
  // 23 entries: dose and ROI, every third one for the patient
  for (let n = 0; n < 23; n += 1) {
    const toolType = n % 4 === 3 ? 'roi_calculator' : 'dose_calculator';
    const withPatient = n % 3 === 0 && toolType === 'dose_calculator';
    const answer = await api.request('POST', '/api/tools/run', { token, body: run(toolType, withPatient) });
    expect(answer.status).toBe(200);
    saved.push({ id: answer.body.historyId, toolType, patientId: withPatient ? patientId : null });
  }
}, 60_000);
afterAll(() => api.close());

/** Every page by cursor from the first, and what each answered. */
async function walk(query: string, pageSize: number) {
  const pages = [];
  let cursor: string | null = null;
  do {
    const answer: ApiResponse = await api.request(
      'GET',
      `/api/history?pageSize=${pageSize}${query}${cursor ? `&cursor=${cursor}` : ''}`,
      {
        token,
      },
    );
    expect(answer.status).toBe(200);
    pages.push(answer.body);
    cursor = answer.body.nextCursor;
  } while (cursor && pages.length < 50);
  return pages;
}

describe('GET /api/history by cursor', () => {
  it.each([
    ['', () => saved],
    ['&toolType=roi_calculator', () => saved.filter((entry) => entry.toolType === 'roi_calculator')],
    ['&patientId=PATIENT', () => saved.filter((entry) => entry.patientId === patientId)],
    [
      '&patientId=PATIENT&toolType=dose_calculator',
      () => saved.filter((entry) => entry.patientId === patientId && entry.toolType === 'dose_calculator'),
    ],
  ])('walks every entry newest first, each once, with the total (%s)', async (filter, expected) => {
    const query = filter.replace('PATIENT', patientId);
    const wanted = expected()
      .map((entry) => entry.id)
      .reverse();
    for (const pageSize of [1, 5, 100]) {
      const pages = await walk(query, pageSize);
      expect(pages.flatMap((page) => page.items.map((item: { id: string }) => item.id))).toEqual(wanted);
      for (const page of pages) expect(page.total).toBe(wanted.length);
      expect(pages.at(-1).nextCursor).toBeNull();
      expect(pages.length).toBe(Math.max(1, Math.ceil(wanted.length / pageSize)));
      // the first page is also page 1; later ones, asked by cursor, have no page number
      expect(pages[0].page).toBe(1);
      for (const page of pages.slice(1)) expect(page.page).toBeUndefined();
    }
  });

  it('page= still answers as before, and gives the cursor to go on from there', async () => {
    const second = await api.request('GET', '/api/history?page=2&pageSize=5', { token });
    expect(second.body).toMatchObject({ page: 2, pageSize: 5, total: 23 });
    const ids = saved.map((entry) => entry.id).reverse();
    expect(second.body.items.map((item: { id: string }) => item.id)).toEqual(ids.slice(5, 10));
    const third = await api.request('GET', `/api/history?pageSize=5&cursor=${second.body.nextCursor}`, { token });
    expect(third.body.items.map((item: { id: string }) => item.id)).toEqual(ids.slice(10, 15));
    const past = await api.request('GET', '/api/history?page=9&pageSize=5', { token });
    expect(past.body).toEqual({ items: [], page: 9, pageSize: 5, total: 23, nextCursor: null });
  });

  it('a new entry does not shift the pages after a cursor', async () => {
    const first = await api.request('GET', '/api/history?pageSize=4', { token });
    await api.request('POST', '/api/tools/run', { token, body: run('dose_calculator', false) });
    const next = await api.request('GET', `/api/history?pageSize=4&cursor=${first.body.nextCursor}`, { token });
    const ids = saved.map((entry) => entry.id).reverse();
    expect(next.body.items.map((item: { id: string }) => item.id)).toEqual(ids.slice(4, 8));
    expect(next.body.total).toBe(24);
  });

  it('refuses a cursor it did not give, and page with cursor', async () => {
    for (const cursor of ['abc', '12', 'aDoxeA', Buffer.from('h:-1').toString('base64url'), '%00']) {
      const answer = await api.request('GET', `/api/history?cursor=${cursor}`, { token });
      expect([cursor, answer.status, answer.body.message]).toEqual([
        cursor,
        400,
        'cursor must be the nextCursor of an earlier history answer',
      ]);
    }
    const cursor = (await api.request('GET', '/api/history?pageSize=2', { token })).body.nextCursor;
    const both = await api.request('GET', `/api/history?page=2&cursor=${cursor}`, { token });
    expect(both.status).toBe(400);
    expect(both.body.message).toBe('Send page or cursor, not both');
  });

  it('another clinician’s cursor shows them only their own entries', async () => {
    const other = await api.signUp();
    const cursor = (await api.request('GET', '/api/history?pageSize=2', { token })).body.nextCursor;
    const answer = await api.request('GET', `/api/history?cursor=${cursor}`, { token: other.token });
    expect(answer.body).toEqual({ items: [], pageSize: 20, total: 0, nextCursor: null });
  });
});
