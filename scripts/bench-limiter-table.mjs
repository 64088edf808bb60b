#!/usr/bin/env node
// What the sign-in limiter's table costs logged rather than UNLOGGED (docs/engineering-notes.md#auth):
// a throwaway PostgreSQL with fsync on, as production runs it, the schema as the server makes it, and
// the limiter's own calls (a failed sign-in counts a point per account and per address). Run:
// `node scripts/bench-limiter-table.mjs` (a minute or so; not part of `npm test`).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { RateLimiterMemory, RateLimiterPostgres } from 'rate-limiter-flexible';
import { runnerImport } from 'vite';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const load = async (file) => (await runnerImport(path.join(root, file))).module;
const [clusters, postgres] = await Promise.all([
  load('api/test-support/postgres-cluster.ts'),
  load('api/storage/postgres/index.ts'),
]);

const FAILURES = Number(process.env.FAILURES ?? 2000);
const CONCURRENCY = [1, 20];

const percentile = (sorted, share) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))];

async function measure(url, concurrency) {
  const { adapter, pool } = await postgres.openPostgresStore(url);
  try {
    // As api/auth/sign-in-limiter.ts makes them, with points enough that no key is ever refused.
    const make = (keyPrefix) =>
      new RateLimiterPostgres({
        keyPrefix,
        points: 1e9,
        duration: 15 * 60,
        storeClient: pool,
        storeType: 'pool',
        tableName: postgres.RATE_LIMIT_TABLE,
        tableCreated: true,
        insuranceLimiter: new RateLimiterMemory({ points: 1e9, duration: 15 * 60 }),
      });
    const perAccount = make('account');
    const perAddress = make('address');
    // recordFailure: a point for the account and one for the address
    const limiter = {
      recordFailure: async (email, address) => {
        await perAccount.consume(email);
        await perAddress.consume(address);
      },
    };
    const times = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < FAILURES) {
          const index = next++;
          const begin = performance.now();
          // a few accounts and addresses, as an attack on a few accounts from a few addresses looks
          await limiter.recordFailure(`account${index % 50}@bench.example`, `198.51.100.${index % 20}`);
          times.push(performance.now() - begin);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    times.sort((a, b) => a - b);
    return { perSecond: FAILURES / seconds, median: percentile(times, 0.5), p99: percentile(times, 0.99) };
  } finally {
    await adapter.close();
  }
}

const cluster = await clusters.startPostgresCluster({ fsync: true });
try {
  const rows = [];
  for (const kind of ['UNLOGGED', 'LOGGED']) {
    for (const concurrency of CONCURRENCY) {
      const database = await clusters.createTestDatabase(cluster.baseUrl);
      try {
        const { adapter } = await postgres.openPostgresStore(database.url); // the schema as the server makes it
        await adapter.close();
        const client = new pg.Client({ connectionString: database.url });
        await client.connect();
        await client.query(`ALTER TABLE ${postgres.RATE_LIMIT_TABLE} SET ${kind}`);
        await client.end();
        rows.push({ kind, concurrency, ...(await measure(database.url, concurrency)) });
      } finally {
        await database.drop();
      }
    }
  }
  console.log(`${FAILURES} failed sign-ins counted (2 rows each), PostgreSQL with fsync on:`);
  console.log('table      concurrent  failures/s  median ms  p99 ms');
  for (const row of rows) {
    console.log(
      `${row.kind.padEnd(10)} ${String(row.concurrency).padStart(10)} ${row.perSecond.toFixed(0).padStart(11)} ` +
        `${row.median.toFixed(2).padStart(10)} ${row.p99.toFixed(2).padStart(7)}`,
    );
  }
} finally {
  await cluster.stop();
}
