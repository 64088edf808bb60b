import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { gunzipSync, gzipSync } from 'node:zlib';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test-support/postgres-cluster.ts';
import {
  builtServer,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
  runBuiltCommand,
} from '../test-support/server-process.ts';
import { parseToolVersion, pgDumpTooOld } from './backup/postgres-backup.ts';
import { verifyFileTrail } from '../audit/trail.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { openLowdbStore } from './lowdb-store.ts';
import type { StoreAdapter } from './store.ts';

// npm run backup / npm run restore, as built (dist/server/backup.js and restore.js beside server.js):
// a running server filled over HTTP is backed up, changed, and the backup restored into an empty
// DATA_DIR (or database); a server started on it signs the same clinicians in (password and old
// token) and answers exactly what the first one did at backup time. Also: the refusals, damaged
// files, and backups taken while four clinicians write as fast as they can.
const baseUrl = inject('postgresBaseUrl');

let commands: { server: string; backup: string; restore: string };
let work: string;
const servers: ServerProcess[] = [];
const cleanups: (() => Promise<unknown>)[] = [];
beforeAll(async () => {
  const server = await builtServer();
  commands = {
    server,
    backup: path.join(path.dirname(server), 'backup.js'),
    restore: path.join(path.dirname(server), 'restore.js'),
  };
  work = realpathSync(await mkdtemp(path.join(tmpdir(), 'sgx-backup-')));
}, 60_000);
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => stopServerProcess(server, 'SIGKILL')));
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

async function start(dataDir: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const server = await startServerProcess(commands.server, dataDir, { SHUTDOWN_DRAIN_MS: '0', ...env });
  servers.push(server);
  return server;
}
async function stop(server: ServerProcess): Promise<void> {
  servers.splice(servers.indexOf(server), 1);
  await stopServerProcess(server);
}
async function freshDatabase(): Promise<TestDatabase> {
  const database = await createTestDatabase(baseUrl);
  cleanups.push(() => database.drop());
  return database;
}
async function query<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}
const tablesOf = async (url: string) =>
  (
    await query<{ name: string }>(url, "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")
  ).map((row) => row.name);

const run = runBuiltCommand;
const backup = (out: string, env: Record<string, string>) => run(commands.backup, ['--out', out], env);
const restore = (from: string, env: Record<string, string>, ...flags: string[]) =>
  run(commands.restore, ['--from', from, ...flags], env);

// ---------------------------------------------------------------------------------------------------
// Over HTTP

interface Answer {
  status: number;
  body: any;
  bytes: Buffer;
}
async function call(
  url: string,
  method: string,
  urlPath: string,
  options: { json?: unknown; pdf?: Buffer; token?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  let body: string | Uint8Array<ArrayBuffer> | undefined;
  if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  if (options.pdf) {
    headers['Content-Type'] = 'application/pdf';
    body = new Uint8Array(options.pdf);
  }
  const response = await fetch(url + urlPath, { method, headers, body });
  const bytes = Buffer.from(await response.arrayBuffer());
  const json = (response.headers.get('content-type') ?? '').includes('application/json') && bytes.length > 0;
  return { status: response.status, body: json ? JSON.parse(bytes.toString('utf8')) : undefined, bytes };
}
async function ok(answer: Promise<Answer>, status = 200): Promise<any> {
  const { status: got, body } = await answer;
  expect(got, JSON.stringify(body)).toBe(status);
  return body;
}

const PASSWORD = 'correct horse battery';
interface Clinician {
  id: string;
  email: string;
  token: string;
}
let emails = 0;
async function signUp(url: string, name: string): Promise<Clinician> {
  emails += 1;
  const email = `clinician${emails}-${randomBytes(3).toString('hex')}@hospital.example`;
  const body = await ok(
    call(url, 'POST', '/api/auth/signup', { json: { email, password: PASSWORD, name, agreeTerms: true } }),
    201,
  );
  return { id: body.user.id, email, token: body.token };
}
const roi = (numberOfCases: number) => ({
  toolType: 'roi_calculator',
  inputs: { numberOfCases, orCostPerMinute: 45, timeNeostigmine: 15, timeProduct: 3, baselinePPCRate: 10 },
});
/** A small PDF the server accepts (%PDF- first, %%EOF at the end), different each time. */
const pdf = (label: string) =>
  Buffer.concat([
    Buffer.from(`%PDF-1.4\n% ${label}\n`),
    randomBytes(300 + Math.floor(Math.random() * 1500)),
    Buffer.from('\n%%EOF\n'),
  ]);

/** Two clinicians with patients, history (linked and not), exports (one deleted again) and an edit. */
async function fill(url: string) {
  const a = await signUp(url, 'د. أمينة حداد');
  const b = await signUp(url, 'Bilal Okafor');
  const post = (who: Clinician, urlPath: string, json: unknown, status = 201) =>
    ok(call(url, 'POST', urlPath, { json, token: who.token }), status);
  const p1 = await post(a, '/api/patients', { displayName: 'Layla Haddad', mrn: 'MRN-1', weightKg: 70 });
  const p2 = await post(a, '/api/patients', { displayName: 'Omar', yearOfBirth: 1960 });
  const p3 = await post(b, '/api/patients', { displayName: 'Chen Wei', notes: 'Allergic to latex' });
  const c1 = await post(a, '/api/tools/run', { ...roi(10), patientId: p1.id }, 200);
  await post(a, '/api/tools/run', roi(20), 200);
  await post(a, '/api/tools/run', { ...roi(30), patientId: p1.id }, 200);
  await post(b, '/api/tools/run', { ...roi(40), patientId: p3.id }, 200);
  const upload = (who: Clinician, query: string, bytes: Buffer) =>
    ok(call(url, 'POST', `/api/exports?${query}`, { pdf: bytes, token: who.token }), 201);
  await upload(a, `patientId=${p1.id}&calculationId=${c1.historyId}&fileName=layla.pdf`, pdf('a1'));
  const gone = await upload(a, 'fileName=draft.pdf', pdf('a2'));
  await ok(call(url, 'DELETE', `/api/exports/${gone.id}`, { token: a.token }), 204);
  await upload(b, `patientId=${p3.id}&fileName=chen.pdf`, pdf('b1'));
  await ok(call(url, 'PATCH', `/api/patients/${p2.id}`, { json: { notes: 'Pacemaker' }, token: a.token }));
  return { a, b, p2 };
}

/** Everything the server answers a clinician: account, patients, history, exports and their PDFs' bytes. */
async function view(url: string, token: string) {
  const get = (urlPath: string) => ok(call(url, 'GET', urlPath, { token }));
  const me = await get('/api/auth/me');
  const { patients } = await get('/api/patients');
  const history = await get('/api/history?pageSize=100');
  expect(history.total).toBeLessThanOrEqual(100);
  const { exports } = await get('/api/exports');
  const pdfs: Buffer[] = [];
  for (const entry of exports) {
    const answer = await call(url, 'GET', `/api/exports/${entry.id}`, { token });
    expect(answer.status).toBe(200);
    pdfs.push(answer.bytes);
  }
  return {
    me,
    patients,
    patientDetails: await Promise.all(patients.map((patient: { id: string }) => get(`/api/patients/${patient.id}`))),
    history,
    historyDetails: await Promise.all(history.items.map((entry: { id: string }) => get(`/api/history/${entry.id}`))),
    exports,
    pdfs,
  };
}

/** Changes after the backup: a new patient, a deleted export and patient, a new clinician. */
async function changeAfterBackup(url: string, a: Clinician, b: Clinician, p2: { id: string }) {
  await ok(call(url, 'POST', '/api/patients', { json: { displayName: 'Added later' }, token: a.token }), 201);
  await ok(call(url, 'DELETE', `/api/patients/${p2.id}`, { token: a.token }), 204);
  const [exported] = (await ok(call(url, 'GET', '/api/exports', { token: b.token }))).exports;
  await ok(call(url, 'DELETE', `/api/exports/${exported.id}`, { token: b.token }), 204);
  return signUp(url, 'Signed up later');
}

async function expectSameService(url: string, before: Record<'a' | 'b', unknown>, a: Clinician, b: Clinician) {
  // The old tokens (same JWT secret, same sessions) …
  expect(await view(url, a.token)).toEqual(before.a);
  expect(await view(url, b.token)).toEqual(before.b);
  // … and the password.
  const signIn = await call(url, 'POST', '/api/auth/signin', { json: { email: a.email, password: PASSWORD } });
  expect(signIn.status).toBe(200);
  expect(await view(url, signIn.body.token)).toEqual(before.a);
}

function tarListing(file: string): string[] {
  const listed = spawnSync('tar', ['-tzf', file], { encoding: 'utf8' });
  expect(listed.status, listed.stderr).toBe(0);
  return listed.stdout.split('\n').filter(Boolean);
}

// ---------------------------------------------------------------------------------------------------

describe('backup and restore of the embedded store (DATA_DIR)', () => {
  it('backs up a running server, and a restore into an empty DATA_DIR answers what it held then', async () => {
    const source = path.join(work, 'live');
    const server = await start(source);
    const { a, b, p2 } = await fill(server.url);
    const before = { a: await view(server.url, a.token), b: await view(server.url, b.token) };
    expect(before.a.patients).toHaveLength(2);
    expect(before.a.history.total).toBe(3);
    expect(before.a.exports).toHaveLength(1);

    const file = path.join(work, 'nightly.backup');
    const made = await backup(file, { DATA_DIR: source });
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    expect(made.stdout).toContain(
      '2 users, 2 sessions, 3 patients, 4 calculations, 2 exports with their PDFs, 1 audit log file, and the JWT ' +
        'secret (tokens signed before stay valid after a restore), and the data key generated for development ' +
        '(what it encrypts opens after a restore).',
    );
    expect(made.stdout).toContain(`Wrote ${file} (`);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(existsSync(`${file}.partial`)).toBe(false);
    const listing = tarListing(file);
    expect(listing[0]).toBe('sgx-backup.json');
    expect(listing.at(-1)).toBe('sgx-backup-sha256.json');
    expect(listing.filter((name) => name.startsWith('exports/'))).toHaveLength(2);
    expect(listing).toEqual(
      expect.arrayContaining(['store.json', 'accounts.json', 'jwt-secret', 'data-key', 'audit.log']),
    );
    expect(listing.some((name) => name.includes('server.lock'))).toBe(false);

    const c = await changeAfterBackup(server.url, a, b, p2);
    expect(await view(server.url, a.token)).not.toEqual(before.a);
    await stop(server);

    const target = path.join(work, 'restored', 'data'); // not there yet
    const restored = await restore(file, { DATA_DIR: target });
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain(
      `Restored into ${target}: 2 users, 2 sessions, 3 patients, 4 calculations, 2 exports with their PDFs.`,
    );
    expect(await readFile(path.join(target, 'jwt-secret'))).toEqual(await readFile(path.join(source, 'jwt-secret')));
    expect(await readFile(path.join(target, 'data-key'))).toEqual(await readFile(path.join(source, 'data-key')));
    const audit = await readFile(path.join(target, 'audit.log'), 'utf8');
    expect(audit.match(/"action":"user\.signup"/g)).toHaveLength(2);
    // the hash chain survives backup and restore: the restored trail verifies, up to the backup's moment
    const trail = await verifyFileTrail(target);
    expect(trail.broken).toBeUndefined();
    expect(trail.lines).toBe(audit.trim().split('\n').length);

    const again = await start(target);
    await expectSameService(again.url, before, a, b);
    const later = await call(again.url, 'POST', '/api/auth/signin', { json: { email: c.email, password: PASSWORD } });
    expect(later.status).toBe(401);
  }, 60_000);

  it('refuses a non-empty DATA_DIR without --force, a locked one with it; --force moves old files aside', async () => {
    const source = await smallDataDir('source');
    const file = path.join(work, 'small.backup');
    expect((await backup(file, { DATA_DIR: source })).code).toBe(0);

    const target = await smallDataDir('target');
    const old = await tree(target);
    const refused = await restore(file, { DATA_DIR: target });
    expect(refused).toEqual({
      code: 1,
      stdout: '',
      stderr:
        `restore: The data directory ${target} is not empty (it holds accounts.json, clinicians, exports, …). ` +
        `Restore into an empty one, or add --force to move what it holds to ${target}.before-restore-<time> first.\n`,
    });
    expect(await tree(target)).toEqual(old);

    const release = lockDataDir(target); // as a running server holds it
    try {
      expect(await restore(file, { DATA_DIR: target }, '--force')).toEqual({
        code: 1,
        stdout: '',
        stderr: `restore: A server is using the data directory ${target}: stop it before restoring into it.\n`,
      });
    } finally {
      release();
    }
    expect(await tree(target)).toEqual(old);

    const forced = await restore(file, { DATA_DIR: target }, '--force');
    expect(forced.stderr).toBe('');
    expect(forced.code).toBe(0);
    const aside = (await readdir(work)).filter((name) => name.startsWith('target.before-restore-'));
    expect(aside).toHaveLength(1);
    expect(forced.stdout).toContain(`Moved what ${target} held to ${path.join(work, aside[0]!)}.`);
    expect(await tree(path.join(work, aside[0]!))).toEqual(old);
    // What the backup held, and the audit trail's restore line (after its key line: the backup had no trail).
    const { 'audit.log': trail, 'audit-key': devKey, ...restored } = await tree(target);
    expect(restored).toEqual(await tree(source));
    expect([typeof trail, typeof devKey]).toEqual(['string', 'string']);
    const lines = (await readFile(path.join(target, 'audit.log'), 'utf8')).trim().split('\n');
    expect(lines.map((line) => JSON.parse(line).action)).toEqual(['audit.key', 'audit.restore']);
    expect(JSON.parse(lines[1]!).detail).toEqual({ backupTime: new Date(0).toISOString(), lines: 0 });
  }, 30_000);

  it('refuses a damaged, cut, tampered or foreign file before writing anything', async () => {
    const source = await smallDataDir('intact');
    const file = path.join(work, 'intact.backup');
    expect((await backup(file, { DATA_DIR: source })).code).toBe(0);
    const bytes = await readFile(file);

    const flipped = Buffer.from(bytes);
    flipped[Math.floor(flipped.length / 2)]! ^= 0xff;
    const tar = gunzipSync(bytes);
    const at = tar.indexOf('"users":[');
    expect(at).toBeGreaterThan(0);
    tar[at + 1] = 'U'.charCodeAt(0); // a valid gzip of a changed accounts.json: only its sha256 tells
    const cases: [string, Buffer, RegExp][] = [
      ['flipped', flipped, /cannot be restored: it (is damaged|has a damaged|ends) .*\. Nothing was changed\.$/],
      ['cut', bytes.subarray(0, Math.floor(bytes.length * 0.6)), /cannot be restored: it (is damaged or cut|ends)/],
      ['tampered', gzipSync(tar), /cannot be restored: accounts\.json is damaged \(its sha256 or size differs/],
      ['foreign', Buffer.from('SELECT 1;\n'), /is not a backup made by npm run backup: it is neither a DATA_DIR/],
      ['empty', Buffer.alloc(0), /is not a backup made by npm run backup: it is empty\. Nothing was changed\.$/],
    ];
    for (const [name, content, message] of cases) {
      const bad = path.join(work, `${name}.backup`);
      await writeFile(bad, content);
      const target = path.join(work, `${name}-target`);
      const answer = await restore(bad, { DATA_DIR: target });
      expect(answer.code, name).toBe(1);
      expect(answer.stderr.trim(), name).toMatch(message);
      expect(answer.stderr.trim().split('\n'), name).toHaveLength(1);
      expect(existsSync(target), name).toBe(false);
    }

    // The other kind: a DATA_DIR backup with DATABASE_URL set goes nowhere near the database.
    const database = await freshDatabase();
    const wrong = await restore(file, { DATABASE_URL: database.url, DATA_DIR: path.join(work, 'unused') });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toBe(
      `restore: ${file} is a backup of an embedded DATA_DIR, but DATABASE_URL is set, so it would go to ` +
        'PostgreSQL. Unset DATABASE_URL to restore it into DATA_DIR (npm run migrate-data then copies a DATA_DIR ' +
        'into PostgreSQL). Nothing was changed.\n',
    );
    expect(await tablesOf(database.url)).toEqual([]);
  }, 30_000);

  it('answers wrong arguments with 2 and the usage, and never writes over a backup', async () => {
    const usage = 'Usage: npm run backup -- --out <FILE>';
    const missing = await run(commands.backup, [], { DATA_DIR: work });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`backup: --out missing.\n${usage}`);
    const unknown = await run(commands.restore, ['--from', 'x', '--frce'], { DATA_DIR: work });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^restore: Unknown option '--frce'.*\nUsage: npm run restore -- --from <FILE>/s);

    const source = await smallDataDir('twice');
    const file = path.join(work, 'twice.backup');
    expect((await backup(file, { DATA_DIR: source })).code).toBe(0);
    const first = await readFile(file);
    const second = await backup(file, { DATA_DIR: source });
    expect(second.code).toBe(1);
    expect(second.stderr).toBe(
      `backup: ${file} already exists: a backup never replaces another. Choose a new name (with the date in ` +
        'it, say) or move that one away first.\n',
    );
    expect(await readFile(file)).toEqual(first);
    const none = await backup(path.join(work, 'none.backup'), { DATA_DIR: path.join(work, 'no-such-dir') });
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/^backup: The data directory \S+no-such-dir does not exist/);
    expect(existsSync(path.join(work, 'none.backup'))).toBe(false);
  }, 30_000);
});

/** A DATA_DIR with one clinician's records, written by the real store (no server running). */
async function smallDataDir(name: string): Promise<string> {
  const dir = path.join(work, name);
  const store = await openLowdbStore(dir);
  const ownerId = randomBytes(8).toString('hex');
  const at = new Date().toISOString();
  await store.createUser({
    id: ownerId,
    email: `${name}@x.example`,
    name,
    license: null,
    passwordHash: 'h',
    createdAt: at,
  });
  await store.createPatient({
    id: `p-${name}`,
    ownerId,
    displayName: name,
    mrn: null,
    yearOfBirth: null,
    ageGroup: null,
    weightKg: null,
    notes: null,
    createdAt: at,
    updatedAt: at,
  });
  const record = { id: `e-${name}`, ownerId, patientId: null, calculationId: null, fileName: 'a.pdf', createdAt: at };
  const bytes = pdf(name);
  await store.saveExport({ ...record, sizeBytes: bytes.length }, bytes);
  await store.close();
  return dir;
}

/** Every file under `dir`, relative, with its sha256. */
async function tree(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name === 'server.lock') continue;
    const file = path.join(entry.parentPath, entry.name);
    files[path.relative(dir, file)] = createHash('sha256')
      .update(await readFile(file))
      .digest('hex');
  }
  return files;
}

// ---------------------------------------------------------------------------------------------------

describe('backups while clinicians write', () => {
  /** One clinician's writes, in order, with when each was sent and answered (this process's clock). */
  interface Op {
    start: number;
    ack: number;
    apply: (state: ModelState) => void;
  }
  interface ModelState {
    patients: Map<string, string>;
    calculations: { id: string; patientId: string | null }[];
    exports: Map<string, { patientId: string | null; sha256: string }>;
  }
  const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
  const digest = (state: ModelState) =>
    JSON.stringify({
      patients: [...state.patients].sort(),
      calculations: state.calculations,
      exports: [...state.exports].sort(([x], [y]) => x.localeCompare(y)),
    });

  /** Writes as fast as it is answered until `stop()`: patients, calculations, exports, edits, deletions. */
  async function writer(url: string, who: Clinician, until: { stopped: boolean }): Promise<Op[]> {
    const ops: Op[] = [];
    const live = { patients: [] as string[], exports: [] as string[] };
    const pick = (list: string[]) => list[Math.floor(Math.random() * list.length)];
    const timed = async (send: () => Promise<Answer>, status: number) => {
      const start = performance.now();
      const answer = await send();
      expect(answer.status, JSON.stringify(answer.body)).toBe(status);
      return { start, ack: performance.now(), body: answer.body };
    };
    const token = who.token;
    while (!until.stopped && ops.length < 400) {
      const roll = Math.random();
      if (roll < 0.15 || live.patients.length === 0) {
        const name = `Patient ${ops.length}`;
        const { start, ack, body } = await timed(
          () => call(url, 'POST', '/api/patients', { json: { displayName: name }, token }),
          201,
        );
        live.patients.push(body.id);
        ops.push({ start, ack, apply: (state) => void state.patients.set(body.id, name) });
      } else if (roll < 0.5) {
        const patientId = Math.random() < 0.7 ? pick(live.patients)! : null;
        const json = patientId ? { ...roi(ops.length), patientId } : roi(ops.length);
        const { start, ack, body } = await timed(() => call(url, 'POST', '/api/tools/run', { json, token }), 200);
        ops.push({ start, ack, apply: (state) => void state.calculations.push({ id: body.historyId, patientId }) });
      } else if (roll < 0.75) {
        const patientId = Math.random() < 0.5 ? pick(live.patients)! : null;
        const bytes = pdf(`${who.id} ${ops.length}`);
        const query = patientId ? `?patientId=${patientId}` : '';
        const { start, ack, body } = await timed(
          () => call(url, 'POST', `/api/exports${query}`, { pdf: bytes, token }),
          201,
        );
        live.exports.push(body.id);
        const entry = { patientId, sha256: sha256(bytes) };
        ops.push({ start, ack, apply: (state) => void state.exports.set(body.id, entry) });
      } else if (roll < 0.85 && live.exports.length > 0) {
        const id = live.exports.splice(Math.floor(Math.random() * live.exports.length), 1)[0]!;
        const { start, ack } = await timed(() => call(url, 'DELETE', `/api/exports/${id}`, { token }), 204);
        ops.push({ start, ack, apply: (state) => void state.exports.delete(id) });
      } else if (roll < 0.95) {
        const id = pick(live.patients)!;
        const name = `Renamed ${ops.length}`;
        const { start, ack } = await timed(
          () => call(url, 'PATCH', `/api/patients/${id}`, { json: { displayName: name }, token }),
          200,
        );
        ops.push({ start, ack, apply: (state) => void state.patients.set(id, name) });
      } else {
        const id = live.patients.splice(Math.floor(Math.random() * live.patients.length), 1)[0]!;
        const { start, ack } = await timed(() => call(url, 'DELETE', `/api/patients/${id}`, { token }), 204);
        ops.push({
          start,
          ack,
          apply: (state) => {
            state.patients.delete(id);
            for (const entry of state.calculations) if (entry.patientId === id) entry.patientId = null;
            for (const entry of state.exports.values()) if (entry.patientId === id) entry.patientId = null;
          },
        });
      }
    }
    return ops;
  }

  /** What the restored store holds for a clinician, in the model's terms (PDFs by their bytes' sha256). */
  async function restoredState(store: StoreAdapter, ownerId: string): Promise<string> {
    const patients = await store.listPatients(ownerId);
    const { items } = await store.listCalculations(ownerId, { offset: 0, limit: 100_000 });
    const exports = new Map<string, { patientId: string | null; sha256: string }>();
    for (const entry of await store.listExports(ownerId, {})) {
      const bytes = await store.readExportFile(ownerId, entry.id);
      expect(bytes, `the PDF of export ${entry.id}`).toBeDefined();
      expect(bytes!.length).toBe(entry.sizeBytes);
      exports.set(entry.id, { patientId: entry.patientId, sha256: sha256(bytes!) });
    }
    return digest({
      patients: new Map(patients.map((patient) => [patient.id, patient.displayName])),
      calculations: items.reverse().map((entry) => ({ id: entry.id, patientId: entry.patientId })),
      exports,
    });
  }

  /** How many of the clinician's writes (in order) the restored state holds: the prefix it equals, if any. */
  function matchingPrefix(ops: Op[], restored: string): number | undefined {
    const state: ModelState = { patients: new Map(), calculations: [], exports: new Map() };
    if (digest(state) === restored) return 0;
    for (let count = 1; count <= ops.length; count += 1) {
      ops[count - 1]!.apply(state);
      if (digest(state) === restored) return count;
    }
    return undefined;
  }

  it('each backup holds every clinician exactly as at one moment during it, complete, with every PDF', async () => {
    const dataDir = path.join(work, 'busy');
    const server = await start(dataDir);
    const clinicians = [];
    for (const name of ['A', 'B', 'C', 'D']) clinicians.push(await signUp(server.url, `Clinician ${name}`));
    const until = { stopped: false };
    const writing = Promise.all(clinicians.map((who) => writer(server.url, who, until)));

    const backups: { file: string; started: number; ended: number; stdout: string }[] = [];
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      for (let index = 0; index < 4; index += 1) {
        const file = path.join(work, `busy-${index}.backup`);
        const started = performance.now();
        const made = await backup(file, { DATA_DIR: dataDir });
        const ended = performance.now();
        expect(made.stderr).toBe('');
        expect(made.code).toBe(0);
        backups.push({ file, started, ended, stdout: made.stdout });
      }
    } finally {
      until.stopped = true;
    }
    const ops = await writing;
    await stop(server);

    for (const [index, made] of backups.entries()) {
      // The writers were busy during this backup: some write was answered while it ran.
      const during = ops.flat().filter((op) => op.ack > made.started && op.start < made.ended);
      expect(during.length, `writes during backup ${index}`).toBeGreaterThan(0);

      const target = path.join(work, `busy-restored-${index}`);
      const restored = await restore(made.file, { DATA_DIR: target });
      expect(restored.stderr).toBe('');
      expect(restored.code).toBe(0);
      const heard: string[] = [];
      const store = await openLowdbStore(target, { log: (message) => heard.push(message) });
      try {
        expect(heard).toEqual([]); // nothing cut off, nothing orphaned: the copy is as the server left it
        const prefixes: number[] = [];
        for (const [number, who] of clinicians.entries()) {
          expect(await store.findUserById(who.id)).toBeDefined();
          const count = matchingPrefix(ops[number]!, await restoredState(store, who.id));
          expect(count, `backup ${index}: clinician ${number} matches a prefix of their writes`).toBeDefined();
          prefixes.push(count!);
        }
        // One moment T: every write it holds was sent before T, every write it lacks was answered after T,
        // and T is within the backup's run (so it holds every write answered before the backup began).
        const lastIn = Math.max(made.started, ...prefixes.map((count, number) => ops[number]![count - 1]?.start ?? 0));
        const firstOut = Math.min(
          made.ended,
          ...prefixes.map((count, number) => ops[number]![count]?.ack ?? Number.POSITIVE_INFINITY),
        );
        expect(lastIn, `backup ${index}: a moment that explains every clinician's state`).toBeLessThan(firstOut);
      } finally {
        await store.close();
      }
    }
  }, 60_000);
});

// ---------------------------------------------------------------------------------------------------

describe('backup and restore of PostgreSQL (DATABASE_URL)', () => {
  it('pg_dump of a running server restores into an empty database that answers the same', async () => {
    const source = await freshDatabase();
    const withPassword = (url: string) => url.replace('postgres@', 'postgres:pa55-Secret@'); // trust auth ignores it
    const server = await start(await mkdtemp(path.join(work, 'unused-')), { DATABASE_URL: source.url });
    const { a, b, p2 } = await fill(server.url);
    const before = { a: await view(server.url, a.token), b: await view(server.url, b.token) };

    const file = path.join(work, 'postgres.dump');
    const made = await backup(file, { DATABASE_URL: withPassword(source.url) });
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    expect(made.stdout).toMatch(/^Backed up PostgreSQL at 127\.0\.0\.1:\d+\/sgx_test_\w+ as postgres \(server \d+/);
    expect(made.stdout).not.toContain('pa55-Secret');
    expect((await readFile(file)).subarray(0, 5).toString()).toBe('PGDMP');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const c = await changeAfterBackup(server.url, a, b, p2);

    // The other kind: a pg_dump without DATABASE_URL is not unpacked into DATA_DIR.
    const notHere = path.join(work, 'pg-into-data-dir');
    const wrong = await restore(file, { DATA_DIR: notHere });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toBe(
      `restore: ${file} is a PostgreSQL backup (pg_dump), but DATABASE_URL is not set: set it to the empty ` +
        'database to restore it into. Nothing was changed.\n',
    );
    expect(existsSync(notHere)).toBe(false);

    // A cut dump is refused before the database is touched.
    const target = await freshDatabase();
    const cut = path.join(work, 'cut.dump');
    await writeFile(cut, (await readFile(file)).subarray(0, 2000));
    const refused = await restore(cut, { DATABASE_URL: target.url });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^restore: \S+cut\.dump is damaged or cut short: pg_restore: error: .+\n$/);
    expect(await tablesOf(target.url)).toEqual([]);

    const restored = await restore(file, { DATABASE_URL: withPassword(target.url) });
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.stdout).toMatch(
      /: 2 users, 2 sessions, 3 patients, 4 calculations, 2 exports, (\d+) audit events\.\n/,
    );
    const events = Number(/(\d+) audit events\./.exec(restored.stdout)![1]);
    expect(restored.stdout).toMatch(
      new RegExp(
        `\\nThe restored audit trail verifies \\(${events} lines, the last of \\S+\\); line ${events + 1} says`,
      ),
    );
    expect(restored.stdout).not.toContain('pa55-Secret');
    await stop(server);

    const again = await start(await mkdtemp(path.join(work, 'unused-')), { DATABASE_URL: target.url });
    await expectSameService(again.url, before, a, b);
    const later = await call(again.url, 'POST', '/api/auth/signin', { json: { email: c.email, password: PASSWORD } });
    expect(later.status).toBe(401);

    // Not empty now: refused without --force; with it, refused while a server is connected.
    const notEmpty = await restore(file, { DATABASE_URL: target.url });
    expect(notEmpty.code).toBe(1);
    expect(notEmpty.stderr).toMatch(/^restore: The database at \S+ as postgres is not empty \(it holds public\./);
    const connected = await restore(file, { DATABASE_URL: target.url }, '--force');
    expect(connected.code).toBe(1);
    expect(connected.stderr).toMatch(/connections? of a running server \(application_name sgx-api\)/);
    await stop(again);

    await query(target.url, "UPDATE patients SET display_name = 'Changed by hand'");
    const forced = await restore(file, { DATABASE_URL: target.url }, '--force');
    expect(forced.stderr).toBe('');
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain('(--clean: what the backup holds was replaced)');
    const names = await query<{ name: string }>(target.url, 'SELECT display_name AS name FROM patients ORDER BY 1');
    expect(names.map((row) => row.name)).toEqual(['Chen Wei', 'Layla Haddad', 'Omar']);
  }, 60_000);

  it('names pg_dump versions, and refuses one older than the server', () => {
    expect(parseToolVersion('pg_dump (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)\n')).toEqual({
      version: '15.18',
      major: 15,
    });
    const tool = { path: '/opt/pg/bin/pg_dump', version: '15.18', major: 15 };
    expect(pgDumpTooOld(tool, 150_018, 'db:5432/app')).toBeUndefined();
    expect(pgDumpTooOld({ ...tool, major: 17 }, 160_002, 'db:5432/app')).toBeUndefined();
    expect(pgDumpTooOld(tool, 160_002, 'db:5432/app')).toBe(
      'pg_dump 15.18 (/opt/pg/bin/pg_dump) is older than the PostgreSQL 16 server at db:5432/app and cannot dump ' +
        'it. Install the client programs of PostgreSQL 16 or newer (Debian and Ubuntu: apt-get install ' +
        'postgresql-client-16) and run the backup again.',
    );
  });
});
