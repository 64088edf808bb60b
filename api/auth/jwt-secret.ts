import { randomBytes, createSecretKey, type KeyObject } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const JWT_SECRET_FILE_NAME = 'jwt-secret';
const GENERATED_SECRET_BYTES = 48;

/**
 * The HS256 key as a KeyObject (a plain string makes jsonwebtoken try it as a PEM key on every
 * call, ~35× slower: shared/design/server.md). From JWT_SECRET, or generated once and kept in
 * DATA_DIR with mode 0600 so tokens survive restarts.
 */
export async function loadJwtKey(dataDir: string, configured: string | undefined): Promise<KeyObject> {
  if (configured) return createSecretKey(Buffer.from(configured, 'utf8'));
  const file = path.join(dataDir, JWT_SECRET_FILE_NAME);
  try {
    return createSecretKey(Buffer.from((await readFile(file, 'utf8')).trim(), 'base64'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secret = randomBytes(GENERATED_SECRET_BYTES).toString('base64');
  await writeFile(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  return createSecretKey(Buffer.from(secret, 'base64'));
}
