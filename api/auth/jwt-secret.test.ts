import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StorageError } from '../storage/storage-error.ts';
import { loadJwtKey } from './jwt-secret.ts';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'sgx-secret-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));
const secretFile = () => path.join(dataDir, 'jwt-secret');

describe('the generated JWT secret', () => {
  it('a fresh DATA_DIR gets at least 32 random bytes, 0600, with no temporary file left', async () => {
    const key = await loadJwtKey(dataDir, undefined);
    expect(key.symmetricKeySize).toBeGreaterThanOrEqual(32);
    const stored = Buffer.from((await readFile(secretFile(), 'utf8')).trim(), 'base64');
    expect(stored.length).toBeGreaterThanOrEqual(32);
    expect(key.export().equals(stored)).toBe(true);
    expect((await stat(secretFile())).mode & 0o777).toBe(0o600);
    expect(await readdir(dataDir)).toEqual(['jwt-secret']);
    // the next start reads the same key
    expect((await loadJwtKey(dataDir, undefined)).export().equals(stored)).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['only a newline', '\n'],
    ['too short (16 bytes)', `${Buffer.alloc(16, 7).toString('base64')}\n`],
    ['not base64', `${'not base64 at all! '.repeat(4)}\n`],
  ])('a %s file is refused with a message naming it, and left unchanged', async (_name, content) => {
    await writeFile(secretFile(), content, { mode: 0o600 });
    const error = await loadJwtKey(dataDir, undefined).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StorageError);
    expect((error as Error).message).toContain(`The JWT secret file ${secretFile()} is empty or damaged`);
    expect(await readFile(secretFile(), 'utf8')).toBe(content);
  });

  it('JWT_SECRET, when set, is used as is and nothing is written', async () => {
    const key = await loadJwtKey(dataDir, 's'.repeat(40));
    expect(key.export().toString()).toBe('s'.repeat(40));
    expect(await readdir(dataDir)).toEqual([]);
  });
});
