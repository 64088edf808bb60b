import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { prunePostgresTrail, verifyPostgresTrail } from '../../audit/trail.ts';
import { DOSE_INPUT } from '../../fhir/fhir-fixtures.test-support.ts';
import { backupPostgres, restorePostgres } from '../backup/postgres-backup.ts';
import { createTestDatabase, databaseUrl } from '../../test-support/postgres-cluster.ts';
import {
  builtServer,
  runBuiltCommand,
  runServerProcess,
  startServerProcess,
  stopServerProcess,
} from '../../test-support/server-process.ts';
import { startTestApi } from '../../test-support/test-api.ts';
import { openStorage } from '../open-storage.ts';
import { runMaintenance } from '../../ops/maintenance.ts';
import { StorageError } from '../storage-error.ts';
import { auditRoleCheck, serverRoles } from './audit-role.ts';
import { MIGRATIONS, openPostgresStore, runMigrations } from './index.ts';

// Two roles on PostgreSQL (README, "Two roles: one that cannot rewrite the audit trail"): the owner migrates and
// prunes, the server's role writes the records and adds audit lines but can never change, remove or empty them.
vi.setConfig({ testTimeout: 30_000 });

const baseUrl = inject('postgresBaseUrl');
// Roles are the cluster's, not a database's: named apart from those of suites running beside this one.
const suffix = randomBytes(4).toString('hex');
const OWNER = `sgx_owner_${suffix}`;
const SERVER = `sgx_server_${suffix}`;
const PERMISSION_DENIED = '42501';

async function admin(sql: string, url = databaseUrl(baseUrl, 'postgres')): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}
/** `url` connecting as `role` (the test cluster trusts every local connection: no password). */
function as(role: string, url: string): string {
  const parsed = new URL(url);
  parsed.username = role;
  return parsed.toString();
}

beforeAll(async () => {
  await admin(`CREATE ROLE ${OWNER} LOGIN`);
  await admin(`CREATE ROLE ${SERVER} LOGIN`);
});
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(async () => {
  await admin(`DROP ROLE IF EXISTS ${SERVER}`);
  await admin(`DROP ROLE IF EXISTS ${OWNER}`);
});

/** An empty database owned by the owner role, as the README's DBA makes it; URLs for each role. */
async function twoRoleDatabase() {
  const created = await createTestDatabase(baseUrl);
  cleanups.push(() => created.drop());
  await admin(`ALTER DATABASE ${created.name} OWNER TO ${OWNER}`);
  return { name: created.name, ownerUrl: as(OWNER, created.url), serverUrl: as(SERVER, created.url) };
}
function pool(url: string): pg.Pool {
  const opened = new pg.Pool({ connectionString: url, max: 2 });
  cleanups.push(() => opened.end());
  return opened;
}
/** Migrates as `url`'s role (npm run migrate's way), the server's role named when given. */
async function migrate(url: string, serverRole?: string) {
  const { adapter, pool: opened } = await openPostgresStore(url, { serverRole });
  const roles = await serverRoles(opened);
  await adapter.close();
  return roles;
}
const dose = { toolType: 'dose_calculator', inputs: DOSE_INPUT };
const REWRITES = ["UPDATE audit_events SET actor = 'x'", 'DELETE FROM audit_events', 'TRUNCATE audit_events'];

describe('the server on a role that may only add and read audit lines', () => {
  it('starts, writes records and audit lines, and cannot UPDATE, DELETE or TRUNCATE audit_events', async () => {
    const db = await twoRoleDatabase();
    expect(await migrate(db.ownerUrl, SERVER)).toEqual([SERVER]);

    const api = await startTestApi({}, { sharedDatabaseUrl: db.serverUrl });
    cleanups.push(() => api.close());
    const { token } = await api.signUp();
    const patient = await api.request('POST', '/api/patients', { token, body: { displayName: 'M.K.', mrn: 'K-1' } });
    expect(patient.status).toBe(201);
    const run = await api.request('POST', '/api/tools/run', { token, body: { ...dose, patientId: patient.body.id } });
    expect(run.status).toBe(200);
    expect((await api.request('GET', `/api/patients/${patient.body.id}`, { token })).status).toBe(200);
    const other = await api.signUp('Other');
    const { email, password } = other;
    expect((await api.request('POST', '/api/auth/signin', { body: { email, password } })).status).toBe(200);
    expect((await api.request('DELETE', '/api/account', { token: other.token, body: { password } })).status).toBe(204);
    // The jobs a server runs on its own (erasure, history retention), with what they write.
    const logged: string[] = [];
    await runMaintenance({
      ...api,
      now: () => new Date(Date.now() + 2 * 86_400_000),
      historyRetentionDays: 1,
      log: (message) => logged.push(message),
    });
    expect(logged).toEqual([expect.stringMatching(/^History retention \(1 days\): removed 1 history entries/)]);
    expect(await api.sql('SELECT current_user AS name')).toEqual([{ name: SERVER }]);
    expect(await auditRoleCheck(pool(db.serverUrl))).toBeUndefined();

    const before = await api.sql('SELECT * FROM audit_events ORDER BY id');
    expect(before.map((row) => row.action)).toEqual(
      expect.arrayContaining(['user.signup', 'patient.create', 'patient.read', 'account.delete', 'history.retention']),
    );
    for (const statement of REWRITES) {
      await expect(api.sql(statement), statement).rejects.toMatchObject({ code: PERMISSION_DENIED });
    }
    // Nor through the pruning, which deletes: that takes the owner's role.
    await expect(
      prunePostgresTrail(pool(db.serverUrl), { retentionDays: 365, now: new Date(Date.now() + 800 * 86_400_000) }),
    ).rejects.toMatchObject({ code: PERMISSION_DENIED });
    expect(await api.sql('SELECT * FROM audit_events ORDER BY id')).toEqual(before);
    expect((await api.verifyAudit()).broken).toBeUndefined();

    const owner = pool(db.ownerUrl);
    const pruned = await prunePostgresTrail(owner, {
      retentionDays: 365,
      now: new Date(Date.now() + 800 * 86_400_000),
    });
    expect(pruned.count).toBe(before.length);
    expect((await verifyPostgresTrail(owner)).broken).toBeUndefined();
  });

  it('needs no DDL when the schema is up to date, and names the owner when a migration is pending', async () => {
    const db = await twoRoleDatabase();
    const server = pool(db.serverUrl);
    // A database the owner has not migrated yet: nothing the server's role could make.
    const empty = openPostgresStore(db.serverUrl);
    await expect(empty).rejects.toThrow(StorageError);
    await expect(empty).rejects.toThrow(
      new RegExp(
        `The role "${SERVER}" may not read or make the table schema_migrations \\(permission denied for schema ` +
          'public\\): run `npm run migrate` as the role that owns the database',
      ),
    );

    await migrate(db.ownerUrl, SERVER);
    // Why runMigrations looks before it makes schema_migrations: PostgreSQL 15 asks CREATE on the schema of
    // CREATE TABLE IF NOT EXISTS even when the table is there.
    await expect(
      server.query('CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY)'),
    ).rejects.toMatchObject({ code: PERMISSION_DENIED });
    expect(await runMigrations(server)).toEqual([]);
    // Nor can the server's role grant itself anything: it owns nothing.
    await expect(runMigrations(server, { serverRole: SERVER })).rejects.toThrow(
      `The role "${SERVER}" does not own the database's tables, so it may not grant the server's role "${SERVER}" ` +
        'anything.',
    );

    const later = [...MIGRATIONS, { version: 99, name: 'a later table', sql: 'CREATE TABLE later_things (id int)' }];
    await expect(runMigrations(server, { migrations: later })).rejects.toThrow(
      `The role "${SERVER}" does not own the database's tables, so it may not bring the database from schema ` +
        `version ${MIGRATIONS.length} to 99 (a later table). Run \`npm run migrate\` as the role that owns them ` +
        '(README, "Two roles: one that cannot rewrite the audit trail"), then start the server.',
    );
    // The owner's migrate grants the server's role a table a later migration makes, without being told its name
    // again (the grants on audit_events name it), and still nothing more on audit_events.
    expect(await runMigrations(pool(db.ownerUrl), { migrations: later })).toEqual([99]);
    await server.query('INSERT INTO later_things VALUES (1)');
    expect((await server.query('DELETE FROM later_things')).rowCount).toBe(1);
    await expect(server.query('DELETE FROM audit_events')).rejects.toMatchObject({ code: PERMISSION_DENIED });
    expect(await runMigrations(server, { migrations: later })).toEqual([]);
  });

  it('refuses as the server role one that could still rewrite the trail, or that does not exist', async () => {
    const db = await twoRoleDatabase();
    await expect(migrate(db.ownerUrl, OWNER)).rejects.toThrow(
      `The server's role "${OWNER}" is the role migrate connects as, which owns the tables`,
    );
    await expect(migrate(db.ownerUrl, 'postgres')).rejects.toThrow(`The server's role "postgres" is a superuser`);
    await expect(migrate(db.ownerUrl, `nobody_${suffix}`)).rejects.toThrow(
      `The server's role "nobody_${suffix}" does not exist: create it first`,
    );
    await admin(`GRANT ${OWNER} TO ${SERVER}`);
    try {
      await expect(migrate(db.ownerUrl, SERVER)).rejects.toThrow(`is a member of the owner role and can act as it`);
    } finally {
      await admin(`REVOKE ${OWNER} FROM ${SERVER}`);
    }
    // Each refusal came before the first migration: nothing was made but schema_migrations, nothing granted.
    expect(await admin('SELECT count(*)::int AS n FROM schema_migrations', db.ownerUrl)).toMatchObject({
      rows: [{ n: 0 }],
    });
    expect(await serverRoles(pool(db.ownerUrl))).toEqual([]);
  });

  it('backs up as the server\u2019s role; restored by the owner, the grants come back with the tables', async () => {
    const db = await twoRoleDatabase();
    await migrate(db.ownerUrl, SERVER);
    const api = await startTestApi({}, { sharedDatabaseUrl: db.serverUrl });
    await api.signUp();
    await api.close();
    const dir = mkdtempSync(path.join(tmpdir(), 'sgx-roles-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'reversal.backup');
    // pg_dump reads every table and sequence: SELECT on audit_events_id_seq is granted for it.
    await backupPostgres(db.serverUrl, file);
    const restored = await twoRoleDatabase();
    expect((await restorePostgres(restored.ownerUrl, file, false)).counts.users).toBe(1);
    expect(await serverRoles(pool(restored.ownerUrl))).toEqual([SERVER]);
    const server = pool(restored.serverUrl);
    await server.query("INSERT INTO app_settings (key, value) VALUES ('restored', 'yes')");
    await expect(server.query('DELETE FROM audit_events')).rejects.toMatchObject({ code: PERMISSION_DENIED });
  });
});

describe('one role, as in development, the tests and the compose file', () => {
  it('migrates at start and works as before, with a warning that the role can rewrite the trail', async () => {
    const db = await twoRoleDatabase();
    const api = await startTestApi({}, { sharedDatabaseUrl: db.ownerUrl });
    cleanups.push(() => api.close());
    const { token } = await api.signUp();
    expect((await api.request('POST', '/api/patients', { token, body: { displayName: 'A.B.' } })).status).toBe(201);
    expect(await serverRoles(pool(db.ownerUrl))).toEqual([]);
    expect(await auditRoleCheck(pool(db.ownerUrl))).toBe(
      `The database role "${OWNER}" can UPDATE, DELETE and TRUNCATE audit_events (it owns the table): whoever ` +
        'holds DATABASE_URL can rewrite the audit trail. Give the server a role that may only add and read its ' +
        'lines, and keep the owner role for npm run migrate and npm run audit-prune (README, "Two roles: one that ' +
        'cannot rewrite the audit trail").',
    );
    // The server says so once, at start, on its log (open-storage.ts).
    const said: string[] = [];
    const opened = await openStorage(
      { dataDir: '', databaseUrl: db.ownerUrl, jwtSecret: 'x'.repeat(32), auditLogMaxBytes: 1 << 20 },
      { log: (message) => said.push(message) },
    );
    await opened.close();
    expect(said.filter((message) => message.includes('can rewrite the audit trail'))).toEqual([
      await auditRoleCheck(pool(db.ownerUrl)),
    ]);
    expect(await auditRoleCheck(pool(as('postgres', db.ownerUrl)))).toMatch(
      /^The database role "postgres" can UPDATE, DELETE and TRUNCATE audit_events \(it is a superuser\)/,
    );
    // A DBA's GRANT of more than INSERT and SELECT to a server's role is seen too.
    await migrate(db.ownerUrl, SERVER);
    await admin(`GRANT DELETE ON audit_events TO ${SERVER}`, as('postgres', db.ownerUrl));
    expect(await auditRoleCheck(pool(db.serverUrl))).toMatch(
      new RegExp(`^The database role "${SERVER}" can DELETE audit_events \\(it was granted that\\)`),
    );
    // and the owner's next migrate takes it back.
    await migrate(db.ownerUrl, SERVER);
    expect(await auditRoleCheck(pool(db.serverUrl))).toBeUndefined();
  });
});

describe('as built: npm run migrate -- --server-role, the server on its role, npm run audit-prune', () => {
  let dist: string;
  beforeAll(async () => {
    dist = path.dirname(await builtServer());
  }, 120_000);
  const command = (name: string, args: string[], env: Record<string, string>) =>
    runBuiltCommand(path.join(dist, `${name}.js`), args, env);

  it('grants a database migrated with one role to a server role; the built server starts on that role', async () => {
    const db = await twoRoleDatabase();
    // An installation of one role (the owner's) turned into two: the schema is up to date already.
    expect((await command('migrate', [], { DATABASE_URL: db.ownerUrl })).code).toBe(0);
    const granted = await command('migrate', ['--server-role', SERVER], { DATABASE_URL: db.ownerUrl });
    expect(granted.stderr).toBe('');
    expect(granted.code).toBe(0);
    expect(granted.stdout).toContain(': nothing to apply.');
    expect(granted.stdout).toContain(
      `The role "${SERVER}" is granted what a server needs: the tables, but on audit_events only INSERT and SELECT`,
    );
    const dataDir = mkdtempSync(path.join(tmpdir(), 'sgx-roles-'));
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const server = await startServerProcess(await builtServer(), dataDir, { DATABASE_URL: db.serverUrl });
    try {
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      const signUp = await fetch(`${server.url}/api/auth/signup`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          email: 'roles@hospital.example',
          password: 'correct horse battery',
          name: 'Roles',
          agreeTerms: true,
        }),
      });
      expect(signUp.status).toBe(201);
    } finally {
      await stopServerProcess(server);
    }
    expect(server.output()).not.toMatch(/permission denied|can UPDATE/);
    const rows = await admin('SELECT action FROM audit_events', db.ownerUrl);
    expect(rows.rows.map((row) => row.action)).toContain('user.signup');
  });

  it('npm run audit-prune deletes as AUDIT_PRUNE_DATABASE_URL\u2019s role, never as the server\u2019s', async () => {
    const db = await twoRoleDatabase();
    await migrate(db.ownerUrl, SERVER);
    const longAgo = 800 * 86_400_000;
    const old = await startTestApi({ now: () => new Date(Date.now() - longAgo) }, { sharedDatabaseUrl: db.serverUrl });
    await old.signUp();
    await old.close();
    const count = async () => Number((await admin('SELECT count(*) AS n FROM audit_events', db.ownerUrl)).rows[0].n);
    const lines = await count();
    expect(lines).toBeGreaterThan(0);

    const asServer = await command('audit-prune', [], { DATABASE_URL: db.serverUrl });
    expect(asServer.code).toBe(1);
    expect(asServer.stderr).toMatch(/^audit-prune: failed: permission denied for table audit_events/);
    expect(await count()).toBe(lines);

    const asOwner = await command('audit-prune', [], {
      DATABASE_URL: db.serverUrl,
      AUDIT_PRUNE_DATABASE_URL: db.ownerUrl,
    });
    expect(asOwner.stderr).toBe('');
    expect(asOwner.code).toBe(0);
    expect(asOwner.stdout).toContain(`Removed ${lines} lines older than 400 days`);
    expect(asOwner.stdout).toMatch(/Audit trail intact/);

    const password = 's3cret-pw';
    const unreachable = await command('audit-prune', [], {
      DATABASE_URL: db.serverUrl,
      AUDIT_PRUNE_DATABASE_URL: `postgres://${OWNER}:${password}@127.0.0.1:1/${db.name}`,
    });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(/^audit-prune: Cannot connect to PostgreSQL at 127\.0\.0\.1:1\//);
    expect(unreachable.stdout + unreachable.stderr).not.toContain(password);
  });

  it('a server started as its role on a database the owner has not migrated stops, saying what to run', async () => {
    const db = await twoRoleDatabase();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'sgx-roles-'));
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const result = await runServerProcess(await builtServer(), dataDir, { DATABASE_URL: db.serverUrl });
    expect(result).toMatchObject({ exitCode: 1 });
    expect('exitCode' in result ? result.output : result.output()).toMatch(
      new RegExp(
        `Cannot start: PostgreSQL at 127\\.0\\.0\\.1:\\d+/${db.name} as ${SERVER}: The role "${SERVER}" may not ` +
          'read or make the table schema_migrations \\(permission denied for schema public\\): run `npm run ' +
          'migrate` as the role that owns the database',
      ),
    );
  });
});
