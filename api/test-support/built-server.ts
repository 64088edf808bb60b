import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { inject } from 'vitest';
import { createTestDatabase, type TestDatabase } from './postgres-cluster.ts';
import { builtServer, startServerProcess, stopServerProcess, type ServerProcess } from './server-process.ts';
import { TEST_STORE } from './test-api.ts';

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The bytes as they came over the wire (compressed when Content-Encoding says so). */
  wire: Buffer;
  /** The body decoded (br, gzip, deflate), as text. */
  text: string;
  /** The decoded body parsed when it is JSON, else undefined. */
  json: any;
}

export interface RawRequest {
  method?: string;
  /** Sent exactly as given: no header is added (not even Accept-Encoding) beyond Host and the length. */
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The client's own address (127.0.0.2 looks like another client to a server on 127.0.0.1). */
  localAddress?: string;
  token?: string;
}

/** One request with node:http, so the headers and the bytes are exactly those on the wire. */
export function rawRequest(baseUrl: string, urlPath: string, options: RawRequest = {}): Promise<RawAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(options.body));
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${baseUrl}${urlPath}`,
      { method: options.method ?? 'GET', headers, localAddress: options.localAddress, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const wire = Buffer.concat(chunks);
          const coding = response.headers['content-encoding'];
          const decoded =
            coding === 'br'
              ? brotliDecompressSync(wire)
              : coding === 'gzip'
                ? gunzipSync(wire)
                : coding === 'deflate'
                  ? inflateSync(wire)
                  : wire;
          const text = decoded.toString('utf8');
          let json: unknown;
          if (String(response.headers['content-type']).includes('application/json') && text) json = JSON.parse(text);
          resolve({ status: response.statusCode ?? 0, headers: response.headers, wire, text, json });
        });
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

/** A JSON request (Content-Type: application/json); any other header as given. */
export const jsonRequest = (
  baseUrl: string,
  method: string,
  urlPath: string,
  body: unknown,
  options: RawRequest = {},
) =>
  rawRequest(baseUrl, urlPath, {
    ...options,
    method,
    headers: { 'Content-Type': 'application/json', ...options.headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

export const PASSWORD = 'correct horse battery';

/**
 * The built server (what `npm start` runs) on the store the vitest project runs the API suites on: a
 * fresh temporary DATA_DIR, or a fresh database of the run's PostgreSQL (TEST_STORE).
 */
export async function startBuiltServer(env: Record<string, string> = {}) {
  const serverFile = await builtServer();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'sgx-built-'));
  let database: TestDatabase | undefined;
  let server: ServerProcess;
  try {
    database = TEST_STORE === 'postgres' ? await createTestDatabase(inject('postgresBaseUrl')) : undefined;
    server = await startServerProcess(serverFile, dataDir, {
      ...(database ? { DATABASE_URL: database.url } : {}),
      ...env,
    });
  } catch (error) {
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  let counter = 0;
  return {
    ...server,
    serverFile,
    dataDir,
    database,
    storeKind: TEST_STORE,
    /** A new clinician; their token, e-mail and password. */
    async signUp(name = 'Test Clinician', options: RawRequest = {}) {
      counter += 1;
      const email = `clinician${counter}-${Date.now()}@hospital.example`;
      const answer = await jsonRequest(
        server.url,
        'POST',
        '/api/auth/signup',
        { email, password: PASSWORD, name, agreeTerms: true },
        options,
      );
      if (answer.status !== 201) throw new Error(`sign-up failed: ${answer.status} ${answer.text}`);
      return { token: answer.json.token as string, email, password: PASSWORD, userId: answer.json.user.id as string };
    },
    async close() {
      await stopServerProcess(server, 'SIGKILL');
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
export type BuiltServer = Awaited<ReturnType<typeof startBuiltServer>>;
