import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, startPostgresCluster, type PostgresCluster } from '../test-support/postgres-cluster.ts';
import {
  builtServer,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from '../test-support/server-process.ts';

// The built server on a PostgreSQL of its own, which the test then stops: the balancer must see the
// instance as not ready (503) within seconds, while it still answers /healthz (it is alive).
let cluster: PostgresCluster;
let server: ServerProcess;
let dataDir: string;
beforeAll(async () => {
  const serverFile = await builtServer();
  cluster = await startPostgresCluster();
  const database = await createTestDatabase(cluster.baseUrl);
  dataDir = await mkdtemp(path.join(tmpdir(), 'sgx-ready-'));
  server = await startServerProcess(serverFile, dataDir, { DATABASE_URL: database.url });
}, 60_000);
afterAll(async () => {
  if (server) await stopServerProcess(server, 'SIGKILL');
  await cluster?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('readiness follows the database', () => {
  it('/readyz 200, then 503 within 5 s of PostgreSQL stopping while /healthz stays 200', async () => {
    const ready = await fetch(`${server.url}/readyz`);
    expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready' }]);
    await cluster.stop();
    const stoppedAt = Date.now();
    let answer: { status: number; body: unknown } = { status: 0, body: undefined };
    while (Date.now() - stoppedAt < 5_000) {
      const response = await fetch(`${server.url}/readyz`);
      answer = { status: response.status, body: await response.json() };
      if (answer.status === 503) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(answer.status).toBe(503);
    expect(Date.now() - stoppedAt).toBeLessThan(5_000);
    expect(answer.body).toMatchObject({ status: 'unavailable' });
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  }, 30_000);
});
