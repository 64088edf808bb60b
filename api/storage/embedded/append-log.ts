import { open, readFile } from 'node:fs/promises';
import path from 'node:path';
import { StorageError } from '../storage-error.ts';
import { FILE_MODE, fsyncDir, isMissing, writeFileDurably } from './durable-fs.ts';

interface PendingLine {
  line: string;
  /** Set for a rewrite of the whole file (retention): builds the new content when its turn comes. */
  replace?: () => string;
  /**
   * Runs once the line is on disk, before the caller hears so, in the order the lines were appended;
   * it gets the record as the file holds it (parsed back from the line).
   */
  apply: (stored: unknown) => void;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * What a log file holds: its lines, parsed, and where the last complete line ends. A line is
 * acknowledged only once it and its newline are on disk, so bytes after the last newline are a write
 * a crash cut short, never acknowledged (`dropTornTail` removes them once the whole store has been
 * read). A line that does not parse anywhere else means the file is damaged: a StorageError naming it.
 */
export async function readLog(file: string): Promise<{ lines: unknown[]; exists: boolean; torn?: TornTail }> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    if (isMissing(error)) return { lines: [], exists: false };
    throw error;
  }
  const end = bytes.lastIndexOf(0x0a) + 1; // after the last newline; 0 when there is none
  const lines: unknown[] = [];
  let start = 0;
  let number = 0;
  while (start < end) {
    const stop = bytes.indexOf(0x0a, start);
    number += 1;
    const text = bytes.toString('utf8', start, stop);
    try {
      lines.push(JSON.parse(text));
    } catch (error) {
      throw new StorageError(
        `The data file ${file} is damaged at line ${number} and cannot be read (${(error as Error).message}). ` +
          'It has not been changed. Restore it from a backup.',
      );
    }
    start = stop + 1;
  }
  const droppedBytes = bytes.length - end;
  return droppedBytes > 0 ? { lines, exists: true, torn: { file, end, droppedBytes } } : { lines, exists: true };
}

/** An unfinished last line: the file is cut back to `end`, where its last complete line ends. */
export interface TornTail {
  file: string;
  end: number;
  droppedBytes: number;
}

export async function dropTornTail({ file, end }: TornTail): Promise<void> {
  const handle = await open(file, 'r+');
  try {
    await handle.truncate(end);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * An append-only file of JSON lines. `append` resolves once the line is on disk (written and
 * fsynced; the folder too when the file was created). Lines queue while a write is in flight and go
 * out together in one write and one fsync (group commit); one write at a time, in order, so lines
 * never interleave. A failed write is cut back off the file and its lines refused; if even that
 * fails, the log refuses every later line (a restart recovers it) rather than append after damage.
 */
export class AppendLog {
  readonly file: string;
  #exists: boolean;
  #broken: Error | undefined;
  #queue: PendingLine[] = [];
  #running: Promise<void> | undefined;

  constructor(file: string, exists: boolean) {
    this.file = file;
    this.#exists = exists;
  }

  append<T>(record: T, apply: (stored: T) => void): Promise<void> {
    const line = `${JSON.stringify(record)}\n`;
    return new Promise<void>((resolve, reject) => {
      this.#queue.push({ line, apply: apply as (stored: unknown) => void, resolve, reject });
      this.#running ??= this.#drain();
    });
  }

  /**
   * Replaces the whole file with these records (one line each), in turn with the appends: lines appended
   * before it are in what it replaces, so the caller builds `records` inside `build`, which runs when the
   * rewrite's turn comes. The new file is written under a temporary name, fsynced and renamed (old or new,
   * never a mix); `apply` runs once it is in place.
   */
  rewrite<T>(build: () => T[], apply: () => void): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#queue.push({
        line: '',
        replace: () =>
          build()
            .map((record) => `${JSON.stringify(record)}\n`)
            .join(''),
        apply: () => apply(),
        resolve,
        reject,
      });
      this.#running ??= this.#drain();
    });
  }

  /** Resolves once nothing is queued or being written. */
  async settled(): Promise<void> {
    while (this.#running) await this.#running;
  }

  async #drain(): Promise<void> {
    while (this.#queue.length > 0) {
      const rewriteAt = this.#queue.findIndex((pending) => pending.replace);
      if (rewriteAt === 0) {
        const pending = this.#queue.shift()!;
        try {
          if (this.#broken) throw this.#broken;
          await writeFileDurably(this.file, pending.replace!());
          this.#exists = true;
        } catch (error) {
          pending.reject(error);
          continue;
        }
        pending.apply(undefined);
        pending.resolve();
        continue;
      }
      const batch = rewriteAt === -1 ? this.#queue : this.#queue.slice(0, rewriteAt);
      this.#queue = rewriteAt === -1 ? [] : this.#queue.slice(rewriteAt);
      try {
        if (this.#broken) throw this.#broken;
        await this.#write(batch.map((pending) => pending.line).join(''));
      } catch (error) {
        for (const pending of batch) pending.reject(error);
        continue;
      }
      for (const pending of batch) {
        pending.apply(JSON.parse(pending.line));
        pending.resolve();
      }
    }
    this.#running = undefined;
  }

  async #write(text: string): Promise<void> {
    const created = !this.#exists;
    const handle = await open(this.file, 'a', FILE_MODE);
    try {
      const before = (await handle.stat()).size;
      try {
        await handle.writeFile(text); // every byte (a single write may stop short), at the end (O_APPEND)
        await handle.sync();
        if (created) await fsyncDir(path.dirname(this.file));
      } catch (error) {
        await this.#cutBack(handle, before);
        throw error;
      }
      this.#exists = true;
    } finally {
      await handle.close();
    }
  }

  /** Removes what a failed write may have left, so the next line does not follow half of one. */
  async #cutBack(handle: Awaited<ReturnType<typeof open>>, size: number): Promise<void> {
    try {
      await handle.truncate(size);
      await handle.sync();
    } catch (error) {
      this.#broken = new Error(
        `Writes to ${this.file} are stopped: a failed write could not be undone (${(error as Error).message}). ` +
          'Restart the server to recover the file.',
      );
    }
  }
}
