// The storage part of `npm run bench` (also alone: `node scripts/bench.mjs --only storage`).
// For each store, the embedded one (DATA_DIR) and PostgreSQL (a throwaway cluster with fsync on), and
// for 1k, 10k, 20k and 100k stored history entries (and 100k with one clinician holding 90%): 20
// clinicians, signed in, each sending a calculation (POST /api/tools/run, which saves it to their
// history) and the next as soon as the answer comes, through the real built server over HTTP.
// Measured: writes/s, p50 and p99 of the whole request, CPU time per request of each process, and the
// store's own save (in process, without HTTP). Then two API instances on one database against one.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { runnerImport } from 'vite';
import { buildServer } from './build-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const CLINICIANS = 20;
const LAYOUTS = [
  { entries: 1_000, skewed: false },
  { entries: 10_000, skewed: false },
  { entries: 20_000, skewed: false },
  { entries: 100_000, skewed: false },
  { entries: 100_000, skewed: true },
];
/** The skewed layout: this share of the entries is one clinician's, the rest spread over all 20. */
const SKEWED_SHARE = 0.9;
/** Rounds over every layout, interleaved; see QUIET_PERCENT for which rounds make the figures. */
const ROUNDS = Number(process.env.BENCH_STORAGE_ROUNDS ?? 5);
/**
 * A round counts as quiet when processes outside the benchmark used at most this share of the CPU
 * while it ran; figures are the median of the quiet rounds (else the least disturbed round).
 */
const QUIET_PERCENT = 10;
/** Calculations each clinician sends per measurement, after WARMUP unmeasured ones. */
const REQUESTS_PER_WRITER = Number(process.env.BENCH_STORAGE_REQUESTS ?? 80);
const WARMUP_PER_WRITER = 10;
/** Saves each of the 20 writers makes through the store itself (no HTTP), per layout. */
const STORE_SAVES_PER_WRITER = 25;
const PASSWORD = 'correct horse battery staple';
const DOSE_INPUTS = {
  ageGroup: 'adult',
  bodyWeight: 70,
  nmbaType: 'rocuronium',
  creatinine: 100,
  tofCount: '2',
  ptc: null,
  rsiScenario: false,
  dialysis: false,
};
const RUN_BODY = JSON.stringify({ toolType: 'dose_calculator', inputs: DOSE_INPUTS });

const ownerIds = Array.from(
  { length: CLINICIANS },
  (_, index) => `00000000-0000-4000-8000-${String(index + 1).padStart(12, '0')}`,
);
const emailOf = (index) => `clinician${index + 1}@bench.example`;
/** Which clinician holds pre-filled entry n. */
const ownerIndex = (layout, n) => (layout.skewed && n < layout.entries * SKEWED_SHARE ? 0 : n % CLINICIANS);
const layoutName = (layout) =>
  `${layout.entries.toLocaleString('en-US')}${layout.skewed ? ` (${SKEWED_SHARE * 100}% one clinician's)` : ''}`;
const layoutKey = (layout) => `${layout.entries}${layout.skewed ? '-skewed' : ''}`;

async function projectModules() {
  const load = async (file) => (await runnerImport(path.join(root, file))).module;
  const [cluster, postgres, embedded, names, passwords, clinical, responses, rateLimit] = await Promise.all([
    load('api/test-support/postgres-cluster.ts'),
    load('api/storage/postgres/index.ts'),
    load('api/storage/lowdb-store.ts'),
    load('api/storage/embedded/layout-names.ts'),
    load('api/auth/passwords.ts'),
    load('clinical/index.ts'),
    load('api/tools/tool-responses.ts'),
    load('api/http/clinician-rate-limit.ts'),
  ]);
  return { cluster, postgres, embedded, names, passwords, clinical, responses, rateLimit };
}

// ---------------------------------------------------------------- measuring

const round1 = (value) => Math.round(value * 10) / 10;
const percentile = (sorted, q) => sorted[Math.max(0, Math.ceil(sorted.length * q) - 1)];
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const CLOCK_TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** Fields of /proc/<pid>/stat from the state on (field 3), or undefined once the process is gone. */
function procStat(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}
/** CPU ms a process used, with its children it has waited for (utime, stime, cutime, cstime). */
function cpuMsOf(pid) {
  const fields = procStat(pid);
  if (!fields) return 0;
  const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}
/** CPU ms of PostgreSQL: the postmaster (with its ended children) and every live child of it. */
function postgresCpuMs(postmasterPid) {
  let total = cpuMsOf(postmasterPid);
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    if (procStat(name)?.[1] === String(postmasterPid)) total += cpuMsOf(name);
  }
  return total;
}
/** A process's resident memory (VmRSS), MB. */
function residentMb(pid) {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Math.round(Number(match[1]) / 1024) : 0;
}
/** Busy and total jiffies of the whole machine (/proc/stat), for how busy its cores were. */
function machineTicks() {
  const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  const idle = values[3] + values[4];
  const total = values.reduce((sum, value) => sum + value, 0);
  return { busy: total - idle, total };
}

/** One HTTP request on `agent`; resolves with the status and the body's text. */
function request(agent, base, method, urlPath, { body, token, headers = {} } = {}) {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      new URL(urlPath, base),
      {
        method,
        agent,
        headers: {
          ...(body === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...headers,
        },
      },
      (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode, text: Buffer.concat(chunks).toString() }));
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/**
 * `writers` clients at once, each sending `perWriter` calculations one after the other (the next as
 * soon as the answer is in) on its own keep-alive connection to each instance; a writer's k-th
 * request goes to instance (writer + k) mod instances (round-robin, as a load balancer would).
 * `tokens[w]` signs writer w in; without tokens the calculations are anonymous (Quick Use).
 */
async function runWriters({ urls, tokens, perWriter, writers = CLINICIANS, cpu = {} }) {
  const agents = Array.from({ length: writers }, () =>
    urls.map(() => new http.Agent({ keepAlive: true, maxSockets: 1 })),
  );
  const latencies = [];
  const failures = new Map();
  const cpuBefore = {
    servers: (cpu.serverPids ?? []).reduce((sum, pid) => sum + cpuMsOf(pid), 0),
    postgres: cpu.postmasterPid ? postgresCpuMs(cpu.postmasterPid) : 0,
    loadGenerator: process.cpuUsage(),
    machine: machineTicks(),
  };
  const started = performance.now();
  await Promise.all(
    agents.map(async (writerAgents, writer) => {
      for (let k = 0; k < perWriter; k += 1) {
        const instance = (writer + k) % urls.length;
        const t0 = performance.now();
        const answer = await request(writerAgents[instance], urls[instance], 'POST', '/api/tools/run', {
          body: RUN_BODY,
          token: tokens?.[writer],
        });
        const elapsed = performance.now() - t0;
        if (answer.status !== 200 || (tokens && !answer.text.includes('"historyId":'))) {
          failures.set(answer.status, answer.text.slice(0, 200));
          continue;
        }
        latencies.push(elapsed);
      }
    }),
  );
  const wallMs = performance.now() - started;
  for (const writerAgents of agents) for (const agent of writerAgents) agent.destroy();
  if (failures.size > 0) {
    throw new Error(`storage bench: requests failed: ${JSON.stringify(Object.fromEntries(failures))}`);
  }
  const requests = latencies.length;
  const loadCpu = process.cpuUsage(cpuBefore.loadGenerator);
  const machine = machineTicks();
  latencies.sort((a, b) => a - b);
  const perRequest = (ms) => Number((ms / requests).toFixed(2));
  const cpuMs = {
    servers: (cpu.serverPids ?? []).reduce((sum, pid) => sum + cpuMsOf(pid), 0) - cpuBefore.servers,
    postgres: cpu.postmasterPid ? postgresCpuMs(cpu.postmasterPid) - cpuBefore.postgres : 0,
    loadGenerator: (loadCpu.user + loadCpu.system) / 1000,
  };
  const ourCpuMs = cpuMs.servers + cpuMs.postgres + cpuMs.loadGenerator;
  const machineBusy =
    (100 * (machine.busy - cpuBefore.machine.busy)) / Math.max(1, machine.total - cpuBefore.machine.total);
  return {
    requests,
    wallMs: Math.round(wallMs),
    writesPerSecond: Math.round(requests / (wallMs / 1000)),
    meanMs: round1(latencies.reduce((sum, value) => sum + value, 0) / requests),
    p50Ms: round1(percentile(latencies, 0.5)),
    p99Ms: round1(percentile(latencies, 0.99)),
    maxMs: round1(latencies.at(-1)),
    cpuMsPerRequest: {
      servers: perRequest(cpuMs.servers),
      postgres: perRequest(cpuMs.postgres),
      loadGenerator: perRequest(cpuMs.loadGenerator),
    },
    machineBusyPercent: Math.round(machineBusy),
    // what processes outside this benchmark used of the machine meanwhile (tests, builds): noise
    otherLoadPercent: Math.max(0, Math.round(machineBusy - (100 * ourCpuMs) / (wallMs * os.cpus().length))),
  };
}

/** The garbage-collection pauses the servers' --trace-gc lines report: their share of `wallMs`, the longest. */
function gcPauses(servers, wallMs) {
  const pauses = [];
  for (const server of servers) {
    const trace = server.child.gcTrace.join('');
    for (const match of trace.matchAll(
      /: (?:Scavenge|Minor Mark-Compact|Mark-Compact|Mark-sweep)[^,\n]*, ([\d.]+) \//g,
    ))
      pauses.push(Number(match[1]));
  }
  const total = pauses.reduce((sum, pause) => sum + pause, 0);
  return {
    pausePercent: round1((100 * total) / (wallMs * servers.length)),
    longestPauseMs: round1(Math.max(0, ...pauses)),
  };
}

/** 20 writers saving straight through the store (no HTTP, no auth, no audit). */
async function storeSaves(adapter, record) {
  const latencies = [];
  const started = performance.now();
  await Promise.all(
    ownerIds.map(async (ownerId, writer) => {
      for (let n = 0; n < STORE_SAVES_PER_WRITER; n += 1) {
        const t0 = performance.now();
        await adapter.saveCalculation({
          ...record,
          id: `store-save-${Date.now()}-${writer}-${n}`,
          ownerId,
          createdAt: new Date().toISOString(),
        });
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const wallMs = performance.now() - started;
  latencies.sort((a, b) => a - b);
  return {
    saves: latencies.length,
    savesPerSecond: Math.round(latencies.length / (wallMs / 1000)),
    p50Ms: round1(percentile(latencies, 0.5)),
    p99Ms: round1(percentile(latencies, 0.99)),
  };
}

// ---------------------------------------------------------------- servers

/** Servers running now: stopped if the bench is interrupted (Ctrl-C). */
const running = new Set();
function stopAllOnInterrupt() {
  const onSignal = () => {
    for (const child of running) child.kill('SIGKILL');
    process.exit(130); // runs the exit handlers, which stop the PostgreSQL cluster
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
}

/** The built server (what `npm run serve` runs) on a free port; resolves once it listens. */
function startServer(serverFile, env) {
  // --trace-gc: one line a collection on stdout, for the pauses during a measurement (gcPauses).
  const child = spawn(process.execPath, ['--trace-gc', serverFile], {
    cwd: root,
    // Only what this run sets: a DATABASE_URL or JWT_SECRET of the caller's shell must not leak in.
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', TRUST_PROXY: 'true', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  void exited.then(() => running.delete(child));
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`storage bench: the server did not start within 60 s:\n${output}`));
    }, 60_000);
    child.gcTrace = [];
    child.stdout.on('data', (chunk) => child.gcTrace.push(String(chunk)));
    const onData = (chunk) => {
      output += chunk;
      const match = /Listening on http:\/\/localhost:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: `http://127.0.0.1:${match[1]}`, exited });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`storage bench: the server exited (${code}) before listening:\n${output}`));
    });
  });
}

async function stopServer(server) {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 15_000);
  await server.exited;
  clearTimeout(timer);
}

let addressCounter = 0;
/** Signs the 20 clinicians in on `url`, each from its own address (the per-address limits). */
async function signIn(url) {
  const agent = new http.Agent({ keepAlive: false });
  const tokens = [];
  for (const index of ownerIds.keys()) {
    addressCounter += 1;
    const answer = await request(agent, url, 'POST', '/api/auth/signin', {
      body: JSON.stringify({ email: emailOf(index), password: PASSWORD }),
      headers: { 'x-forwarded-for': `10.77.${(addressCounter >> 8) & 255}.${addressCounter & 255}` },
    });
    if (answer.status !== 200) throw new Error(`storage bench: sign-in answered ${answer.status}: ${answer.text}`);
    tokens.push(JSON.parse(answer.text).token);
  }
  return tokens;
}

// ---------------------------------------------------------------- pre-filling

function prefillRecord(modules) {
  const body = modules.responses.doseResponse(modules.clinical.calculateDose(DOSE_INPUTS)).body;
  return {
    patientId: null,
    toolType: 'dose_calculator',
    inputs: DOSE_INPUTS,
    result: { toolType: 'dose_calculator', ...body },
  };
}
const prefillTime = (n) => new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString();

async function writeDurably(file, text) {
  const handle = await open(file, 'w', 0o600);
  try {
    await handle.writeFile(text);
    await handle.sync(); // as the store leaves its files: the writes measured must not flush the pre-fill
  } finally {
    await handle.close();
  }
}

/** A DATA_DIR of layout 2 (api/storage/embedded/layout-names.ts) written directly: the 20 accounts and the history. */
async function prefillEmbedded(modules, layout, users, record) {
  const names = modules.names;
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sgx-bench-embedded-'));
  await writeDurably(path.join(dataDir, names.LAYOUT_FILE_NAME), JSON.stringify({ layout: names.LAYOUT_VERSION }));
  await writeDurably(path.join(dataDir, names.ACCOUNTS_FILE_NAME), JSON.stringify({ users, sessions: [] }));
  const lines = ownerIds.map(() => []);
  for (let n = 0; n < layout.entries; n += 1) {
    const owner = ownerIndex(layout, n);
    const entry = { id: `prefill-${n}`, ownerId: ownerIds[owner], ...record, createdAt: prefillTime(n) };
    lines[owner].push(`${JSON.stringify(entry)}\n`);
  }
  for (const [owner, ownerId] of ownerIds.entries()) {
    const dir = path.join(dataDir, names.CLINICIANS_DIR_NAME, ownerId);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await writeDurably(path.join(dir, names.HISTORY_FILE_NAME), lines[owner].join(''));
  }
  return dataDir;
}

/** A database migrated by openPostgresStore, then filled with INSERT … SELECT generate_series. */
async function prefillPostgres(modules, baseUrl, layout, users, record) {
  const database = await modules.cluster.createTestDatabase(baseUrl);
  const { adapter, pool } = await modules.postgres.openPostgresStore(database.url);
  try {
    await pool.query(
      `INSERT INTO users (id, email, name, license, password_hash, created_at)
       SELECT id, email, name, NULL, $4, $5 FROM unnest($1::text[], $2::text[], $3::text[]) AS u(id, email, name)`,
      [
        users.map((u) => u.id),
        users.map((u) => u.email),
        users.map((u) => u.name),
        users[0].passwordHash,
        users[0].createdAt,
      ],
    );
    await pool.query(
      `INSERT INTO calculations (id, owner_id, patient_id, tool_type, inputs, result, created_at)
       SELECT 'prefill-' || n,
              ($1::text[])[1 + CASE WHEN $2::boolean AND n < $3::int * $4::float8 THEN 0 ELSE n % $5::int END],
              NULL, $6, $7::json, $8::json, $9::timestamptz + n * interval '1 second'
       FROM generate_series(0, $3::int - 1) AS n`,
      [
        ownerIds,
        layout.skewed,
        layout.entries,
        SKEWED_SHARE,
        CLINICIANS,
        record.toolType,
        JSON.stringify(record.inputs),
        JSON.stringify(record.result),
        prefillTime(0),
      ],
    );
    await pool.query('VACUUM ANALYZE calculations');
    await pool.query('CHECKPOINT'); // the writes measured must not flush the pre-fill
  } finally {
    await adapter.close();
  }
  return database;
}

/** The postmaster's pid (the parent of a backend) and the server's version. */
async function postgresServer(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT pg_backend_pid() AS pid, current_setting($1) AS version', [
      'server_version',
    ]);
    return { postmasterPid: Number(procStat(rows[0].pid)[1]), version: rows[0].version.split(' ')[0] };
  } finally {
    await client.end();
  }
}

/** What one append of a history line and its fsync take on this disk, alone: p50 of 100. */
async function fsyncProbe(dir, line) {
  const latencies = [];
  const handle = await open(path.join(dir, 'fsync-probe.jsonl'), 'a', 0o600);
  try {
    for (let n = 0; n < 100; n += 1) {
      const t0 = performance.now();
      await handle.writeFile(line);
      await handle.sync();
      latencies.push(performance.now() - t0);
    }
  } finally {
    await handle.close();
  }
  latencies.sort((a, b) => a - b);
  return round1(percentile(latencies, 0.5));
}

// ---------------------------------------------------------------- the benchmark

/**
 * Every measurement: both stores, every layout, ROUNDS rounds (layouts interleaved within a round),
 * then two instances against one. Figures are the medians of the rounds; `rounds` keeps each p99.
 */
export async function benchStorage({ serverFile, log = console.log }) {
  const benchStarted = performance.now();
  const elapsed = () => `[${Math.round((performance.now() - benchStarted) / 1000)} s]`;
  const modules = await projectModules();
  const limit = modules.rateLimit.MAX_REQUESTS_PER_CLINICIAN_PER_MINUTE;
  // A server sees a clinician's requests once a round, and a round takes well over 30 s: two rounds'
  // worth must stay under the limit a minute, or the measurement would be of 429s.
  if (2 * (WARMUP_PER_WRITER + REQUESTS_PER_WRITER) > limit) {
    throw new Error(`storage bench: ${REQUESTS_PER_WRITER} requests a clinician pass the limit of ${limit} a minute`);
  }
  const passwordHash = await modules.passwords.hashPassword(PASSWORD);
  const users = ownerIds.map((id, index) => ({
    id,
    email: emailOf(index),
    name: `Clinician ${index + 1}`,
    license: null,
    passwordHash,
    createdAt: '2026-01-01T00:00:00.000Z',
  }));
  const record = prefillRecord(modules);
  const stopInterruptHandling = stopAllOnInterrupt();
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'sgx-bench-storage-'));
  const cluster = await modules.cluster.startPostgresCluster({ fsync: true });
  const cleanups = [
    async () => stopInterruptHandling(),
    () => cluster.stop(),
    () => rm(scratch, { recursive: true, force: true }),
  ];
  try {
    // Prepare every layout of both stores (the store-level saves run on each as it is made).
    const prepared = { embedded: new Map(), postgres: new Map() };
    const storeLevel = { embedded: {}, postgres: {} };
    for (const layout of LAYOUTS) {
      log(`  ${elapsed()} pre-filling ${layoutName(layout)} entries…`);
      const dataDir = await prefillEmbedded(modules, layout, users, record);
      cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
      const embeddedStore = await modules.embedded.openLowdbStore(dataDir);
      storeLevel.embedded[layoutKey(layout)] = await storeSaves(embeddedStore, record);
      await embeddedStore.close();
      prepared.embedded.set(layout, { env: { DATA_DIR: dataDir } });

      const database = await prefillPostgres(modules, cluster.baseUrl, layout, users, record);
      cleanups.push(() => database.drop());
      const { adapter } = await modules.postgres.openPostgresStore(database.url);
      storeLevel.postgres[layoutKey(layout)] = await storeSaves(adapter, record);
      await adapter.close();
      prepared.postgres.set(layout, { env: { DATA_DIR: scratch, DATABASE_URL: database.url } });
    }
    const server = await postgresServer(modules.cluster.databaseUrl(cluster.baseUrl, 'postgres'));
    const postmasterPid = server.postmasterPid;
    const fsyncP50Ms = await fsyncProbe(scratch, `${JSON.stringify({ id: 'probe', ...record })}\n`);

    // Every server starts once, before measuring, and serves every round: one per store and layout,
    // and two more on the 20,000-entry database for the comparison of two instances against one.
    const doneWhenLayout = LAYOUTS.find((layout) => layout.entries === 20_000 && !layout.skewed);
    const servers = [];
    cleanups.push(() => Promise.all(servers.map(stopServer)));
    const launch = async (env) => {
      const server = await startServer(serverFile, env);
      servers.push(server);
      return server;
    };
    const targets = { embedded: new Map(), postgres: new Map() };
    for (const store of ['embedded', 'postgres']) {
      for (const layout of LAYOUTS) {
        const server = await launch(prepared[store].get(layout).env);
        targets[store].set(layout, { servers: [server], tokens: await signIn(server.url) });
      }
    }
    const pairServers = [];
    for (const _ of [0, 1]) pairServers.push(await launch(prepared.postgres.get(doneWhenLayout).env));
    // Sessions are in the database: tokens from one instance are good on the other.
    const pair = { servers: pairServers, tokens: await signIn(pairServers[0].url) };
    log(`  ${elapsed()} ${servers.length} servers started, 20 clinicians signed in on each store`);

    /** Warms up, then measures 20 writers through `target`'s servers (round-robin when several). */
    const measure = async (store, target, label, { anonymous = false } = {}) => {
      const urls = target.servers.map((server) => server.url);
      const tokens = anonymous ? undefined : target.tokens;
      const cpu = {
        serverPids: target.servers.map((server) => server.child.pid),
        postmasterPid: store === 'postgres' ? postmasterPid : undefined,
      };
      await runWriters({ urls, tokens, perWriter: WARMUP_PER_WRITER });
      for (const server of target.servers) server.child.gcTrace.length = 0;
      const result = await runWriters({ urls, tokens, perWriter: REQUESTS_PER_WRITER, cpu });
      result.gc = gcPauses(target.servers, result.wallMs);
      result.serverRssMb = Math.max(...target.servers.map((server) => residentMb(server.child.pid)));
      log(
        `    ${elapsed()} ${store}, ${label}${anonymous ? ', anonymous' : ''}: ${result.writesPerSecond}/s, ` +
          `p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms (other load ${result.otherLoadPercent}%)`,
      );
      return result;
    };

    const runs = { embedded: new Map(), postgres: new Map() };
    const anonymous = { embedded: [], postgres: [] };
    const twoInstances = { one: [], two: [] };
    for (let round = 0; round < ROUNDS; round += 1) {
      log(`  ${elapsed()} round ${round + 1} of ${ROUNDS}…`);
      for (const store of ['embedded', 'postgres']) {
        // Quick Use (no token: no session check, no save, no audit) on the same server, for comparison.
        const first = targets[store].get(LAYOUTS[0]);
        if (round === 0)
          anonymous[store].push(await measure(store, first, layoutName(LAYOUTS[0]), { anonymous: true }));
        for (const layout of LAYOUTS) {
          if (!runs[store].has(layout)) runs[store].set(layout, []);
          runs[store].get(layout).push(await measure(store, targets[store].get(layout), layoutName(layout)));
        }
      }
      const one = { servers: pair.servers.slice(0, 1), tokens: pair.tokens };
      twoInstances.one.push(await measure('postgres', one, `${layoutName(doneWhenLayout)}, one instance`));
      twoInstances.two.push(await measure('postgres', pair, `${layoutName(doneWhenLayout)}, two instances`));
    }

    /**
     * The figures of the rounds in which other processes used at most QUIET_PERCENT of the CPU (their
     * median), or of the least disturbed round if none was quiet; `rounds` lists every round.
     */
    const summarise = (results) => {
      const quiet = results.filter((run) => run.otherLoadPercent <= QUIET_PERCENT);
      const chosen = quiet.length
        ? quiet
        : [results.reduce((best, run) => (run.otherLoadPercent < best.otherLoadPercent ? run : best))];
      const middle = (key) => round1(median(chosen.map((run) => run[key])));
      return {
        writesPerSecond: Math.round(middle('writesPerSecond')),
        meanMs: middle('meanMs'),
        p50Ms: middle('p50Ms'),
        p99Ms: middle('p99Ms'),
        maxMs: round1(Math.max(...chosen.map((run) => run.maxMs))),
        cpuMsPerRequest: Object.fromEntries(
          Object.keys(chosen[0].cpuMsPerRequest).map((key) => [
            key,
            Number(median(chosen.map((run) => run.cpuMsPerRequest[key])).toFixed(2)),
          ]),
        ),
        machineBusyPercent: Math.round(median(chosen.map((run) => run.machineBusyPercent))),
        serverRssMb: Math.max(...chosen.map((run) => run.serverRssMb)),
        gc: {
          pausePercent: round1(median(chosen.map((run) => run.gc.pausePercent))),
          longestPauseMs: Math.max(...chosen.map((run) => run.gc.longestPauseMs)),
        },
        otherLoadPercent: Math.max(...chosen.map((run) => run.otherLoadPercent)),
        roundsUsed: chosen.length,
        rounds: results.map(({ writesPerSecond, p50Ms, p99Ms, otherLoadPercent }) => ({
          writesPerSecond,
          p50Ms,
          p99Ms,
          otherLoadPercent,
        })),
      };
    };
    const storeResults = (store) =>
      LAYOUTS.map((layout) => ({
        entries: layout.entries,
        skewed: layout.skewed,
        ...summarise(runs[store].get(layout)),
        storeSave: storeLevel[store][layoutKey(layout)],
      }));
    const embedded = storeResults('embedded');
    const postgres = storeResults('postgres');
    return {
      cpus: os.cpus().length,
      clinicians: CLINICIANS,
      requestsPerWriter: REQUESTS_PER_WRITER,
      warmupPerWriter: WARMUP_PER_WRITER,
      rounds: ROUNDS,
      quietPercent: QUIET_PERCENT,
      storeSavesPerWriter: STORE_SAVES_PER_WRITER,
      skewedShare: SKEWED_SHARE,
      postgresFsync: true,
      postgresVersion: server.version,
      fsyncP50Ms,
      embedded,
      postgres,
      anonymous: { embedded: summarise(anonymous.embedded), postgres: summarise(anonymous.postgres) },
      twoInstances: {
        entries: doneWhenLayout.entries,
        one: summarise(twoInstances.one),
        two: summarise(twoInstances.two),
      },
      goals: goals(embedded, postgres),
      seconds: Math.round((performance.now() - benchStarted) / 1000),
    };
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  }
}

/** The issue's goals, judged on the medians: ratios to the p99 at 1,000 entries (spread layouts). */
function goals(embedded, postgres) {
  const judge = (rows) => {
    const even = rows.filter((row) => !row.skewed);
    const base = even.find((row) => row.entries === 1_000).p99Ms;
    const at = (entries) => even.find((row) => row.entries === entries).p99Ms;
    const ratios = Object.fromEntries(even.map((row) => [row.entries, Number((row.p99Ms / base).toFixed(2))]));
    return { ratios, p99At1k: base, p99At20k: at(20_000), p99At100k: at(100_000) };
  };
  const e = judge(embedded);
  const p = judge(postgres);
  const doneWhen = (judged) => judged.p99At20k <= 2 * judged.p99At1k && judged.p99At20k < 250;
  return {
    // write p99 flat (within ±20%) from 1k to 100k on PostgreSQL
    postgresFlat: { ...p, met: Object.values(p.ratios).every((ratio) => ratio >= 0.8 && ratio <= 1.2) },
    // within 2× on the embedded store
    embeddedWithin2x: { ...e, met: Object.values(e.ratios).every((ratio) => ratio <= 2) },
    // p99 at 20,000 within 2× of p99 at 1,000 and under 250 ms, on both stores
    doneWhen: { embedded: doneWhen(e), postgres: doneWhen(p) },
  };
}

// ---------------------------------------------------------------- BENCHMARKS.md

const tableRow = (...cells) => `| ${cells.join(' | ')} |`;
const table = (header, align, rows) =>
  [
    tableRow(...header),
    `|${align.map((side) => (side === 'r' ? '---:' : '---')).join('|')}|`,
    ...rows.map((row) => tableRow(...row)),
  ].join('\n');
/** Text wrapped at 100 columns; `indent` starts every line but the first (list items). */
const wrap = (text, indent = '') => {
  const lines = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > 100) {
      lines.push(line);
      line = indent + word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line].join('\n');
};
const item = (text) => wrap(`- ${text}`, '  ');
const entriesText = (entries) => entries.toLocaleString('en-US');
const roundsText = (row) => row.rounds.map((run) => `${Math.round(run.p99Ms)} (${run.otherLoadPercent}%)`).join(', ');

/** The "## Storage" section of BENCHMARKS.md, up to the next section. */
export function storageMarkdown(storage) {
  const cores = storage.cpus;
  const at1k = (rows) => rows.find((row) => row.entries === 1_000 && !row.skewed);
  const storeTable = (rows) => {
    const base = at1k(rows).p99Ms;
    return table(
      [
        'history entries stored',
        'writes/s',
        'p50 ms',
        'p99 ms',
        'p99 vs 1k',
        'p99 each round (other load)',
        'store save p50 / p99 ms',
      ],
      ['l', 'r', 'r', 'r', 'r', 'l', 'r'],
      rows.map((row) => [
        layoutName(row),
        row.writesPerSecond,
        row.p50Ms,
        row.p99Ms,
        `${(row.p99Ms / base).toFixed(2)}×`,
        roundsText(row),
        `${row.storeSave.p50Ms} / ${row.storeSave.p99Ms}`,
      ]),
    );
  };
  const e1 = at1k(storage.embedded);
  const p1 = at1k(storage.postgres);
  const { goals: g, twoInstances: two, anonymous } = storage;
  const met = (yes) => (yes ? 'met' : '**not met**');
  const ratios = (judged) =>
    Object.entries(judged.ratios)
      .map(([entries, ratio]) => `${entriesText(Number(entries))}: ${ratio}×`)
      .join(', ');
  // The largest ratio between two quiet rounds' p99 of one configuration: the noise between rounds.
  const spread = Math.max(
    ...[...storage.embedded, ...storage.postgres].map((row) => {
      const quiet = row.rounds.filter((run) => run.otherLoadPercent <= storage.quietPercent).map((run) => run.p99Ms);
      return quiet.length > 1 ? Math.max(...quiet) / Math.min(...quiet) : 1;
    }),
  ).toFixed(1);
  const embeddedServerCore = Math.round((e1.cpuMsPerRequest.servers * e1.writesPerSecond) / 10);
  const intro = [
    `${storage.clinicians} clinicians, signed in, each send \`POST /api/tools/run\` (a dose calculation, which the`,
    'server saves to their history and records in the audit log) and the next one as soon as the answer',
    'arrives, through the real built server over HTTP, one keep-alive connection each:',
    `${storage.requestsPerWriter} measured requests each after ${storage.warmupPerWriter} unmeasured, in`,
    `${storage.rounds} rounds with the sizes interleaved. The machine is shared: "other load" is the share of`,
    'its CPU that processes outside the benchmark used during a round, and each figure is the median of',
    `the rounds where that stayed at or under ${storage.quietPercent}% (or of the least disturbed round). The`,
    'history is pre-filled before the servers start (one a store and size, started once and kept for every',
    'round), spread evenly over the clinicians (and once with',
    `${storage.skewedShare * 100}% of it one clinician's). "writes/s": calculations answered, each saved, per second;`,
    'p50/p99: the whole request as the client sees it. "store save": the store alone, in process, 20',
    `writers × ${storage.storeSavesPerWriter} saves (no HTTP, session check or audit). PostgreSQL`,
    `${storage.postgresVersion} runs with **fsync on** (synchronous_commit on): an acknowledged write is on disk,`,
    `as on the embedded store. Server, PostgreSQL and the load generator share the machine's ${cores} cores.`,
  ].join(' ');
  const twoTable = table(
    [
      'API instances (20 writers, round-robin)',
      'writes/s',
      'p50 ms',
      'p99 ms',
      'p99 each round (other load)',
      'machine busy',
    ],
    ['l', 'r', 'r', 'r', 'l', 'r'],
    [
      ['one', two.one],
      ['two', two.two],
    ].map(([name, row]) => [
      name,
      row.writesPerSecond,
      row.p50Ms,
      row.p99Ms,
      roundsText(row),
      `${row.machineBusyPercent}%`,
    ]),
  );
  const e100 = storage.embedded.find((row) => row.entries === 100_000 && !row.skewed);
  const p100 = storage.postgres.find((row) => row.entries === 100_000 && !row.skewed);
  const gcGrows =
    e100.gc.pausePercent > 1.5 * e1.gc.pausePercent || e100.gc.longestPauseMs > 1.5 * e1.gc.longestPauseMs;
  const gcVerdict = gcGrows
    ? ': with the larger history in memory, the server pauses longer'
    : ': the larger history in memory changes them little';
  const gain = two.two.writesPerSecond / two.one.writesPerSecond;
  const twoVerdict =
    gain > 1.1
      ? 'Two instances answer more'
      : gain < 0.9
        ? 'Two instances answer less'
        : 'Two instances answer about as much as one';
  const e100Ratio = e100.p99Ms / e1.p99Ms;
  const embeddedTail =
    e100Ratio > 1.2
      ? ` Through HTTP, the embedded store's p99 at 100,000 entries is ${e100Ratio.toFixed(1)}× that at 1,000 while ` +
        `its own save stays flat (p99 ${e1.storeSave.p99Ms} and ${e100.storeSave.p99Ms} ms): the difference lies ` +
        'elsewhere in the server process, which holds the whole history in memory (resident ' +
        `${e1.serverRssMb} MB at 1,000 entries, ${e100.serverRssMb} MB at 100,000).`
      : '';
  const costTable = table(
    [
      'request',
      'store',
      'entries',
      'req/s',
      'p50 ms',
      'p99 ms',
      'CPU ms/request: server',
      'PostgreSQL',
      'load generator',
      'cores busy',
      'server GC pauses (longest)',
      'server resident MB',
    ],
    ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
    [
      ['Quick Use (anonymous: nothing saved)', 'embedded', 1_000, anonymous.embedded],
      ['signed in (session check, save, audit)', 'embedded', 1_000, e1],
      ['signed in (session check, save, audit)', 'embedded', 100_000, e100],
      ['Quick Use (anonymous: nothing saved)', 'PostgreSQL', 1_000, anonymous.postgres],
      ['signed in (session check, save, audit)', 'PostgreSQL', 1_000, p1],
      ['signed in (session check, save, audit)', 'PostgreSQL', 100_000, p100],
    ].map(([name, store, entries, row]) => [
      name,
      store,
      entriesText(entries),
      row.writesPerSecond,
      row.p50Ms,
      row.p99Ms,
      row.cpuMsPerRequest.servers,
      store === 'PostgreSQL' ? row.cpuMsPerRequest.postgres : '-',
      row.cpuMsPerRequest.loadGenerator,
      `${row.machineBusyPercent}%`,
      `${row.gc.pausePercent}% (${row.gc.longestPauseMs} ms)`,
      row.serverRssMb,
    ]),
  );
  const goals = [
    item(
      `Done when, p99 at 20,000 entries within 2× of that at 1,000 and under 250 ms: embedded ` +
        `${g.embeddedWithin2x.p99At20k} ms against ${g.embeddedWithin2x.p99At1k} ms, ${met(g.doneWhen.embedded)}; ` +
        `PostgreSQL ${g.postgresFlat.p99At20k} ms against ${g.postgresFlat.p99At1k} ms, ${met(g.doneWhen.postgres)}.`,
    ),
    item(`PostgreSQL p99 flat within ±20% from 1k to 100k (${ratios(g.postgresFlat)}): ${met(g.postgresFlat.met)}.`),
    item(`Embedded p99 within 2× from 1k to 100k (${ratios(g.embeddedWithin2x)}): ${met(g.embeddedWithin2x.met)}.`),
  ];
  const reading = [
    item(
      '**Why the size of the history does not matter.** On the embedded store a save appends one line to ' +
        "the clinician's `history.jsonl` and fsyncs it (lines arriving during an fsync go out together in the " +
        'next one: group commit); nothing is rewritten, so it costs the same at 1,000 or 100,000 entries, also ' +
        'for a clinician holding most of them. The history is read once, at start, and kept in memory. On ' +
        'PostgreSQL a save is one `INSERT` into `calculations` (a B-tree insert into each of its four indexes: ' +
        'O(log n)) and one into `audit_events`, each committed with a WAL flush. Layout 1 rewrote one JSON file ' +
        "per save: p99 72 ms at 1,000 entries, 7.7 s at 100,000 (this file's git history)." +
        embeddedTail,
    ),
    item(
      '**What p99 is made of: queueing on a busy machine, not the data.** With 20 clients each sending its ' +
        'next request as soon as the last is answered, a request mostly waits behind the others: the mean ' +
        `latency is 20 ÷ throughput (Little's law; at 1,000 entries ${e1.meanMs} ms on the embedded store, ` +
        `${p1.meanMs} ms on PostgreSQL). Throughput is bounded mostly by the CPU: per signed-in calculation the ` +
        `server used ${e1.cpuMsPerRequest.servers} ms of CPU (embedded) and ${p1.cpuMsPerRequest.servers} ms ` +
        `(PostgreSQL), PostgreSQL itself ${p1.cpuMsPerRequest.postgres} ms, and the load generator ` +
        `${e1.cpuMsPerRequest.loadGenerator} and ${p1.cpuMsPerRequest.loadGenerator} ms on the same cores, ` +
        `which were ${e1.machineBusyPercent}% and ${p1.machineBusyPercent}% busy. The server's JavaScript ` +
        `runs on one thread: at ${e1.writesPerSecond}/s the embedded server used ${embeddedServerCore}% of a ` +
        `core. Garbage collection paused it for ${e1.gc.pausePercent}% of the time at 1,000 entries and ` +
        `${e100.gc.pausePercent}% at 100,000 (longest pauses ${e1.gc.longestPauseMs} and ` +
        `${e100.gc.longestPauseMs} ms)${gcVerdict}. ` +
        'Quick Use, the same calculation without session check, save or audit, costs the server ' +
        `${anonymous.embedded.cpuMsPerRequest.servers} ms and answers at ${anonymous.embedded.writesPerSecond}/s ` +
        `with p99 ${anonymous.embedded.p99Ms} ms. The save itself is a small part: the store alone, 20 ` +
        `writers at once, takes ${e1.storeSave.p50Ms} ms (embedded) and ${p1.storeSave.p50Ms} ms (PostgreSQL) ` +
        `at p50; one append and fsync alone, ${storage.fsyncP50Ms} ms on this disk. Argon2 runs at sign-in ` +
        "only (the sign-ins happen before measuring), never in a calculation. The same configuration's p99 " +
        `varies up to ${spread}× from one quiet round to the next (a shared virtual machine): the scale ` +
        'of the differences between sizes in the tables.',
    ),
    item(
      `**Two instances on one machine.** ${twoVerdict} (${two.one.writesPerSecond} → ` +
        `${two.two.writesPerSecond} writes/s, p99 ${two.one.p99Ms} → ${two.two.p99Ms} ms): both instances ` +
        `share the ${cores} cores with PostgreSQL and the load generator, which one instance already kept ` +
        `${two.one.machineBusyPercent}% busy, so a second JavaScript thread has little idle CPU to use. On ` +
        'separate machines each instance brings its own cores, and the database is the shared part.',
    ),
  ];
  return (
    [
      '## Storage: a signed-in calculation as history grows (20 clinicians at once)',
      wrap(intro),
      '### Embedded store (DATA_DIR, layout 2)',
      storeTable(storage.embedded),
      '### PostgreSQL (one API instance)',
      storeTable(storage.postgres),
      `### Two API instances on one PostgreSQL (${entriesText(two.entries)} entries)`,
      twoTable,
      '### Where the time goes (20 clients at once)',
      costTable,
      '### Goals (issue 12)',
      goals.join('\n'),
      '### Reading the figures',
      reading.join('\n'),
    ].join('\n\n') + '\n'
  );
}

// ---------------------------------------------------------------- --only storage

/** Replaces BENCHMARKS.md's "## Storage" section (up to the next "## ") with the figures of `storage`. */
export async function writeStorageSection(storage) {
  const markdownFile = path.join(root, 'BENCHMARKS.md');
  const markdown = await readFile(markdownFile, 'utf8');
  const section = storageMarkdown(storage);
  const start = markdown.search(/^## Storage/m);
  if (start === -1) throw new Error('BENCHMARKS.md has no "## Storage" section to replace');
  const rest = markdown.slice(start + 1).search(/^## (?!#)/m);
  const end = rest === -1 ? markdown.length : start + 1 + rest;
  await writeFile(markdownFile, `${markdown.slice(0, start)}${section}\n${markdown.slice(end)}`);
  return section;
}

/**
 * `node scripts/bench.mjs --only storage`: builds the server into node_modules/.cache (leaving
 * dist/ alone), measures storage, and replaces only the storage figures in bench/results.json and
 * the storage section of BENCHMARKS.md.
 */
export async function runStorageOnly() {
  const cache = path.join(root, 'node_modules', '.cache');
  await mkdir(cache, { recursive: true });
  const buildDir = await mkdtemp(path.join(cache, 'sgx-bench-server-'));
  try {
    const serverFile = await buildServer(path.join(buildDir, 'server'));
    console.log('Measuring storage…');
    const storage = await benchStorage({ serverFile });
    const resultsFile = path.join(root, 'bench/results.json');
    const results = JSON.parse(await readFile(resultsFile, 'utf8').catch(() => '{}'));
    results.storage = { date: new Date().toISOString(), ...storage };
    await mkdir(path.dirname(resultsFile), { recursive: true });
    await writeFile(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
    const section = await writeStorageSection(storage);
    console.log(section);
    console.log(`Storage benchmark: ${storage.seconds} s.`);
  } finally {
    await rm(buildDir, { recursive: true, force: true });
  }
}
