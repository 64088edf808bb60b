import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lockDataDir } from './data-dir-lock.ts';
import { openLowdbStore } from './lowdb-store.ts';
import { StorageError } from './storage-error.ts';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'sgx-store-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));
const dbPath = () => path.join(dataDir, 'db.json');

describe('opening the data file', () => {
  it('creates an empty database on the first start', async () => {
    await openLowdbStore(dataDir);
    expect(JSON.parse(await readFile(dbPath(), 'utf8'))).toEqual({ version: 1, users: [], sessions: [], patients: [], calculations: [] });
  });

  it.each([
    ['truncated', '{"version":1,"users":[{"id":"u1","email":"a@b'],
    ['empty', ''],
    ['not JSON', 'hello'],
  ])('a %s file stops start-up with a message naming it, and is not changed', async (_name, content) => {
    await writeFile(dbPath(), content);
    const before = await stat(dbPath());
    const error = await openLowdbStore(dataDir).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StorageError);
    expect((error as Error).message).toContain(`The data file ${dbPath()} is damaged and cannot be read`);
    expect((error as Error).message).toContain('It has not been changed. Restore it from a backup');
    expect(await readFile(dbPath(), 'utf8')).toBe(content);
    expect((await stat(dbPath())).mtimeMs).toBe(before.mtimeMs);
  });

  it.each([
    ['[]', 'it does not hold an object'],
    ['{"version":2,"users":[]}', 'unknown data version 2'],
    ['{"version":1,"users":[],"sessions":[],"patients":[]}', 'the "calculations" list is missing'],
  ])('a file of another shape (%s) is refused: %s', async (content, problem) => {
    await writeFile(dbPath(), content);
    await expect(openLowdbStore(dataDir)).rejects.toThrow(`The data file ${dbPath()} is not a database this server can read (${problem}). It has not been changed.`);
    expect(await readFile(dbPath(), 'utf8')).toBe(content);
  });

  it('keeps what it wrote across a reopen', async () => {
    const store = await openLowdbStore(dataDir);
    await store.createUser({ id: 'u1', email: 'a@b.example', name: 'A', license: null, passwordHash: 'h', createdAt: '2026-01-01T00:00:00Z' });
    const reopened = await openLowdbStore(dataDir);
    expect((await reopened.findUserByEmail('a@b.example'))?.id).toBe('u1');
  });
});

describe('the DATA_DIR lock', () => {
  it('refuses a second owner while the first is running, and frees on release', () => {
    const release = lockDataDir(dataDir, process.pid);
    // another live process: the parent of this test runner
    expect(() => lockDataDir(dataDir, process.ppid)).toThrow(
      `Another server (pid ${process.pid}) is already using the data directory ${dataDir}. Stop it first, or give this one its own DATA_DIR.`,
    );
    release();
    const again = lockDataDir(dataDir, process.ppid);
    again();
  });

  it('takes over a lock left by a process that is gone (a crash or kill -9)', async () => {
    const child = spawn(process.execPath, ['-e', '']);
    const deadPid = child.pid!;
    await new Promise((resolve) => child.once('exit', resolve));
    await writeFile(path.join(dataDir, 'server.lock'), String(deadPid));
    const release = lockDataDir(dataDir, process.pid);
    expect(await readFile(path.join(dataDir, 'server.lock'), 'utf8')).toBe(String(process.pid));
    release();
  });
});
