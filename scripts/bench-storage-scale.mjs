// `node scripts/bench.mjs --only storage-scale` (`npm run bench -- --only storage-scale`): a hospital group's
// years of data. For each size (BENCH_SCALE_SIZES, default 100,000, 1,000,000 and 10,000,000 history entries):
// 1,000 clinicians, 50,000 patients, the history (each entry with its audit line, keyed by the bench's AUDIT_KEY,
// which the server and the commands are given) and one export's metadata per 50 entries, with a few heavy
// users (clinician n's share ∝ 1/(n + 20): the busiest holds 1.3% of everything, the quietest 0.02%), loaded
// into a throwaway PostgreSQL cluster (fsync on) with COPY through psql, indexes built after. Then the built
// server on it, and 20 clients at once, each signed in as clinicians drawn by their share, measure over HTTP:
// the history's newest page, a page deep in it by cursor, the history of one patient and of one tool, a
// patient search by name prefix, by initials and by MRN, a sign-in and a save. EXPLAIN (ANALYZE, BUFFERS) of
// every query a request runs (auto_explain), `npm run backup` and `npm run restore` at each size. Then the
// embedded store (BENCH_SCALE_EMBEDDED sizes, default 100,000 to 3,000,000) with the same requests,
// for its ceiling, and `npm run migrate-data` at each. Writes bench/storage-scale.json and
// bench/storage-scale-explain.txt and BENCHMARKS.md's "## Storage at scale" section (with
// bench/storage-scale-notes.md after its tables). About half an hour on 2 cores; the 10 M database takes 23 GB.
import { spawn, spawnSync } from 'node:child_process';
import { createSecretKey, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import jwt from 'jsonwebtoken';
import pg from 'pg';
import { runnerImport } from 'vite';
import { auditCopyRows, auditTrailModules, BENCH_AUDIT_KEY, psql } from './bench-audit-verify.mjs';
import { buildServer } from './build-server.mjs';
import { findPostgresBinDir } from './test-requirements.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sizesFrom = (text, fallback) => (text ?? fallback).split(',').filter(Boolean).map(Number);
const SIZES = sizesFrom(process.env.BENCH_SCALE_SIZES, '100000,1000000,10000000');
const EMBEDDED_SIZES = sizesFrom(process.env.BENCH_SCALE_EMBEDDED, '100000,300000,1000000,2000000,3000000');
// BENCH_SCALE_BACKUP=0 leaves out backup and restore (to measure requests again without them).
const CLINICIANS = 1_000;
const PATIENTS = 50_000;
const ENTRIES_PER_EXPORT = 50;
const CLIENTS = 20;
/** Requests each client sends per operation (after WARMUP unmeasured ones). */
const PER_CLIENT = Number(process.env.BENCH_SCALE_REQUESTS ?? 50);
const WARMUP = 5;
const PASSWORD = 'correct horse battery staple';
const JWT_SECRET = 'bench-scale-secret-that-is-at-least-32-characters-long';
const GOAL_P99_MS = 50;
const EMBEDDED_CEILING_MS = 250;

/** The n-th history entry's id: made from n, so the trail's lines can name it without reading it back. */
const calculationId = (n) => `00000000-0000-4000-a000-${String(n + 1).padStart(12, '0')}`;
const userId = (n) => `00000000-0000-4000-8000-${String(n + 1).padStart(12, '0')}`;
const emailOf = (n) => `clinician${n + 1}@bench.example`;
/**
 * Accounts that only sign in (no records): a sign-in ends the oldest of an account's sessions past 10, which
 * would sign the measuring clients out. The sign-in's queries do not depend on the size of the history.
 */
const SIGN_IN_ACCOUNTS = 100;
const signInUserId = (n) => `00000000-0000-4000-9000-${String(n + 1).padStart(12, '0')}`;
const signInEmail = (n) => `signin${n + 1}@bench.example`;
/** Clinician n's share of the records: a few heavy users, a long tail. */
const weights = Array.from({ length: CLINICIANS }, (_, n) => 1 / (n + 20));
const cumulative = weights.reduce((sums, weight) => [...sums, (sums.at(-1) ?? 0) + weight], []);
const totalWeight = cumulative.at(-1);

/** A deterministic generator (mulberry32), so every run loads the same data. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
function pickClinician(rand) {
  const target = rand() * totalWeight;
  let low = 0;
  let high = CLINICIANS - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (cumulative[middle] < target) low = middle + 1;
    else high = middle;
  }
  return low;
}

const FIRST = 'Fatimah Ahmed Layla Omar Noura Khalid Sara Yousef Huda Faisal Mariam Abdullah Reem Saad Aisha'.split(
  ' ',
);
const LAST = 'Al-Harbi Al-Qahtani Haddad Al-Otaibi Smith Khan Al-Zahrani Nasser Al-Ghamdi Brown Al-Shehri Patel'.split(
  ' ',
);

/** The synthetic patients: 50,000 spread like the history; a third named by initials. */
export function makePatients() {
  const rand = random(7);
  const byOwner = Array.from({ length: CLINICIANS }, () => []);
  const rows = [];
  for (let n = 0; n < PATIENTS; n += 1) {
    const owner = pickClinician(rand);
    const first = FIRST[Math.floor(rand() * FIRST.length)];
    const last = LAST[Math.floor(rand() * LAST.length)];
    const displayName = n % 3 === 0 ? `${first[0]}.${last[0]}.` : `${first} ${last}`;
    const patient = { id: randomUUID(), owner, displayName, mrn: `MRN-${String(n + 1).padStart(7, '0')}` };
    byOwner[owner].push(patient);
    rows.push(patient);
  }
  return { rows, byOwner };
}

// ---------------------------------------------------------------- the records' text

export async function recordTemplates() {
  const load = async (file) => (await runnerImport(path.join(root, file))).module;
  const [clinical, responses] = await Promise.all([load('clinical/index.ts'), load('api/tools/tool-responses.ts')]);
  const templates = [];
  for (const weight of [45, 58, 64, 70, 77, 82, 95, 110]) {
    for (const tofCount of ['0', '2', null]) {
      const inputs = {
        ageGroup: 'adult',
        bodyWeight: weight,
        nmbaType: 'rocuronium',
        creatinine: 60 + weight,
        tofCount,
        ptc: tofCount === null ? 2 : null,
        rsiScenario: false,
        dialysis: false,
      };
      const body = responses.doseResponse(clinical.calculateDose(inputs)).body;
      templates.push({
        toolType: 'dose_calculator',
        share: 55,
        inputs,
        result: { toolType: 'dose_calculator', ...body },
      });
    }
    for (const baselineHr of [48, 62]) {
      const inputs = {
        weight,
        age: 40 + weight / 2,
        baselineHr,
        cardiacHistory: 'none',
        betaBlocker: baselineHr < 50,
        dexmedetomidine: false,
        digoxin: false,
        amiodarone: false,
        highDoseOpioids: weight > 90,
        vagalStimulus: false,
        depth: 'tof_2_plus',
        nmba: 'rocuronium',
        creatinine: 60 + weight,
      };
      const body = responses.bradycardiaResponse(clinical.assessBradycardia(inputs)).body;
      templates.push({
        toolType: 'bradycardia_advisor',
        share: 35,
        inputs,
        result: { toolType: 'bradycardia_advisor', ...body },
      });
    }
  }
  const roiInputs = {
    numberOfCases: 120,
    orCostPerMinute: 45,
    timeNeostigmine: 15,
    timeProduct: 3,
    baselinePPCRate: 10,
  };
  const roi = responses.roiResponse(clinical.calculateRoi(roiInputs)).body;
  templates.push({
    toolType: 'roi_calculator',
    share: 10,
    inputs: roiInputs,
    result: { toolType: 'roi_calculator', ...roi },
  });
  // COPY's text format: a backslash is written twice; JSON has no raw tab or line break.
  const copyText = (value) => JSON.stringify(value).replace(/\\/g, '\\\\');
  const byTool = (tool) => templates.filter((template) => template.toolType === tool);
  return {
    dose: byTool('dose_calculator').map((t) => ({ ...t, copy: `${copyText(t.inputs)}\t${copyText(t.result)}` })),
    advisor: byTool('bradycardia_advisor').map((t) => ({ ...t, copy: `${copyText(t.inputs)}\t${copyText(t.result)}` })),
    roi: byTool('roi_calculator').map((t) => ({ ...t, copy: `${copyText(t.inputs)}\t${copyText(t.result)}` })),
    saveBody: JSON.stringify({ toolType: 'dose_calculator', inputs: byTool('dose_calculator')[3].inputs }),
  };
}

const START = Date.UTC(2016, 0, 1);
const TEN_YEARS_MS = 10 * 365.25 * 86_400_000;
const PDF_HEX = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n').toString('hex');

/** Each history entry as the stores hold it, oldest first, for `entries` entries. */
function* historyRows(entries, patients, templates) {
  const rand = random(11);
  for (let n = 0; n < entries; n += 1) {
    const owner = pickClinician(rand);
    const roll = rand();
    const kind = roll < 0.55 ? templates.dose : roll < 0.9 ? templates.advisor : templates.roi;
    const template = kind[Math.floor(rand() * kind.length)];
    const own = patients.byOwner[owner];
    const patient =
      template.toolType !== 'roi_calculator' && own.length > 0 && rand() < 0.7
        ? own[Math.floor(rand() * own.length)]
        : null;
    yield { n, owner, template, patient, createdAt: new Date(START + (n / entries) * TEN_YEARS_MS).toISOString() };
  }
}

// ---------------------------------------------------------------- PostgreSQL

/** Loads a size into a new database; answers its URL and how long each step took. */
export async function loadPostgres({ bin, modules, cluster, entries, patients, templates, passwordHash, log }) {
  const database = await modules.cluster.createTestDatabase(cluster.baseUrl);
  const { adapter, pool } = await modules.postgres.openPostgresStore(database.url);
  await adapter.close();
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const timings = {};
  const timed = async (name, work) => {
    const started = performance.now();
    await work();
    timings[name] = Math.round((performance.now() - started) / 1000);
    log(`    ${name}: ${timings[name]} s`);
  };
  try {
    // Indexes (and the primary keys) are built once the rows are in, as a restore does: faster than
    // keeping them up to date row by row. The count triggers are off while loading; the counts are made after.
    const indexes = (
      await client.query(
        `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'
         AND tablename IN ('calculations', 'patients', 'exports', 'audit_events') AND indexname NOT LIKE '%_pkey'`,
      )
    ).rows;
    for (const { indexname } of indexes) await client.query(`DROP INDEX ${indexname}`);
    for (const table of ['calculations', 'patients', 'exports', 'audit_events']) {
      await client.query(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_pkey`);
    }
    await client.query('ALTER TABLE calculations DISABLE TRIGGER USER');
    const url = database.url;
    await timed('copy users, patients', async () => {
      await psql(
        bin,
        url,
        'COPY users (id, email, name, license, password_hash, created_at) FROM STDIN',
        [
          ...Array.from({ length: CLINICIANS }, (_, n) => [userId(n), emailOf(n)]),
          ...Array.from({ length: SIGN_IN_ACCOUNTS }, (_, n) => [signInUserId(n), signInEmail(n)]),
        ].map(([id, email]) => `${id}\t${email}\tClinician\t\\N\t${passwordHash}\t2016-01-01T00:00:00Z\n`),
      );
      const created = new Date(START).toISOString();
      await psql(
        bin,
        url,
        'COPY patients (id, owner_id, display_name, mrn, year_of_birth, age_group, weight_kg, notes, ' +
          'created_at, updated_at, search_text) FROM STDIN',
        patients.rows.map(
          (p) =>
            `${p.id}\t${userId(p.owner)}\t${p.displayName}\t${p.mrn}\t1960\tadult\t70\t\\N\t${created}\t${created}\t` +
            `${p.displayName.toLowerCase()}\\n${p.mrn.toLowerCase()}\n`,
        ),
      );
    });
    await timed('copy history', () =>
      psql(
        bin,
        url,
        'COPY calculations (id, owner_id, patient_id, tool_type, inputs, result, created_at) FROM STDIN',
        (function* () {
          for (const row of historyRows(entries, patients, templates)) {
            const patient = row.patient?.id ?? '\\N';
            yield [
              calculationId(row.n),
              userId(row.owner),
              patient,
              row.template.toolType,
              row.template.copy,
              row.createdAt,
            ]
              .join('\t')
              .concat('\n');
          }
        })(),
      ),
    );
    await timed('copy exports', () =>
      psql(
        bin,
        url,
        'COPY exports (id, owner_id, patient_id, calculation_id, file_name, size_bytes, created_at, bytes) FROM STDIN',
        (function* () {
          const rand = random(13);
          const count = Math.round(entries / ENTRIES_PER_EXPORT);
          for (let n = 0; n < count; n += 1) {
            const owner = pickClinician(rand);
            const own = patients.byOwner[owner];
            const patient = own.length > 0 ? own[Math.floor(rand() * own.length)].id : '\\N';
            const at = new Date(START + (n / count) * TEN_YEARS_MS).toISOString();
            const file = `dose-notes-${at.slice(0, 10)}.pdf`;
            yield [randomUUID(), userId(owner), patient, '\\N', file, '58213', at, `\\\\x${PDF_HEX}`]
              .join('\t')
              .concat('\n');
          }
        })(),
      ),
    );
    // The trail as the server writes it (api/audit/head.ts chainAfter, scripts/bench-audit-verify.mjs): the key line of
    // the bench's AUDIT_KEY, then one line per saved calculation, numbered (`seq`) and HMAC-chained under that key, so
    // the server, started with that AUDIT_KEY, finds a whole keyed chain and goes on with it.
    await timed('audit events', () =>
      psql(
        bin,
        url,
        `COPY audit_events (${modules.trail.columns}) FROM STDIN`,
        auditCopyRows(
          modules.trail,
          (function* () {
            for (const row of historyRows(entries, patients, templates)) {
              yield {
                time: row.createdAt,
                actor: userId(row.owner),
                action: 'calculation.create',
                recordType: 'calculation',
                recordId: calculationId(row.n),
                outcome: 'success',
              };
            }
          })(),
        ),
      ),
    );
    // the key line and a line per entry
    await client.query(`SELECT setval(pg_get_serial_sequence('audit_events', 'id'), $1)`, [entries + 1]);
    await timed('indexes', async () => {
      await client.query("SET maintenance_work_mem = '1GB'");
      for (const table of ['calculations', 'patients', 'exports', 'audit_events']) {
        await client.query(`ALTER TABLE ${table} ADD PRIMARY KEY (id)`);
      }
      for (const { indexdef } of indexes) await client.query(indexdef);
    });
    await timed('counts, vacuum analyze', async () => {
      await client.query('ALTER TABLE calculations ENABLE TRIGGER USER');
      await client.query('DELETE FROM calculation_counts');
      await client.query(
        `INSERT INTO calculation_counts (owner_id, tool_type, entries)
         SELECT owner_id, tool_type, count(*) FROM calculations GROUP BY owner_id, tool_type`,
      );
      await client.query('VACUUM ANALYZE');
      await client.query('CHECKPOINT');
    });
    const size = (await client.query('SELECT pg_database_size(current_database()) AS bytes')).rows[0].bytes;
    return { database, timings, databaseBytes: Number(size) };
  } finally {
    await client.end();
    await pool.end().catch(() => {});
  }
}

// ---------------------------------------------------------------- the server and the clients

function startServer(serverFile, env) {
  const serverArgs = (process.env.BENCH_SCALE_SERVER_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...serverArgs, serverFile], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      TRUST_PROXY: 'true',
      JWT_SECRET,
      AUDIT_KEY: BENCH_AUDIT_KEY,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk) => {
      output = (output + chunk).slice(-20_000);
      const match = /Listening on http:\/\/localhost:(\d+)/.exec(output);
      if (match) resolve({ child, exited, url: `http://127.0.0.1:${match[1]}`, output: () => output });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => reject(new Error(`the server exited (${code}) before listening:\n${output}`)));
  });
}
async function stopServer(server) {
  if (server.child.exitCode !== null) return;
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 20_000);
  await server.exited;
  clearTimeout(timer);
}

/** Sessions and tokens for every clinician, made directly (as a sign-in would): argon2 is measured apart. */
function sessionsFor(clinicians) {
  const key = createSecretKey(Buffer.from(JWT_SECRET, 'utf8'));
  const created = new Date();
  const expires = new Date(created.getTime() + 12 * 3600_000);
  return clinicians.map((n) => {
    const sessionId = randomUUID();
    const iat = Math.floor(created.getTime() / 1000);
    const token = jwt.sign({ sid: sessionId, iat, exp: iat + 12 * 3600 }, key, {
      algorithm: 'HS256',
      issuer: 'sgx-api',
      audience: 'sgx-clients',
      subject: userId(n),
    });
    return {
      n,
      token,
      session: {
        id: sessionId,
        userId: userId(n),
        createdAt: created.toISOString(),
        expiresAt: expires.toISOString(),
        revokedAt: null,
      },
    };
  });
}

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

const round1 = (value) => Math.round(value * 10) / 10;
const percentile = (sorted, q) => sorted[Math.max(0, Math.ceil(sorted.length * q) - 1)];
const loadAverage = () => round1(os.loadavg()[0]);

/**
 * CLIENTS clients at once, each on its own keep-alive connection, each sending `make(client, k)`'s request
 * and the next as soon as the answer is in: WARMUP unmeasured, then PER_CLIENT measured.
 */
async function measure(url, make, perClient = PER_CLIENT) {
  const agents = Array.from({ length: CLIENTS }, () => new http.Agent({ keepAlive: true, maxSockets: 1 }));
  const latencies = [];
  const failures = new Map();
  const loadBefore = loadAverage();
  const started = performance.now();
  await Promise.all(
    agents.map(async (agent, client) => {
      for (let k = 0; k < WARMUP + perClient; k += 1) {
        const { method, path: urlPath, ...options } = make(client, k);
        const t0 = performance.now();
        const answer = await request(agent, url, method, urlPath, options);
        const elapsed = performance.now() - t0;
        if (answer.status >= 300) failures.set(answer.status, `${urlPath}: ${answer.text.slice(0, 200)}`);
        else if (k >= WARMUP) latencies.push(elapsed);
      }
    }),
  );
  const wallMs = performance.now() - started;
  for (const agent of agents) agent.destroy();
  if (failures.size > 0) throw new Error(`requests failed: ${JSON.stringify(Object.fromEntries(failures))}`);
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    perSecond: Math.round((CLIENTS * (WARMUP + perClient)) / (wallMs / 1000)),
    p50Ms: round1(percentile(latencies, 0.5)),
    p99Ms: round1(percentile(latencies, 0.99)),
    maxMs: round1(latencies.at(-1)),
    loadAverage: [loadBefore, loadAverage()],
  };
}

const cursorOf = (seq) => Buffer.from(`h:${seq}`).toString('base64url');

/** The operations, each a request maker over the signed-in clinicians (drawn by their share). */
function operations({ signedIn, patients, deepCursors, templates }) {
  const rand = random(99);
  const someone = () => signedIn[pickClinician(rand)];
  const withPatients = () => {
    for (;;) {
      const who = someone();
      if (patients.byOwner[who.n].length > 0)
        return { who, patient: patients.byOwner[who.n][Math.floor(rand() * patients.byOwner[who.n].length)] };
    }
  };
  let addressCounter = 0;
  return {
    'history, newest page': () => ({ method: 'GET', path: '/api/history?pageSize=20', token: someone().token }),
    'history, a page deep by cursor': () => {
      const who = someone();
      return {
        method: 'GET',
        path: `/api/history?pageSize=20&cursor=${deepCursors.get(who.n) ?? cursorOf(1)}`,
        token: who.token,
      };
    },
    'history of one patient': () => {
      const { who, patient } = withPatients();
      return { method: 'GET', path: `/api/history?pageSize=20&patientId=${patient.id}`, token: who.token };
    },
    'history of one tool': () => ({
      method: 'GET',
      path: '/api/history?pageSize=20&toolType=bradycardia_advisor',
      token: someone().token,
    }),
    'patient search, name prefix': () => {
      const { who, patient } = withPatients();
      const name = patient.displayName.includes(' ') ? patient.displayName : 'Fat';
      return { method: 'GET', path: `/api/patients?q=${encodeURIComponent(name.slice(0, 3))}`, token: who.token };
    },
    'patient search, initials': () => {
      const { who, patient } = withPatients();
      const initials = patient.displayName.includes(' ')
        ? `${patient.displayName[0]}.`
        : patient.displayName.slice(0, 3);
      return { method: 'GET', path: `/api/patients?q=${encodeURIComponent(initials)}`, token: who.token };
    },
    'patient search, MRN': () => {
      const { who, patient } = withPatients();
      return { method: 'GET', path: `/api/patients?q=${patient.mrn}`, token: who.token };
    },
    'sign-in': () => {
      addressCounter += 1;
      return {
        method: 'POST',
        path: '/api/auth/signin',
        body: JSON.stringify({ email: signInEmail(addressCounter % SIGN_IN_ACCOUNTS), password: PASSWORD }),
        headers: {
          'x-forwarded-for': [10, (addressCounter >> 16) & 255, (addressCounter >> 8) & 255, addressCounter & 255].join(
            '.',
          ),
        },
      };
    },
    'save (signed-in calculation)': () => ({
      method: 'POST',
      path: '/api/tools/run',
      body: templates.saveBody,
      token: someone().token,
    }),
  };
}

async function measureAll(url, context, log) {
  // The server's first requests compile its code and fill PostgreSQL's caches of sessions and users: a round of
  // every operation first, unmeasured, so that the first operation measured does not pay for all of them.
  for (const make of Object.values(operations(context))) await measure(url, make, WARMUP);
  const results = {};
  for (const [name, make] of Object.entries(operations(context))) {
    results[name] = await measure(url, make);
    log(
      `    ${name}: p50 ${results[name].p50Ms} ms, p99 ${results[name].p99Ms} ms ` +
        `(load ${results[name].loadAverage.join('→')})`,
    );
  }
  return results;
}

/** Every query the requests of each operation run, with its plan (auto_explain, ANALYZE and BUFFERS). */
async function explainAll({ serverFile, cluster, database, context }) {
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  const name = database.name;
  try {
    for (const setting of [
      "session_preload_libraries = 'auto_explain'",
      'auto_explain.log_min_duration = 0',
      'auto_explain.log_analyze = on',
      'auto_explain.log_buffers = on',
      'auto_explain.log_timing = on',
      'auto_explain.log_nested_statements = on',
    ]) {
      await admin.query(`ALTER DATABASE ${name} SET ${setting}`);
    }
    const before = (await stat(cluster.logFile)).size;
    const server = await startServer(serverFile, { DATABASE_URL: database.url, DATA_DIR: os.tmpdir() });
    const plans = {};
    // The busiest clinician's requests: the plans where the most rows are.
    const heaviest = { ...context, signedIn: context.signedIn.map(() => context.signedIn[0]) };
    try {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      for (const [operation, make] of Object.entries(operations(heaviest))) {
        const from = (await stat(cluster.logFile)).size;
        const { method, path: urlPath, ...options } = make(0, 0);
        await request(agent, server.url, method, urlPath, options);
        await new Promise((resolve) => setTimeout(resolve, 300));
        const handle = await open(cluster.logFile, 'r');
        const { size } = await handle.stat();
        const buffer = Buffer.alloc(size - from);
        await handle.read(buffer, 0, buffer.length, from);
        await handle.close();
        plans[operation] = buffer.toString('utf8');
      }
      agent.destroy();
    } finally {
      await stopServer(server);
      for (const setting of ['session_preload_libraries', 'auto_explain.log_min_duration']) {
        await admin.query(`ALTER DATABASE ${name} RESET ${setting}`);
      }
    }
    void before;
    return plans;
  } finally {
    await admin.end();
  }
}

/** The scans each query's plan used (its node lines), for the table: "Index Scan using …", "Seq Scan on …". */
function scansOf(log) {
  return [
    ...new Set(
      [
        ...log.matchAll(
          new RegExp(
            '((?:Parallel )?(?:Index Only Scan|Index Scan|Bitmap Index Scan|Seq Scan|Bitmap Heap Scan)' +
              '(?: Backward)?(?: using \\S+)? on \\S+)',
            'g',
          ),
        ),
      ].map((m) => m[1]),
    ),
  ];
}

async function timedCommand(file, args, env) {
  const started = performance.now();
  const result = spawnSync(process.execPath, [file, ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', AUDIT_KEY: BENCH_AUDIT_KEY, ...env },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`${path.basename(file)} failed: ${result.stdout}${result.stderr}`);
  return Math.round((performance.now() - started) / 1000);
}

// ---------------------------------------------------------------- the embedded store

async function writeEmbedded({ modules, entries, patients, templates, passwordHash, sessions }) {
  const names = modules.names;
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sgx-scale-embedded-'));
  const write = async (file, text) => {
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await writeFile(file, text, { mode: 0o600 });
  };
  await write(path.join(dataDir, names.LAYOUT_FILE_NAME), JSON.stringify({ layout: names.LAYOUT_VERSION }));
  const users = [
    ...Array.from({ length: CLINICIANS }, (_, n) => [userId(n), emailOf(n)]),
    ...Array.from({ length: SIGN_IN_ACCOUNTS }, (_, n) => [signInUserId(n), signInEmail(n)]),
  ].map(([id, email]) => ({
    id,
    email,
    name: 'Clinician',
    license: null,
    passwordHash,
    createdAt: '2016-01-01T00:00:00.000Z',
  }));
  await write(
    path.join(dataDir, names.ACCOUNTS_FILE_NAME),
    JSON.stringify({ users, sessions: sessions.map((s) => s.session) }),
  );
  const created = new Date(START).toISOString();
  const lines = Array.from({ length: CLINICIANS }, () => []);
  const handles = new Map();
  for (const row of historyRows(entries, patients, templates)) {
    lines[row.owner].push(
      JSON.stringify({
        id: randomUUID(),
        ownerId: userId(row.owner),
        patientId: row.patient?.id ?? null,
        toolType: row.template.toolType,
        inputs: row.template.inputs,
        result: row.template.result,
        createdAt: row.createdAt,
      }),
    );
    if (lines[row.owner].length >= 2000) {
      const file = path.join(dataDir, names.CLINICIANS_DIR_NAME, userId(row.owner), names.HISTORY_FILE_NAME);
      if (!handles.has(row.owner)) {
        await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
        handles.set(row.owner, await open(file, 'a', 0o600));
      }
      await handles.get(row.owner).write(`${lines[row.owner].join('\n')}\n`);
      lines[row.owner] = [];
    }
  }
  for (let n = 0; n < CLINICIANS; n += 1) {
    const dir = path.join(dataDir, names.CLINICIANS_DIR_NAME, userId(n));
    const own = patients.byOwner[n].map((p) => ({
      id: p.id,
      ownerId: userId(n),
      displayName: p.displayName,
      mrn: p.mrn,
      yearOfBirth: 1960,
      ageGroup: 'adult',
      weightKg: 70,
      notes: null,
      createdAt: created,
      updatedAt: created,
    }));
    await write(path.join(dir, names.PATIENTS_FILE_NAME), JSON.stringify({ patients: own, deletedPatientIds: [] }));
    if (lines[n].length > 0) {
      if (!handles.has(n)) handles.set(n, await open(path.join(dir, names.HISTORY_FILE_NAME), 'a', 0o600));
      await handles.get(n).write(`${lines[n].join('\n')}\n`);
    }
  }
  for (const handle of handles.values()) await handle.close();
  spawnSync('sync');
  return dataDir;
}

// ---------------------------------------------------------------- the benchmark

export async function benchStorageScale({ serverFile, buildDir, log = console.log }) {
  const started = performance.now();
  const modules = {
    cluster: (await runnerImport(path.join(root, 'api/test-support/postgres-cluster.ts'))).module,
    postgres: (await runnerImport(path.join(root, 'api/storage/postgres/index.ts'))).module,
    names: (await runnerImport(path.join(root, 'api/storage/embedded/layout-names.ts'))).module,
    passwords: (await runnerImport(path.join(root, 'api/auth/passwords.ts'))).module,
    trail: await auditTrailModules(),
  };
  const bin = findPostgresBinDir();
  const passwordHash = await modules.passwords.hashPassword(PASSWORD);
  const templates = await recordTemplates();
  const patients = makePatients();
  const result = {
    date: new Date().toISOString(),
    cpus: os.cpus().length,
    node: process.version,
    postgres: [],
    embedded: [],
  };
  const explained = [];
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'sgx-scale-'));
  const cluster = await modules.cluster.startPostgresCluster({
    fsync: true,
    settings: { shared_buffers: '1GB', max_wal_size: '8GB', checkpoint_timeout: '30min', effective_cache_size: '8GB' },
  });
  try {
    for (const entries of EMBEDDED_SIZES) {
      log(`  embedded, ${entries.toLocaleString('en-US')} history entries: writing DATA_DIR…`);
      const signedIn = sessionsFor(Array.from({ length: CLINICIANS }, (_, n) => n));
      const dataDir = await writeEmbedded({ modules, entries, patients, templates, passwordHash, sessions: signedIn });
      try {
        const startedAt = performance.now();
        let server;
        try {
          server = await startServer(serverFile, { DATA_DIR: dataDir });
        } catch (error) {
          // the store did not open (out of memory): past the ceiling
          result.embedded.push({ entries, failedToStart: String(error).slice(0, 2000) });
          log(`  embedded ${entries}: the server did not start`);
          break;
        }
        const startSeconds = round1((performance.now() - startedAt) / 1000);
        let operationsMeasured;
        try {
          operationsMeasured = await measureAll(
            server.url,
            { signedIn, patients, deepCursors: await embeddedDeepCursors(dataDir, modules), templates },
            log,
          );
        } finally {
          await stopServer(server);
        }
        const worst = Math.max(
          ...Object.values(operationsMeasured)
            .filter((_, i) => i !== 7)
            .map((op) => op.p99Ms),
        );
        const row = { entries, startSeconds, operations: operationsMeasured, worstP99Ms: worst };
        {
          const target = await modules.cluster.createTestDatabase(cluster.baseUrl);
          try {
            row.migrateDataSeconds = await timedCommand(
              path.join(buildDir, 'migrate-data.js'),
              ['--from', dataDir, '--to', target.url],
              {},
            );
          } finally {
            await target.drop();
          }
        }
        result.embedded.push(row);
        log(
          `  embedded ${entries}: start ${startSeconds} s, worst p99 ${worst} ms, ` +
            `migrate-data ${row.migrateDataSeconds ?? '-'} s`,
        );
        await writeFile(path.join(root, 'bench/storage-scale.json'), `${JSON.stringify(result, null, 2)}\n`);
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    }
    for (const entries of SIZES) {
      log(`  PostgreSQL, ${entries.toLocaleString('en-US')} history entries: loading…`);
      const loadStarted = performance.now();
      const { database, timings, databaseBytes } = await loadPostgres({
        bin,
        modules,
        cluster,
        entries,
        patients,
        templates,
        passwordHash,
        log,
      });
      const loadSeconds = Math.round((performance.now() - loadStarted) / 1000);
      try {
        const signedIn = sessionsFor(Array.from({ length: CLINICIANS }, (_, n) => n));
        const client = new pg.Client({ connectionString: database.url });
        await client.connect();
        const deepCursors = new Map();
        try {
          for (const { session } of signedIn) {
            await client.query('INSERT INTO sessions (id, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)', [
              session.id,
              session.userId,
              session.createdAt,
              session.expiresAt,
            ]);
          }
          // A page 90% of the way down each clinician's history.
          const rows = await client.query(
            `SELECT owner_id, seq FROM (
               SELECT owner_id, seq, row_number() OVER (PARTITION BY owner_id ORDER BY seq DESC) AS r,
                 count(*) OVER (PARTITION BY owner_id) AS c FROM calculations
             ) AS t WHERE r = greatest(1, floor(c * 0.9))`,
          );
          for (const row of rows.rows) deepCursors.set(Number(row.owner_id.slice(-12)) - 1, cursorOf(row.seq));
        } finally {
          await client.end();
        }
        const context = { signedIn, patients, deepCursors, templates };
        log('  measuring…');
        const server = await startServer(serverFile, { DATABASE_URL: database.url, DATA_DIR: scratch });
        let operationsMeasured;
        try {
          operationsMeasured = await measureAll(server.url, context, log);
        } finally {
          await stopServer(server);
        }
        log('  plans…');
        const plans = await explainAll({ serverFile, cluster, database, context });
        explained.push(`==== ${entries.toLocaleString('en-US')} entries ====`);
        for (const [operation, text] of Object.entries(plans)) explained.push(`---- ${operation}\n${text.trim()}`);
        const scans = Object.fromEntries(Object.entries(plans).map(([operation, text]) => [operation, scansOf(text)]));
        if (process.env.BENCH_SCALE_BACKUP === '0') {
          result.postgres.push({ entries, loadSeconds, timings, databaseBytes, operations: operationsMeasured, scans });
          await writeFile(path.join(root, 'bench/storage-scale.json'), `${JSON.stringify(result, null, 2)}\n`);
          await writeFile(path.join(root, 'bench/storage-scale-explain.txt'), `${explained.join('\n\n')}\n`);
          continue;
        }
        log('  backup and restore…');
        const backupFile = path.join(scratch, `scale-${entries}.backup`);
        const backupSeconds = await timedCommand(path.join(buildDir, 'backup.js'), ['--out', backupFile], {
          DATABASE_URL: database.url,
        });
        const backupBytes = (await stat(backupFile)).size;
        // Everything about this size is measured: its database goes before the restore, so the disk holds
        // one copy at a time (about 30 GB at 10 M).
        await database.drop();
        const restored = await modules.cluster.createTestDatabase(cluster.baseUrl);
        let restoreSeconds;
        try {
          restoreSeconds = await timedCommand(path.join(buildDir, 'restore.js'), ['--from', backupFile], {
            DATABASE_URL: restored.url,
          });
        } finally {
          await restored.drop();
          await rm(backupFile, { force: true });
        }
        const row = {
          entries,
          loadSeconds,
          timings,
          databaseBytes,
          operations: operationsMeasured,
          scans,
          backupSeconds,
          backupBytes,
          restoreSeconds,
        };
        result.postgres.push(row);
        log(`  backup ${backupSeconds} s (${Math.round(backupBytes / 1e6)} MB), restore ${restoreSeconds} s`);
        await writeFile(path.join(root, 'bench/storage-scale.json'), `${JSON.stringify(result, null, 2)}\n`);
        await writeFile(path.join(root, 'bench/storage-scale-explain.txt'), `${explained.join('\n\n')}\n`);
      } finally {
        await database.drop();
      }
    }
  } finally {
    await cluster.stop();
    await rm(scratch, { recursive: true, force: true });
  }
  result.seconds = Math.round((performance.now() - started) / 1000);
  await writeFile(path.join(root, 'bench/storage-scale.json'), `${JSON.stringify(result, null, 2)}\n`);
  return result;
}

/** A cursor 90% of the way down each clinician's embedded history (its lines, counted from 1). */
async function embeddedDeepCursors(dataDir, modules) {
  const cursors = new Map();
  for (let n = 0; n < CLINICIANS; n += 1) {
    const file = path.join(dataDir, modules.names.CLINICIANS_DIR_NAME, userId(n), modules.names.HISTORY_FILE_NAME);
    let lines = 0;
    try {
      const text = await readFile(file);
      for (const byte of text) if (byte === 10) lines += 1;
    } catch {
      // no history
    }
    cursors.set(n, cursorOf(Math.max(1, Math.ceil(lines * 0.1))));
  }
  return cursors;
}

export { GOAL_P99_MS, EMBEDDED_CEILING_MS };

/** `--only storage-scale`: builds the server into node_modules/.cache, measures, writes the JSON files. */
export async function runStorageScaleOnly() {
  const cache = path.join(root, 'node_modules', '.cache');
  await mkdir(cache, { recursive: true });
  const buildDir = await mkdtemp(path.join(cache, 'sgx-bench-scale-'));
  // BENCH_SCALE_MERGE=1: the sizes measured now replace those of the last run; the others are kept (to add
  // the embedded store's larger sizes without loading PostgreSQL's again).
  const jsonFile = path.join(root, 'bench/storage-scale.json');
  const previous = process.env.BENCH_SCALE_MERGE === '1' ? JSON.parse(await readFile(jsonFile, 'utf8')) : undefined;
  try {
    const serverFile = await buildServer(path.join(buildDir, 'server'));
    let result = await benchStorageScale({ serverFile, buildDir: path.join(buildDir, 'server') });
    if (previous) {
      const merge = (old, now) =>
        [...old.filter((row) => !now.some((other) => other.entries === row.entries)), ...now].sort(
          (a, b) => a.entries - b.entries,
        );
      result = {
        ...result,
        postgres: merge(previous.postgres, result.postgres),
        embedded: merge(previous.embedded, result.embedded),
      };
      await writeFile(jsonFile, `${JSON.stringify(result, null, 2)}\n`);
    }
    await writeScaleSection(result);
  } finally {
    await rm(buildDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- BENCHMARKS.md

const count = (n) => n.toLocaleString('en-US');
const sizeName = (n) => (n >= 1_000_000 ? `${n / 1_000_000} M` : `${n / 1_000} k`);
const mb = (bytes) => `${count(Math.round(bytes / 1e6))} MB`;
const cell = (op) => (op ? `${op.p99Ms} (${op.p50Ms})` : '-');
const loadOf = (row) => {
  const loads = Object.values(row.operations).flatMap((op) => op.loadAverage);
  return `${Math.min(...loads)}–${Math.max(...loads)}`;
};

/**
 * From the plans' log (bench/storage-scale-explain.txt): per size and operation, the time PostgreSQL spent on
 * the request's statements (the sum of auto_explain's durations), in ms: the database's share of a request,
 * which the machine's other work changes much less than it changes a whole request's time.
 */
export function databaseTimes(explainText) {
  const times = new Map();
  for (const block of explainText.split(/^==== /m).slice(1)) {
    const entries = Number(block.slice(0, block.indexOf(' ')).replace(/,/g, ''));
    const ops = {};
    for (const part of block.split(/^---- /m).slice(1)) {
      const name = part.slice(0, part.indexOf('\n'));
      const durations = [...part.matchAll(/duration: ([\d.]+) ms/g)].map((match) => Number(match[1]));
      ops[name] = { statements: durations.length, ms: Math.round(durations.reduce((a, b) => a + b, 0) * 100) / 100 };
    }
    times.set(entries, ops);
  }
  return times;
}

/** The "## Storage at scale" section of BENCHMARKS.md from a run's results. */
export function scaleMarkdown(result, explainText = '') {
  const pgRows = result.postgres;
  const operations = Object.keys(pgRows[0]?.operations ?? result.embedded[0]?.operations ?? {});
  const first = pgRows[0];
  const last = pgRows.at(-1);
  const lines = [
    '## Storage at scale: years of a hospital group',
    '',
    `Measured by \`npm run bench -- --only storage-scale\` on ${result.date.slice(0, 10)} (${result.cpus} CPUs, Node ` +
      `${result.node}; raw figures in [bench/storage-scale.json](bench/storage-scale.json), every plan in ` +
      '[bench/storage-scale-explain.txt](bench/storage-scale-explain.txt)). 1,000 clinicians, 50,000 patients, the ' +
      'history and one export per 50 entries, spread with a few heavy users (clinician n holds a share ∝ 1/(n + 20): ' +
      'the busiest 1.3% of everything, 130,000 entries at 10 M; the quietest 0.02%), loaded with COPY. 20 clients ' +
      'at once, each signed in as clinicians drawn by the same shares, each sending its next request as soon as the ' +
      `answer is in: ${PER_CLIENT} measured requests each per operation after ${WARMUP} unmeasured (and, once the ` +
      `server has started, a round of ${2 * WARMUP} of every operation, unmeasured, to warm it up), over HTTP ` +
      'through the built server, every request with its session check and its audit row (a committed INSERT, so a ' +
      'WAL flush, also for a read). PostgreSQL 15 with fsync on, shared_buffers 1 GB. The 1-minute load average ' +
      'during each size is given (2 cores: the 20 clients, the server and PostgreSQL keep it at 2 to 3 by ' +
      'themselves; ' +
      'above that, other work waited for the CPU, and so did ' +
      'these requests).',
    '',
    '### PostgreSQL: p99 (p50) ms per request',
    '',
    `| operation | ${pgRows.map((row) => `${sizeName(row.entries)} entries`).join(' | ')} | ` +
      `${sizeName(last?.entries ?? 0)} ÷ ${sizeName(first?.entries ?? 0)} (p99) |`,
    `|---|${pgRows.map(() => '---:').join('|')}|---:|`,
    ...operations.map(
      (name) =>
        `| ${name} | ${pgRows.map((row) => cell(row.operations[name])).join(' | ')} | ` +
        `${first && last ? (last.operations[name].p99Ms / first.operations[name].p99Ms).toFixed(2) : '-'}× |`,
    ),
    `| load average while measuring | ${pgRows.map(loadOf).join(' | ')} | |`,
    '',
    '| at each size | ' + pgRows.map((row) => sizeName(row.entries)).join(' | ') + ' |',
    `|---|${pgRows.map(() => '---:').join('|')}|`,
    `| load (COPY, indexes, counts, VACUUM ANALYZE) | ${pgRows.map((row) => `${row.loadSeconds} s`).join(' | ')} |`,
    `| database size | ${pgRows.map((row) => mb(row.databaseBytes)).join(' | ')} |`,
    `| \`npm run backup\` (pg_dump, custom format) | ` +
      `${pgRows.map((row) => `${row.backupSeconds} s, ${mb(row.backupBytes)}`).join(' | ')} |`,
    `| \`npm run restore\` into an empty database | ${pgRows.map((row) => `${row.restoreSeconds} s`).join(' | ')} |`,
    '',
    ...(() => {
      const times = databaseTimes(explainText);
      if (times.size === 0) return [];
      const sizes = pgRows.map((row) => row.entries).filter((entries) => times.has(entries));
      return [
        "### PostgreSQL: the database's time per request (ms)",
        '',
        'The statements one request of the busiest clinician ran (session check, the query, the audit row), each ' +
          "timed by `auto_explain` inside the server's connection, added up: what the size of the data costs a " +
          'request, apart from waiting for the CPU.',
        '',
        `| operation | ${sizes.map((entries) => sizeName(entries)).join(' | ')} |`,
        `|---|${sizes.map(() => '---:').join('|')}|`,
        ...operations.map(
          (name) => `| ${name} | ${sizes.map((entries) => times.get(entries)[name]?.ms ?? '-').join(' | ')} |`,
        ),
        '',
      ];
    })(),
    `### What each request's queries read at ${sizeName(last?.entries ?? 0)} (EXPLAIN ANALYZE, BUFFERS)`,
    '',
    "Every statement the busiest clinician's request ran, planned and timed by `auto_explain` (log_analyze, " +
      "log_buffers) inside the server's own connections; the scans each used:",
    '',
    '| operation | scans |',
    '|---|---|',
    ...Object.entries(last?.scans ?? {}).map(([name, scans]) => `| ${name} | ${scans.join('; ')} |`),
  ];
  if (result.embedded.length > 0) {
    const rows = result.embedded.filter((row) => row.operations);
    lines.push(
      '',
      '### The embedded store (DATA_DIR): p99 (p50) ms per request',
      '',
      `| operation | ${rows.map((row) => `${sizeName(row.entries)} entries`).join(' | ')} |`,
      `|---|${rows.map(() => '---:').join('|')}|`,
      ...operations.map((name) => `| ${name} | ${rows.map((row) => cell(row.operations[name])).join(' | ')} |`),
      `| load average while measuring | ${rows.map(loadOf).join(' | ')} |`,
      `| server start (reads every file) | ${rows.map((row) => `${row.startSeconds} s`).join(' | ')} |`,
      `| \`npm run migrate-data\` to PostgreSQL | ` +
        `${rows.map((row) => (row.migrateDataSeconds ? `${row.migrateDataSeconds} s` : '-')).join(' | ')} |`,
    );
    for (const failed of result.embedded.filter((row) => row.failedToStart)) {
      const outOfMemory = /heap out of memory/.test(failed.failedToStart);
      lines.push(
        '',
        `At ${sizeName(failed.entries)} entries the server did not start` +
          (outOfMemory
            ? ": it ran out of memory reading the store (JavaScript heap out of memory, at Node's default heap " +
              'limit of about 4 GB).'
            : ` (${failed.failedToStart.split('\n')[0]}).`),
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Replaces (or adds, before "## Page speed") the scale section of BENCHMARKS.md. */
export async function writeScaleSection(result, notes) {
  const file = path.join(root, 'BENCHMARKS.md');
  const markdown = await readFile(file, 'utf8');
  // What the figures say, written by hand after a run (bench/storage-scale-notes.md), follows the tables.
  notes ??= await readFile(path.join(root, 'bench/storage-scale-notes.md'), 'utf8')
    .then((text) => `\n${text}`)
    .catch(() => '');
  const explain = await readFile(path.join(root, 'bench/storage-scale-explain.txt'), 'utf8').catch(() => '');
  const section = `${scaleMarkdown(result, explain)}${notes}\n`;
  const start = markdown.indexOf('## Storage at scale');
  if (start === -1) {
    const before = markdown.indexOf('## Page speed');
    await writeFile(file, `${markdown.slice(0, before)}${section}${markdown.slice(before)}`);
    return;
  }
  const next = markdown.slice(start + 1).search(/^## (?!#)/m);
  const end = next === -1 ? markdown.length : start + 1 + next;
  await writeFile(file, `${markdown.slice(0, start)}${section}${markdown.slice(end)}`);
}
