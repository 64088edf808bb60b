import { randomBytes, createSecretKey, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { isMissing, writeFileDurably } from '../storage/embedded/durable-fs.ts';
import { StorageError } from '../storage/storage-error.ts';

export const JWT_SECRET_FILE_NAME = 'jwt-secret';
const GENERATED_SECRET_BYTES = 48;
/** docs/engineering-notes.md#auth: an HS256 secret of at least 32 random bytes. */
export const JWT_SECRET_MIN_BYTES = 32;

/**
 * The HS256 key as a KeyObject (a plain string makes jsonwebtoken try it as a PEM key on every
 * call, ~35× slower: docs/engineering-notes.md#auth). From JWT_SECRET, or generated once and kept in
 * DATA_DIR with mode 0600 so tokens survive restarts. A kept secret that is empty, short or not
 * base64 stops start-up: an empty key would make every token signed with "" valid.
 */
export async function loadJwtKey(dataDir: string, configured: string | undefined): Promise<KeyObject> {
  if (configured) return createSecretKey(Buffer.from(configured, 'utf8'));
  const file = path.join(dataDir, JWT_SECRET_FILE_NAME);
  let text: string | undefined;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (!isMissing(error)) {
      throw new StorageError(`The JWT secret file ${file} cannot be read (${(error as Error).message}).`);
    }
  }
  if (text !== undefined) return createSecretKey(decodeSecret(file, text));
  const secret = randomBytes(GENERATED_SECRET_BYTES);
  // Never an empty or half-written secret under the real name, even after a crash or a power cut
  // (0600). The caller holds the DATA_DIR lock: no other server writes it at the same time.
  await writeFileDurably(file, `${secret.toString('base64')}\n`, `${file}.${process.pid}.tmp`);
  return createSecretKey(secret);
}

function decodeSecret(file: string, text: string): Buffer {
  const trimmed = text.trim();
  // Buffer.from skips what is not base64: only text that encodes back to itself is base64.
  const bytes = Buffer.from(trimmed, 'base64');
  if (bytes.length >= JWT_SECRET_MIN_BYTES && bytes.toString('base64') === trimmed) return bytes;
  throw new StorageError(
    `The JWT secret file ${file} is empty or damaged (it must hold at least ` +
      `${JWT_SECRET_MIN_BYTES} random bytes, base64-encoded). ` +
      'It has not been changed. Restore it from a backup of DATA_DIR, or delete it to have a new one generated ' +
      '(everyone will have to sign in again), or set JWT_SECRET.',
  );
}
