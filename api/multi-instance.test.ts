import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { MAX_FAILURES_PER_ACCOUNT } from './auth/sign-in-limiter.ts';
import { createTestDatabase, type TestDatabase } from './test-support/postgres-cluster.ts';
import {
  builtServer,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from './test-support/server-process.ts';

// Two real server processes (the built server, as `npm run serve` runs it) on one PostgreSQL
// database act as one service: what one writes the other reads, a sign-out on one is refused by
// the other, and sign-in failures are counted across both.
let database: TestDatabase;
let dataDirs: string[] = [];
let instances: ServerProcess[] = [];
beforeAll(async () => {
  const serverFile = await builtServer();
  database = await createTestDatabase(inject('postgresBaseUrl'));
  dataDirs = await Promise.all([0, 1].map(() => mkdtemp(path.join(tmpdir(), 'sgx-instance-'))));
  // Started together: both apply the migrations (once) and agree on one generated JWT secret.
  instances = await Promise.all(
    dataDirs.map((dataDir) => startServerProcess(serverFile, dataDir, { DATABASE_URL: database.url })),
  );
}, 60_000);
afterAll(async () => {
  await Promise.all(instances.map((instance) => stopServerProcess(instance)));
  await database?.drop();
  await Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function call(instance: number, method: string, urlPath: string, body?: unknown, token?: string) {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(instances[instance]!.url + urlPath, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

const PASSWORD = 'correct horse battery';
let counter = 0;
async function signUpOn(instance: number) {
  counter += 1;
  const email = `clinician${counter}@hospital.example`;
  const answer = await call(instance, 'POST', '/api/auth/signup', {
    email,
    password: PASSWORD,
    name: `Clinician ${counter}`,
    agreeTerms: true,
  });
  expect(answer.status).toBe(201);
  return { email, token: answer.body.token as string };
}

describe('two instances on one PostgreSQL database', () => {
  it('say where the data is, and write nothing to their DATA_DIR', async () => {
    for (const instance of instances) expect(instance.output()).toMatch(/data in PostgreSQL at 127\.0\.0\.1:\d+\//);
    for (const dir of dataDirs) expect(await readdir(dir)).toEqual([]);
  });

  it('an account made on one signs in on the other; a patient made on one is listed on the other', async () => {
    const { email, token } = await signUpOn(0);
    const signIn = await call(1, 'POST', '/api/auth/signin', { email, password: PASSWORD });
    expect(signIn.status).toBe(200);
    // Either instance accepts a token the other signed (one shared secret).
    expect((await call(1, 'GET', '/api/auth/me', undefined, token)).status).toBe(200);

    const created = await call(0, 'POST', '/api/patients', { displayName: 'Layla Haddad', mrn: 'MRN-77' }, token);
    expect(created.status).toBe(201);
    const listed = await call(1, 'GET', '/api/patients', undefined, signIn.body.token);
    expect(listed.body.patients.map((patient: { id: string }) => patient.id)).toEqual([created.body.id]);

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const rows = await client.query('SELECT display_name, mrn FROM patients WHERE id = $1', [created.body.id]);
      expect(rows.rows).toEqual([{ display_name: 'Layla Haddad', mrn: 'MRN-77' }]);
    } finally {
      await client.end();
    }
  });

  it('a sign-out on one is refused on the other at once', async () => {
    const { token } = await signUpOn(1);
    expect((await call(0, 'GET', '/api/patients', undefined, token)).status).toBe(200);
    expect((await call(1, 'POST', '/api/auth/signout', undefined, token)).status).toBe(204);
    const started = performance.now();
    const after = await call(0, 'GET', '/api/patients', undefined, token);
    expect(after.status).toBe(401);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('a password changed on one ends the account’s other sessions on the other at once', async () => {
    const { email, token } = await signUpOn(0);
    const other = (await call(1, 'POST', '/api/auth/signin', { email, password: PASSWORD })).body.token as string;
    expect((await call(0, 'GET', '/api/auth/me', undefined, other)).status).toBe(200);
    const changed = await call(
      1,
      'POST',
      '/api/auth/password',
      { currentPassword: PASSWORD, newPassword: 'another passphrase' },
      token,
    );
    expect(changed.status).toBe(204);
    for (const instance of [0, 1]) {
      expect([instance, (await call(instance, 'GET', '/api/auth/me', undefined, other)).status]).toEqual([
        instance,
        401,
      ]);
      expect([instance, (await call(instance, 'GET', '/api/auth/me', undefined, token)).status]).toEqual([
        instance,
        200,
      ]);
    }
    const old = await call(0, 'POST', '/api/auth/signin', { email, password: PASSWORD });
    expect(old.status).toBe(401);
  });

  it('one Idempotency-Key sent to both, at once and again: one history entry, one answer', async () => {
    const { email, token } = await signUpOn(0);
    const other = (await call(1, 'POST', '/api/auth/signin', { email, password: PASSWORD })).body.token as string;
    const body = JSON.stringify({
      toolType: 'dose_calculator',
      inputs: {
        ageGroup: 'adult',
        bodyWeight: 70,
        nmbaType: 'rocuronium',
        creatinine: 100,
        tofCount: '2',
        ptc: null,
        rsiScenario: false,
        dialysis: false,
      },
    });
    const send = async (instance: number, bearer: string) => {
      const response = await fetch(`${instances[instance]!.url}/api/tools/run`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Authorization: `Bearer ${bearer}`,
          'Idempotency-Key': '"one-action-two-instances"',
        },
        body,
      });
      return { status: response.status, body: (await response.json()) as { historyId?: string } };
    };
    const atOnce = await Promise.all([send(0, token), send(1, other), send(0, token), send(1, other)]);
    // each either made it, answered its answer, or found it still running (409): never a second entry
    for (const answer of atOnce) expect([200, 409]).toContain(answer.status);
    const made = atOnce.filter((answer) => answer.status === 200).map((answer) => answer.body.historyId);
    expect(made.length).toBeGreaterThanOrEqual(1);
    expect(new Set(made).size).toBe(1);
    const again = [await send(1, other), await send(0, token)];
    expect(again.map((answer) => [answer.status, answer.body.historyId])).toEqual([
      [200, made[0]],
      [200, made[0]],
    ]);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const owner = (await client.query('SELECT id FROM users WHERE email = $1', [email])).rows[0].id;
      const rows = await client.query('SELECT id FROM calculations WHERE owner_id = $1', [owner]);
      expect(rows.rows).toEqual([{ id: made[0] }]);
    } finally {
      await client.end();
    }
  });

  it('ten wrong passwords spread over both lock the e-mail on both', async () => {
    const { email } = await signUpOn(0);
    for (let attempt = 0; attempt < MAX_FAILURES_PER_ACCOUNT; attempt += 1) {
      const answer = await call(attempt % 2, 'POST', '/api/auth/signin', { email, password: 'wrong password!' });
      expect([attempt, answer.status]).toEqual([attempt, 401]);
    }
    for (const instance of [0, 1]) {
      const answer = await call(instance, 'POST', '/api/auth/signin', { email, password: PASSWORD });
      expect([instance, answer.status]).toEqual([instance, 429]);
    }
  });
});
