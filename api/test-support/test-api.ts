import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { createApp, type AppDeps } from '../app.ts';
import { createLogger } from '../ops/logger.ts';
import { describeResult, KEY_ACTION } from '../audit/chain.ts';
import { verifyFileTrail, verifyPostgresTrail } from '../audit/trail.ts';
import { AUDIT_FILE_NAME, AUDIT_LOG_DEFAULT_MAX_BYTES } from '../storage/audit-log.ts';
import { loadClinicians } from '../storage/embedded/load.ts';
import { EXPORTS_DIR_NAME } from '../storage/lowdb-store.ts';
import { openStorage } from '../storage/open-storage.ts';
import type { ExportRecord } from '../storage/records.ts';
import { createTestDatabase } from './postgres-cluster.ts';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
  /** The body's bytes as received (for binary answers such as a PDF). */
  bytes: Buffer;
}

export interface RequestOptions {
  body?: unknown;
  rawBody?: string | Uint8Array;
  token?: string;
  headers?: Record<string, string>;
}

/**
 * Which store the API suites run on: the embedded one (default), or PostgreSQL when the vitest project
 * sets SGX_TEST_STORE=postgres (the `node-postgres` project runs the same suites there).
 */
export const TEST_STORE: 'embedded' | 'postgres' = process.env.SGX_TEST_STORE === 'postgres' ? 'postgres' : 'embedded';

/** What a test can ask of the storage behind the app, whichever store it is. */
interface StorageProbe {
  /** Every stored record as one text: two compare equal when nothing was written in between. */
  storedData(): Promise<string>;
  /** The export records as stored (deletions applied). */
  storedExports(): Promise<ExportRecord[]>;
  /** The names (`<id>.pdf`) of the stored PDFs. */
  storedPdfNames(): Promise<string[]>;
  /** A stored PDF's bytes, read from the storage itself (not through the API). */
  storedPdf(id: string): Promise<Buffer | undefined>;
  /**
   * The audit events written so far, oldest first: the event's fields (time, actor, action, record type and
   * id, outcome), without what the chain and the request add (verifyAudit checks those).
   */
  auditLines(): Promise<Record<string, unknown>[]>;
  verifyAudit(): Promise<import('../audit/chain.ts').VerifyResult>;
  findStored(text: string): Promise<string[]>;
  sql(text: string, values: unknown[]): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

/**
 * The real app over real HTTP on 127.0.0.1, with a fresh temporary DATA_DIR of real files, or a fresh
 * database of the test run's PostgreSQL (see TEST_STORE). `overrides` may be a function of the app's own
 * URL (for settings that name it, such as PUBLIC_URL). `sharedDatabaseUrl`: a second instance on the
 * database another test API made (PostgreSQL; not dropped at close). `dataKeys`: DATA_KEY's keys (default none:
 * a key generated into the store, as a server without DATA_KEY does).
 */
export async function startTestApi(
  overrides: Partial<AppDeps> | ((url: string) => Partial<AppDeps>) = {},
  options: { sharedDatabaseUrl?: string; dataKeys?: Buffer[] } = {},
) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'sgx-api-'));
  // The server's own way of opening the storage (the embedded store locks DATA_DIR, as in production).
  const database =
    options.sharedDatabaseUrl === undefined && TEST_STORE === 'postgres'
      ? await createTestDatabase(inject('postgresBaseUrl'))
      : undefined;
  const databaseUrl = options.sharedDatabaseUrl ?? database?.url;
  let handle: ReturnType<ReturnType<typeof createApp>['callback']> | undefined;
  const server: Server = createServer((request, response) => handle!(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const settings = typeof overrides === 'function' ? overrides(url) : overrides;
  const storage = await openStorage(
    {
      dataDir,
      databaseUrl,
      jwtSecret: undefined,
      dataKeys: options.dataKeys ?? [],
      auditLogMaxBytes: AUDIT_LOG_DEFAULT_MAX_BYTES,
    },
    { now: settings.now },
  );
  const { store, audit, jwtKey, limiter, coordinator } = storage;
  const probe = databaseUrl ? postgresProbe(databaseUrl) : embeddedProbe(dataDir);
  const errors: unknown[] = [];
  // The server log as the server writes it (one JSON line per request), kept to be searched.
  const serverLog: string[] = [];
  const logger = createLogger('info', { write: (line: string) => void serverLog.push(line) });
  const app = createApp({
    store,
    audit,
    jwtKey,
    limiter,
    logger,
    logError: (error) => errors.push(error),
    ...settings,
  });
  handle = app.callback();

  async function request<T = any>(
    method: string,
    urlPath: string,
    options: RequestOptions = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.Authorization = `Bearer ${options.token}`;
    // A copy of binary bytes: fetch wants a Uint8Array over a plain ArrayBuffer.
    let body: string | Uint8Array<ArrayBuffer> | undefined =
      typeof options.rawBody === 'object' ? new Uint8Array(options.rawBody) : options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['Content-Type'] ??= 'application/json';
    }
    const response = await fetch(url + urlPath, { method, headers, body });
    const bytes = Buffer.from(await response.arrayBuffer());
    const text = new TextDecoder().decode(bytes);
    let parsed: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('application/json') && text) parsed = JSON.parse(text);
    return { status: response.status, headers: response.headers, body: parsed as T, text, bytes };
  }

  let counter = 0;
  /** Signs up a new clinician and returns their token and user. */
  async function signUp(name = 'Test Clinician') {
    counter += 1;
    const email = `clinician${counter}-${Date.now()}@hospital.example`;
    const response = await request('POST', '/api/auth/signup', {
      body: { email, password: 'correct horse battery', name, license: 'SCFHS-12345', agreeTerms: true },
    });
    if (response.status !== 201) throw new Error(`sign-up failed: ${response.status} ${response.text}`);
    return { token: response.body.token as string, user: response.body.user, email, password: 'correct horse battery' };
  }

  return {
    url,
    /** The Koa app itself (route-access.test.ts reads its routers). */
    app,
    dataDir,
    store,
    errors,
    request,
    signUp,
    storeKind: (databaseUrl ? 'postgres' : 'embedded') as 'embedded' | 'postgres',
    databaseUrl,
    jwtKey,
    audit,
    limiter,
    coordinator,
    serverLog,
    /** Where a text is kept outside the audit trail: files of DATA_DIR, or rows of the database's tables. */
    findStored: (text: string) => probe.findStored(text),
    /** The probe's own connection to the database (PostgreSQL only), for a test that changes a row. */
    sql: (text: string, values: unknown[] = []) => probe.sql(text, values),
    storedData: () => probe.storedData(),
    storedExports: () => probe.storedExports(),
    storedPdfNames: () => probe.storedPdfNames(),
    storedPdf: (id: string) => probe.storedPdf(id),
    auditLines: () => probe.auditLines(),
    /** The audit trail checked as `npm run audit-verify` checks it. */
    verifyAudit: () => probe.verifyAudit(),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // Every API suite ends with its audit trail checked: whatever it did, the chain must be whole.
      const trail = await probe.verifyAudit();
      if (trail.broken) throw new Error(`The audit trail is broken after this suite: ${describeResult(trail, 'test')}`);
      await probe.close();
      await storage.close();
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
export type TestApi = Awaited<ReturnType<typeof startTestApi>>;

/** Not the store's records: the PDFs, the audit log and its key, the JWT secret, the data key and the lock. */
const NOT_RECORDS = /^(exports\/|audit\.log|audit-key$|jwt-secret$|data-key$|server\.lock$)/;

function embeddedProbe(dataDir: string): StorageProbe {
  const exportsDir = path.join(dataDir, EXPORTS_DIR_NAME);
  return {
    // Every file the embedded store keeps its records in (store.json, accounts.json, clinicians/…).
    async storedData() {
      const files: [string, string][] = [];
      for (const entry of await readdir(dataDir, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile()) continue;
        const name = path.relative(dataDir, path.join(entry.parentPath, entry.name));
        if (!NOT_RECORDS.test(name)) files.push([name, await readFile(path.join(dataDir, name), 'utf8')]);
      }
      return JSON.stringify(files.sort(([a], [b]) => (a < b ? -1 : 1)));
    },
    // Read as the store reads them at start (every clinician's exports.jsonl, deletions applied).
    storedExports: async () => (await loadClinicians(dataDir)).flatMap((clinician) => [...clinician.exports.values()]),
    storedPdfNames: () =>
      readdir(exportsDir).then(
        (names) => names.sort(),
        () => [],
      ),
    storedPdf: (id) => readFile(path.join(exportsDir, `${id}.pdf`)).catch(() => undefined),
    async auditLines() {
      const text = await readFile(path.join(dataDir, AUDIT_FILE_NAME), 'utf8').catch(() => '');
      return text
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const { prev: _prev, hash: _hash, seq: _seq, requestId: _id, address: _address, ...event } = JSON.parse(line);
          return event as Record<string, unknown>;
        })
        .filter((event) => event.action !== KEY_ACTION); // the chain's own key line is no event
    },
    verifyAudit: () => verifyFileTrail(dataDir),
    async findStored(text) {
      const found: string[] = [];
      for (const entry of await readdir(dataDir, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile()) continue;
        const name = path.relative(dataDir, path.join(entry.parentPath, entry.name));
        if (/^audit\.log/.test(name)) continue;
        if ((await readFile(path.join(dataDir, name))).includes(text)) found.push(name);
      }
      return found;
    },
    sql: async () => {
      throw new Error('no database: the embedded store');
    },
    close: async () => {},
  };
}

/** The record tables, each with the columns that identify what a request wrote (PDF bytes as a hash). */
const RECORD_QUERIES = [
  'SELECT * FROM users ORDER BY id',
  'SELECT * FROM sessions ORDER BY id',
  'SELECT * FROM patients ORDER BY id',
  'SELECT * FROM calculations ORDER BY seq',
  'SELECT id, seq, owner_id, patient_id, calculation_id, file_name, size_bytes, created_at, md5(bytes) ' +
    'FROM exports ORDER BY seq',
];

function postgresProbe(url: string): StorageProbe {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {})); // the database is dropped at the end
  const rows = async (sql: string, values: unknown[] = []) => (await pool.query(sql, values)).rows;
  return {
    async storedData() {
      const tables = [];
      for (const sql of RECORD_QUERIES) tables.push(await rows(sql));
      return JSON.stringify(tables);
    },
    async storedExports() {
      return (
        await rows(
          'SELECT id, owner_id, patient_id, calculation_id, file_name, size_bytes, created_at ' +
            'FROM exports ORDER BY seq',
        )
      ).map((row) => ({
        id: row.id,
        ownerId: row.owner_id,
        patientId: row.patient_id,
        calculationId: row.calculation_id,
        fileName: row.file_name,
        sizeBytes: Number(row.size_bytes),
        createdAt: new Date(row.created_at).toISOString(),
      }));
    },
    storedPdfNames: async () => (await rows('SELECT id FROM exports')).map((row) => `${row.id}.pdf`).sort(),
    storedPdf: async (id) => (await rows('SELECT bytes FROM exports WHERE id = $1', [id]))[0]?.bytes,
    async auditLines() {
      const events = await rows('SELECT * FROM audit_events WHERE action <> $1 ORDER BY id', [KEY_ACTION]);
      return events.map((row) => {
        const line: Record<string, unknown> = { time: new Date(row.time).toISOString(), actor: row.actor };
        line.action = row.action;
        if (row.record_type !== null) line.recordType = row.record_type;
        if (row.record_id !== null) line.recordId = row.record_id;
        if (row.outcome !== null) line.outcome = row.outcome;
        if (row.detail !== null) line.detail = row.detail;
        return line;
      });
    },
    verifyAudit: () => verifyPostgresTrail(pool),
    async findStored(text) {
      const tables = (
        await rows(
          "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' " +
            "AND table_type = 'BASE TABLE'",
        )
      ).map((row) => row.table_name as string);
      const found: string[] = [];
      for (const table of tables.filter((name) => name !== 'audit_events').sort()) {
        const [hit] = await rows(
          `SELECT count(*)::int AS n FROM ${table} AS t ` +
            'WHERE strpos(t::text, $1) > 0 OR strpos(lower(t::text), lower($1)) > 0',
          [text],
        );
        if (hit!.n > 0) found.push(`${table} (${hit!.n} rows)`);
      }
      return found;
    },
    sql: (text, values) => rows(text, values),
    close: () => pool.end(),
  };
}
