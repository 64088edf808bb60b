import { readdir, stat, type FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { AUDIT_KEY_FILE_NAME } from '../../audit/trail.ts';
import { JWT_SECRET_FILE_NAME } from '../../auth/jwt-secret.ts';
import { DATA_KEY_FILE_NAME } from '../data-key.ts';
import { isMissing } from '../embedded/durable-fs.ts';
import {
  ACCOUNTS_FILE_NAME,
  CLINICIANS_DIR_NAME,
  EXPORT_LOG_FILE_NAME,
  EXPORTS_DIR_NAME,
  HISTORY_FILE_NAME,
  LAYOUT_FILE_NAME,
  LAYOUT_VERSION,
  LEGACY_DATA_FILE_NAME,
  MIGRATION_MARKER_NAME,
  PATIENTS_FILE_NAME,
  SAFE_ID,
} from '../embedded/layout-names.ts';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  CHECKSUMS_NAME,
  MANIFEST_NAME,
  tarEnd,
  tarEntry,
  type ArchivedFile,
  type BackupManifest,
} from './archive.ts';
import { BackupError } from './backup-error.ts';

/**
 * The embedded store's backup, taken while the server runs (it holds DATA_DIR's lock, so we take
 * none): every file of the store as it was at one moment.
 *
 * Why this is one moment. The server changes DATA_DIR in three ways only (embedded/*.ts):
 * - JSON files (store.json, accounts.json, clinicians/<id>/patients.json, jwt-secret, audit-key) are replaced
 *   whole: written to a temporary file, fsynced, renamed over the name. An inode, once it has the
 *   name, is never written again; every change gives the name a new inode.
 * - Logs (history.jsonl, exports.jsonl) are appended to, a whole line at a time; their bytes up to a
 *   length never change afterwards (a failed append is cut back to where it began).
 * - PDFs are written under a temporary name and renamed into exports/ *before* their record is
 *   appended to exports.jsonl, and removed only *after* a deletion line is appended. So at any
 *   moment, every export the logs hold has its PDF in place, and a PDF's bytes never change.
 * So a file's state is named by (inode, size, mtime, ctime). One attempt: (1) a first sweep opens
 * every JSON file (the descriptor keeps that inode, and its bytes, for us; it also keeps the inode
 * number from being reused) and reads any version not already read by an earlier attempt, and
 * stats every log; (2) a second sweep stats every name again. If both sweeps saw the same versions
 * and the same clinician folders, nothing changed between the start of the first and the end of the
 * second (a name never returns to an earlier version), so what they saw is DATA_DIR at every moment
 * in between: the JSON files as read, each log's first `size` bytes, and the PDFs its export records
 * name (read afterwards: their bytes are fixed; one already removed starts the attempt again). A
 * write between the sweeps means another attempt, after a short random pause, until one is quiet
 * (QUIET_MOMENT_TIMEOUT_MS); the window is two sweeps of stats, a few milliseconds for hundreds of
 * clinicians, and only files that changed are read again.
 *
 * What the copy holds is what the server would find after a power cut at that moment with its page
 * cache intact: every write acknowledged before it (a request is answered only after its write is on
 * disk), and of writes under way then, a log line or a replaced file only whole. A line cut short
 * (a write under way) is left out, as the server's start would drop it; temporary files, unfinished
 * uploads and PDFs no record names are left out, as its start would remove them. The audit log is
 * a separate record, written after the change it records and on every read, so it is not part of
 * the quiet moment: it is copied right after it, to its last complete line.
 */

/** How long to look for a moment without writes before giving up. */
export const QUIET_MOMENT_TIMEOUT_MS = 60_000;
const READ_CHUNK = 1024 * 1024;
const LEGACY_BACKUP_FILE = /^db\.json\.migrated-[A-Za-z0-9-]{1,60}\.bak$/;
const AUDIT_FILE = /^audit\.log(\.[1-9]\d{0,3})?$/;
/** What DATA_DIR may hold that is not backed up and not worth a mention. */
const NOT_BACKED_UP = /^(server\.lock|lost\+found|\..*\.tmp|(jwt-secret|data-key)\.\d+\.tmp|\.restore-.*)$/;

/** Something moved after the quiet moment was found (a PDF removed, a log cut back): take another. */
class SnapshotChanged extends Error {
  override name = 'SnapshotChanged';
}

export interface EmbeddedBackupSummary {
  snapshotAt: Date;
  attempts: number;
  users: number;
  sessions: number;
  patients: number;
  calculations: number;
  exports: number;
  auditFiles: number;
  /** Whether DATA_DIR holds the generated JWT secret (none when JWT_SECRET is set). */
  jwtSecret: boolean;
  /** Whether DATA_DIR holds the generated data key (none when DATA_KEY is set from the start). */
  dataKey: boolean;
  /** Files in DATA_DIR that are not the store's and were not backed up. */
  leftOut: string[];
}

type Kind = 'whole' | 'log';
interface Seen {
  kind: Kind;
  /** dev:ino:size:mtime:ctime, or "missing". */
  version: string;
  ino: bigint;
  size: number;
}

const versionOf = (stats: import('node:fs').BigIntStats) =>
  `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;

/** Stats of a name, or undefined when it does not exist. */
async function statOrMissing(file: string) {
  try {
    return await stat(file, { bigint: true });
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/** The store's files, relative to DATA_DIR, with their kind (clinician folders sorted). */
async function storeFileNames(dataDir: string): Promise<Map<string, Kind>> {
  const names = new Map<string, Kind>([
    [LAYOUT_FILE_NAME, 'whole'],
    [ACCOUNTS_FILE_NAME, 'whole'],
    [JWT_SECRET_FILE_NAME, 'whole'],
    // the data key generated for development (without DATA_KEY): the secrets sealed with it open after a restore
    [DATA_KEY_FILE_NAME, 'whole'],
    // the key of the audit trail's prune summaries (audit/trail.ts): the chain verifies after a restore
    [AUDIT_KEY_FILE_NAME, 'whole'],
  ]);
  const top = await readdir(dataDir);
  if (top.includes(MIGRATION_MARKER_NAME)) throw new SnapshotChanged('a layout migration is under way');
  for (const name of top.filter((entry) => LEGACY_BACKUP_FILE.test(entry)).sort()) names.set(name, 'whole');
  let clinicians: string[] = [];
  try {
    clinicians = (await readdir(path.join(dataDir, CLINICIANS_DIR_NAME), { withFileTypes: true }))
      .filter((entry) => entry.isDirectory() && SAFE_ID.test(entry.name))
      .map((entry) => entry.name)
      .sort();
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  for (const id of clinicians) {
    const dir = `${CLINICIANS_DIR_NAME}/${id}`;
    names.set(`${dir}/${PATIENTS_FILE_NAME}`, 'whole');
    names.set(`${dir}/${HISTORY_FILE_NAME}`, 'log');
    names.set(`${dir}/${EXPORT_LOG_FILE_NAME}`, 'log');
  }
  return names;
}

interface Snapshot {
  at: Date;
  attempts: number;
  /** Every store file that existed, in the order written. */
  files: Map<string, Seen>;
  /** The JSON files' bytes, by name. */
  contents: Map<string, Buffer>;
}

/**
 * Sweeps until two in a row see the same versions (see above). `cache` keeps the JSON files read by
 * earlier attempts, by name and version, so a later attempt reads only what changed.
 */
async function findQuietMoment(dataDir: string, deadline: number, attemptsBefore: number): Promise<Snapshot> {
  const cache = new Map<string, { version: string; bytes: Buffer }>();
  for (let attempt = attemptsBefore + 1; ; attempt += 1) {
    const handles: FileHandle[] = [];
    try {
      const names = await storeFileNames(dataDir);
      const first = new Map<string, Seen>();
      for (const [name, kind] of names) {
        const file = path.join(dataDir, name);
        if (kind === 'log') {
          const stats = await statOrMissing(file);
          first.set(name, seen(kind, stats));
          continue;
        }
        let handle: FileHandle;
        try {
          handle = await open(file, 'r');
        } catch (error) {
          if (!isMissing(error)) throw error;
          first.set(name, seen(kind, undefined));
          continue;
        }
        handles.push(handle);
        const stats = await handle.stat({ bigint: true });
        const entry = seen(kind, stats);
        first.set(name, entry);
        if (cache.get(name)?.version !== entry.version)
          cache.set(name, { version: entry.version, bytes: await readAll(handle) });
      }
      const at = new Date();
      const again = await storeFileNames(dataDir);
      let quiet = sameKeys(names, again);
      for (const [name, entry] of quiet ? first : []) {
        if (seen(entry.kind, await statOrMissing(path.join(dataDir, name))).version !== entry.version) {
          quiet = false;
          break;
        }
      }
      if (quiet) {
        const files = new Map([...first].filter(([, entry]) => entry.version !== 'missing'));
        const contents = new Map<string, Buffer>();
        for (const [name, entry] of files) if (entry.kind === 'whole') contents.set(name, cache.get(name)!.bytes);
        return { at, attempts: attempt, files, contents };
      }
    } catch (error) {
      if (!(error instanceof SnapshotChanged)) throw error;
    } finally {
      await Promise.all(handles.map((handle) => handle.close()));
    }
    if (Date.now() > deadline) {
      throw new BackupError(
        `The data directory ${dataDir} changed during every attempt (${attempt}) for ` +
          `${QUIET_MOMENT_TIMEOUT_MS / 1000} s: no moment without a write was found. Nothing was written. ` +
          'Run the backup at a quieter time.',
      );
    }
    await sleep(Math.random() * Math.min(50, 2 * attempt));
  }
}

function seen(kind: Kind, stats: import('node:fs').BigIntStats | undefined): Seen {
  if (!stats) return { kind, version: 'missing', ino: 0n, size: 0 };
  return { kind, version: versionOf(stats), ino: stats.ino, size: Number(stats.size) };
}

const sameKeys = (a: Map<string, unknown>, b: Map<string, unknown>) =>
  a.size === b.size && [...a.keys()].every((key) => b.has(key));

/** A freshly opened file's bytes (FileHandle.readFile reads from where the handle stands: the start). */
const readAll = (handle: FileHandle): Promise<Buffer> => handle.readFile();

/** Where the last complete line ends within the first `size` bytes (0 when there is none). */
async function completeLinesEnd(handle: FileHandle, size: number): Promise<number> {
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - 64 * 1024);
    const buffer = Buffer.alloc(end - start);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, start);
    if (bytesRead < buffer.length) throw new SnapshotChanged('a log became shorter');
    const newline = buffer.lastIndexOf(0x0a);
    if (newline !== -1) return start + newline + 1;
    end = start;
  }
  return 0;
}

/** The first `length` bytes of an open file, in chunks (new buffers: the consumer may keep them). */
async function* readRange(handle: FileHandle, length: number): AsyncGenerator<Buffer> {
  let position = 0;
  while (position < length) {
    const buffer = Buffer.alloc(Math.min(READ_CHUNK, length - position));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
    if (bytesRead === 0) throw new SnapshotChanged('a file became shorter');
    position += bytesRead;
    yield bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead);
  }
}

/** A log opened again after the quiet moment: the same inode, still at least as long, cut to complete lines. */
async function openLog(dataDir: string, name: string, entry: Seen): Promise<{ handle: FileHandle; length: number }> {
  let handle: FileHandle;
  try {
    handle = await open(path.join(dataDir, name), 'r');
  } catch (error) {
    if (isMissing(error)) throw new SnapshotChanged(`${name} is gone`);
    throw error;
  }
  try {
    const stats = await handle.stat({ bigint: true });
    if (stats.ino !== entry.ino || Number(stats.size) < entry.size) throw new SnapshotChanged(`${name} was cut back`);
    return { handle, length: await completeLinesEnd(handle, entry.size) };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** The ids of the exports a clinician's log holds (records not followed by their deletion), in order. */
function liveExportIds(log: Buffer, name: string): string[] {
  const live = new Set<string>();
  for (const line of log.toString('utf8').split('\n')) {
    if (!line) continue;
    let record: { id?: unknown; deletedExport?: unknown };
    try {
      record = JSON.parse(line) as typeof record;
    } catch {
      throw new BackupError(`${name} holds a line that is not JSON: the server could not start on it either.`);
    }
    if (typeof record.deletedExport === 'string') live.delete(record.deletedExport);
    else if (typeof record.id === 'string' && SAFE_ID.test(record.id)) live.add(record.id);
  }
  return [...live];
}

function countNewlines(chunk: Buffer): number {
  let count = 0;
  for (let index = chunk.indexOf(0x0a); index !== -1; index = chunk.indexOf(0x0a, index + 1)) count += 1;
  return count;
}

/**
 * The audit files, held open (a rotation after this does not change what we read): audit.log.N …
 * audit.log.1, audit.log, oldest first, opened until no rotation happens while they are opened.
 */
async function openAuditFiles(dataDir: string): Promise<{ name: string; handle: FileHandle; length: number }[]> {
  for (let attempt = 1; attempt <= 50; attempt += 1) {
    const names = (await readdir(dataDir))
      .filter((name) => AUDIT_FILE.test(name))
      .sort((a, b) => Number(b.split('.')[2] ?? 0) - Number(a.split('.')[2] ?? 0));
    const opened: { name: string; handle: FileHandle; ino: bigint; size: number }[] = [];
    let stable = true;
    try {
      for (const name of names) {
        const handle = await open(path.join(dataDir, name), 'r').catch((error: unknown) => {
          if (isMissing(error)) return undefined;
          throw error;
        });
        if (!handle) {
          stable = false;
          break;
        }
        const stats = await handle.stat({ bigint: true });
        opened.push({ name, handle, ino: stats.ino, size: Number(stats.size) });
      }
      for (const file of stable ? opened : []) {
        if ((await statOrMissing(path.join(dataDir, file.name)))?.ino !== file.ino) stable = false;
      }
      if (stable) {
        const result = [];
        for (const file of opened) {
          result.push({ name: file.name, handle: file.handle, length: await completeLinesEnd(file.handle, file.size) });
        }
        return result;
      }
    } catch (error) {
      await Promise.all(opened.map((file) => file.handle.close()));
      throw error;
    }
    await Promise.all(opened.map((file) => file.handle.close()));
    await sleep(5);
  }
  throw new BackupError(`The audit log in ${dataDir} kept rotating while it was being opened.`);
}

/**
 * The archive's chunks (archive.ts) for a quiet moment just found: manifest, store files, PDFs, audit
 * log, checksums. `summary` is filled as the files pass. A SnapshotChanged thrown while streaming
 * means: discard what was written and find another moment.
 */
async function* archiveChunks(
  dataDir: string,
  snapshot: Snapshot,
  summary: EmbeddedBackupSummary,
): AsyncGenerator<Buffer> {
  // Opened first, right after the quiet moment; read last.
  const audit = await openAuditFiles(dataDir);
  try {
    yield* archiveFiles(dataDir, snapshot, summary, audit);
  } finally {
    await Promise.all(audit.map(({ handle }) => handle.close()));
  }
}

async function* archiveFiles(
  dataDir: string,
  snapshot: Snapshot,
  summary: EmbeddedBackupSummary,
  audit: { name: string; handle: FileHandle; length: number }[],
): AsyncGenerator<Buffer> {
  const checksums: ArchivedFile[] = [];
  const done = (file: ArchivedFile) => void checksums.push(file);
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    version: BACKUP_FORMAT_VERSION,
    store: 'embedded',
    layout: LAYOUT_VERSION,
    snapshotAt: snapshot.at.toISOString(),
    source: dataDir,
  };
  const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
  yield* tarEntry(MANIFEST_NAME, manifestBytes.length, [manifestBytes], () => {});

  // The export logs first (in memory: small), for the PDFs their live records name.
  const exportLogs = new Map<string, Buffer>();
  for (const [name, entry] of snapshot.files) {
    if (!name.endsWith(`/${EXPORT_LOG_FILE_NAME}`)) continue;
    const { handle, length } = await openLog(dataDir, name, entry);
    try {
      const parts: Buffer[] = [];
      for await (const chunk of readRange(handle, length)) parts.push(chunk);
      exportLogs.set(name, Buffer.concat(parts));
    } finally {
      await handle.close();
    }
  }
  const pdfs = [...exportLogs].flatMap(([name, log]) => liveExportIds(log, name));

  for (const [name, entry] of snapshot.files) {
    if (entry.kind === 'whole') {
      const bytes = snapshot.contents.get(name)!;
      if (name === ACCOUNTS_FILE_NAME) countAccounts(bytes, summary);
      if (name.endsWith(`/${PATIENTS_FILE_NAME}`)) summary.patients += countPatients(bytes, name);
      yield* tarEntry(name, bytes.length, [bytes], done);
    } else if (exportLogs.has(name)) {
      const bytes = exportLogs.get(name)!;
      yield* tarEntry(name, bytes.length, [bytes], done);
    } else {
      const { handle, length } = await openLog(dataDir, name, entry);
      try {
        const counted = (async function* () {
          for await (const chunk of readRange(handle, length)) {
            summary.calculations += countNewlines(chunk);
            yield chunk;
          }
        })();
        yield* tarEntry(name, length, counted, done);
      } finally {
        await handle.close();
      }
    }
  }

  for (const id of pdfs) {
    const name = `${EXPORTS_DIR_NAME}/${id}.pdf`;
    let handle: FileHandle;
    try {
      handle = await open(path.join(dataDir, name), 'r');
    } catch (error) {
      if (isMissing(error)) throw new SnapshotChanged(`${name} was deleted`);
      throw error;
    }
    try {
      const { size } = await handle.stat();
      yield* tarEntry(name, size, readRange(handle, size), done);
    } finally {
      await handle.close();
    }
  }
  summary.exports = pdfs.length;

  for (const { name, handle, length } of audit) yield* tarEntry(name, length, readRange(handle, length), done);
  summary.auditFiles = audit.length;

  const list = Buffer.from(`${JSON.stringify({ files: checksums }, null, 1)}\n`);
  yield* tarEntry(CHECKSUMS_NAME, list.length, [list], () => {});
  yield tarEnd();
}

function countAccounts(bytes: Buffer, summary: EmbeddedBackupSummary): void {
  const accounts = JSON.parse(bytes.toString('utf8')) as { users?: unknown[]; sessions?: unknown[] };
  summary.users = accounts.users?.length ?? 0;
  summary.sessions = accounts.sessions?.length ?? 0;
}
function countPatients(bytes: Buffer, name: string): number {
  try {
    return (JSON.parse(bytes.toString('utf8')) as { patients?: unknown[] }).patients?.length ?? 0;
  } catch {
    throw new BackupError(`${name} is not JSON: the server could not start on it either.`);
  }
}

/** DATA_DIR must hold a layout-2 store; anything else is said plainly before anything is written. */
async function checkDataDir(dataDir: string): Promise<string[]> {
  const found = await stat(dataDir).catch(() => undefined);
  if (!found)
    throw new BackupError(`The data directory ${dataDir} does not exist (is DATA_DIR set as for the server?)`);
  if (!found.isDirectory()) throw new BackupError(`DATA_DIR ${dataDir} is not a directory.`);
  const names = await readdir(dataDir);
  if (!names.includes(LAYOUT_FILE_NAME)) {
    throw new BackupError(
      names.includes(LEGACY_DATA_FILE_NAME)
        ? `The data directory ${dataDir} holds a store of an earlier release (${LEGACY_DATA_FILE_NAME}): start the ` +
            'server once to convert it, then back it up.'
        : `The data directory ${dataDir} holds no store (no ${LAYOUT_FILE_NAME}): there is nothing to back up.`,
    );
  }
  const known = new Set([
    LAYOUT_FILE_NAME,
    ACCOUNTS_FILE_NAME,
    JWT_SECRET_FILE_NAME,
    DATA_KEY_FILE_NAME,
    AUDIT_KEY_FILE_NAME,
  ]);
  known.add(CLINICIANS_DIR_NAME);
  known.add(EXPORTS_DIR_NAME).add(MIGRATION_MARKER_NAME);
  return names.filter(
    (name) => !known.has(name) && !AUDIT_FILE.test(name) && !LEGACY_BACKUP_FILE.test(name) && !NOT_BACKED_UP.test(name),
  );
}

/**
 * Writes the backup of `dataDir` through `write` (which gets the archive's uncompressed chunks and
 * may be called again from the start when a file moved after the quiet moment: it must discard what
 * it had). Answers what was backed up.
 */
export async function backupEmbedded(
  dataDir: string,
  write: (chunks: AsyncIterable<Buffer>) => Promise<void>,
): Promise<EmbeddedBackupSummary> {
  const leftOut = await checkDataDir(dataDir);
  const deadline = Date.now() + QUIET_MOMENT_TIMEOUT_MS;
  let attempts = 0;
  for (;;) {
    const snapshot = await findQuietMoment(dataDir, deadline, attempts);
    attempts = snapshot.attempts;
    const summary: EmbeddedBackupSummary = {
      snapshotAt: snapshot.at,
      attempts,
      users: 0,
      sessions: 0,
      patients: 0,
      calculations: 0,
      exports: 0,
      auditFiles: 0,
      jwtSecret: snapshot.files.has(JWT_SECRET_FILE_NAME),
      dataKey: snapshot.files.has(DATA_KEY_FILE_NAME),
      leftOut,
    };
    try {
      await write(archiveChunks(dataDir, snapshot, summary));
      return summary;
    } catch (error) {
      if (!(error instanceof SnapshotChanged) || Date.now() > deadline) throw unwrap(error);
    }
  }
}

function unwrap(error: unknown): unknown {
  if (error instanceof SnapshotChanged) {
    return new BackupError(
      `The data directory kept changing under the backup (${error.message}). Nothing was written.`,
    );
  }
  return error;
}
