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
import type { Store, StoreAdapter } from './store.ts';
import { ConfigError } from '../config.ts';
import {
  DATA_KEY_FILE_NAME,
  loadFileKeyring,
  loadPostgresKeyring,
  MAKE_DATA_KEY,
  type LoadedKeyring,
} from './data-key.ts';
import { sealedAdapter, sealStoredSecrets } from './sealed-values.ts';

/** Everything the app keeps, from one place: the embedded store in DATA_DIR, or PostgreSQL. */
export interface Storage {
  store: Store;
  audit: AuditLog;
  jwtKey: KeyObject;
  limiter: SignInLimiter;
  /** Runs the maintenance jobs on one instance at a time (ops/maintenance.ts). */
  coordinator: TaskCoordinator;
  /** Where the data is, for the start-up line (never a password), and a note when its data key is generated. */
  location: string;
  /** Closes the store and releases what it holds (the DATA_DIR lock, the database connections). */
  close(): Promise<void>;
}

type StorageConfig = Pick<ServerConfig, 'dataDir' | 'databaseUrl' | 'jwtSecret' | 'auditLogMaxBytes'> &
  Partial<Pick<ServerConfig, 'dataKeys' | 'dataKeyRequired'>>;

/** Said after where the data is, on the start-up line, when DATA_KEY is not set. */
const keyNote = (loaded: LoadedKeyring, where: string) =>
  loaded.source === 'generated'
    ? `; DATA_KEY is not set: secrets are encrypted with a development key kept ${where}, which copies of it carry`
    : '';

/** The refusal of a production start without DATA_KEY: before anything is opened or written. */
export const DATA_KEY_REQUIRED_MESSAGE =
  'DATA_KEY is not set: with NODE_ENV=production the key that encrypts second-factor secrets, EHR tokens and ID ' +
  `tokens must be held outside the store: make one with ${MAKE_DATA_KEY} and set DATA_KEY (or DATA_KEY_FILE)`;

/**
 * The adapter with its secrets sealed (sealed-values.ts), after the start-up pass has sealed what an earlier
 * release (or an older key) left: in clear, nothing is kept from here on. The pass is logged when it changed
 * something.
 */
async function sealed(
  adapter: StoreAdapter,
  loaded: LoadedKeyring,
  now: () => Date,
  log: (message: string) => void,
): Promise<StoreAdapter> {
  const report = await sealStoredSecrets(adapter, loaded.keyring, now().toISOString());
  if (report.sealed + report.resealed + report.dropped > 0)
    log(
      `Encrypted ${report.sealed} secret(s) an earlier release kept in clear, encrypted ${report.resealed} again ` +
        `with key ${loaded.keyring.current.id}, and dropped ${report.dropped} ID token(s) of ended sessions.`,
    );
  return sealedAdapter(adapter, loaded.keyring);
}

/**
 * With DATABASE_URL, every instance that shares the database shares everything that makes them one
 * service: records and PDFs, sessions (a sign-out is seen by all at once), sign-in failure counts,
 * the audit log and the JWT secret (JWT_SECRET, or one generated once and kept in the database).
 * Without it, all of that lives in DATA_DIR, locked to one process. Either way the store's secrets are encrypted
 * with DATA_KEY (or a generated key, refused under NODE_ENV=production): see sealed-values.ts.
 */
export async function openStorage(
  config: StorageConfig,
  options: { log?: (message: string) => void; now?: () => Date } = {},
): Promise<Storage> {
  const now = options.now ?? (() => new Date());
  const log = options.log ?? (() => {});
  const dataKeys = config.dataKeys ?? [];
  if (config.dataKeyRequired && dataKeys.length === 0) throw new ConfigError(DATA_KEY_REQUIRED_MESSAGE);
  if (config.databaseUrl) {
    const { adapter: opened, pool } = await openPostgresStore(config.databaseUrl, { log: options.log });
    let adapter: StoreAdapter;
    let keyring: LoadedKeyring;
    try {
      keyring = await loadPostgresKeyring(pool, dataKeys);
      adapter = await sealed(opened, keyring, now, log);
    } catch (error) {
      await opened.close().catch(() => {});
      throw error;
    }
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
      location: `PostgreSQL at ${describeTarget(config.databaseUrl)}${keyNote(keyring, 'in the database')}`,
      close: () => adapter.close(),
    };
  }

  prepareDataDir(config.dataDir);
  const releaseLock = lockDataDir(config.dataDir);
  try {
    const opened = await openLowdbStore(config.dataDir, { log: options.log });
    let adapter: StoreAdapter;
    let keyring: LoadedKeyring;
    try {
      keyring = await loadFileKeyring(config.dataDir, dataKeys);
      adapter = await sealed(opened, keyring, now, log);
    } catch (error) {
      await opened.close().catch(() => {});
      throw error;
    }
    return {
      store: createStore(adapter, { now }),
      audit: fileAuditLog(config.dataDir, now, { maxBytes: config.auditLogMaxBytes }),
      jwtKey: await loadJwtKey(config.dataDir, config.jwtSecret),
      limiter: createSignInLimiter(),
      coordinator: localCoordinator(),
      location: `${config.dataDir}${keyNote(keyring, `in DATA_DIR/${DATA_KEY_FILE_NAME}`)}`,
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
