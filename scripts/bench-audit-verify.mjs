// `node scripts/bench.mjs --only audit-verify [--lines N[,N…]]` (`npm run bench -- --only audit-verify`): how long
// `npm run audit-verify` takes on a long PostgreSQL trail, and how much memory. For each size (--lines or
// BENCH_AUDIT_LINES, default 10,000,000 lines): the built server's commands, a throwaway PostgreSQL cluster
// (api/test-support/postgres-cluster.ts, fsync on), the built `migrate`, then the trail COPYed into audit_events as
// the server writes it (an `audit.key` line, then every line numbered and HMAC-chained under the bench's AUDIT_KEY by
// api/audit/head.ts's chainAfter; indexes built after): 3,000 clinicians over ten years, signing in, saving and
// reading calculations, searching patients, exporting, and the daily retention line. Then the built `audit-verify`
// as a child process with DATABASE_URL and AUDIT_KEY: its wall time and peak memory (/usr/bin/time -v's maximum
// resident set, and VmRSS read from /proc while it runs); it must exit 0 saying "intact, N lines". Then one row in
// the middle rewritten (its detail): it must exit 1 naming that row. Writes bench/audit-verify-scale.json (sizes
// measured before and not now are kept) and BENCHMARKS.md's "## Audit trail: verify" section. About 15 minutes
// for 10 M lines on 2 cores; the database takes about 5 GB.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import * as prettier from 'prettier';
import { runnerImport } from 'vite';
import { buildServer } from './build-server.mjs';
import { findPostgresBinDir } from './test-requirements.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const JSON_FILE = path.join(root, 'bench/audit-verify-scale.json');
const SECTION = '## Audit trail: verify at 10 million lines (PostgreSQL)';

/**
 * The benches' AUDIT_KEY (32 bytes, base64): fixed, so a trail loaded by one run verifies in the next. A benchmark's
 * key, never a deployment's (make one with `openssl rand -base64 32`).
 */
export const BENCH_AUDIT_KEY = createHash('sha256').update('sgx bench audit key', 'utf8').digest('base64');

/** What writes the trail as the server does: chain.ts, head.ts and audit_events' columns, loaded from api/. */
export async function auditTrailModules() {
  const load = async (file) => (await runnerImport(path.join(root, file))).module;
  const chain = await load('api/audit/chain.ts');
  const head = await load('api/audit/head.ts');
  const { AUDIT_COLUMNS } = await load('api/storage/postgres/audit-log.ts');
  const key = chain.auditKeyring([Buffer.from(BENCH_AUDIT_KEY, 'base64')]).signing;
  return { chain, head, key, columns: AUDIT_COLUMNS };
}

/** A value in COPY's text format: \N for none; backslash, tab and line breaks escaped. */
const copyField = (value) => {
  if (value === undefined || value === null) return '\\N';
  const text = String(value);
  return /[\\\t\n\r]/.test(text)
    ? text.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r')
    : text;
};

/**
 * The rows of an empty audit_events for `lines` (AuditFields, oldest first), in COPY's text format and the order of
 * `trail.columns` (AUDIT_COLUMNS): as the server writes them under the bench's AUDIT_KEY (chainAfter, a batch at a
 * time, as postgresAuditLog does), so the key line first (at the first line's time), then every line numbered
 * (`seq`, from 1) and linked to the one before. A row's id is its number. COPY `audit_events (${trail.columns})`.
 */
export function* auditCopyRows(trail, lines, batchSize = 1_000) {
  let head = { head: trail.chain.GENESIS_HASH, seq: 0, spanKey: undefined, previous: 'none' };
  let batch = [];
  const flush = function* () {
    const written = trail.head.chainAfter(head, batch, trail.key, new Date(batch[0].time));
    for (const line of written.lines) {
      yield `${[
        line.seq,
        line.time,
        line.actor,
        line.action,
        line.recordType,
        line.recordId,
        line.outcome,
        line.requestId,
        line.address,
        line.detail ? JSON.stringify(line.detail) : null,
        line.seq,
        line.prev,
        line.hash,
      ]
        .map(copyField)
        .join('\t')}\n`;
    }
    head = { head: written.head, seq: written.seq, spanKey: trail.key.id, previous: trail.key.id };
    batch = [];
  };
  for (const line of lines) {
    batch.push(line);
    if (batch.length >= batchSize) yield* flush();
  }
  if (batch.length > 0) yield* flush();
}

// ---------------------------------------------------------------- the trail's lines

const ACTORS = 3_000;
const YEARS = 10;
const START = Date.UTC(2016, 0, 1);
const SPAN_MS = YEARS * 365.25 * 86_400_000;
const DAY_MS = 86_400_000;
const userId = (n) => `00000000-0000-4000-8000-${String(n + 1).padStart(12, '0')}`;

/** A deterministic generator (mulberry32), so every run loads the same trail. */
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
/** Clinician n's share of the lines ∝ 1/(n + 20): a few heavy users, a long tail (as the storage-scale bench). */
const cumulative = [];
for (let n = 0, sum = 0; n < ACTORS; n += 1) cumulative.push((sum += 1 / (n + 20)));
function pickActor(rand) {
  const target = rand() * cumulative.at(-1);
  let low = 0;
  let high = ACTORS - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (cumulative[middle] < target) low = middle + 1;
    else high = middle;
  }
  return low;
}
const hex8 = (rand) =>
  Math.floor(rand() * 4294967296)
    .toString(16)
    .padStart(8, '0');
function uuid(rand) {
  const [a, b, c, d] = [hex8(rand), hex8(rand), hex8(rand), hex8(rand)];
  return `${a}-${b.slice(0, 4)}-4${b.slice(5)}-${'89ab'[c.charCodeAt(0) & 3]}${c.slice(1, 4)}-${c.slice(4)}${d}`;
}
/** The client address a clinician's requests come from (behind the hospital's proxy; some over IPv6). */
const addressOf = (n) =>
  n % 10 === 9
    ? `2001:db8:${(n >> 4).toString(16)}::${(n & 15) + 1}`
    : `10.${20 + (n % 200)}.${n >> 8}.${(n % 250) + 2}`;

/** What clinicians do, with each action's share of the lines and its record. */
const ACTIONS = [
  [0.28, 'calculation.create', 'calculation', true],
  [0.14, 'calculation.list', 'calculation', false],
  [0.08, 'calculation.read', 'calculation', true],
  [0.1, 'patient.search', 'patient', false],
  [0.07, 'patient.read', 'patient', true],
  [0.03, 'patient.create', 'patient', true],
  [0.02, 'patient.update', 'patient', true],
  [0.04, 'export.create', 'export', true],
  [0.02, 'calculation.export_fhir', 'calculation', true],
  [0.12, 'user.signin', 'user', 'self'],
  [0.05, 'user.signout', 'user', 'self'],
  [0.03, 'session.idle_timeout', 'session', true],
  [0.01, 'account.update', 'user', 'self'],
  [0.01, 'audit.read', 'audit', false],
];

/**
 * The trail's lines (AuditFields as lineFields makes them: a request's id and address on each), oldest first, for
 * `count` lines with the key line the writer adds first: `count - 1` events over ten years, a day's retention line
 * (the system's, with its counts in `detail`) among them.
 */
export function* trailLines(count) {
  const rand = random(17);
  let day = -1;
  for (let n = 0; n < count - 1; n += 1) {
    const at = START + (n / (count - 1)) * SPAN_MS;
    const time = new Date(at).toISOString();
    if (Math.floor(at / DAY_MS) !== day && n > 0) {
      day = Math.floor(at / DAY_MS);
      yield {
        time,
        actor: 'system',
        action: 'history.retention',
        recordType: 'calculation',
        outcome: 'success',
        detail: {
          days: 3650,
          before: new Date(at - 3650 * DAY_MS).toISOString(),
          calculations: Math.floor(rand() * 40),
          exports: Math.floor(rand() * 3),
        },
      };
      continue;
    }
    day = Math.floor(at / DAY_MS);
    const actor = pickActor(rand);
    let roll = rand();
    let index = 0;
    while (index < ACTIONS.length - 1 && roll >= ACTIONS[index][0]) roll -= ACTIONS[index++][0];
    const [, action, recordType, record] = ACTIONS[index];
    const line = { time, actor: userId(actor), action, recordType, outcome: 'success' };
    if (record === 'self') line.recordId = line.actor;
    else if (record) line.recordId = uuid(rand);
    if (action === 'user.signin' && rand() < 0.04) {
      // a wrong password, or an e-mail nobody has
      line.outcome = 'failure';
      if (rand() < 0.5) line.actor = 'anonymous';
      delete line.recordType;
      delete line.recordId;
    }
    line.requestId = uuid(rand);
    line.address = addressOf(actor);
    yield line;
  }
}

// ---------------------------------------------------------------- PostgreSQL and the commands

/** `psql -c SQL` on `url`, with `input`'s lines on its standard input (a COPY … FROM STDIN), or none. */
export function psql(bin, url, sql, input) {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(bin, 'psql'), [url, '-v', 'ON_ERROR_STOP=1', '-q', '-c', sql], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`psql: ${output}`))));
    if (!input) {
      child.stdin.end();
      return;
    }
    // Lines written as psql takes them (backpressure), in blocks of about 1 MB.
    (async () => {
      let block = '';
      for (const line of input) {
        block += line;
        if (block.length < 1 << 20) continue;
        if (!child.stdin.write(block)) await new Promise((resume) => child.stdin.once('drain', resume));
        block = '';
      }
      child.stdin.end(block);
    })().catch(reject);
  });
}

const kb = (status, name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
const round1 = (value) => Math.round(value * 10) / 10;
const loadAverage = () => os.loadavg().map(round1);

/**
 * Runs a built command (`node file`, only the environment given, as an operator's shell) and measures it: wall time,
 * peak resident memory (/usr/bin/time -v's maximum, or the highest VmHWM read), and VmRSS every 250 ms.
 */
function runMeasured(file, env, cwd) {
  const timeCommand = '/usr/bin/time';
  const wrapped = existsSync(timeCommand);
  const [command, args] = wrapped ? [timeCommand, ['-v', process.execPath, file]] : [process.execPath, [file]];
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd, env: { PATH: process.env.PATH ?? '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    let pid = wrapped ? undefined : child.pid;
    let highWater = 0;
    const samples = [];
    const sample = () => {
      try {
        // under time(1), the command is its one child
        pid ??= Number(readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim()) || undefined;
        if (pid === undefined) return;
        const status = readFileSync(`/proc/${pid}/status`, 'utf8');
        highWater = Math.max(highWater, kb(status, 'VmHWM'));
        samples.push([round1((performance.now() - started) / 1000), round1(kb(status, 'VmRSS') / 1024)]);
      } catch {
        // it exited between two reads
      }
    };
    const timer = setInterval(sample, 250);
    child.once('error', reject);
    child.once('close', (code) => {
      clearInterval(timer);
      const seconds = (performance.now() - started) / 1000;
      const report = wrapped ? stderr.lastIndexOf('\tCommand being timed:') : -1;
      const maxRss =
        report === -1 ? undefined : /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr.slice(report));
      const own =
        report === -1 ? stderr : stderr.slice(0, report).replace(/Command exited with non-zero status \d+\n$/, '');
      const cpu = (name) => Number(new RegExp(`${name} time \\(seconds\\): ([\\d.]+)`).exec(stderr)?.[1] ?? NaN);
      resolve({
        code,
        stdout: stdout.trim(),
        stderr: own.trim(),
        seconds: round1(seconds),
        cpuSeconds: report === -1 ? null : round1(cpu('User') + cpu('System')),
        peakRssMb: round1((maxRss ? Number(maxRss[1]) : highWater) / 1024),
        peakFrom: maxRss ? '/usr/bin/time -v' : '/proc VmHWM',
        samples,
      });
    });
  });
}

/** Waits (up to 3 minutes) for the 1-minute load average to fall to 0.5 a CPU; answers the seconds waited. */
async function settle() {
  const started = performance.now();
  while (os.loadavg()[0] > os.cpus().length / 4 && performance.now() - started < 180_000) {
    await new Promise((resume) => setTimeout(resume, 5_000));
  }
  return Math.round((performance.now() - started) / 1000);
}

/** The share of audit_events' table files in the operating system's file cache (fincore), or null. */
async function cachedShare(client) {
  const dir = (await client.query('SHOW data_directory')).rows[0].data_directory;
  const base = path.join(dir, (await client.query("SELECT pg_relation_filepath('audit_events') AS f")).rows[0].f);
  const name = path.basename(base);
  const files = readdirSync(path.dirname(base))
    .filter((each) => each === name || new RegExp(`^${name}\\.\\d+$`).test(each))
    .map((each) => path.join(path.dirname(base), each));
  const out = spawnSync('fincore', ['--bytes', '--noheadings', '--raw', '--output', 'RES,SIZE', ...files], {
    encoding: 'utf8',
  });
  if (out.status !== 0 || !out.stdout.trim()) return null;
  const [resident, size] = out.stdout
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number))
    .reduce(([r, s], [res, total]) => [r + res, s + total], [0, 0]);
  return size > 0 ? resident / size : null;
}

/** VmRSS while the command ran, at each tenth of its time (the sample nearest), for the JSON. */
function rssByTenths(samples) {
  if (samples.length === 0) return [];
  const end = samples.at(-1)[0];
  return Array.from({ length: 10 }, (_, tenth) => {
    const at = (end * (tenth + 1)) / 10;
    return samples.reduce((best, each) => (Math.abs(each[0] - at) < Math.abs(best[0] - at) ? each : best))[1];
  });
}

/** Loads `lines` lines into a new database of the cluster and measures audit-verify on it, intact then rewritten. */
async function measureSize({ bin, cluster, clusterModule, trail, commands, scratch, lines, log }) {
  const database = await clusterModule.createTestDatabase(cluster.baseUrl);
  const env = { DATABASE_URL: database.url, AUDIT_KEY: BENCH_AUDIT_KEY };
  const client = new pg.Client({ connectionString: database.url });
  try {
    const timings = {};
    const timed = async (name, work) => {
      const started = performance.now();
      await work();
      timings[name] = Math.round((performance.now() - started) / 1000);
      log(`    ${name}: ${timings[name]} s`);
    };
    const loadStarted = performance.now();
    await timed('migrate', async () => {
      const migrated = await runMeasured(commands.migrate, env, scratch);
      if (migrated.code !== 0) throw new Error(`migrate failed: ${migrated.stdout}\n${migrated.stderr}`);
    });
    await client.connect();
    // The indexes (and the primary key) are built once the rows are in, as a restore does.
    const indexes = (
      await client.query(
        `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'audit_events' AND indexname NOT LIKE '%_pkey'`,
      )
    ).rows;
    for (const { indexname } of indexes) await client.query(`DROP INDEX ${indexname}`);
    await client.query('ALTER TABLE audit_events DROP CONSTRAINT audit_events_pkey');
    await timed('copy', () =>
      psql(
        bin,
        database.url,
        `COPY audit_events (${trail.columns}) FROM STDIN`,
        auditCopyRows(trail, trailLines(lines)),
      ),
    );
    await client.query(`SELECT setval(pg_get_serial_sequence('audit_events', 'id'), $1)`, [lines]);
    await timed('indexes', async () => {
      await client.query("SET maintenance_work_mem = '1GB'");
      await client.query('ALTER TABLE audit_events ADD PRIMARY KEY (id)');
      for (const { indexdef } of indexes) await client.query(indexdef);
    });
    await timed('vacuum analyze', async () => {
      await client.query('VACUUM ANALYZE audit_events');
      await client.query('CHECKPOINT');
    });
    const loadSeconds = Math.round((performance.now() - loadStarted) / 1000);
    const sizes = (
      await client.query(
        `SELECT pg_total_relation_size('audit_events') AS total, pg_relation_size('audit_events') AS heap,
           (SELECT count(*) FROM audit_events) AS rows`,
      )
    ).rows[0];
    if (Number(sizes.rows) !== lines) throw new Error(`audit_events holds ${sizes.rows} rows, not ${lines}`);

    // The load's own work (COPY, the index builds) fades from the load average before the measurement.
    const settled = await settle();
    const cached = await cachedShare(client);
    const inCache = cached === null ? '' : ` (the table ${Math.round(cached * 100)}% in the file cache)`;
    log(`    audit-verify on ${lines.toLocaleString('en-US')} lines${inCache}…`);
    const loadBefore = loadAverage();
    const intact = await runMeasured(commands.auditVerify, env, scratch);
    const loadAfter = loadAverage();
    const said = `Audit trail intact, ${lines} lines (audit_events`;
    if (intact.code !== 0 || !intact.stdout.startsWith(said) || !intact.stdout.includes(`; ${lines} keyed (key `)) {
      throw new Error(
        `audit-verify did not find the trail intact (exit ${intact.code}):\n${intact.stdout}\n${intact.stderr}`,
      );
    }
    log(`    intact: ${intact.seconds} s, peak ${intact.peakRssMb} MB`);

    // One line in the middle rewritten, as someone holding the database could: its detail.
    const rewritten = Math.floor(lines / 2);
    await client.query(`UPDATE audit_events SET detail = '{"calculations":0}' WHERE id = $1`, [rewritten]);
    const broken = await runMeasured(commands.auditVerify, env, scratch);
    const named = `BROKEN at audit_events row id ${rewritten} (line ${rewritten} of the trail)`;
    if (broken.code !== 1 || !broken.stderr.includes(named)) {
      throw new Error(
        `audit-verify did not name row ${rewritten} (exit ${broken.code}):\n${broken.stdout}\n${broken.stderr}`,
      );
    }
    log(`    row ${rewritten} rewritten: found in ${broken.seconds} s`);
    const afterFirstSecond = intact.samples.filter(([at]) => at >= 1).map(([, mb]) => mb);
    return {
      lines,
      actors: ACTORS,
      years: YEARS,
      loadSeconds,
      timings,
      tableBytes: Number(sizes.heap),
      totalBytes: Number(sizes.total),
      verify: {
        seconds: intact.seconds,
        linesPerSecond: Math.round(lines / intact.seconds),
        cpuSeconds: intact.cpuSeconds,
        peakRssMb: intact.peakRssMb,
        peakFrom: intact.peakFrom,
        rssMbAfterFirstSecond: afterFirstSecond.length
          ? [Math.min(...afterFirstSecond), Math.max(...afterFirstSecond)]
          : null,
        rssMbByTenth: rssByTenths(intact.samples),
        loadAverage: { before: loadBefore, after: loadAfter },
        waitedForLoadSeconds: settled,
        tableInFileCache: cached === null ? null : Math.round(cached * 1000) / 1000,
        exitCode: intact.code,
        output: intact.stdout,
      },
      rewritten: {
        id: rewritten,
        seconds: broken.seconds,
        linesPerSecond: Math.round(rewritten / broken.seconds),
        peakRssMb: broken.peakRssMb,
        exitCode: broken.code,
        output: broken.stderr,
      },
    };
  } finally {
    await client.end().catch(() => {});
    await database.drop();
  }
}

/** The sizes asked for: --lines N[,N…], or BENCH_AUDIT_LINES, or 10,000,000. */
function sizesOf(argv) {
  const at = argv.indexOf('--lines');
  const text = at === -1 ? (process.env.BENCH_AUDIT_LINES ?? '10000000') : (argv[at + 1] ?? '');
  const sizes = text.split(',').filter(Boolean).map(Number);
  if (sizes.length === 0 || sizes.some((n) => !Number.isSafeInteger(n) || n < 2)) {
    throw new Error(`--lines takes sizes of at least 2 lines, separated by commas (got "${text}")`);
  }
  return sizes;
}

/** `--only audit-verify`: builds the server's commands into node_modules/.cache, measures, writes the results. */
export async function runAuditVerifyOnly(argv = process.argv, log = console.log) {
  const sizes = sizesOf(argv);
  const cache = path.join(root, 'node_modules', '.cache');
  await mkdir(cache, { recursive: true });
  const buildDir = await mkdtemp(path.join(cache, 'sgx-bench-audit-'));
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'sgx-bench-audit-'));
  let cluster;
  try {
    log('Building the server and its commands…');
    const serverDir = path.dirname(await buildServer(path.join(buildDir, 'server')));
    const commands = {
      migrate: path.join(serverDir, 'migrate.js'),
      auditVerify: path.join(serverDir, 'audit-verify.js'),
    };
    const clusterModule = (await runnerImport(path.join(root, 'api/test-support/postgres-cluster.ts'))).module;
    const trail = await auditTrailModules();
    const bin = findPostgresBinDir();
    cluster = await clusterModule.startPostgresCluster({
      fsync: true,
      settings: { shared_buffers: '1GB', max_wal_size: '8GB', checkpoint_timeout: '30min' },
    });
    const version = new pg.Client({ connectionString: `${cluster.baseUrl}postgres` });
    await version.connect();
    const postgres = (await version.query('SHOW server_version')).rows[0].server_version.split(' ')[0];
    await version.end();
    const previous = JSON.parse(await readFile(JSON_FILE, 'utf8').catch(() => '{"runs":[]}'));
    for (const lines of sizes) {
      log(`  ${lines.toLocaleString('en-US')} lines: loading…`);
      const run = {
        date: new Date().toISOString(),
        ...(await measureSize({ bin, cluster, clusterModule, trail, commands, scratch, lines, log })),
      };
      previous.runs = [...(previous.runs ?? []).filter((row) => row.lines !== lines), run].sort(
        (a, b) => a.lines - b.lines,
      );
      const result = {
        date: run.date,
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model ?? 'unknown',
        memoryGb: Math.round(os.totalmem() / 2 ** 30),
        node: process.version,
        postgres,
        pageSize: pageSize(),
        runs: previous.runs,
      };
      await writeJson(result);
      await writeSection(result);
    }
  } finally {
    await cluster?.stop();
    await rm(buildDir, { recursive: true, force: true });
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The rows verifyPostgresTrail reads at a time (api/audit/trail.ts's PAGE). */
function pageSize() {
  const source = readFileSync(path.join(root, 'api/audit/trail.ts'), 'utf8');
  const match = /^const PAGE = ([\d_]+);/m.exec(source);
  return match ? Number(match[1].replace(/_/g, '')) : null;
}

async function writeJson(result) {
  await mkdir(path.dirname(JSON_FILE), { recursive: true });
  const options = { ...(await prettier.resolveConfig(JSON_FILE)), filepath: JSON_FILE };
  await writeFile(JSON_FILE, await prettier.format(JSON.stringify(result, null, 2), options));
}

// ---------------------------------------------------------------- BENCHMARKS.md

const count = (n) => n.toLocaleString('en-US');
const sizeName = (n) => (n >= 1_000_000 ? `${n / 1_000_000} M` : `${n / 1_000} k`);
const mbOf = (bytes) => `${count(Math.round(bytes / 1e6))} MB`;

/** The section: the command, the figures of every size measured, what the memory does as the trail grows. */
export function auditVerifyMarkdown(result) {
  const runs = result.runs;
  const row = (name, cell) => `| ${name} | ${runs.map(cell).join(' | ')} |`;
  const first = runs[0];
  const last = runs.at(-1);
  const { verify, rewritten } = last;
  const growth = verify.peakRssMb / first.verify.peakRssMb;
  const [low, high] = verify.rssMbAfterFirstSecond ?? [verify.peakRssMb, verify.peakRssMb];
  const flat = runs.length > 1 ? growth <= 1.25 : high <= low * 1.25;
  const comparison =
    runs.length > 1
      ? `${first.verify.peakRssMb} MB at ${count(first.lines)} lines, ${verify.peakRssMb} MB at ` +
        `${count(last.lines)} (${growth.toFixed(2)}× for ${Math.round(last.lines / first.lines)}× the lines)`
      : `${verify.peakRssMb} MB at ${count(last.lines)} lines`;
  const tenths = verify.rssMbByTenth.length ? ` (VmRSS at each tenth of it: ${verify.rssMbByTenth.join(', ')} MB)` : '';
  const memory = flat
    ? `**Memory stays flat as the trail grows**: peak ${comparison}, and from its first second to its exit the ` +
      `${count(last.lines)}-line run held between ${low} and ${high} MB${tenths}. \`verifyPostgresTrail\` ` +
      `(api/audit/trail.ts) reads the rows a page at a time, ${count(result.pageSize)} rows by id ` +
      `(\`WHERE id > $1 ORDER BY id LIMIT ${result.pageSize}\`), and the verifier (api/audit/chain.ts) keeps one ` +
      'line, the hash the next must link to and the counts: the trail is never held in memory.'
    : `**Memory grows with the trail**: peak ${comparison}; from its first second to its exit the ` +
      `${count(last.lines)}-line run went from ${low} to ${high} MB${tenths}. \`verifyPostgresTrail\` ` +
      `(api/audit/trail.ts) reads ${count(result.pageSize)} rows at a time by id, yet something keeps what was ` +
      'read: the requirement (streaming, not loading the trail into memory) is not met.';
  const minutes = (seconds) => (seconds >= 120 ? ` (${round1(seconds / 60)} minutes)` : '');
  const busy = verify.cpuSeconds / verify.seconds;
  const cpu =
    verify.cpuSeconds === null
      ? ''
      : busy >= 0.8
        ? ` The command used ${verify.cpuSeconds} s of CPU in those ${verify.seconds} s (its JavaScript thread, ` +
          "parsing each row, writing it out as the line it was hashed as and taking its HMAC-SHA-256, and V8's " +
          "garbage collector beside it): the check is bound by the command's CPU, not by PostgreSQL."
        : ` The command used ${verify.cpuSeconds} s of CPU in those ${verify.seconds} s: the rest it waited for ` +
          'PostgreSQL.';
  const share = Math.round((rewritten.seconds / verify.seconds) * 100);
  // each paragraph one line, as the other generated sections (the tables as they are)
  const paragraphs = (text) =>
    text
      .split('\n\n')
      .map((block) => (block.startsWith('|') ? block : block.replace(/\n/g, ' ')))
      .join('\n\n');
  return paragraphs(`${SECTION}

Measured by \`npm run bench -- --only audit-verify --lines ${runs.map((r) => r.lines).join(',')}\` (without
\`--lines\`, 10,000,000) on ${result.date.slice(0, 10)}: ${result.cpus} CPUs, ${result.memoryGb} GB of memory,
Node ${result.node}, PostgreSQL ${result.postgres} with fsync on and shared_buffers 1 GB; raw figures in
[bench/audit-verify-scale.json](bench/audit-verify-scale.json). The trail is loaded with COPY into \`audit_events\`
as the server writes it (api/audit/head.ts \`chainAfter\`): an \`audit.key\` line, then every line numbered
(\`seq\`) and chained by HMAC-SHA-256 under the bench's AUDIT_KEY: ${count(ACTORS)} clinicians over ${YEARS} years
signing in and out, saving and reading calculations, searching, reading and adding patients, exporting, each line
with its request's id and address, and the system's daily retention line with its counts. Then the built
\`audit-verify\` (what \`npm run audit-verify\` runs) as a child process with DATABASE_URL and AUDIT_KEY, once
the load average has settled: timed from start to exit, its peak memory \`/usr/bin/time -v\`'s maximum resident
set, its VmRSS read from /proc every 250 ms. It must exit 0 with "Audit trail intact, N lines"; then the row half
way has its \`detail\` rewritten (an UPDATE, as whoever holds the database could) and it must exit 1 naming that
row. The table had just been loaded (the share of it in the operating system's file cache is in the table).

| | ${runs.map((r) => `${sizeName(r.lines)} lines`).join(' | ')} |
|---|${runs.map(() => '---:').join('|')}|
${[
  row('load: migrate, COPY, indexes, VACUUM ANALYZE', (r) => `${r.loadSeconds} s`),
  row('`audit_events` on disk (with its indexes)', (r) => `${mbOf(r.tableBytes)} (${mbOf(r.totalBytes)})`),
  row('the table in the file cache when the check began', (r) =>
    r.verify.tableInFileCache === null ? '-' : `${Math.round(r.verify.tableInFileCache * 100)}%`,
  ),
  row('`npm run audit-verify`, intact: wall time', (r) => `${r.verify.seconds} s`),
  row('its CPU time (user and system)', (r) => (r.verify.cpuSeconds === null ? '-' : `${r.verify.cpuSeconds} s`)),
  row('lines checked per second', (r) => count(r.verify.linesPerSecond)),
  row('**peak memory** (maximum resident set)', (r) => `**${r.verify.peakRssMb} MB**`),
  row('memory from its first second to its exit (VmRSS)', (r) =>
    r.verify.rssMbAfterFirstSecond ? `${r.verify.rssMbAfterFirstSecond.join('–')} MB` : '-',
  ),
  row(
    '1-minute load average, before → after',
    (r) => `${r.verify.loadAverage.before[0]} → ${r.verify.loadAverage.after[0]}`,
  ),
  row('the row half way rewritten: exit 1 naming it, after', (r) => `${r.rewritten.seconds} s`),
  row('peak memory of that run', (r) => `${r.rewritten.peakRssMb} MB`),
].join('\n')}

**${count(last.lines)} lines verify in ${verify.seconds} s${minutes(verify.seconds)}**,
${count(verify.linesPerSecond)} lines a second.${cpu} The row rewritten half way (row id ${count(rewritten.id)}) was
found in ${rewritten.seconds} s, ${share}% of the whole check's time: the check stops at the first broken line and
names it ("${rewritten.output.replace(/^audit-verify: /, '').split(': ')[0]}: its hash is not the HMAC-SHA-256 under
the trail's key …").

${memory}`).concat('\n\n');
}

/** Writes the section into BENCHMARKS.md: in place of the one there, or before "## Page speed". */
export async function writeSection(result) {
  const file = path.join(root, 'BENCHMARKS.md');
  const markdown = await readFile(file, 'utf8');
  const section = auditVerifyMarkdown(result);
  const start = markdown.indexOf(SECTION);
  if (start === -1) {
    // after "Storage at scale", before "Page speed" (which `--only page` rewrites to the end of the file)
    const before = markdown.indexOf('## Page speed');
    const at = before === -1 ? markdown.length : before;
    await writeFile(file, `${markdown.slice(0, at)}${section}${markdown.slice(at)}`);
    return;
  }
  const next = markdown.slice(start + 1).search(/^## (?!#)/m);
  const end = next === -1 ? markdown.length : start + 1 + next;
  await writeFile(file, `${markdown.slice(0, start)}${section}${markdown.slice(end)}`);
}
