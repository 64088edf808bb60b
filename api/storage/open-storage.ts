import { createSecretKey, type KeyObject } from 'node:crypto';
import { loadJwtKey } from '../auth/jwt-secret.ts';
import { createSignInLimiter, type SignInLimiter } from '../auth/sign-in-limiter.ts';
import type { ServerConfig } from '../config.ts';
import { fileAuditLog, type AuditLog } from './audit-log.ts';
import { prepareDataDir } from './data-dir.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { openLowdbStore } from './lowdb-store.ts';
import { createStore } from './policy.ts';
import {
  describeTarget,
  loadOrCreateSharedSecret,
  openPostgresStore,
  postgresAuditLog,
  RATE_LIMIT_TABLE,
} from './postgres/index.ts';
import { localCoordinator, postgresCoordinator, type TaskCoordinator } from '../ops/maintenance.ts';
import { chainHead, withChainLock } from './postgres/audit-log.ts';
import type { Store } from './store.ts';

/** Everything the app keeps, from one place: the embedded store in DATA_DIR, or PostgreSQL. */
export interface Storage {
  store: Store;
  audit: AuditLog;
  jwtKey: KeyObject;
  limiter: SignInLimiter;
  /** Runs the maintenance jobs on one instance at a time (ops/maintenance.ts). */
  coordinator: TaskCoordinator;
  /** Where the data is, for the start-up line (never a password). */
  location: string;
  /** Closes the store and releases what it holds (the DATA_DIR lock, the database connections). */
  close(): Promise<void>;
}

type StorageConfig = Pick<ServerConfig, 'dataDir' | 'databaseUrl' | 'jwtSecret' | 'auditLogMaxBytes'>;

/**
 * With DATABASE_URL, every instance that shares the database shares everything that makes them one
 * service: records and PDFs, sessions (a sign-out is seen by all at once), sign-in failure counts,
 * the audit log and the JWT secret (JWT_SECRET, or one generated once and kept in the database).
 * Without it, all of that lives in DATA_DIR, locked to one process.
 */
export async function openStorage(
  config: StorageConfig,
  options: { log?: (message: string) => void; now?: () => Date } = {},
): Promise<Storage> {
  const now = options.now ?? (() => new Date());
  if (config.databaseUrl) {
    const { adapter, pool } = await openPostgresStore(config.databaseUrl, { log: options.log });
    // Rows an earlier release wrote are chained now, before the first request writes one (chain.ts).
    await withChainLock(pool, chainHead);
    const jwtKey = config.jwtSecret
      ? createSecretKey(Buffer.from(config.jwtSecret, 'utf8'))
      : createSecretKey(await loadOrCreateSharedSecret(pool));
    return {
      store: createStore(adapter, { now }),
      audit: postgresAuditLog(pool, now),
      jwtKey,
      limiter: createSignInLimiter({ postgres: { pool, tableName: RATE_LIMIT_TABLE } }),
      coordinator: postgresCoordinator(pool),
      location: `PostgreSQL at ${describeTarget(config.databaseUrl)}`,
      close: () => adapter.close(),
    };
  }

  prepareDataDir(config.dataDir);
  const releaseLock = lockDataDir(config.dataDir);
  try {
    const adapter = await openLowdbStore(config.dataDir, { log: options.log });
    return {
      store: createStore(adapter, { now }),
      audit: fileAuditLog(config.dataDir, now, { maxBytes: config.auditLogMaxBytes }),
      jwtKey: await loadJwtKey(config.dataDir, config.jwtSecret),
      limiter: createSignInLimiter(),
      coordinator: localCoordinator(),
      location: config.dataDir,
      close: async () => {
        await adapter.close();
        releaseLock();
      },
    };
  } catch (error) {
    releaseLock();
    throw error;
  }
}
