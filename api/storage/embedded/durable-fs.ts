import { access, mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Adapter } from 'lowdb';

/** Files hold patient data: readable by the server's user only, in folders only it can enter. */
export const FILE_MODE = 0o600;
export const DIR_MODE = 0o700;

export const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/** Whether the name exists; any error but its absence (a folder we may not read) is thrown. */
export const exists = (file: string): Promise<boolean> =>
  access(file).then(
    () => true,
    (error: unknown) => {
      if (isMissing(error)) return false;
      throw error;
    },
  );

/**
 * Makes a folder's entries (a created, renamed or removed name) survive a power cut: a file's own
 * fsync does not cover the name that points at it.
 */
export async function fsyncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Creates the folder (0700) if it is missing; a new folder's name is made durable in its parent. */
export async function ensureDir(dir: string): Promise<void> {
  const created = await mkdir(dir, { recursive: true, mode: DIR_MODE });
  if (created === undefined) return;
  // mkdir -p answers the first folder it made: every parent from there down gained an entry.
  let child = dir;
  while (child !== path.dirname(created)) {
    const parent = path.dirname(child);
    await fsyncDir(parent);
    child = parent;
  }
}

/** `.<name>.tmp` beside the file: one writer per file (the callers serialise), so one name is enough. */
export const tempFileOf = (file: string) => path.join(path.dirname(file), `.${path.basename(file)}.tmp`);

/**
 * Replaces a file so that a crash or power cut leaves either the old or the new content, never a mix,
 * and the new content is on disk when the promise resolves: write a temporary file, fsync it, rename
 * it over the file, fsync the folder.
 */
export async function writeFileDurably(file: string, data: string | Uint8Array, temp = tempFileOf(file)) {
  try {
    const handle = await open(temp, 'w', FILE_MODE);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => {});
    throw error;
  }
  await fsyncDir(path.dirname(file));
}

/**
 * lowdb's Adapter for one JSON file, durable where lowdb's own (steno) is not: steno writes a temp
 * file and renames it but never fsyncs, so a power cut can lose an acknowledged write
 * (docs/engineering-notes.md#storage-lowdb). Compact JSON. `read` answers null for a missing file and
 * throws on anything that is not JSON; callers check the shape.
 */
export class DurableJsonFile<T> implements Adapter<T> {
  readonly file: string;
  constructor(file: string) {
    this.file = file;
  }
  async read(): Promise<T | null> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    return JSON.parse(text) as T;
  }
  write(data: T): Promise<void> {
    return writeFileDurably(this.file, JSON.stringify(data));
  }
}
