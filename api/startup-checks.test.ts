import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtServer, runServerProcess, stopServerProcess } from './test-support/server-process.ts';

// Issue 31, item 6: mistakes in the environment stop the built server at once with one line naming
// the variable and exit code 1, as the other start-up errors do (no stack trace, no silent fallback,
// no endless loop).
let serverFile: string;
const dirs: string[] = [];
const newDir = async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'sgx-start-'));
  dirs.push(dir);
  return dir;
};
beforeAll(async () => {
  serverFile = await builtServer();
}, 120_000);
afterAll(async () => {
  for (const dir of dirs) {
    await chmod(dir, 0o700).catch(() => {});
    await rm(dir, { recursive: true, force: true });
  }
});

/** Runs the server expecting it to refuse: its exit code, its output and how long it took. */
async function refusal(dataDir: string, env: Record<string, string> = {}, prefix?: readonly string[]) {
  const started = performance.now();
  const result = await runServerProcess(serverFile, dataDir, env, { prefix });
  if (!('exitCode' in result)) {
    await stopServerProcess(result, 'SIGKILL');
    throw new Error(`the server started, but should have refused to:\n${result.output()}`);
  }
  return { ...result, ms: performance.now() - started, lines: result.output.trim().split('\n') };
}

describe('start-up refuses a bad environment with one line', () => {
  it.each([[''], ['   ']])('DATABASE_URL=%j is refused (was: the embedded store, silently)', async (value) => {
    const dataDir = await newDir();
    const result = await refusal(dataDir, { DATABASE_URL: value });
    expect(result.exitCode).toBe(1);
    expect(result.lines).toEqual([
      'Cannot start: DATABASE_URL is set but empty: give the PostgreSQL URL ' +
        '(postgres://user:password@host:5432/database), or unset it to keep the data in DATA_DIR',
    ]);
    expect(await readdir(dataDir)).toEqual([]); // nothing was written to DATA_DIR
  });

  it('DATA_DIR that is a file (was: a stack trace)', async () => {
    const file = path.join(await newDir(), 'data');
    await writeFile(file, 'not a folder');
    const result = await refusal(file);
    expect(result.exitCode).toBe(1);
    expect(result.lines).toEqual([
      `Cannot start: DATA_DIR ${file} is a file, not a folder: point DATA_DIR at a folder (it is made if missing)`,
    ]);
    const below = path.join(file, 'below');
    expect((await refusal(below)).lines).toEqual([
      `Cannot start: DATA_DIR ${below} cannot be made: ${file} is a file, not a folder`,
    ]);
  });

  it('DATA_DIR that is read-only (was: a stack trace)', async (context) => {
    const dataDir = await newDir();
    let prefix: string[] | undefined;
    if (process.getuid?.() === 0) {
      // Permissions do not stop root: a read-only mount does, made in a mount namespace of the server's own.
      const script = 'mount --bind "$1" "$1" && mount -o remount,ro,bind "$1" "$1" && shift && exec "$@"';
      prefix = ['unshare', '--mount', 'sh', '-c', script, 'sh', dataDir];
      const probe = spawnSync('unshare', ['--mount', 'sh', '-c', script, 'sh', dataDir, 'true']);
      if (probe.error || probe.status !== 0) context.skip('no mount namespace here to make a read-only folder');
    } else {
      await chmod(dataDir, 0o500);
    }
    const result = await refusal(dataDir, {}, prefix);
    expect(result.exitCode).toBe(1);
    expect(result.lines).toHaveLength(1);
    expect(result.lines[0]).toMatch(
      new RegExp(
        `^Cannot start: DATA_DIR ${dataDir} is not writable: (the file system is read-only|permission denied)\\. ` +
          'The server keeps its data there\\.$',
      ),
    );
  });

  it('DATA_DIR under /proc ends at once (was: never, at 100% CPU)', async () => {
    const result = await refusal('/proc/sgx-data/store');
    expect(result.exitCode).toBe(1);
    expect(result.lines).toEqual([
      'Cannot start: DATA_DIR /proc/sgx-data/store cannot be made (/proc/sgx-data): ' +
        'this file system does not allow folders to be made here',
    ]);
    expect(result.ms).toBeLessThan(5_000);
  }, 30_000);

  it('NODE_ENV=production without DATA_KEY (was: secrets in clear), or with a DATA_KEY that is not one', async () => {
    const dataDir = await newDir();
    const result = await refusal(dataDir, { NODE_ENV: 'production' });
    expect(result.exitCode).toBe(1);
    expect(result.lines).toEqual([
      'Cannot start: DATA_KEY is not set: with NODE_ENV=production the key that encrypts second-factor secrets, ' +
        'EHR tokens and ID tokens must be held outside the store: make one with openssl rand -base64 32 and set ' +
        'DATA_KEY (or DATA_KEY_FILE)',
    ]);
    expect(await readdir(dataDir)).toEqual([]); // nothing was written to DATA_DIR
    const bad = await refusal(dataDir, { NODE_ENV: 'production', DATA_KEY: 'pa55word-not-a-key' });
    expect(bad.lines).toEqual([
      'Cannot start: DATA_KEY must be 32 random bytes, base64-encoded (got 18 characters that are not 32 bytes in ' +
        'base64): make one with openssl rand -base64 32, or unset DATA_KEY to have one generated for development',
    ]);
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('NODE_ENV=production without AUDIT_KEY (was: a chain keyed in the store), or one too short', async () => {
    const dataDir = await newDir();
    const dataKey = randomBytes(32).toString('base64');
    const result = await refusal(dataDir, { NODE_ENV: 'production', DATA_KEY: dataKey });
    expect(result.exitCode).toBe(1);
    expect(result.lines).toEqual([
      "Cannot start: AUDIT_KEY is not set: with NODE_ENV=production the key of the audit trail's chain must be held " +
        'outside the store, so that whoever holds the database or DATA_DIR cannot rewrite the trail: make one with ' +
        'openssl rand -base64 32 and set AUDIT_KEY (or AUDIT_KEY_FILE); keep it out of the database, DATA_DIR and ' +
        'the backups',
    ]);
    expect(await readdir(dataDir)).toEqual([]); // nothing was written to DATA_DIR
    const short = randomBytes(16).toString('base64');
    const bad = await refusal(dataDir, { NODE_ENV: 'production', DATA_KEY: dataKey, AUDIT_KEY: short });
    expect(bad.lines).toEqual([
      'Cannot start: AUDIT_KEY must be at least 32 random bytes, base64-encoded (got 24 characters that are not): ' +
        'make one with openssl rand -base64 32',
    ]);
    expect(await readdir(dataDir)).toEqual([]);
  });
});
