import { closeSync, fsyncSync, mkdirSync, openSync, statSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { DIR_MODE } from './embedded/durable-fs.ts';
import { StorageError } from './storage-error.ts';

/** Plain words for what the file system answered. */
function problem(error: unknown, making: 'folders' | 'files' = 'folders'): string {
  const { code, message } = error as NodeJS.ErrnoException;
  switch (code) {
    case 'EROFS':
      return 'the file system is read-only';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOTDIR':
      return 'a part of the path is a file, not a folder';
    case 'ENOSPC':
      return 'the disk is full';
    case 'EDQUOT':
      return 'the disk quota is used up';
    case 'ENOENT':
      return `this file system does not allow ${making} to be made here`;
    default:
      return code ? `${code}: ${message}` : String(error);
  }
}

/**
 * Makes DATA_DIR (0700) if it is missing and checks that the server can write in it, so a mistake in
 * DATA_DIR stops start-up with one line naming it rather than a stack trace later:
 * - DATA_DIR (or a folder above it) is a file;
 * - it cannot be made (a read-only file system, no permission, a special file system such as /proc);
 * - it exists but is not writable (a read-only mount; also for root, whom permissions do not stop).
 * Each missing folder is made on its own, from the top: Node's `mkdir -p` (recursive) never returns
 * under /proc, where mkdir answers ENOENT for a parent that exists.
 */
export function prepareDataDir(dataDir: string): void {
  const name = `DATA_DIR ${dataDir}`;
  const missing: string[] = [];
  for (let dir = dataDir; ; dir = path.dirname(dir)) {
    let stats;
    try {
      stats = statSync(dir);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // ENOTDIR: a folder above is a file, which the walk up finds and names
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || dir === path.dirname(dir)) {
        throw new StorageError(`${name} cannot be used: ${dir}: ${problem(error)}`);
      }
      missing.unshift(dir);
      continue;
    }
    if (!stats.isDirectory()) {
      throw new StorageError(
        dir === dataDir
          ? `${name} is a file, not a folder: point DATA_DIR at a folder (it is made if missing)`
          : `${name} cannot be made: ${dir} is a file, not a folder`,
      );
    }
    break;
  }
  for (const dir of missing) {
    try {
      mkdirSync(dir, { mode: DIR_MODE });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && statSync(dir).isDirectory()) continue;
      throw new StorageError(`${name} cannot be made (${dir}): ${problem(error)}`);
    }
  }
  const probe = path.join(dataDir, `.write-check-${process.pid}`);
  let handle: number | undefined;
  try {
    handle = openSync(probe, 'w', 0o600);
    writeSync(handle, 'ok');
    fsyncSync(handle);
  } catch (error) {
    throw new StorageError(`${name} is not writable: ${problem(error, 'files')}. The server keeps its data there.`);
  } finally {
    if (handle !== undefined) {
      closeSync(handle);
      try {
        unlinkSync(probe);
      } catch {
        // written but not removable: left for the operator, harmless
      }
    }
  }
}
