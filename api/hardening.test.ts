import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompress } from '../scripts/build-delivery.mjs';
import { MAX_FAILURES_PER_ACCOUNT, MAX_FAILURES_PER_ADDRESS, SLOW_DOWN_SPACING_MS } from './auth/sign-in-limiter.ts';
import { DEFAULT_ANONYMOUS_RUNS_PER_MINUTE } from './config.ts';
import {
  CURRENT_PASSWORD_WRONG_MESSAGE,
  JSON_BODY_TYPE_MESSAGE,
  JSON_TOO_DEEP_MESSAGE,
  NEW_PASSWORD_UNCHANGED_MESSAGE,
  NO_ACCEPTABLE_ENCODING_MESSAGE,
  SESSION_INVALID_MESSAGE,
  TOO_MANY_FROM_ADDRESS_MESSAGE,
} from './messages.ts';
import { MAX_SESSIONS_PER_ACCOUNT } from './storage/policy.ts';
import { jsonRequest, PASSWORD, rawRequest, startBuiltServer, type BuiltServer } from './test-support/built-server.ts';

// Issue 31: what a black-box probe of the server found, each over real HTTP against the built server
// (what `npm start` runs) on the store of the vitest project (DATA_DIR here, PostgreSQL in
// `node-postgres`). Every case here answered otherwise before the fix, as its name says.
let server: BuiltServer;
let site: string;
beforeAll(async () => {
  server = await startBuiltServer();
  // The built server serves the site beside its folder (dist/site beside dist/server): a page and a
  // script, with the build's .br and .gz.
  site = path.join(path.dirname(path.dirname(server.serverFile)), 'site');
  await mkdir(site, { recursive: true });
  await writeFile(path.join(site, 'index.html'), `<!doctype html><title>t</title>${'<p>section</p>\n'.repeat(300)}`);
  await writeFile(path.join(site, 'small.txt'), 'tiny');
  precompress(site);
}, 120_000);
afterAll(async () => {
  await server?.close();
  if (site) await rm(site, { recursive: true, force: true });
});

const ADVISOR_INPUTS = {
  weight: 70,
  age: 80,
  baselineHr: 45,
  cardiacHistory: 'av_block',
  betaBlocker: true,
  dexmedetomidine: false,
  digoxin: false,
  amiodarone: false,
  highDoseOpioids: false,
  vagalStimulus: false,
  depth: 'tof_2_plus',
  nmba: 'rocuronium',
  creatinine: 60,
};
const advisorRun = { toolType: 'bradycardia_advisor', inputs: ADVISOR_INPUTS };
const roiRun = {
  toolType: 'roi_calculator',
  inputs: { numberOfCases: 100, orCostPerMinute: 45, timeNeostigmine: 15, timeProduct: 3, baselinePPCRate: 10 },
};
const historyTotal = async (token: string) =>
  (await rawRequest(server.url, '/api/history', { token, headers: { 'Accept-Encoding': 'identity' } })).json.total;
/** Every client of these tests gets its own address on the loopback network, so no limit is shared by accident. */
let nextHost = 10;
const newAddress = () => `127.0.1.${(nextHost += 1)}`;

describe('1. Accept-Encoding: q-values honoured, 406 when nothing is acceptable, never a 5xx', () => {
  const page = (accept: string) => rawRequest(server.url, '/', { headers: { 'Accept-Encoding': accept } });
  const advisor = (accept: string, token?: string) =>
    jsonRequest(server.url, 'POST', '/api/tools/run', advisorRun, {
      token,
      headers: { 'Accept-Encoding': accept },
      localAddress: newAddress(),
    });

  it.each(['identity;q=0', '*;q=0', 'IDENTITY;Q=0', 'identity;q=0, *;q=0', 'identity;q=0.000, br;q=0'])(
    '"%s": 406 with a message on a page, an API answer over 1 KiB and /healthz (was 500)',
    async (accept) => {
      for (const answer of [
        await page(accept),
        await advisor(accept),
        await rawRequest(server.url, '/healthz', { headers: { 'Accept-Encoding': accept } }),
      ]) {
        expect([answer.status, answer.json]).toEqual([406, { message: NO_ACCEPTABLE_ENCODING_MESSAGE }]);
        expect(answer.headers.vary).toContain('Accept-Encoding');
      }
    },
  );

  it.each(['gzip;q=-1', 'br;q=2', 'gzip;q=abc', 'gzip;;q=1', ';', ',,,', 'über', ''])(
    '"%s" (not well formed): the body as it is, 200 (was 500 for gzip;q=-1)',
    async (accept) => {
      const html = await page(accept);
      expect([html.status, html.headers['content-encoding']]).toEqual([200, undefined]);
      expect(html.text).toBe(await readFile(path.join(site, 'index.html'), 'utf8'));
      const api = await advisor(accept);
      expect([api.status, api.headers['content-encoding'], api.json.kind]).toEqual([200, undefined, 'assessment']);
    },
  );

  it('"gzip;q=1.0, br;q=0.1" is answered with gzip, on a page and on the API (was br)', async () => {
    const html = await page('gzip;q=1.0, br;q=0.1');
    expect([html.status, html.headers['content-encoding']]).toEqual([200, 'gzip']);
    expect(html.wire.equals(await readFile(path.join(site, 'index.html.gz')))).toBe(true);
    const api = await advisor('gzip;q=1.0, br;q=0.1');
    expect([api.status, api.headers['content-encoding'], api.json.kind]).toEqual([200, 'gzip', 'assessment']);
    // and the other way round, and the wildcard
    expect((await page('gzip;q=0.1, br;q=1')).headers['content-encoding']).toBe('br');
    expect((await advisor('br;q=0.5, *;q=0.9')).headers['content-encoding']).toBe('gzip');
    expect((await advisor('gzip, deflate')).headers['content-encoding']).toBe('gzip');
    expect((await advisor('deflate')).headers['content-encoding']).toBe('deflate');
  });

  it('identity refused but gzip accepted: even a small answer and a file without .gz come compressed', async () => {
    const health = await rawRequest(server.url, '/healthz', { headers: { 'Accept-Encoding': 'identity;q=0, gzip' } });
    expect([health.status, health.headers['content-encoding'], health.json]).toEqual([200, 'gzip', { status: 'ok' }]);
    const small = await rawRequest(server.url, '/small.txt', { headers: { 'Accept-Encoding': 'gzip, identity;q=0' } });
    expect([small.status, small.headers['content-encoding'], small.text]).toEqual([200, 'gzip', 'tiny']);
  });

  it('a signed-in advisor run with identity;q=0 is refused before it is saved; with gzip too, saved once', async () => {
    const { token } = await server.signUp();
    const refused = await advisor('identity;q=0', token);
    expect(refused.status).toBe(406);
    expect(await historyTotal(token)).toBe(0); // was: saved, and answered 500 (so the client sent it again)
    const saved = await advisor('identity;q=0, gzip', token);
    expect([saved.status, saved.headers['content-encoding'], saved.json.kind]).toEqual([200, 'gzip', 'assessment']);
    expect(await historyTotal(token)).toBe(1);
  });
});

describe('3. nesting too deep: a 400 with a message before anything walks the body', () => {
  const deepArray = `${'['.repeat(30_000)}${']'.repeat(30_000)}`;
  const deepObject = `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`;
  it.each([
    ['/api/auth/signup', false],
    ['/api/auth/signin', false],
    ['/api/tools/run', false],
    ['/api/patients', true],
    ['/api/auth/password', true],
  ])('%s: 30,000 [ then ] and 5,000 nested objects answer 400 (was 500)', async (urlPath, signedIn) => {
    const token = signedIn ? (await server.signUp()).token : undefined;
    for (const body of [deepArray, deepObject, `{"inputs":${deepArray}}`]) {
      const answer = await rawRequest(server.url, urlPath, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body,
        token,
        localAddress: newAddress(),
      });
      expect([answer.status, answer.json]).toEqual([400, { message: JSON_TOO_DEEP_MESSAGE }]);
    }
  });

  it('32 levels are read as usual (the schema answers), 33 are too deep', async () => {
    const nested = (levels: number) =>
      `{"toolType":"dose_calculator","inputs":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;
    const at = await rawRequest(server.url, '/api/tools/run', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: nested(32),
      localAddress: newAddress(),
    });
    expect([at.status, at.json.message]).toEqual([400, "inputs must be an object of the tool's fields"]);
    const over = await rawRequest(server.url, '/api/tools/run', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: nested(33),
      localAddress: newAddress(),
    });
    expect([over.status, over.json.message]).toEqual([400, JSON_TOO_DEEP_MESSAGE]);
    // brackets inside strings are text, not nesting
    const text = await jsonRequest(
      server.url,
      'POST',
      '/api/tools/run',
      { toolType: '['.repeat(100), inputs: {} },
      { localAddress: newAddress() },
    );
    expect(text.json.message).toBe('toolType must be one of: dose_calculator, bradycardia_advisor, roi_calculator');
  });
});

describe('4. Quick Use runs are limited per address', () => {
  it(`${DEFAULT_ANONYMOUS_RUNS_PER_MINUTE} a minute per address, then 429 (was: 1,500 all 200)`, async () => {
    const address = newAddress();
    const statuses: number[] = [];
    for (let sent = 0; sent < DEFAULT_ANONYMOUS_RUNS_PER_MINUTE; sent += 20) {
      const batch = await Promise.all(
        Array.from({ length: 20 }, () =>
          jsonRequest(server.url, 'POST', '/api/tools/run', roiRun, { localAddress: address }),
        ),
      );
      statuses.push(...batch.map((answer) => answer.status));
    }
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    const refused = await jsonRequest(server.url, 'POST', '/api/tools/run', roiRun, { localAddress: address });
    expect([refused.status, refused.json]).toEqual([429, { message: TOO_MANY_FROM_ADDRESS_MESSAGE }]);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    // another address, and a signed-in clinician on this one, are not counted with it
    expect(
      (await jsonRequest(server.url, 'POST', '/api/tools/run', roiRun, { localAddress: newAddress() })).status,
    ).toBe(200);
    const { token } = await server.signUp('Signed In', { localAddress: newAddress() });
    const signedIn = await jsonRequest(server.url, 'POST', '/api/tools/run', roiRun, { token, localAddress: address });
    expect(signedIn.status).toBe(200);
  }, 60_000);
});

describe('5. with TRUST_PROXY=true, one client is one address however the proxy writes it', () => {
  let proxied: BuiltServer;
  beforeAll(async () => {
    proxied = await startBuiltServer({ TRUST_PROXY: 'true' });
  }, 60_000);
  afterAll(async () => {
    await proxied?.close();
  });
  const SPELLINGS = [
    (port: number) => `203.0.113.7:${port}`,
    () => '::ffff:203.0.113.7',
    () => '::FFFF:CB00:7107',
    (port: number) => `[::ffff:203.0.113.7]:${port}`,
    () => '0:0:0:0:0:ffff:203.0.113.7',
    () => ' 203.0.113.7 ',
  ];

  it(`${MAX_FAILURES_PER_ADDRESS} failures from one address, however written, slow it as one`, async () => {
    const attempt = (index: number) =>
      jsonRequest(
        proxied.url,
        'POST',
        '/api/auth/signin',
        { email: `nobody${index}@hospital.example`, password: 'wrong password' },
        { headers: { 'X-Forwarded-For': SPELLINGS[index % SPELLINGS.length]!(1024 + index) } },
      );
    for (let index = 0; index < MAX_FAILURES_PER_ADDRESS; index += 1) {
      expect([index, (await attempt(index)).status]).toEqual([index, 401]);
    }
    // Past the limit an address is slowed, never locked out (security review 1, L3): its attempts go one at a time,
    // each SLOW_DOWN_SPACING_MS after the one before. Sent at once, the spellings wait their turns as one address.
    const started = performance.now();
    const slowed = await Promise.all(
      SPELLINGS.map(async (_, offset) => {
        const answer = await attempt(MAX_FAILURES_PER_ADDRESS + offset);
        return { status: answer.status, ms: performance.now() - started };
      }),
    );
    expect(slowed.map((answer) => answer.status)).toEqual(SPELLINGS.map(() => 401));
    const last = Math.max(...slowed.map((answer) => answer.ms));
    expect(last).toBeGreaterThanOrEqual(SPELLINGS.length * SLOW_DOWN_SPACING_MS - 50);
    // another client behind the same proxy is not slowed
    const before = performance.now();
    const other = await jsonRequest(
      proxied.url,
      'POST',
      '/api/auth/signin',
      { email: 'nobody@hospital.example', password: 'wrong password' },
      { headers: { 'X-Forwarded-For': '203.0.113.8:1024' } },
    );
    expect(other.status).toBe(401);
    expect(performance.now() - before).toBeLessThan(SLOW_DOWN_SPACING_MS);
  }, 60_000);
});

describe('7. changing the password ends every other session', () => {
  const changePassword = (token: string, body: unknown, localAddress = newAddress()) =>
    jsonRequest(server.url, 'POST', '/api/auth/password', body, { token, localAddress });
  const me = async (token: string) => (await rawRequest(server.url, '/api/auth/me', { token })).status;
  const signIn = (email: string, password: string) =>
    jsonRequest(server.url, 'POST', '/api/auth/signin', { email, password }, { localAddress: newAddress() });

  it('204; the other session is refused at once, this one goes on; the old password no longer signs in', async () => {
    const { token, email, userId } = await server.signUp();
    const other = (await signIn(email, PASSWORD)).json.token as string;
    expect([await me(token), await me(other)]).toEqual([200, 200]);
    const changed = await changePassword(token, { currentPassword: PASSWORD, newPassword: 'a new passphrase 2' });
    expect([changed.status, changed.text]).toEqual([204, '']);
    expect(await me(other)).toBe(401);
    expect((await rawRequest(server.url, '/api/patients', { token: other })).json).toEqual({
      message: SESSION_INVALID_MESSAGE,
    });
    expect(await me(token)).toBe(200);
    expect((await signIn(email, PASSWORD)).status).toBe(401);
    const again = await signIn(email, 'a new passphrase 2');
    expect(again.status).toBe(200);
    expect(await me(again.json.token)).toBe(200);
    expect(await auditOf(userId)).toContainEqual(
      expect.objectContaining({ actor: userId, action: 'user.password_change', recordId: userId, outcome: 'success' }),
    );
  });

  it('refuses a wrong current password (400 on the field), a short new one, the same one, and no session', async () => {
    const { token, userId } = await server.signUp();
    const wrong = await changePassword(token, { currentPassword: 'not my password', newPassword: 'whatever 12345' });
    expect([wrong.status, wrong.json]).toEqual([
      400,
      {
        message: CURRENT_PASSWORD_WRONG_MESSAGE,
        issues: [{ field: 'currentPassword', message: CURRENT_PASSWORD_WRONG_MESSAGE }],
      },
    ]);
    const short = await changePassword(token, { currentPassword: PASSWORD, newPassword: 'short' });
    expect([short.status, short.json.issues]).toEqual([
      400,
      [{ field: 'newPassword', message: 'New password must be 8-128 characters' }],
    ]);
    const same = await changePassword(token, { currentPassword: PASSWORD, newPassword: PASSWORD });
    expect([same.status, same.json.message]).toEqual([400, NEW_PASSWORD_UNCHANGED_MESSAGE]);
    const unknown = await changePassword(token, { currentPassword: PASSWORD, newPassword: 'whatever 12345', x: 1 });
    expect([unknown.status, unknown.json.message]).toEqual([400, 'Unknown field "x"']);
    const anonymous = await jsonRequest(server.url, 'POST', '/api/auth/password', {
      currentPassword: PASSWORD,
      newPassword: 'whatever 12345',
    });
    expect(anonymous.status).toBe(401);
    expect(await me(token)).toBe(200); // nothing of that changed anything
    expect((await signIn((await meBody(token)).email, PASSWORD)).status).toBe(200);
    expect(await auditOf(userId)).toContainEqual(
      expect.objectContaining({ action: 'user.password_change', recordId: userId, outcome: 'failure' }),
    );
  });

  it(`a wrong current password is a failed sign-in: ${MAX_FAILURES_PER_ACCOUNT}, then 429 (sign-in too)`, async () => {
    const { token, email } = await server.signUp();
    for (let attempt = 0; attempt < MAX_FAILURES_PER_ACCOUNT; attempt += 1) {
      const answer = await changePassword(token, {
        currentPassword: `guess ${attempt}`,
        newPassword: 'whatever 12345',
      });
      expect([attempt, answer.status]).toEqual([attempt, 400]);
    }
    const locked = await changePassword(token, { currentPassword: PASSWORD, newPassword: 'whatever 12345' });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await signIn(email, PASSWORD)).status).toBe(429);
  });

  it(`an account has ${MAX_SESSIONS_PER_ACCOUNT} sessions at most: one more ends the oldest`, async () => {
    const { token: first, email } = await server.signUp();
    const tokens = [first];
    for (let index = 1; index < MAX_SESSIONS_PER_ACCOUNT + 2; index += 1) {
      const answer = await signIn(email, PASSWORD);
      expect(answer.status).toBe(200);
      tokens.push(answer.json.token);
    }
    const statuses = [];
    for (const token of tokens) statuses.push(await me(token));
    expect(statuses).toEqual([401, 401, ...Array(MAX_SESSIONS_PER_ACCOUNT).fill(200)]);
  });
});

const meBody = async (token: string) => (await rawRequest(server.url, '/api/auth/me', { token })).json;
/** The audit lines of one actor, from the store's own log (audit.log, or the audit_events table). */
async function auditOf(actor: string): Promise<Record<string, unknown>[]> {
  if (server.database) {
    const pg = await import('pg');
    const client = new pg.default.Client({ connectionString: server.database.url });
    await client.connect();
    try {
      const rows = await client.query('SELECT actor, action, record_id, outcome FROM audit_events WHERE actor = $1', [
        actor,
      ]);
      return rows.rows.map((row) => ({
        actor: row.actor,
        action: row.action,
        recordId: row.record_id,
        outcome: row.outcome,
      }));
    } finally {
      await client.end();
    }
  }
  const text = await readFile(path.join(server.dataDir, 'audit.log'), 'utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.actor === actor);
}

describe('8. small ones', () => {
  it.each(['\u200b', '\u202e', '\u200b\u202e \u200b', '\u00ad\u3164'])(
    'a name of invisible characters only (%j) is refused: sign-up and patients, also in Arabic (was 201)',
    async (name) => {
      const signup = await jsonRequest(
        server.url,
        'POST',
        '/api/auth/signup',
        { email: `invisible-${Date.now()}@hospital.example`, password: PASSWORD, name, agreeTerms: true },
        { localAddress: newAddress() },
      );
      expect([signup.status, signup.json.issues]).toEqual([400, [{ field: 'name', message: 'Full name is required' }]]);
      const { token } = await server.signUp();
      const created = await jsonRequest(server.url, 'POST', '/api/patients', { displayName: name }, { token });
      expect([created.status, created.json.issues?.[0]?.field]).toEqual([400, 'displayName']);
      expect(created.json.message).toBe('Enter a display name or initials (1-80 characters)');
      const arabic = await jsonRequest(server.url, 'POST', '/api/patients?lang=ar', { displayName: name }, { token });
      expect(arabic.status).toBe(400);
      expect(arabic.json.message).toMatch(/أدخل اسمًا للعرض/);
      const patient = await jsonRequest(server.url, 'POST', '/api/patients', { displayName: 'Ali' }, { token });
      const renamed = await jsonRequest(
        server.url,
        'PATCH',
        `/api/patients/${patient.json.id}`,
        { displayName: name },
        { token },
      );
      expect(renamed.status).toBe(400);
      // visible text with an invisible character in it is a name
      const mixed = await jsonRequest(server.url, 'POST', '/api/patients', { displayName: `A${name}` }, { token });
      expect(mixed.status).toBe(201);
    },
  );

  it.each([
    ['/api/auth/signin', false],
    ['/api/auth/signup', false],
    ['/api/tools/run', false],
    ['/api/patients', true],
    ['/api/auth/password', true],
  ])('%s: a text/plain or form body answers 415 (was 400)', async (urlPath, signedIn) => {
    const token = signedIn ? (await server.signUp()).token : undefined;
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'text/plain; charset=utf-8']) {
      const answer = await rawRequest(server.url, urlPath, {
        method: 'POST',
        headers: { 'Content-Type': type },
        body: '{"toolType":"dose_calculator"}',
        token,
        localAddress: newAddress(),
      });
      expect([type, answer.status, answer.json]).toEqual([type, 415, { message: JSON_BODY_TYPE_MESSAGE }]);
    }
  });
});
