import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FAILURES_PER_ACCOUNT } from '../../auth/sign-in-limiter.ts';
import { jsonRequest, PASSWORD, rawRequest } from '../../test-support/built-server.ts';
import { createTestDatabase, startPostgresCluster, type PostgresCluster } from '../../test-support/postgres-cluster.ts';
import {
  builtServer,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from '../../test-support/server-process.ts';

// Issue 31, item 5: the sign-in limiter's table was UNLOGGED, and PostgreSQL empties such a table when
// it recovers from a crash, so a database crash lifted every lock-out. The built server on a
// PostgreSQL of its own, which the test crashes (immediate shutdown) and starts again.
let cluster: PostgresCluster;
let server: ServerProcess;
let dataDir: string;
beforeAll(async () => {
  const serverFile = await builtServer();
  cluster = await startPostgresCluster();
  const database = await createTestDatabase(cluster.baseUrl);
  dataDir = await mkdtemp(path.join(tmpdir(), 'sgx-lockout-'));
  server = await startServerProcess(serverFile, dataDir, { DATABASE_URL: database.url });
}, 60_000);
afterAll(async () => {
  if (server) await stopServerProcess(server, 'SIGKILL');
  await cluster?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('a sign-in lock-out on PostgreSQL', () => {
  it('outlives a crash of the database (was: lifted by it)', async () => {
    const email = 'locked@hospital.example';
    const signup = await jsonRequest(server.url, 'POST', '/api/auth/signup', {
      email,
      password: PASSWORD,
      name: 'Locked Out',
      agreeTerms: true,
    });
    expect(signup.status).toBe(201);
    const signIn = () => jsonRequest(server.url, 'POST', '/api/auth/signin', { email, password: PASSWORD });
    for (let attempt = 0; attempt < MAX_FAILURES_PER_ACCOUNT; attempt += 1) {
      const wrong = await jsonRequest(server.url, 'POST', '/api/auth/signin', { email, password: 'wrong password' });
      expect([attempt, wrong.status]).toEqual([attempt, 401]);
    }
    expect((await signIn()).status).toBe(429);

    await cluster.crashAndRestart();
    // the server's connections to the crashed database are replaced: wait until it answers again
    const started = Date.now();
    while ((await rawRequest(server.url, '/readyz')).status !== 200) {
      expect(Date.now() - started).toBeLessThan(10_000);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const after = await signIn();
    expect(after.status).toBe(429);
    expect(Number(after.headers['retry-after'])).toBeGreaterThan(60);
  }, 60_000);
});
