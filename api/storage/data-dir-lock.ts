import { spawnSync } from 'node:child_process';
import { closeSync, constants, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { StorageError } from './storage-error.ts';

export const LOCK_FILE_NAME = 'server.lock';
/**
 * flock(1)'s exit status when --nonblock finds the lock taken, set explicitly: its default, 1, is
 * also what it exits with on a usage error, which must not read as "another server".
 */
const FLOCK_CONFLICT = 75;
/** How much of the lock file's note goes into the refusal message. */
const NOTE_MAX_LENGTH = 200;

/**
 * One server per DATA_DIR: two processes writing the same lowdb file corrupt it. The lock is a
 * kernel lock, flock(2), on DATA_DIR/server.lock: the kernel releases it when the holder dies (even
 * on kill -9), taking it is one atomic step, and it holds across PID namespaces (a second container
 * on the same volume), where a PID in a file proves nothing. So the file's content never decides:
 * it only notes the owner (pid, host, since when) for an operator reading it.
 *
 * Node has no flock, so util-linux's `flock -n 3` takes it on our descriptor, passed to it as fd 3.
 * flock(2) locks belong to the open file description, which the child shares, so the lock stays ours
 * after the child exits, until this process closes the descriptor or ends. The file is never
 * deleted: a process that opened it just before a delete would lock a file no one else sees.
 * Returns the release function.
 */
export function lockDataDir(dataDir: string): () => void {
  const file = path.join(dataDir, LOCK_FILE_NAME);
  const fd = openSync(file, constants.O_RDWR | constants.O_CREAT, 0o600);
  try {
    takeKernelLock(fd, file, dataDir);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  ftruncateSync(fd, 0);
  writeSync(fd, `pid ${process.pid} on ${hostname()} since ${new Date().toISOString()}\n`, 0);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    closeSync(fd); // the kernel drops the lock with the last descriptor of it
  };
}

function takeKernelLock(fd: number, file: string, dataDir: string): void {
  const args = ['--exclusive', '--nonblock', '--conflict-exit-code', String(FLOCK_CONFLICT), '3'];
  const result = spawnSync('flock', args, { stdio: ['ignore', 'ignore', 'pipe', fd] });
  if (result.error) {
    const missing = (result.error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new StorageError(
      missing
        ? "The data directory lock needs util-linux's flock command, which was " +
            'not found on PATH. Install util-linux (Debian and Ubuntu: apt-get ' +
            'install util-linux).'
        : `Could not run flock to lock the data directory ${dataDir} (${result.error.message}).`,
    );
  }
  if (result.status === 0) return;
  if (result.status === FLOCK_CONFLICT) {
    const note = ownerNote(file);
    throw new StorageError(
      `Another server is already using the data directory ${dataDir}${note ? ` (its lock file says: ${note})` : ''}. ` +
        'Stop it first, or give this one its own DATA_DIR.',
    );
  }
  const detail = result.stderr.toString().trim() || `exit status ${result.status ?? result.signal}`;
  throw new StorageError(`Could not lock the data directory ${dataDir}: flock failed (${detail}).`);
}

/** The owner's note, on one line and short: for the message only, never for a decision. */
function ownerNote(file: string): string {
  try {
    return readFileSync(file, 'utf8').replace(/\s+/g, ' ').trim().slice(0, NOTE_MAX_LENGTH);
  } catch {
    return '';
  }
}
