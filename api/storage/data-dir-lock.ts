import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { StorageError } from './storage-error.ts';

export const LOCK_FILE_NAME = 'server.lock';

/**
 * One server per DATA_DIR: two processes writing the same lowdb file corrupt it. The lock file
 * holds the owner's pid; a lock whose process is gone (a crash, a kill -9) is taken over.
 * Returns the release function.
 */
export function lockDataDir(dataDir: string, pid = process.pid): () => void {
  const file = path.join(dataDir, LOCK_FILE_NAME);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, String(pid));
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          if (readFileSync(file, 'utf8').trim() === String(pid)) unlinkSync(file);
        } catch {
          // already gone
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
      if (Number.isInteger(owner) && owner > 0 && owner !== pid && isRunning(owner)) {
        throw new StorageError(
          `Another server (pid ${owner}) is already using the data directory ${dataDir}. ` +
            'Stop it first, or give this one its own DATA_DIR.',
        );
      }
      unlinkSync(file); // stale: its process is gone
    }
  }
  throw new StorageError(`Could not take the lock file ${file}.`);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
