import type { Pool, PoolClient } from 'pg';
import { StorageError } from '../storage-error.ts';
import { checkServerRole, grantServerRole, ownsTables, serverRoles, TWO_ROLES_SECTION } from './audit-role.ts';
import initialSchema from './migrations/0001-initial-schema.sql?raw';
import sessionsAndLoggedLimits from './migrations/0002-sessions-per-account-logged-limits.sql?raw';
import singleSignOn from './migrations/0003-single-sign-on-second-factors-idle-sessions.sql?raw';
import auditChainAndDataRights from './migrations/0004-audit-chain-data-rights.sql?raw';
import historyCountsAndIdempotencyKeys from './migrations/0005-history-counts-idempotency-keys.sql?raw';
import patientEhrReference from './migrations/0006-patient-ehr-reference.sql?raw';
import patientEhrIdentifierWeight from './migrations/0007-patient-ehr-identifier-weight.sql?raw';
import secondFactorFailures from './migrations/0008-second-factor-failures.sql?raw';
import authFlowOwner from './migrations/0009-auth-flow-owner.sql?raw';
import auditKeyAnchorsRoles from './migrations/0010-audit-key-anchors-roles.sql?raw';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/**
 * The schema's versions, oldest first: one plain-SQL file each (migrations/NNNN-name.sql), never
 * edited once released; a change is a new file and a new entry here. Imported as text (`?raw`), so
 * the built server carries them.
 */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'initial schema', sql: initialSchema },
  { version: 2, name: 'sessions per account, logged rate limits', sql: sessionsAndLoggedLimits },
  { version: 3, name: 'single sign-on, second factors, idle sessions', sql: singleSignOn },
  { version: 4, name: 'audit chain, data rights', sql: auditChainAndDataRights },
  { version: 5, name: 'history counts, idempotency keys', sql: historyCountsAndIdempotencyKeys },
  { version: 6, name: 'patient EHR reference', sql: patientEhrReference },
  { version: 7, name: 'patient EHR identifier and weight', sql: patientEhrIdentifierWeight },
  { version: 8, name: 'second-factor failures in a row', sql: secondFactorFailures },
  { version: 9, name: 'auth flow owner', sql: authFlowOwner },
  { version: 10, name: 'audit key, anchors and roles', sql: auditKeyAnchorsRoles },
];

/** Every instance takes this advisory lock (per database) while it migrates: one runs at a time. */
const MIGRATION_LOCK_KEY = 0x5367_786d; // "Sgxm"

export interface MigrationOptions {
  /** Hears each migration applied. */
  log?: (message: string) => void;
  migrations?: readonly Migration[];
  /**
   * `npm run migrate -- --server-role NAME`: the role the servers connect as, when it is not the role migrating
   * (the tables' owner). It is granted what a server needs (audit-role.ts: on audit_events only INSERT and
   * SELECT), now and with every migration applied later, until its grants are revoked.
   */
  serverRole?: string;
}

/**
 * Brings the database up to the newest version: takes the session advisory lock (a second instance
 * starting at the same time waits for it, then finds nothing to do), then applies each migration not
 * yet in `schema_migrations`, each in its own transaction with its row and the grants to the server roles
 * (audit-role.ts). A database whose schema_migrations names a version this code does not know (a newer
 * server migrated it) stops start-up; so does one with migrations to apply when the role connected does not
 * own the tables (a server's role of a two-role setup: `npm run migrate` as the owner applies them). Up to date,
 * it runs no DDL, so such a role starts. Answers the versions applied now.
 */
export async function runMigrations(pool: Pool, options: MigrationOptions = {}): Promise<number[]> {
  const migrations = options.migrations ?? MIGRATIONS;
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      const applied = await appliedVersions(client);
      checkApplied(applied, migrations);
      const pending = migrations.filter((migration) => !applied.has(migration.version));
      if ((pending.length > 0 || options.serverRole) && !(await ownsTables(client))) {
        throw new StorageError(notOwner(await currentUser(client), applied, migrations, options.serverRole));
      }
      if (options.serverRole) await checkServerRole(client, options.serverRole);
      const done: number[] = [];
      for (const migration of pending) {
        await applyMigration(client, migration, options.serverRole);
        options.log?.(`Applied database migration ${migration.version} (${migration.name})`);
        done.push(migration.version);
      }
      if (options.serverRole && done.length === 0) await grantInTransaction(client, options.serverRole);
      return done;
    } finally {
      // If this fails the connection is destroyed below, which ends the lock too.
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => (broken = true));
    }
  } catch (error) {
    broken = true;
    throw error;
  } finally {
    // A connection that failed mid-run is not given back to the pool (it may hold the lock).
    client.release(broken);
  }
}

/**
 * The versions `schema_migrations` holds, the table made first when there is none. Only then: CREATE TABLE IF NOT
 * EXISTS needs CREATE on the schema even when the table exists, which a server's role does not have (PostgreSQL 15
 * gives it to nobody but the database's owner by default).
 */
async function appliedVersions(client: PoolClient): Promise<Map<number, string>> {
  try {
    const exists = (
      await client.query<{ exists: boolean }>(`SELECT to_regclass('schema_migrations') IS NOT NULL AS exists`)
    ).rows[0]!.exists;
    if (!exists) {
      await client.query(
        `CREATE TABLE IF NOT EXISTS schema_migrations (
           version integer PRIMARY KEY,
           name text NOT NULL,
           applied_at timestamptz NOT NULL DEFAULT now()
         )`,
      );
    }
    const rows = (await client.query<{ version: number; name: string }>('SELECT version, name FROM schema_migrations'))
      .rows;
    return new Map(rows.map((row) => [row.version, row.name]));
  } catch (error) {
    if ((error as { code?: string }).code !== INSUFFICIENT_PRIVILEGE) throw error;
    throw new StorageError(
      `The role "${await currentUser(client)}" may not read or make the table schema_migrations ` +
        `(${(error as Error).message}): run \`npm run migrate\` as the role that owns the database, naming this ` +
        `role with --server-role if the servers connect as it (${TWO_ROLES_SECTION}).`,
    );
  }
}

/** SQLSTATE 42501: permission denied. */
const INSUFFICIENT_PRIVILEGE = '42501';

async function currentUser(client: PoolClient): Promise<string> {
  return (await client.query<{ name: string }>('SELECT current_user AS name')).rows[0]!.name;
}

/** Why a role that does not own the tables stops: what it would need, and who can do it. */
function notOwner(
  user: string,
  applied: ReadonlyMap<number, string>,
  migrations: readonly Migration[],
  serverRole: string | undefined,
): string {
  const latest = migrations[migrations.length - 1]!;
  const at = Math.max(0, ...applied.keys());
  const what = serverRole
    ? `may not grant the server's role "${serverRole}" anything`
    : `may not bring the database from schema version ${at} to ${latest.version} (${latest.name})`;
  return (
    `The role "${user}" does not own the database's tables, so it ${what}. Run \`npm run migrate\` as the role ` +
    `that owns them (${TWO_ROLES_SECTION}), then start the server.`
  );
}

function checkApplied(applied: ReadonlyMap<number, string>, migrations: readonly Migration[]) {
  const known = new Map(migrations.map((migration) => [migration.version, migration.name]));
  for (const [version, name] of applied) {
    if (!known.has(version)) {
      throw new StorageError(
        `The database has schema version ${version} (${name}), which this server does not know: ` +
          'a newer server has migrated it. Run that version, or restore a backup made before it.',
      );
    }
    if (known.get(version) !== name) {
      throw new StorageError(
        `The database's schema version ${version} is "${name}", but this server's is "${known.get(version)}". ` +
          'It has not been changed.',
      );
    }
  }
}

/** The grants to every server role (audit-role.ts): in the transaction under way. */
async function grantServerRoles(client: PoolClient, named: string | undefined) {
  const roles = new Set(await serverRoles(client));
  if (named) roles.add(named);
  for (const role of roles) await grantServerRole(client, role);
}

/** `--server-role NAME` with nothing to migrate: the grants alone, in one transaction. */
async function grantInTransaction(client: PoolClient, role: string) {
  try {
    await client.query('BEGIN');
    await grantServerRoles(client, role);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw new StorageError(`The grants to the server's role "${role}" failed: ${(error as Error).message}.`);
  }
}

async function applyMigration(client: PoolClient, migration: Migration, serverRole: string | undefined) {
  try {
    await client.query('BEGIN');
    await client.query(migration.sql);
    await grantServerRoles(client, serverRole);
    await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
      migration.version,
      migration.name,
    ]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    const message = (error as Error).message;
    const hint = /pg_trgm|extension/i.test(message)
      ? ' The pg_trgm extension must be available (Debian: part of the postgresql package; elsewhere often ' +
        'postgresql-contrib), and the database user must be allowed to create it (the database owner can, ' +
        'since PostgreSQL 13), or a superuser runs CREATE EXTENSION pg_trgm in this database first.'
      : (error as { code?: string }).code === INSUFFICIENT_PRIVILEGE
        ? ` Run \`npm run migrate\` as the role that owns the tables (${TWO_ROLES_SECTION}).`
        : '';
    throw new StorageError(
      `Database migration ${migration.version} (${migration.name}) failed and was rolled back: ${message}.${hint}`,
    );
  }
}
