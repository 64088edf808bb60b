import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Pool, PoolClient } from 'pg';
import { isMissing, writeFileDurably } from '../storage/embedded/durable-fs.ts';
import { StorageError } from '../storage/storage-error.ts';
import { auditKeyring, type AuditKeyring } from './chain.ts';

/**
 * The development key of the chain, made when AUDIT_KEY is unset (refused under NODE_ENV=production): kept in the
 * store, DATA_DIR/audit-key or app_settings "audit_signing_key", so it proves nothing against whoever holds the
 * store, and audit-verify says so. AUDIT_KEY is never written anywhere.
 */
export const AUDIT_KEY_FILE_NAME = 'audit-key';
export const AUDIT_KEY_SETTING = 'audit_signing_key';
const KEY_BYTES = 48;

/** How to make an audit key, for the messages that ask for one. */
export const MAKE_AUDIT_KEY = 'openssl rand -base64 32';

/** The refusal of a production start (or prune, or restore) without AUDIT_KEY: before anything is opened or written. */
export const AUDIT_KEY_REQUIRED_MESSAGE =
  "AUDIT_KEY is not set: with NODE_ENV=production the key of the audit trail's chain must be held outside the " +
  `store, so that whoever holds the database or DATA_DIR cannot rewrite the trail: make one with ${MAKE_AUDIT_KEY} ` +
  'and set AUDIT_KEY (or AUDIT_KEY_FILE); keep it out of the database, DATA_DIR and the backups';

function decodeKey(text: string, where: string): Buffer {
  const trimmed = text.trim();
  const bytes = Buffer.from(trimmed, 'base64');
  if (bytes.length >= 32 && bytes.toString('base64') === trimmed) return bytes;
  throw new StorageError(
    `The audit trail's signing key (${where}) is damaged: it must hold at least 32 random bytes, base64.`,
  );
}

/** The embedded store's key, or undefined when no prune has made one yet. */
export async function readFileKey(dataDir: string): Promise<Buffer | undefined> {
  const file = path.join(dataDir, AUDIT_KEY_FILE_NAME);
  try {
    return decodeKey(await readFile(file, 'utf8'), file);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/**
 * The keys of DATA_DIR's trail: AUDIT_KEY's (`configured`), and the development key if one was made; with `create`
 * and no AUDIT_KEY, the development key is made now (the server's first start).
 */
export async function fileAuditKeyring(
  dataDir: string,
  configured: readonly Buffer[],
  options: { create?: boolean } = {},
): Promise<AuditKeyring> {
  let stored = await readFileKey(dataDir);
  if (!stored && configured.length === 0 && options.create) {
    stored = randomBytes(KEY_BYTES);
    await writeFileDurably(path.join(dataDir, AUDIT_KEY_FILE_NAME), `${stored.toString('base64')}\n`);
  }
  return auditKeyring(configured, stored);
}

export async function readPostgresKey(pool: Pool | PoolClient): Promise<Buffer | undefined> {
  const rows = (await pool.query('SELECT value FROM app_settings WHERE key = $1', [AUDIT_KEY_SETTING])).rows as {
    value: string;
  }[];
  return rows[0] ? decodeKey(rows[0].value, `app_settings "${AUDIT_KEY_SETTING}"`) : undefined;
}

/** As fileAuditKeyring, with the development key in app_settings (every instance offers one; all read the row). */
export async function postgresAuditKeyring(
  pool: Pool | PoolClient,
  configured: readonly Buffer[],
  options: { create?: boolean } = {},
): Promise<AuditKeyring> {
  if (configured.length === 0 && options.create) {
    await pool.query('INSERT INTO app_settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [
      AUDIT_KEY_SETTING,
      randomBytes(KEY_BYTES).toString('base64'),
    ]);
  }
  return auditKeyring(configured, await readPostgresKey(pool));
}
