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
import { auditRoleCheck } from './postgres/audit-role.ts';
import { anchorSink, type AnchorSink, type AuditAnchor } from '../audit/anchors.ts';
import type { AuditKeyring } from '../audit/chain.ts';
import { AUDIT_KEY_REQUIRED_MESSAGE, fileAuditKeyring, postgresAuditKeyring } from '../audit/keys.ts';

export { AUDIT_KEY_REQUIRED_MESSAGE };
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
  /** The audit trail's keys (AUDIT_KEY, or the store's development key): what audit-verify checks with. */
  auditKeyring: AuditKeyring;
  /** Closes the store and releases what it holds (the DATA_DIR lock, the database connections). */
  close(): Promise<void>;
}

type StorageConfig = Pick<ServerConfig, 'dataDir' | 'databaseUrl' | 'jwtSecret' | 'auditLogMaxBytes'> &
  Partial<
    Pick<
      ServerConfig,
      'dataKeys' | 'dataKeyRequired' | 'auditKeys' | 'auditKeyRequired' | 'auditAnchorFile' | 'auditAnchorEvery'
    >
  >;

/** Said on the start-up line when AUDIT_KEY is not set. */
const auditKeyNote = (keyring: AuditKeyring, where: string) =>
  keyring.configured
    ? ''
    : `; AUDIT_KEY is not set: the audit trail is keyed with a development key kept ${where}, which proves nothing`;

/** The checkpoints of the trail (anchors.ts): always to the log, and to AUDIT_ANCHOR_FILE when set. */
function anchorsFor(
  config: StorageConfig,
  keyring: AuditKeyring,
  options: { logAnchor?: (anchor: AuditAnchor) => void; log: (message: string) => void; now: () => Date },
): AnchorSink | undefined {
  if (!keyring.signing) return undefined;
  let reported = false;
  return anchorSink({
    key: keyring.signing,
    file: config.auditAnchorFile,
    every: config.auditAnchorEvery ?? { lines: 1000, seconds: 60 },
    log: options.logAnchor ?? (() => {}),
    onError: (error) => {
      if (reported) return;
      reported = true;
      options.log(`The audit anchor file ${config.auditAnchorFile} cannot be written: ${(error as Error).message}`);
    },
    now: options.now,
  });
}

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
  options: { log?: (message: string) => void; now?: () => Date; logAnchor?: (anchor: AuditAnchor) => void } = {},
): Promise<Storage> {
  const now = options.now ?? (() => new Date());
  const log = options.log ?? (() => {});
  const dataKeys = config.dataKeys ?? [];
  const auditKeys = config.auditKeys ?? [];
  if (config.dataKeyRequired && dataKeys.length === 0) throw new ConfigError(DATA_KEY_REQUIRED_MESSAGE);
  if (config.auditKeyRequired && auditKeys.length === 0) throw new ConfigError(AUDIT_KEY_REQUIRED_MESSAGE);
  if (config.databaseUrl) {
    const { adapter: opened, pool } = await openPostgresStore(config.databaseUrl, { log: options.log });
    let adapter: StoreAdapter;
    let keyring: LoadedKeyring;
    let auditKeyring: AuditKeyring;
    try {
      keyring = await loadPostgresKeyring(pool, dataKeys);
      adapter = await sealed(opened, keyring, now, log);
      auditKeyring = await postgresAuditKeyring(pool, auditKeys, { create: true });
      // Said once, at start: a role that could still change or remove the trail's lines (audit-role.ts).
      const roleWarning = await auditRoleCheck(pool);
      if (roleWarning) log(roleWarning);
    } catch (error) {
      await opened.close().catch(() => {});
      throw error;
    }
    const anchors = anchorsFor(config, auditKeyring, { ...options, log, now });
    const jwtKey = config.jwtSecret
      ? createSecretKey(Buffer.from(config.jwtSecret, 'utf8'))
      : createSecretKey(await loadOrCreateSharedSecret(pool));
    return {
      store: createStore(adapter, { now }),
      audit: postgresAuditLog(pool, now, { keyring: auditKeyring, anchors }),
      jwtKey,
      limiter: createSignInLimiter({ postgres: { pool, tableName: RATE_LIMIT_TABLE } }),
      coordinator: postgresCoordinator(pool),
      location:
        `PostgreSQL at ${describeTarget(config.databaseUrl)}${keyNote(keyring, 'in the database')}` +
        auditKeyNote(auditKeyring, 'in the database'),
      auditKeyring,
      close: async () => {
        await anchors?.close();
        await adapter.close();
      },
    };
  }

  prepareDataDir(config.dataDir);
  const releaseLock = lockDataDir(config.dataDir);
  try {
    const opened = await openLowdbStore(config.dataDir, { log: options.log });
    let adapter: StoreAdapter;
    let keyring: LoadedKeyring;
    let auditKeyring: AuditKeyring;
    try {
      keyring = await loadFileKeyring(config.dataDir, dataKeys);
      adapter = await sealed(opened, keyring, now, log);
      auditKeyring = await fileAuditKeyring(config.dataDir, auditKeys, { create: true });
    } catch (error) {
      await opened.close().catch(() => {});
      throw error;
    }
    const anchors = anchorsFor(config, auditKeyring, { ...options, log, now });
    return {
      store: createStore(adapter, { now }),
      audit: fileAuditLog(config.dataDir, now, { maxBytes: config.auditLogMaxBytes, keyring: auditKeyring, anchors }),
      jwtKey: await loadJwtKey(config.dataDir, config.jwtSecret),
      limiter: createSignInLimiter(),
      coordinator: localCoordinator(),
      location:
        `${config.dataDir}${keyNote(keyring, `in DATA_DIR/${DATA_KEY_FILE_NAME}`)}` +
        auditKeyNote(auditKeyring, 'in DATA_DIR/audit-key'),
      auditKeyring,
      close: async () => {
        await anchors?.close();
        await adapter.close();
        releaseLock();
      },
    };
  } catch (error) {
    releaseLock();
    throw error;
  }
}
