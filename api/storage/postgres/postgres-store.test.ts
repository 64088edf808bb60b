import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import pg from 'pg';
import { completeSession } from '../records.ts';
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, databaseUrl, type TestDatabase } from '../../test-support/postgres-cluster.ts';
import { AUDIT_FIELD_MAX_LENGTH } from '../audit-log.ts';
import { StorageError } from '../storage-error.ts';
import {
  JWT_SECRET_SETTING,
  loadOrCreateSharedSecret,
  MIGRATIONS,
  openPostgresStore,
  postgresAuditLog,
  RATE_LIMIT_TABLE,
  runMigrations,
  type PostgresStore,
} from './index.ts';

// What only the PostgreSQL adapter has: migrations, indexes, start-up errors, the shared secret, the
// audit table and the rate limiter's table. The storage behaviour itself is store-contract.test.ts.
const baseUrl = inject('postgresBaseUrl');
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
async function freshDatabase(): Promise<TestDatabase> {
  const database = await createTestDatabase(baseUrl);
  cleanups.push(() => database.drop());
  return database;
}
async function open(url: string, log?: (message: string) => void): Promise<PostgresStore> {
  const opened = await openPostgresStore(url, { log });
  cleanups.push(() => opened.adapter.close());
  return opened;
}
async function query<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}
const startError = (url: string) =>
  openPostgresStore(url).then(
    () => {
      throw new Error('opened, but should have refused');
    },
    (error: unknown) => error as Error,
  );

describe('migrations', () => {
  it('are applied once on a fresh database and recorded with their names and times', async () => {
    const database = await freshDatabase();
    const log: string[] = [];
    const before = Date.now();
    await open(database.url, (message) => log.push(message));
    const rows = await query<{ version: number; name: string; applied_at: Date }>(
      database.url,
      'SELECT version, name, applied_at FROM schema_migrations ORDER BY version',
    );
    expect(rows.map(({ version, name }) => ({ version, name }))).toEqual(
      MIGRATIONS.map(({ version, name }) => ({ version, name })),
    );
    expect(rows[0]!.version).toBe(1);
    for (const row of rows) expect(row.applied_at.getTime()).toBeGreaterThanOrEqual(before - 60_000);
    expect(log).toEqual(MIGRATIONS.map(({ version, name }) => `Applied database migration ${version} (${name})`));
  });

  it('two instances starting at once on a fresh database both open, and each migration runs once', async () => {
    const database = await freshDatabase();
    const logs: string[][] = [[], [], []];
    const stores = await Promise.all(logs.map((log) => open(database.url, (message) => log.push(message))));
    for (const { adapter } of stores) await expect(adapter.ping()).resolves.toBeUndefined();
    const rows = await query<{ version: number; count: string }>(
      database.url,
      'SELECT version, count(*) FROM schema_migrations GROUP BY version ORDER BY version',
    );
    expect(rows).toEqual(MIGRATIONS.map(({ version }) => ({ version, count: '1' })));
    // exactly one of them applied them; the others found nothing to do
    expect(logs.map((log) => log.length).sort()).toEqual([0, 0, MIGRATIONS.length]);
  });

  it('a second start applies nothing and changes no recorded time', async () => {
    const database = await freshDatabase();
    const first = await open(database.url);
    await first.adapter.close();
    const times = await query(database.url, 'SELECT version, applied_at FROM schema_migrations ORDER BY version');
    const log: string[] = [];
    await open(database.url, (message) => log.push(message));
    expect(log).toEqual([]);
    expect(await query(database.url, 'SELECT version, applied_at FROM schema_migrations ORDER BY version')).toEqual(
      times,
    );
  });

  it('a later migration is applied once to a database at an earlier version, also by instances racing', async () => {
    const database = await freshDatabase();
    const { pool } = await open(database.url);
    // slow enough that, without the lock, the second run would start it too and fail on the table
    const version = MIGRATIONS.length + 1;
    const next = { version, name: 'test: add a table', sql: 'SELECT pg_sleep(0.2); CREATE TABLE later (id int)' };
    const pools = [pool, (await open(database.url)).pool, (await open(database.url)).pool];
    const applied = await Promise.all(pools.map((each) => runMigrations(each, { migrations: [...MIGRATIONS, next] })));
    expect(applied.map((versions) => versions.join()).sort()).toEqual(['', '', String(version)]);
    expect(await query(database.url, 'SELECT version, name FROM schema_migrations ORDER BY version')).toEqual([
      ...MIGRATIONS.map((migration) => ({ version: migration.version, name: migration.name })),
      { version, name: 'test: add a table' },
    ]);
    expect(await query(database.url, 'SELECT count(*)::int AS n FROM later')).toEqual([{ n: 0 }]);
  });

  it('a database migrated by a newer server (an unknown version) stops start-up and is not changed', async () => {
    const database = await freshDatabase();
    const first = await open(database.url);
    await first.adapter.close();
    await query(database.url, "INSERT INTO schema_migrations (version, name) VALUES (999, 'from the future')");
    const error = await startError(database.url);
    expect(error).toBeInstanceOf(StorageError);
    expect(error.message).toContain(`PostgreSQL at 127.0.0.1:${new URL(baseUrl).port}/${database.name} as postgres:`);
    expect(error.message).toContain('schema version 999 (from the future), which this server does not know');
    expect(await query(database.url, 'SELECT count(*)::int AS n FROM schema_migrations')).toEqual([
      { n: MIGRATIONS.length + 1 },
    ]);
  });

  it('a migration that fails is rolled back whole and stops start-up with its version and name', async () => {
    const database = await freshDatabase();
    // a table the first migration creates is already there: its CREATE TABLE fails half-way through
    await query(database.url, 'CREATE TABLE exports (id text)');
    const error = await startError(database.url);
    expect(error).toBeInstanceOf(StorageError);
    expect(error.message).toContain('Database migration 1 (initial schema) failed and was rolled back');
    expect(error.message).toContain('relation "exports" already exists');
    const tables = await query<{ tablename: string }>(
      database.url,
      "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
    );
    expect(tables.map((table) => table.tablename)).toEqual(['exports', 'schema_migrations']);
    expect(await query(database.url, 'SELECT * FROM schema_migrations')).toEqual([]);
  });

  it('creates the indexes the queries need', async () => {
    const database = await freshDatabase();
    await open(database.url);
    const rows = await query<{ indexname: string; indexdef: string }>(
      database.url,
      "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'",
    );
    const definition = (name: string) => rows.find((row) => row.indexname === name)?.indexdef;
    expect(definition('users_email_lower_key')).toMatch(
      /UNIQUE INDEX .* ON public\.users USING btree \(lower\(email\)\)/,
    );
    expect(definition('sessions_pkey')).toContain('(id)');
    expect(definition('sessions_expires_at_idx')).toContain('(expires_at)');
    expect(definition('sessions_revoked_at_idx')).toContain('(revoked_at) WHERE (revoked_at IS NOT NULL)');
    expect(definition('sessions_user_seq_idx')).toContain('(user_id, seq)');
    expect(definition('patients_owner_idx')).toContain('(owner_id)');
    expect(definition('patients_search_text_trgm_idx')).toContain('USING gin (search_text gin_trgm_ops)');
    expect(definition('calculations_owner_seq_idx')).toContain('(owner_id, seq DESC)');
    expect(definition('calculations_owner_patient_seq_idx')).toContain('(owner_id, patient_id, seq DESC)');
    expect(definition('calculations_owner_tool_seq_idx')).toContain('(owner_id, tool_type, seq DESC)');
    expect(definition('exports_owner_seq_idx')).toContain('(owner_id, seq DESC)');
    expect(definition('exports_owner_patient_seq_idx')).toContain('(owner_id, patient_id, seq DESC)');
    expect(definition('app_settings_pkey')).toContain('(key)');
    expect(definition('rate_limits_pkey')).toContain('(key)');
    const [limits] = await query<{ relpersistence: string }>(
      database.url,
      'SELECT relpersistence FROM pg_class WHERE relname = $1',
      [RATE_LIMIT_TABLE],
    );
    // Logged (migration 2): sign-in lockouts outlive a database crash (docs/engineering-notes.md#auth).
    expect(limits?.relpersistence).toBe('p');
  });

  it('a patient search can use the trigram index', async () => {
    const database = await freshDatabase();
    await open(database.url);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      await client.query('SET enable_seqscan = off');
      const plan = await client.query("EXPLAIN SELECT id FROM patients WHERE search_text LIKE '%smith%' ESCAPE '\\'");
      const text = plan.rows.map((row: { 'QUERY PLAN': string }) => row['QUERY PLAN']).join('\n');
      expect(text).toContain('Bitmap Index Scan on patients_search_text_trgm_idx');
    } finally {
      await client.end();
    }
  });
});

describe('start-up errors', () => {
  let silent: { server: Server; sockets: Socket[] } | undefined;
  afterEach(async () => {
    if (!silent) return;
    for (const socket of silent.sockets) socket.destroy();
    await new Promise((resolve) => silent!.server.close(resolve));
    silent = undefined;
  });
  /** A port nothing listens on (taken, then released). */
  const closedPort = async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return port;
  };

  it('a refused connection is a StorageError naming host, port and database, never the password', async () => {
    const port = await closedPort();
    const error = await startError(`postgres://clinic:s3cret-Pa55word@127.0.0.1:${port}/clinic_db`);
    expect(error).toBeInstanceOf(StorageError);
    expect(error.message).toBe(
      `Cannot connect to PostgreSQL at 127.0.0.1:${port}/clinic_db as clinic: ` +
        'connection refused (is the server running, and on this port?)',
    );
    expect(error.message).not.toContain('s3cret');
    expect(error.message).not.toContain('\n');
  });

  it('a database that does not exist is a StorageError naming it, never the password', async () => {
    const url = databaseUrl(baseUrl, 'no_such_database').replace('postgres@', 'postgres:hunter2-secret@');
    const error = await startError(url);
    expect(error).toBeInstanceOf(StorageError);
    expect(error.message).toBe(
      `Cannot connect to PostgreSQL at 127.0.0.1:${new URL(baseUrl).port}/no_such_database as postgres: ` +
        'the database does not exist',
    );
    expect(error.message).not.toContain('hunter2');
  });

  it.each([
    ['not a URL', 'The PostgreSQL URL is not a valid URL (expected postgres://user:password@host:port/db).'],
    [
      'mysql://root:pw-secret@localhost/db',
      'The PostgreSQL URL must start with postgres:// (it starts with mysql://).',
    ],
  ])('a bad URL (%s) is a StorageError that does not repeat it', async (url, message) => {
    const error = await startError(url);
    expect(error).toBeInstanceOf(StorageError);
    expect(error.message).toBe(message);
    expect(error.message).not.toContain('secret');
  });

  it('a server that never answers is a StorageError after the connect timeout, not a hang', async () => {
    const sockets: Socket[] = [];
    const server = createServer((socket) => sockets.push(socket)); // accepts the connection and says nothing
    silent = { server, sockets };
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const started = Date.now();
    const error = await openPostgresStore(`postgres://u:quiet-secret@127.0.0.1:${port}/db`, {
      connectTimeoutMs: 300,
    }).then(
      () => new Error('opened, but should have refused'),
      (caught: unknown) => caught as Error,
    );
    expect(error).toBeInstanceOf(StorageError);
    expect(error.message).toBe(
      `Cannot connect to PostgreSQL at 127.0.0.1:${port}/db as u: ` +
        'no answer within 0.3 s (is this a PostgreSQL server?)',
    );
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('ping rejects once the database is gone', async () => {
    const database = await createTestDatabase(baseUrl);
    const { adapter } = await openPostgresStore(database.url);
    try {
      await expect(adapter.ping()).resolves.toBeUndefined();
      await database.drop();
      await expect(adapter.ping()).rejects.toThrow();
    } finally {
      await adapter.close();
    }
  });
});

describe('the pool’s other users', () => {
  it('two instances asking for the shared secret at once get the same 48 random bytes', async () => {
    const database = await freshDatabase();
    const [first, second] = await Promise.all([open(database.url), open(database.url)]);
    const secrets = await Promise.all([
      loadOrCreateSharedSecret(first.pool),
      loadOrCreateSharedSecret(second.pool),
      loadOrCreateSharedSecret(first.pool),
    ]);
    expect(secrets[0]!.length).toBe(48);
    expect(secrets[1]!.equals(secrets[0]!)).toBe(true);
    expect(secrets[2]!.equals(secrets[0]!)).toBe(true);
    expect((await loadOrCreateSharedSecret(second.pool)).equals(secrets[0]!)).toBe(true);
    const rows = await query<{ value: string }>(database.url, 'SELECT value FROM app_settings WHERE key = $1', [
      JWT_SECRET_SETTING,
    ]);
    expect(rows).toEqual([{ value: secrets[0]!.toString('base64') }]);
    // another database gets another secret
    const other = await open((await freshDatabase()).url);
    expect((await loadOrCreateSharedSecret(other.pool)).equals(secrets[0]!)).toBe(false);
  });

  it('a damaged stored secret stops start-up instead of signing with it', async () => {
    const database = await freshDatabase();
    const { pool } = await open(database.url);
    await pool.query('INSERT INTO app_settings (key, value) VALUES ($1, $2)', [JWT_SECRET_SETTING, 'c2hvcnQ=']);
    await expect(loadOrCreateSharedSecret(pool)).rejects.toThrow(StorageError);
    await expect(loadOrCreateSharedSecret(pool)).rejects.toThrow('is empty or damaged');
  });

  it('the audit table receives events with their time and every text field capped', async () => {
    const database = await freshDatabase();
    const { pool } = await open(database.url);
    const audit = postgresAuditLog(pool, () => new Date('2026-06-01T12:34:56.789Z'));
    await audit.record({ actor: 'u-1', action: 'user.signin', outcome: 'success' }, null);
    const long = 'x'.repeat(AUDIT_FIELD_MAX_LENGTH + 50);
    await audit.record(
      {
        actor: long,
        action: long as never,
        recordType: 'patient',
        recordId: long,
        outcome: 'denied',
      },
      null,
    );
    const rows = await query<Record<string, unknown>>(
      database.url,
      'SELECT time, actor, action, record_type, record_id, outcome FROM audit_events ' +
        "WHERE action <> 'audit.key' ORDER BY id",
    );
    expect(rows).toEqual([
      {
        time: new Date('2026-06-01T12:34:56.789Z'),
        actor: 'u-1',
        action: 'user.signin',
        record_type: null,
        record_id: null,
        outcome: 'success',
      },
      {
        time: new Date('2026-06-01T12:34:56.789Z'),
        actor: 'x'.repeat(AUDIT_FIELD_MAX_LENGTH),
        action: 'x'.repeat(AUDIT_FIELD_MAX_LENGTH),
        record_type: 'patient',
        record_id: 'x'.repeat(AUDIT_FIELD_MAX_LENGTH),
        outcome: 'denied',
      },
    ]);
  });

  it('RateLimiterPostgres counts in the migrated table (tableCreated: true)', async () => {
    const database = await freshDatabase();
    const { pool } = await open(database.url);
    const limiter = new RateLimiterPostgres({
      storeClient: pool,
      tableName: RATE_LIMIT_TABLE,
      tableCreated: true,
      keyPrefix: 'sign-in',
      points: 2,
      duration: 60,
    });
    await limiter.consume('a@b.example');
    await limiter.consume('a@b.example');
    await expect(limiter.consume('a@b.example')).rejects.toMatchObject({ remainingPoints: 0 });
    await expect(limiter.consume('other@b.example')).resolves.toMatchObject({ remainingPoints: 1 });
    const rows = await query<{ key: string; points: number }>(
      database.url,
      `SELECT key, points FROM ${RATE_LIMIT_TABLE} ORDER BY key`,
    );
    expect(rows).toEqual([
      { key: 'sign-in:a@b.example', points: 3 },
      { key: 'sign-in:other@b.example', points: 1 },
    ]);
  });
});

describe('timestamps', () => {
  it('come back as the ISO text stored, whatever the session time zone', async () => {
    const database = await freshDatabase();
    const url = new URL(database.url);
    url.searchParams.set('options', '-c TimeZone=Asia/Kolkata');
    const { adapter } = await open(url.toString());
    const [zone] = await query<{ TimeZone: string }>(url.toString(), 'SHOW TimeZone');
    expect(zone?.TimeZone).toBe('Asia/Kolkata');
    const times = ['2026-03-29T00:59:59.999Z', '2026-10-25T01:30:00.000Z', '1999-12-31T23:59:59.500Z'];
    for (const [index, at] of times.entries()) {
      const stored = { id: `s${index}`, userId: 'u', createdAt: at, expiresAt: at, revokedAt: at };
      await adapter.createSession(completeSession({ ...stored, lastUsedAt: at }));
      expect(await adapter.findSession(`s${index}`)).toEqual({
        ...stored,
        lastUsedAt: at,
        device: null,
        method: 'password',
        oidc: null,
      });
    }
  });
});
