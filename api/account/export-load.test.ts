import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import yauzl from 'yauzl';
import { DOSE_INPUT } from '../fhir/fhir-fixtures.test-support.ts';
import { EXPORT_BUSY_CLINICIAN_MESSAGE, EXPORT_BUSY_INSTANCE_MESSAGE } from '../messages.ts';
import { AUDIT_LOG_DEFAULT_MAX_BYTES } from '../storage/audit-log.ts';
import { openStorage } from '../storage/open-storage.ts';
import { jsonRequest, PASSWORD, rawRequest } from '../test-support/built-server.ts';
import { createTestDatabase, type TestDatabase } from '../test-support/postgres-cluster.ts';
import {
  builtServer,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from '../test-support/server-process.ts';
import { TEST_STORE } from '../test-support/test-api.ts';
import { EXPORT_BUSY_CLINICIAN_RETRY_SECONDS, EXPORT_BUSY_INSTANCE_RETRY_SECONDS } from './routes.ts';

// Issue 44, item 7 (server probe 4, N3): each GET /api/account/export of a 5,000-entry account took about 40 MB
// of heap (zip-stream kept an object per entry and wrote the ZIP's directory at the end as some 200,000 small
// buffers at once), and 12 at once ran the embedded server out of the heap the Helm chart's 512 MiB gives it
// (24 the PostgreSQL one). The built server, on the store of the vitest project, with that account written
// straight into the store (5,000 HTTP calls would take minutes) and Node's heap capped as in the chart.
const ENTRIES = 5_000;
const PATIENTS = 20;
const PDFS = 10;
const PDF_BYTES = 300 * 1024;
/** Node's heap: the chart's 512 MiB container gives it about 252 MB (the probe measured); far less here. */
const HEAP_MB = Number(process.env.EXPORT_TEST_HEAP_MB ?? 96);
/** Exports at once with the caps raised: before the fix, each held about 35 MB of heap at its end. */
const AT_ONCE = Number(process.env.EXPORT_TEST_AT_ONCE ?? 8);

let serverFile: string;
let dataDir: string;
let database: TestDatabase | undefined;
let token: string;
let userId: string;
const running: ServerProcess[] = [];

const storeEnv = (): Record<string, string> => (database ? { DATABASE_URL: database.url } : {});
async function start(env: Record<string, string>) {
  const server = await startServerProcess(serverFile, dataDir, {
    ...storeEnv(),
    NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}`,
    ...env,
  });
  running.push(server);
  return server;
}

beforeAll(async () => {
  serverFile = await builtServer();
  dataDir = await mkdtemp(path.join(tmpdir(), 'sgx-export-load-'));
  database = TEST_STORE === 'postgres' ? await createTestDatabase(inject('postgresBaseUrl')) : undefined;
  // The clinician, their patients and one real dose calculation, over HTTP…
  const first = await start({});
  const email = `busy-${Date.now()}@hospital.example`;
  const signup = await jsonRequest(first.url, 'POST', '/api/auth/signup', {
    email,
    password: PASSWORD,
    name: 'Dr Busy',
    agreeTerms: true,
  });
  expect(signup.status).toBe(201);
  token = signup.json.token;
  userId = signup.json.user.id;
  const patientIds: string[] = [];
  for (let index = 0; index < PATIENTS; index += 1) {
    const patient = await jsonRequest(
      first.url,
      'POST',
      '/api/patients',
      { displayName: `Patient ${index}`, mrn: `MRN-${index}`, weightKg: 70 + index },
      { token },
    );
    patientIds.push(patient.json.id);
  }
  const run = await jsonRequest(
    first.url,
    'POST',
    '/api/tools/run',
    {
      toolType: 'dose_calculator',
      patientId: patientIds[0],
      inputs: { ...DOSE_INPUT, bodyWeight: 74 },
    },
    { token },
  );
  expect(run.status).toBe(200);
  await stopServerProcess(first);
  // …then the rest of the history and the PDFs straight into the store, as the server keeps them.
  const storage = await openStorage({
    dataDir,
    databaseUrl: database?.url,
    jwtSecret: undefined,
    auditLogMaxBytes: AUDIT_LOG_DEFAULT_MAX_BYTES,
  });
  try {
    const entry = (await storage.store.findCalculation(userId, run.json.historyId))!;
    expect(entry.toolType).toBe('dose_calculator');
    const ids: string[] = [];
    const base = Date.parse(entry.createdAt);
    for (let from = 1; from < ENTRIES; from += 500) {
      const batch = Array.from({ length: Math.min(500, ENTRIES - from) }, (_, offset) => from + offset);
      await Promise.all(
        batch.map((index) => {
          const id = randomUUID();
          ids.push(id);
          return storage.store.saveCalculation({
            ...entry,
            id,
            patientId: patientIds[index % PATIENTS]!,
            createdAt: new Date(base + index * 1000).toISOString(),
          });
        }),
      );
    }
    for (let index = 0; index < PDFS; index += 1) {
      const bytes = Buffer.concat([Buffer.from('%PDF-1.3\n'), Buffer.alloc(PDF_BYTES, index), Buffer.from('%%EOF\n')]);
      await storage.store.saveExport(
        {
          id: randomUUID(),
          ownerId: userId,
          patientId: patientIds[index]!,
          calculationId: ids[index * 100]!,
          fileName: `notes-${index}.pdf`,
          sizeBytes: bytes.length,
          createdAt: new Date(base + index * 1000).toISOString(),
        },
        bytes,
      );
    }
  } finally {
    await storage.close();
  }
}, 180_000);

afterAll(async () => {
  for (const server of running) await stopServerProcess(server, 'SIGKILL');
  await database?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

interface Download {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: number;
  /** The whole body for an error answer, and for the ZIPs when `keep` (else only its size is kept). */
  body?: Buffer;
  error?: string;
}

/** One GET of the export, read as fast as it comes; the body is counted, kept only when asked. */
function download(url: string, keep: boolean): Promise<Download> {
  return new Promise((resolve) => {
    const request = get(
      `${url}/api/account/export`,
      { headers: { Authorization: `Bearer ${token}` }, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        let bytes = 0;
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (keep || response.statusCode !== 200) chunks.push(chunk);
        });
        response.on('error', (error) => resolve({ status: -1, headers: {}, bytes, error: error.message }));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, bytes, body: Buffer.concat(chunks) }),
        );
      },
    );
    request.on('error', (error) => resolve({ status: -1, headers: {}, bytes: 0, error: error.message }));
  });
}

/** The names of a ZIP's entries and its account.json, read with yauzl (which checks every CRC). */
function readZip(zip: Buffer): Promise<{ names: string[]; account: { history: unknown[] } }> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (error, file) => {
      if (error || !file) return reject(error);
      const names: string[] = [];
      let account: { history: unknown[] } | undefined;
      file.on('entry', (entry: yauzl.Entry) => {
        names.push(entry.fileName);
        file.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => entry.fileName === 'account.json' && chunks.push(chunk));
          stream.on('end', () => {
            if (entry.fileName === 'account.json') account = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            file.readEntry();
          });
        });
      });
      file.on('end', () => resolve({ names, account: account! }));
      file.on('error', reject);
      file.readEntry();
    });
  });
}

const isWholeZip = (download: Download) => download.status === 200 && download.bytes > 3_000_000;

describe(`account exports of a ${ENTRIES.toLocaleString('en')}-entry account, Node's heap at ${HEAP_MB} MB`, () => {
  it(`${AT_ONCE} at once, caps raised: each a whole ZIP, the server up (was: out of heap)`, async () => {
    const server = await start({ EXPORTS_PER_CLINICIAN: String(AT_ONCE), EXPORTS_PER_INSTANCE: String(AT_ONCE) });
    const downloads = await Promise.all(
      Array.from({ length: AT_ONCE }, (_, index) => download(server.url, index === 0)),
    );
    expect(downloads.map((answer) => answer.error ?? answer.status)).toEqual(downloads.map(() => 200));
    expect(downloads.filter(isWholeZip)).toHaveLength(AT_ONCE);
    const zip = await readZip(downloads[0]!.body!);
    expect(zip.account.history).toHaveLength(ENTRIES);
    expect(zip.names.filter((name) => name.startsWith('fhir/'))).toHaveLength(ENTRIES);
    expect(zip.names.filter((name) => name.startsWith('pdfs/'))).toHaveLength(PDFS);
    expect(server.child.exitCode).toBeNull();
    expect((await rawRequest(server.url, '/healthz')).status).toBe(200);
    expect(server.output()).not.toMatch(/heap out of memory|"level":50/);
    await stopServerProcess(server);
  }, 240_000);

  it('with the defaults, 24 at once from one clinician: one ZIP, 23 told to wait (429, Retry-After)', async () => {
    const server = await start({});
    const downloads = await Promise.all(Array.from({ length: 24 }, () => download(server.url, false)));
    expect(downloads.filter(isWholeZip)).toHaveLength(1);
    const refused = downloads.filter((answer) => answer.status !== 200);
    expect(refused).toHaveLength(23);
    for (const answer of refused) {
      expect([answer.status, JSON.parse(answer.body!.toString())]).toEqual([
        429,
        { message: EXPORT_BUSY_CLINICIAN_MESSAGE },
      ]);
      expect(answer.headers['retry-after']).toBe(String(EXPORT_BUSY_CLINICIAN_RETRY_SECONDS));
    }
    // once it is done, the next one is served
    const after = await download(server.url, false);
    expect(isWholeZip(after)).toBe(true);
    await stopServerProcess(server);
  }, 240_000);

  it('EXPORTS_PER_INSTANCE=1: another clinician told the server is busy (503), then served', async () => {
    const server = await start({ EXPORTS_PER_INSTANCE: '1' });
    const other = await jsonRequest(server.url, 'POST', '/api/auth/signup', {
      email: `other-${Date.now()}@hospital.example`,
      password: PASSWORD,
      name: 'Dr Other',
      agreeTerms: true,
    });
    // the busy clinician's export under way (its client reads slowly), the other one's asked meanwhile
    const busy = download(server.url, false);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const refused = await rawRequest(server.url, '/api/account/export', { token: other.json.token });
    expect([refused.status, refused.json]).toEqual([503, { message: EXPORT_BUSY_INSTANCE_MESSAGE }]);
    expect(refused.headers['retry-after']).toBe(String(EXPORT_BUSY_INSTANCE_RETRY_SECONDS));
    expect(isWholeZip(await busy)).toBe(true);
    const served = await rawRequest(server.url, '/api/account/export', { token: other.json.token });
    expect([served.status, served.headers['content-type']]).toEqual([200, 'application/zip']);
    await stopServerProcess(server);
  }, 240_000);
});
