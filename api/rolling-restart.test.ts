import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startNginx, type NginxProxy } from './test-support/nginx.ts';
import { createTestDatabase, type TestDatabase } from './test-support/postgres-cluster.ts';
import {
  builtServer,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from './test-support/server-process.ts';

// The layout of README's "Running several instances": nginx in front of two built servers on one
// PostgreSQL database. Steady traffic goes through nginx while each instance in turn is stopped
// with SIGTERM and started again on its port; not one request may fail, and every calculation the
// clients were told was saved is in the database exactly once.

const LOOPS = 8;
const ROUNDS = 2;
/** Small for the test's speed, long enough for requests under way (the default is 2 s). */
const DRAIN_MS = 1_000;
/**
 * After an instance is ready, before the next is stopped: longer than the 1 to 2 s nginx leaves a
 * failed instance out (fail_timeout, upstreamConfig), so it is back in nginx's rotation.
 */
const SETTLE_MS = 3_000;
/** Between requests of one loop: 100 to 150 requests a second in all, signed-in ones well below the limit. */
const PAUSE_MS = 40;

let database: TestDatabase;
let serverFile: string;
let dataDirs: string[] = [];
let ports: number[] = [];
const instances: (ServerProcess | undefined)[] = [];
let proxy: NginxProxy | undefined;

/** Distinct free ports of 127.0.0.1 (held open together, so no two are the same). */
async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
          const server = createServer();
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const found = servers.map((server) => (server.address() as AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return found;
}

function startInstance(index: number): Promise<ServerProcess> {
  return startServerProcess(serverFile, dataDirs[index]!, {
    DATABASE_URL: database.url,
    TRUST_PROXY: 'true',
    PORT: String(ports[index]),
    SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitUntilReady(port: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const status = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return;
    if (Date.now() > deadline) throw new Error(`instance on ${port} not ready within 10 s (last status ${status})`);
    await sleep(50);
  }
}

beforeAll(async () => {
  serverFile = await builtServer();
  // The built server serves the site from ../site beside it; the test build has none, so a stand-in
  // page (the real page's delivery is tested with the site build, in e2e/).
  const site = path.resolve(path.dirname(serverFile), '..', 'site');
  await mkdir(site, { recursive: true });
  await writeFile(path.join(site, 'index.html'), '<!doctype html><title>Reversal</title><h1>Reversal</h1>\n');
  database = await createTestDatabase(inject('postgresBaseUrl'));
  dataDirs = await Promise.all([0, 1].map(() => mkdtemp(path.join(tmpdir(), 'sgx-instance-'))));
  const [proxyPort, ...upstreamPorts] = await freePorts(3);
  ports = upstreamPorts;
  // One first (it applies the migrations), then the other.
  instances[0] = await startInstance(0);
  instances[1] = await startInstance(1);
  proxy = await startNginx({ port: proxyPort!, upstreamPorts: ports });
}, 60_000);

afterAll(async () => {
  await proxy?.stop();
  await Promise.all(instances.map((instance) => instance && stopServerProcess(instance)));
  await database?.drop();
  await Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

interface Outcome {
  at: number;
  request: string;
  status: number;
  /** The network error, or the body of an unexpected status. */
  problem?: string;
}

const DOSE_INPUTS = {
  ageGroup: 'adult',
  bodyWeight: 70,
  nmbaType: 'rocuronium',
  creatinine: null,
  tofCount: '2',
  ptc: null,
  rsiScenario: false,
  dialysis: false,
};

/** One clinician's screen: a dose calculation saved to history, the patient list, the page, /readyz. */
async function clinicianLoop(
  base: string,
  loop: number,
  running: () => boolean,
  outcomes: Outcome[],
  savedIds: Set<string>,
) {
  const send = async (request: string, init: RequestInit = {}) => {
    const [method, urlPath] = request.split(' ') as [string, string];
    try {
      const response = await fetch(base + urlPath, { ...init, method });
      const text = await response.text();
      const ok = response.status >= 200 && response.status < 300;
      outcomes.push({ at: Date.now(), request, status: response.status, problem: ok ? undefined : text.slice(0, 200) });
      return ok ? text : undefined;
    } catch (error) {
      const cause = (error as { cause?: { message?: string } }).cause?.message;
      outcomes.push({ at: Date.now(), request, status: 0, problem: `${(error as Error).message} ${cause ?? ''}` });
      return undefined;
    }
  };
  const json = { 'Content-Type': 'application/json' };
  const signUp = await send('POST /api/auth/signup', {
    headers: json,
    body: JSON.stringify({
      email: `rolling${loop}@hospital.example`,
      password: 'correct horse battery',
      name: `Clinician ${loop}`,
      agreeTerms: true,
    }),
  });
  if (!signUp) return;
  const auth = { Authorization: `Bearer ${(JSON.parse(signUp) as { token: string }).token}` };
  const patient = await send('POST /api/patients', {
    headers: { ...json, ...auth },
    body: JSON.stringify({ displayName: `Patient ${loop}`, weightKg: 70 }),
  });
  if (!patient) return;
  const patientId = (JSON.parse(patient) as { id: string }).id;
  while (running()) {
    const saved = await send('POST /api/tools/run', {
      headers: { ...json, ...auth },
      body: JSON.stringify({ toolType: 'dose_calculator', inputs: DOSE_INPUTS, patientId }),
    });
    if (saved) savedIds.add((JSON.parse(saved) as { historyId: string }).historyId);
    await sleep(PAUSE_MS);
    await send('GET /api/patients', { headers: auth });
    await sleep(PAUSE_MS);
    await send('GET /');
    await sleep(PAUSE_MS);
    await send('GET /readyz');
    await sleep(PAUSE_MS);
  }
}

/** Per access-log line: when, the status and the instance (port) that answered last. */
function parseAccessLog(text: string) {
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [, msec, status, upstreams] = /^(\S+) (\d+) "([^"]*)"/.exec(line) ?? [];
      const last = (upstreams ?? '').split(/[,:]\s*/).at(-1);
      return { at: Number(msec) * 1000, status: Number(status), port: Number(last) };
    });
}

describe('rolling restart behind nginx', () => {
  it('restarts each instance in turn, twice round, under steady traffic with 0 failed requests', async () => {
    const started = Date.now();
    const outcomes: Outcome[] = [];
    const savedIds = new Set<string>();
    let running = true;
    const loops = Array.from({ length: LOOPS }, (_, loop) =>
      clinicianLoop(proxy!.url, loop, () => running, outcomes, savedIds),
    );
    /** The moments between restarts: both instances must have served in each of these phases. */
    const phases: { from: number; to: number }[] = [];
    let phaseStart = Date.now();
    /**
     * Waits (at least `ms`) until both instances have served more than 10 answers since `from` by nginx's
     * record: on a busy machine the clinicians' sign-ups (argon2) take seconds before steady traffic starts.
     */
    const untilBothServed = async (from: number, ms: number) => {
      await sleep(ms);
      for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(200)) {
        const log = parseAccessLog(await proxy!.accessLog()).filter((line) => line.at >= from && line.status < 300);
        if (ports.every((port) => log.filter((line) => line.port === port).length > 10)) return;
      }
    };
    try {
      await untilBothServed(phaseStart, 2_000); // traffic on both before the first restart
      for (let round = 0; round < ROUNDS; round += 1) {
        for (const index of [0, 1]) {
          phases.push({ from: phaseStart, to: Date.now() });
          const instance = instances[index]!;
          instance.child.kill('SIGTERM');
          const code = await instance.exited;
          expect(code, `round ${round}, instance ${index}:\n${instance.output().slice(-2000)}`).toBe(0);
          instances[index] = await startInstance(index);
          await waitUntilReady(ports[index]!);
          phaseStart = Date.now();
          await untilBothServed(phaseStart, SETTLE_MS);
        }
      }
      phases.push({ from: phaseStart, to: Date.now() });
    } finally {
      running = false;
      await Promise.all(loops);
    }
    const seconds = (Date.now() - started) / 1000;

    const failed = outcomes.filter((outcome) => outcome.problem !== undefined);
    const succeeded = outcomes.length - failed.length;
    console.log(
      `rolling restart: ${outcomes.length} requests through nginx in ${seconds.toFixed(1)} s, ` +
        `${failed.length} failed, ${ROUNDS * 2} restarts, ${savedIds.size} calculations saved`,
    );
    if (failed.length > 0) {
      const kinds = new Map<string, number>();
      for (const outcome of failed) {
        const kind = `${outcome.request} ${outcome.status} ${outcome.problem}`;
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      }
      console.log('failed requests:', kinds);
      console.log('nginx error log:\n' + (await proxy!.errorLog()).split('\n').slice(-40).join('\n'));
    }
    expect(failed.slice(0, 10)).toEqual([]);
    expect(succeeded).toBeGreaterThan(500);

    // Each acknowledged calculation was saved once, and nothing else was: no request replayed.
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const rows = await client.query<{ id: string }>('SELECT id FROM calculations');
      expect(rows.rows.length).toBe(savedIds.size);
      expect(new Set(rows.rows.map((row) => row.id))).toEqual(savedIds);
    } finally {
      await client.end();
    }

    // Both instances answered before and after each restart (nginx's record of who answered).
    let log = parseAccessLog(await proxy!.accessLog());
    for (let wait = 0; log.length < outcomes.length && wait < 20; wait += 1) {
      await sleep(50); // nginx writes a line once the answer is sent: the last may come a moment later
      log = parseAccessLog(await proxy!.accessLog());
    }
    expect(log.length).toBe(outcomes.length);
    for (const [number, phase] of phases.entries()) {
      const served = (port: number) =>
        log.filter((line) => line.port === port && line.status < 300 && line.at >= phase.from && line.at <= phase.to)
          .length;
      expect([number, served(ports[0]!) > 10, served(ports[1]!) > 10]).toEqual([number, true, true]);
    }
  }, 180_000);
});
