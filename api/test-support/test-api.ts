import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApp, type AppDeps } from '../app.ts';
import { loadJwtKey } from '../auth/jwt-secret.ts';
import { fileAuditLog } from '../storage/audit-log.ts';
import { openLowdbStore } from '../storage/lowdb-store.ts';
import { createStore } from '../storage/policy.ts';
import type { ExportRecord } from '../storage/records.ts';

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

/** The real app over real HTTP on 127.0.0.1, with a fresh temporary DATA_DIR of real files. */
export async function startTestApi(overrides: Partial<AppDeps> = {}) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'sgx-api-'));
  const store = createStore(await openLowdbStore(dataDir));
  const errors: unknown[] = [];
  const app = createApp({
    store,
    audit: fileAuditLog(dataDir, () => new Date()),
    jwtKey: await loadJwtKey(dataDir, undefined),
    logError: (error) => errors.push(error),
    ...overrides,
  });
  const server: Server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

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
    dataDir,
    store,
    errors,
    request,
    signUp,
    storedData: () => storedData(dataDir),
    storedExports: () => storedExports(dataDir),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
export type TestApi = Awaited<ReturnType<typeof startTestApi>>;

/** Not the store's records: the PDFs, the audit log, the JWT secret and the lock. */
const NOT_RECORDS = /^(exports\/|audit\.log|jwt-secret$|server\.lock$)/;

/**
 * Every file the embedded store keeps its records in (store.json, accounts.json, clinicians/…), with
 * its content, as one text: two of them compare equal when a request wrote nothing.
 */
async function storedData(dataDir: string): Promise<string> {
  const files: [string, string][] = [];
  for (const entry of await readdir(dataDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const name = path.relative(dataDir, path.join(entry.parentPath, entry.name));
    if (!NOT_RECORDS.test(name)) files.push([name, await readFile(path.join(dataDir, name), 'utf8')]);
  }
  return JSON.stringify(files.sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** The export records as stored (every clinician's exports.jsonl, deletions applied). */
async function storedExports(dataDir: string): Promise<ExportRecord[]> {
  const records = new Map<string, ExportRecord>();
  const clinicians = path.join(dataDir, 'clinicians');
  for (const ownerId of await readdir(clinicians)) {
    const log = await readFile(path.join(clinicians, ownerId, 'exports.jsonl'), 'utf8').catch(() => '');
    for (const line of log.split('\n').filter(Boolean)) {
      const entry = JSON.parse(line) as ExportRecord | { deletedExport: string };
      if ('deletedExport' in entry) records.delete(entry.deletedExport);
      else records.set(entry.id, entry);
    }
  }
  return [...records.values()];
}
