import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { MIGRATIONS } from './storage/postgres/index.ts';
import { createTestDatabase, type TestDatabase } from './test-support/postgres-cluster.ts';
import { builtServer, runBuiltCommand } from './test-support/server-process.ts';

// npm run migrate, as built (dist/server/migrate.js): what the Helm chart's pre-upgrade Job runs.
const baseUrl = inject('postgresBaseUrl');
let migrate: string;
let database: TestDatabase;
const dir = mkdtempSync(path.join(tmpdir(), 'sgx-migrate-'));
beforeAll(async () => {
  migrate = path.join(path.dirname(await builtServer()), 'migrate.js');
  database = await createTestDatabase(baseUrl);
}, 60_000);
afterAll(async () => {
  await database?.drop();
  rmSync(dir, { recursive: true, force: true });
});

const run = (env: Record<string, string>) => runBuiltCommand(migrate, [], env);

async function versions(url: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY 1')).rows.map(
      (row) => row.version,
    );
  } finally {
    await client.end();
  }
}

describe('npm run migrate', () => {
  const latest = MIGRATIONS[MIGRATIONS.length - 1]!;
  it('applies the migrations to an empty database (URL from DATABASE_URL_FILE), then finds nothing to do', async () => {
    const urlFile = path.join(dir, 'database-url');
    writeFileSync(urlFile, `${database.url}\n`, { mode: 0o600 });
    const first = await run({ DATABASE_URL_FILE: urlFile });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`Applied database migration 1 (${MIGRATIONS[0]!.name})`);
    expect(first.stdout).toMatch(new RegExp(`is at schema version ${latest.version} \\(${latest.name}\\)\\.\\n$`));
    expect(await versions(database.url)).toEqual(MIGRATIONS.map((migration) => migration.version));

    const second = await run({ DATABASE_URL: database.url });
    expect(second.code).toBe(0);
    expect(second.stdout).not.toContain('Applied');
    expect(second.stdout).toContain(`is at schema version ${latest.version} (${latest.name}): nothing to apply.`);
  });
  it('refuses without a database, and never prints the password of one it cannot reach', async () => {
    const none = await run({});
    expect(none.code).toBe(1);
    expect(none.stderr).toBe(
      'migrate: DATABASE_URL (or DATABASE_URL_FILE) is not set: only a PostgreSQL database has migrations to ' +
        'run (a server converts its DATA_DIR itself at start)\n',
    );
    const unreachable = await run({ DATABASE_URL: 'postgres://reversal:s3cret-pw@127.0.0.1:1/reversal' });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(/^migrate: Cannot connect to PostgreSQL at 127\.0\.0\.1:1\/reversal/);
    expect(unreachable.stderr + unreachable.stdout).not.toContain('s3cret-pw');
  });
});
