import { open, readdir, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

/** The audit trail in DATA_DIR: audit.log (being written), audit.log.1 (the newest rotated), … */
export const AUDIT_FILE_NAME = 'audit.log';
const ROTATED = /^audit\.log\.([1-9]\d{0,3})$/;
const CHUNK = 64 * 1024;

/** The trail's files in DATA_DIR, newest first: audit.log, audit.log.1, audit.log.2, … (gaps allowed). */
export async function auditFileNames(dataDir: string): Promise<string[]> {
  const names = await readdir(dataDir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw error;
  });
  const rotated = names
    .flatMap((name) => {
      const match = ROTATED.exec(name);
      return match ? [{ name, number: Number(match[1]) }] : [];
    })
    .sort((a, b) => a.number - b.number)
    .map(({ name }) => name);
  return [...(names.includes(AUDIT_FILE_NAME) ? [AUDIT_FILE_NAME] : []), ...rotated];
}

/** The number of a rotated file (audit.log.7 → 7); audit.log is 0. */
export const rotationNumber = (name: string) => (name === AUDIT_FILE_NAME ? 0 : Number(ROTATED.exec(name)?.[1] ?? -1));

/** One file of the trail, held open: renames (a rotation) do not change what it reads. */
export interface OpenAuditFile {
  name: string;
  handle: FileHandle;
  /** Its size when opened: what is read (a line appended later is not). */
  size: number;
}

/**
 * Opens the files newest first. Inside the writer's queue no rotation runs meanwhile; from another process
 * (`npm run audit-verify` beside a running server) the names are listed again after opening, and the whole
 * opening repeated until no rotation moved a file meanwhile.
 */
export async function openAuditFiles(dataDir: string): Promise<OpenAuditFile[]> {
  const opened: OpenAuditFile[] = [];
  try {
    for (const name of await auditFileNames(dataDir)) {
      const handle = await open(path.join(dataDir, name), 'r');
      opened.push({ name, handle, size: (await handle.stat()).size });
    }
  } catch (error) {
    await closeAll(opened);
    throw error;
  }
  return opened;
}

export async function openAuditFilesStable(dataDir: string): Promise<OpenAuditFile[]> {
  for (let attempt = 1; ; attempt += 1) {
    const opened = await openAuditFiles(dataDir);
    let stable = true;
    for (const file of opened) {
      const now = await stat(path.join(dataDir, file.name)).catch(() => undefined);
      if (now?.ino !== (await file.handle.stat()).ino) stable = false;
    }
    if (stable || attempt === 50) return opened;
    await closeAll(opened);
  }
}

export const closeAll = (files: readonly OpenAuditFile[]) =>
  Promise.all(files.map((file) => file.handle.close().catch(() => {})));

export interface FileLine {
  text: string;
  /** "audit.log.2 line 17" */
  where: string;
}

/**
 * A file's complete lines, first to last. Bytes after the last newline (an append a crash cut short) are
 * not a line: `onTornTail` hears of them.
 */
export async function* linesForward(
  file: OpenAuditFile,
  onTornTail?: (bytes: number) => void,
): AsyncGenerator<FileLine> {
  let position = 0;
  let carry = Buffer.alloc(0);
  let number = 0;
  while (position < file.size) {
    const buffer = Buffer.alloc(Math.min(CHUNK, file.size - position));
    const { bytesRead } = await file.handle.read(buffer, 0, buffer.length, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    let data = Buffer.concat([carry, buffer.subarray(0, bytesRead)]);
    let newline = data.indexOf(0x0a);
    while (newline !== -1) {
      number += 1;
      yield { text: data.toString('utf8', 0, newline), where: `${file.name} line ${number}` };
      data = data.subarray(newline + 1);
      newline = data.indexOf(0x0a);
    }
    carry = Buffer.from(data);
  }
  if (carry.length > 0) onTornTail?.(carry.length);
}

/** A file's complete lines, last to first (for "newest first" without reading what is not needed). */
export async function* linesBackward(file: OpenAuditFile): AsyncGenerator<string> {
  let end = file.size;
  // Bytes after the last newline are an unfinished append: skipped.
  let carry = Buffer.alloc(0);
  let seenNewline = false;
  while (end > 0) {
    const start = Math.max(0, end - CHUNK);
    const buffer = Buffer.alloc(end - start);
    await file.handle.read(buffer, 0, buffer.length, start);
    end = start;
    let data = Buffer.concat([buffer, carry]);
    let newline = data.lastIndexOf(0x0a);
    while (newline !== -1) {
      const line = data.subarray(newline + 1);
      if (seenNewline && line.length > 0) yield line.toString('utf8');
      seenNewline = true;
      data = data.subarray(0, newline);
      newline = data.lastIndexOf(0x0a);
    }
    carry = Buffer.from(data);
  }
  if (seenNewline && carry.length > 0) yield carry.toString('utf8');
}
