import type { Pool, PoolClient } from 'pg';
import { StorageError } from '../storage-error.ts';
import initialSchema from './migrations/0001-initial-schema.sql?raw';
import sessionsAndLoggedLimits from './migrations/0002-sessions-per-account-logged-limits.sql?raw';
import singleSignOn from './migrations/0003-single-sign-on-second-factors-idle-sessions.sql?raw';
import auditChainAndDataRights from './migrations/0004-audit-chain-data-rights.sql?raw';
import historyCountsAndIdempotencyKeys from './migrations/0005-history-counts-idempotency-keys.sql?raw';
import patientEhrReference from './migrations/0006-patient-ehr-reference.sql?raw';
import patientEhrIdentifierWeight from './migrations/0007-patient-ehr-identifier-weight.sql?raw';
import secondFactorFailures from './migrations/0008-second-factor-failures.sql?raw';
import authFlowOwner from './migrations/0009-auth-flow-owner.sql?raw';

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
];

/** Every instance takes this advisory lock (per database) while it migrates: one runs at a time. */
const MIGRATION_LOCK_KEY = 0x5367_786d; // "Sgxm"

/**
 * Brings the database up to the newest version: takes the session advisory lock (a second instance
 * starting at the same time waits for it, then finds nothing to do), then applies each migration not
 * yet in `schema_migrations`, each in its own transaction with its row. A database whose
 * schema_migrations names a version this code does not know (a newer server migrated it) stops
 * start-up. Answers the versions applied now.
 */
export async function runMigrations(
  pool: Pool,
  options: { log?: (message: string) => void; migrations?: readonly Migration[] } = {},
): Promise<number[]> {
  const migrations = options.migrations ?? MIGRATIONS;
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await client.query(
        `CREATE TABLE IF NOT EXISTS schema_migrations (
           version integer PRIMARY KEY,
           name text NOT NULL,
           applied_at timestamptz NOT NULL DEFAULT now()
         )`,
      );
      const applied = new Map<number, string>(
        (await client.query<{ version: number; name: string }>('SELECT version, name FROM schema_migrations')).rows.map(
          (row) => [row.version, row.name],
        ),
      );
      checkApplied(applied, migrations);
      const done: number[] = [];
      for (const migration of migrations) {
        if (applied.has(migration.version)) continue;
        await applyMigration(client, migration);
        options.log?.(`Applied database migration ${migration.version} (${migration.name})`);
        done.push(migration.version);
      }
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

async function applyMigration(client: PoolClient, migration: Migration) {
  try {
    await client.query('BEGIN');
    await client.query(migration.sql);
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
      : '';
    throw new StorageError(
      `Database migration ${migration.version} (${migration.name}) failed and was rolled back: ${message}.${hint}`,
    );
  }
}
