import { Agent, request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, startBuiltServer, type BuiltServer } from './test-support/built-server.ts';

// Issue 31: a fuzz run of bodies and header variants (Accept-Encoding, Content-Type, nesting depth,
// size, client addresses, tokens) against the built server, on the store of the vitest project (this
// suite is one of API_SUITES_ON_EVERY_STORE): not one answer may be a 5xx, and the server may log no
// error. FUZZ_RUNS sets how many requests (15,000 by default), FUZZ_SEED replays a run.
const RUNS = Number(process.env.FUZZ_RUNS ?? 15_000);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const CONCURRENCY = 16;
const ACCOUNTS = 20;

let server: BuiltServer;
const tokens: string[] = [];
const patientIds: string[] = [];
beforeAll(async () => {
  server = await startBuiltServer({
    TRUST_PROXY: 'true', // so each case can come from its own address (X-Forwarded-For)
    ANONYMOUS_RUNS_PER_MINUTE: '1000000', // the limits answer 429 by design: let most cases through
  });
  for (let index = 0; index < ACCOUNTS; index += 1) {
    const { token } = await server.signUp(`Fuzz ${index}`, { headers: { 'X-Forwarded-For': `192.0.2.${index}` } });
    tokens.push(token);
    const patient = await rawRequest(server.url, '/api/patients', {
      method: 'POST',
      token,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ displayName: `Patient ${index}`, weightKg: 70 }),
    });
    patientIds.push(patient.json.id);
  }
}, 120_000);
afterAll(async () => {
  await server?.close();
});

// ---- what a case is made of -------------------------------------------------------------------

const jsonTypes = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json;charset=UTF-8',
  'Application/JSON',
  'application/json; charset=latin1',
  'application/vnd.api+json',
  'application/csp-report',
];
const otherTypes = [
  'text/plain',
  'text/plain; charset=utf-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/pdf',
  'application/octet-stream',
  'text/xml',
  'json',
  '*/*',
  ';',
  'application/json; charset=',
  'application/json; boundary="',
];
/** Any text a header may carry (Node sends tab, printable ASCII and Latin-1; it refuses the rest). */
const headerText = (maxLength: number) =>
  fc
    .array(fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.constantFrom(0x09, 0xa0, 0xe9, 0xff)), { maxLength })
    .map((codes) => String.fromCharCode(...codes));
const contentType = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...jsonTypes) },
  { weight: 3, arbitrary: fc.constantFrom(...otherTypes) },
  { weight: 1, arbitrary: headerText(40) },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

const codings = ['gzip', 'br', 'deflate', 'identity', '*', 'x-gzip', 'zstd', 'compress', 'GZIP', 'Br', 'über', ''];
const qvalues = ['', ';q=0', ';q=1', ';q=0.5', ';q=1.0', ';q=0.001', ';q=-1', ';q=2', ';q=abc', ';q=', ';;q=1', ';x=1'];
const weighedCodings = fc
  .tuple(
    fc.array(fc.tuple(fc.constantFrom(...codings), fc.constantFrom(...qvalues)), { maxLength: 5 }),
    fc.constantFrom(', ', ',', ' , '),
  )
  .map(([members, separator]) => members.map(([coding, q]) => `${coding}${q}`).join(separator));
const acceptEncoding = fc.oneof(
  { weight: 6, arbitrary: weighedCodings },
  { weight: 1, arbitrary: headerText(60) },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

/** Objects and arrays nested `depth` deep, balanced or cut off, around an ordinary value. */
const deepBody = fc
  .record({
    depth: fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 30, max: 40_000 })),
    open: fc.constantFrom('[', '{"a":', '{"inputs":', '[{"x":'),
    balanced: fc.boolean(),
  })
  .map(({ depth, open, balanced }) => {
    const close = open === '[' ? ']' : open === '[{"x":' ? '}]' : '}';
    return `${open.repeat(depth)}1${balanced ? close.repeat(depth) : ''}`;
  });

/** Around the 64 KB limit: a JSON string field a little under or over it. */
const bigBody = fc
  .integer({ min: 60_000, max: 70_000 })
  .map((size) => JSON.stringify({ displayName: 'x', notes: 'n'.repeat(size) }));

/** Text no store keeps as sent, invisible names, and other odd characters, as JSON escapes or raw. */
const oddText = fc.constantFrom(
  '\\u0000',
  '\\ud800',
  '\\udc00x',
  '\u200b',
  '\u202e',
  '\u200b\u202e',
  '\u00ad',
  '\ufeff',
  'أحمد',
  '🩺',
  '\\"',
  '%00',
  '__proto__',
  'constructor',
);
const oddObject = fc
  .record({
    key: fc.constantFrom('displayName', 'name', 'email', 'toolType', '__proto__', 'inputs', 'notes', '\\u0000', ''),
    value: oddText,
  })
  .map(({ key, value }) => `{"${key}":"${value}"}`);

const toolInputs = fc.oneof(
  fc.record({
    toolType: fc.constantFrom('dose_calculator', 'bradycardia_advisor', 'roi_calculator', 'other'),
    inputs: fc.oneof(fc.object({ maxDepth: 2 }), fc.jsonValue({ maxDepth: 2 })),
  }),
  fc.record(
    {
      toolType: fc.constant('dose_calculator'),
      inputs: fc.record(
        {
          ageGroup: fc.constantFrom('adult', 'pediatric', 'infant', 'elderly', ''),
          bodyWeight: fc.oneof(fc.double(), fc.integer({ min: -5, max: 300 }), fc.string({ maxLength: 5 })),
          nmbaType: fc.constantFrom('rocuronium', 'vecuronium', 'other', 1),
          creatinine: fc.oneof(fc.constant(null), fc.double()),
          tofCount: fc.constantFrom('', '0', '1', '2', '3', '4', '5', null, 2),
          ptc: fc.oneof(fc.constant(null), fc.integer({ min: -1, max: 20 })),
          rsiScenario: fc.oneof(fc.boolean(), fc.constant('yes')),
          dialysis: fc.oneof(fc.boolean(), fc.constant(0)),
        },
        { requiredKeys: [] },
      ),
      patientId: fc.oneof(fc.constant(undefined), fc.uuid(), fc.string({ maxLength: 120 })),
    },
    { requiredKeys: ['toolType', 'inputs'] },
  ),
);
const patientFields = fc.record(
  {
    displayName: fc.oneof(fc.string({ maxLength: 100 }), oddText, fc.integer()),
    mrn: fc.oneof(fc.constant(null), fc.string({ maxLength: 50 })),
    yearOfBirth: fc.oneof(fc.constant(null), fc.integer({ min: 1800, max: 2200 }), fc.double()),
    ageGroup: fc.constantFrom('adult', 'pediatric', 'infant', null, 'x'),
    weightKg: fc.oneof(fc.constant(null), fc.double(), fc.integer({ min: -10, max: 500 })),
    notes: fc.oneof(fc.constant(null), fc.string({ maxLength: 600 })),
    extra: fc.anything({ maxDepth: 1 }),
  },
  { requiredKeys: [] },
);
const authFields = fc.record(
  {
    email: fc.oneof(fc.emailAddress(), fc.string({ maxLength: 300 }), fc.integer()),
    password: fc.oneof(fc.string({ maxLength: 20 }), fc.string({ minLength: 1000, maxLength: 1100 })),
    name: fc.oneof(fc.string({ maxLength: 120 }), oddText),
    license: fc.oneof(fc.constant(null), fc.string({ maxLength: 60 })),
    agreeTerms: fc.oneof(fc.boolean(), fc.constant('true')),
    currentPassword: fc.string({ maxLength: 20 }),
    newPassword: fc.string({ maxLength: 140 }),
  },
  { requiredKeys: [] },
);

/** Bodies the routes accept, so that the variants around them (types, codings, addresses) reach the end. */
const DOSE_INPUTS = {
  ageGroup: 'adult',
  bodyWeight: 70,
  nmbaType: 'rocuronium',
  creatinine: 90,
  tofCount: '2',
  ptc: null,
  rsiScenario: false,
  dialysis: false,
};
const ROI_INPUTS = {
  numberOfCases: 100,
  orCostPerMinute: 45,
  timeNeostigmine: 15,
  timeProduct: 3,
  baselinePPCRate: 10,
};
const validBody = fc.constantFrom(
  JSON.stringify({ toolType: 'dose_calculator', inputs: DOSE_INPUTS }),
  JSON.stringify({ toolType: 'roi_calculator', inputs: ROI_INPUTS }),
  JSON.stringify({ displayName: 'F.A.', weightKg: 72 }),
  JSON.stringify({ weightKg: 71 }),
);

const body = fc.oneof(
  { weight: 2, arbitrary: validBody },
  { weight: 4, arbitrary: fc.oneof(toolInputs, patientFields, authFields).map((value) => JSON.stringify(value)) },
  { weight: 2, arbitrary: fc.json({ maxDepth: 4 }) },
  { weight: 2, arbitrary: deepBody },
  { weight: 1, arbitrary: bigBody },
  { weight: 1, arbitrary: oddObject },
  { weight: 1, arbitrary: fc.string({ maxLength: 200 }) }, // not JSON, mostly
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)) },
  { weight: 1, arbitrary: fc.constant('') },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.oneof(toolInputs, patientFields).map((value) => JSON.stringify(value)),
        fc.nat(),
      )
      .map(([text, cut]) => text.slice(0, cut % (text.length + 1))), // JSON cut short
  },
);

type Route = { method: string; path: (pick: number) => string; signedIn: 'no' | 'yes' | 'either' };
const ROUTES: Route[] = [
  { method: 'POST', path: () => '/api/auth/signup', signedIn: 'no' },
  { method: 'POST', path: () => '/api/auth/signin', signedIn: 'no' },
  { method: 'POST', path: () => '/api/tools/run', signedIn: 'either' },
  { method: 'POST', path: () => '/api/tools/run?lang=ar', signedIn: 'either' },
  { method: 'POST', path: () => '/api/patients', signedIn: 'yes' },
  { method: 'PATCH', path: (pick) => `/api/patients/${patientIds[pick % ACCOUNTS]}`, signedIn: 'yes' },
  { method: 'POST', path: () => '/api/auth/password', signedIn: 'yes' },
  { method: 'POST', path: () => '/api/exports?fileName=notes.pdf', signedIn: 'yes' },
  { method: 'GET', path: () => '/', signedIn: 'no' },
  { method: 'GET', path: () => '/healthz', signedIn: 'no' },
];

const fuzzCase = fc.record({
  route: fc.nat({ max: ROUTES.length - 1 }),
  pick: fc.nat(),
  signedIn: fc.boolean(),
  badToken: fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  contentType,
  acceptEncoding,
  forwardedFor: fc.oneof(
    fc.tuple(fc.ipV4(), fc.nat({ max: 65535 })).map(([ip, port]) => `${ip}:${port}`),
    fc.ipV4(),
    fc.ipV4().map((ip) => `::ffff:${ip}`),
    fc.ipV6(),
    headerText(30),
  ),
  body,
});
type FuzzCase = ReturnType<typeof fuzzCase.generate>['value'];

// ---- sending ------------------------------------------------------------------------------------

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function send(item: FuzzCase): Promise<number> {
  const route = ROUTES[item.route]!;
  const signedIn = route.signedIn === 'yes' || (route.signedIn === 'either' && item.signedIn);
  const headers: Record<string, string> = { 'X-Forwarded-For': item.forwardedFor };
  if (signedIn) headers.Authorization = item.badToken ? 'Bearer not.a.token' : `Bearer ${tokens[item.pick % ACCOUNTS]}`;
  if (item.contentType !== undefined) headers['Content-Type'] = item.contentType;
  if (item.acceptEncoding !== undefined) headers['Accept-Encoding'] = item.acceptEncoding;
  const payload = route.method === 'GET' ? undefined : item.body;
  if (payload !== undefined) headers['Content-Length'] = String(Buffer.byteLength(payload));
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${server.url}${route.path(item.pick)}`,
      { method: route.method, headers, agent },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

describe(`fuzzing the built server (${RUNS} requests)`, () => {
  it('answers every body and header variant without a 5xx, and logs no error', async () => {
    const cases = fc.sample(fuzzCase, { numRuns: RUNS, seed: SEED });
    const statuses = new Map<number, number>();
    const serverErrors: { status: number; item: FuzzCase }[] = [];
    const transportErrors: { error: string; item: FuzzCase }[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < cases.length) {
          const item = cases[next++]!;
          try {
            const status = await send(item);
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
            if (status >= 500) serverErrors.push({ status, item });
          } catch (error) {
            transportErrors.push({ error: String(error), item });
          }
        }
      }),
    );
    agent.destroy();
    const counts = JSON.stringify(Object.fromEntries(statuses));
    const summary = `seed ${SEED} (FUZZ_SEED=${SEED} replays it); statuses ${counts}`;
    const show = (items: { item: FuzzCase }[]) =>
      items.slice(0, 5).map(({ item, ...rest }) => ({
        ...rest,
        route: ROUTES[item.route]!.method + ' ' + ROUTES[item.route]!.path(item.pick),
        contentType: item.contentType,
        acceptEncoding: item.acceptEncoding,
        body: String(item.body).slice(0, 200),
      }));
    expect(show(serverErrors), summary).toEqual([]);
    expect(show(transportErrors), summary).toEqual([]);
    expect([...statuses.values()].reduce((a, b) => a + b, 0)).toBe(RUNS);
    // the variety actually reached the routes: successes, validation errors, 406, 413, 415
    for (const status of [200, 400, 406, 413, 415]) expect([status, statuses.has(status)]).toEqual([status, true]);
    // nothing logged at level error (50) or fatal (60), and the server still answers
    expect(server.output()).not.toMatch(/"level":(50|60)/);
    expect((await rawRequest(server.url, '/healthz')).status).toBe(200);
  }, 240_000);
});
