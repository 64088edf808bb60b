import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Pool } from 'pg';
import { isMissing, writeFileDurably } from './embedded/durable-fs.ts';
import { DATA_KEY_BYTES, dataKeyring, type DataKeyring } from './sealed-values.ts';
import { StorageError } from './storage-error.ts';

/** The generated development key: DATA_DIR/data-key, or app_settings "data_key" with DATABASE_URL. */
export const DATA_KEY_FILE_NAME = 'data-key';
export const DATA_KEY_SETTING = 'data_key';

/** How to make a key, for the messages that ask for one. */
export const MAKE_DATA_KEY = 'openssl rand -base64 32';

/** 32 bytes as standard base64 (what `openssl rand -base64 32` prints), or undefined when the text is not that. */
export function decodeDataKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  const bytes = Buffer.from(trimmed, 'base64');
  // Buffer.from skips what is not base64: only text that encodes back to itself is base64.
  return bytes.length === DATA_KEY_BYTES && bytes.toString('base64') === trimmed ? bytes : undefined;
}

export interface LoadedKeyring {
  keyring: DataKeyring;
  /** Where the key that seals came from, for the start-up line (never the key). */
  source: 'DATA_KEY' | 'generated';
}

/**
 * The keys the store's secrets are sealed with (sealed-values.ts). With DATA_KEY, its keys (the first seals); a key
 * an earlier start generated is still read, so that setting DATA_KEY later loses nothing (the start-up pass seals
 * everything again with DATA_KEY). Without it, the generated key, made on the first start: for development only,
 * since every copy of DATA_DIR then carries the key with the values (NODE_ENV=production refuses to start so).
 */
export async function loadFileKeyring(dataDir: string, configured: readonly Buffer[]): Promise<LoadedKeyring> {
  const file = path.join(dataDir, DATA_KEY_FILE_NAME);
  let generated = await readFileKey(file);
  if (configured.length > 0)
    return { keyring: dataKeyring([...configured, ...(generated ? [generated] : [])]), source: 'DATA_KEY' };
  if (!generated) {
    generated = randomBytes(DATA_KEY_BYTES);
    // Never an empty or half-written key under the real name, even after a power cut (0600). The caller
    // holds the DATA_DIR lock: no other server writes it at the same time.
    await writeFileDurably(file, `${generated.toString('base64')}\n`, `${file}.${process.pid}.tmp`);
  }
  return { keyring: dataKeyring([generated]), source: 'generated' };
}

/** DATA_DIR's generated key, if it holds one (migrate-data copies it into the database). */
export const readDataDirKey = (dataDir: string) => readFileKey(path.join(dataDir, DATA_KEY_FILE_NAME));

async function readFileKey(file: string): Promise<Buffer | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw new StorageError(`The data key file ${file} cannot be read (${(error as Error).message}).`);
  }
  const key = decodeDataKey(text);
  if (key) return key;
  throw new StorageError(
    `The data key file ${file} is empty or damaged (it must hold ${DATA_KEY_BYTES} random bytes, base64-encoded). ` +
      'It has not been changed. Restore it from a backup of DATA_DIR: without it the authenticator apps set up ' +
      'cannot be read.',
  );
}

/**
 * As loadFileKeyring, with the generated key in the database (app_settings "data_key"), shared by every instance:
 * each offers a new one with INSERT … ON CONFLICT DO NOTHING and all read the row that won.
 */
export async function loadPostgresKeyring(pool: Pool, configured: readonly Buffer[]): Promise<LoadedKeyring> {
  if (configured.length === 0) {
    await pool.query('INSERT INTO app_settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [
      DATA_KEY_SETTING,
      randomBytes(DATA_KEY_BYTES).toString('base64'),
    ]);
  }
  const generated = await readPostgresKey(pool);
  if (configured.length > 0)
    return { keyring: dataKeyring([...configured, ...(generated ? [generated] : [])]), source: 'DATA_KEY' };
  return { keyring: dataKeyring([generated!]), source: 'generated' };
}

/** The database's generated key, if it holds one. */
export async function readPostgresKey(pool: Pick<Pool, 'query'>): Promise<Buffer | undefined> {
  const rows = (await pool.query('SELECT value FROM app_settings WHERE key = $1', [DATA_KEY_SETTING])).rows as {
    value: string;
  }[];
  if (!rows[0]) return undefined;
  const key = decodeDataKey(rows[0].value);
  if (key) return key;
  throw new StorageError(
    `The data key in the database (app_settings "${DATA_KEY_SETTING}") is empty or damaged: it must hold ` +
      `${DATA_KEY_BYTES} random bytes, base64-encoded. It has not been changed. Restore it from a backup.`,
  );
}
