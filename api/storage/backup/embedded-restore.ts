import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { prepareDataDir } from '../data-dir.ts';
import { lockDataDir, LOCK_FILE_NAME } from '../data-dir-lock.ts';
import { ensureDir, fsyncDir, DIR_MODE, FILE_MODE } from '../embedded/durable-fs.ts';
import { EXPORTS_DIR_NAME } from '../embedded/layout-names.ts';
import { loadAccounts, loadClinicians } from '../embedded/load.ts';
import { ArchiveError, readArchive, type ArchiveContents, type ArchivedFile } from './archive.ts';
import { BackupError } from './backup-error.ts';

/** Entries an empty DATA_DIR may hold: the lock file (the server's or ours) and a file system's lost+found. */
const IGNORED_ENTRIES = new Set([LOCK_FILE_NAME, 'lost+found']);

export interface EmbeddedRestoreSummary {
  contents: ArchiveContents;
  /** Where what DATA_DIR held was moved (with --force), if it held anything. */
  movedAsideTo: string | undefined;
  users: number;
  sessions: number;
  patients: number;
  calculations: number;
  exports: number;
}

const stampOf = (date: Date) => date.toISOString().replace(/[:.]/g, '-');

async function occupiedEntries(dataDir: string): Promise<string[]> {
  try {
    return (await readdir(dataDir)).filter((name) => !IGNORED_ENTRIES.has(name)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

function refuseNonEmpty(dataDir: string, entries: string[]): never {
  throw new BackupError(
    `The data directory ${dataDir} is not empty (it holds ${entries.slice(0, 3).join(', ')}` +
      `${entries.length > 3 ? ', …' : ''}). Restore into an empty one, or add --force to move what it holds ` +
      `to ${dataDir}.before-restore-<time> first.`,
  );
}

/**
 * Restores an embedded backup into DATA_DIR:
 * 1. reads the whole file and checks it (archive.ts: every byte, every sha256) before anything is
 *    written anywhere: a damaged or cut file is refused with nothing changed;
 * 2. refuses a DATA_DIR that holds anything (but server.lock or lost+found) unless `force`;
 * 3. takes DATA_DIR's lock, as the server does (so it refuses while a server runs on it, and no
 *    server starts on it while the restore runs);
 * 4. unpacks into DATA_DIR/.restore-<time>/ (each file fsynced, 0600 in 0700 folders), checking the
 *    sha256s again (the file could have changed since step 1);
 * 5. with `force`, moves what DATA_DIR held to DATA_DIR.before-restore-<time> beside it (inside it,
 *    as .before-restore-<time>, when DATA_DIR is a mount point: a rename cannot leave the volume);
 *    nothing is deleted;
 * 6. moves the unpacked files into DATA_DIR, and reads them back as the server will at start;
 * 7. runs `whileLocked` (the audit trail's restore line) before it lets go of the lock.
 */
export async function restoreEmbedded<T = undefined>(
  dataDir: string,
  file: string,
  force: boolean,
  whileLocked?: () => Promise<T>,
): Promise<EmbeddedRestoreSummary & { marked?: T }> {
  const contents = await readArchive(file).catch(rethrowAsRefusal(file));
  const before = await occupiedEntries(dataDir);
  if (before.length > 0 && !force) refuseNonEmpty(dataDir, before);

  prepareDataDir(dataDir); // made if missing, one folder at a time (see data-dir.ts), and writable
  let release: () => void;
  try {
    release = lockDataDir(dataDir);
  } catch (error) {
    if (!/Another server/.test((error as Error).message)) throw error;
    throw new BackupError(`A server is using the data directory ${dataDir}: stop it before restoring into it.`);
  }
  const stamp = stampOf(new Date());
  const staging = path.join(dataDir, `.restore-${stamp}`);
  try {
    const entries = await occupiedEntries(dataDir);
    if (entries.length > 0 && !force) refuseNonEmpty(dataDir, entries);
    await mkdir(staging, { mode: DIR_MODE });
    const unpacked = await unpack(file, staging).catch(rethrowAsRefusal(file));
    if (!sameFiles(unpacked.files, contents.files)) {
      throw new BackupError(`${file} changed while it was being restored. Nothing was changed in ${dataDir}.`);
    }
    const movedAsideTo = entries.length > 0 ? await moveAside(dataDir, entries, stamp) : undefined;
    for (const name of await readdir(staging)) await rename(path.join(staging, name), path.join(dataDir, name));
    await fsyncDir(dataDir);
    await rm(staging, { recursive: true });
    await fsyncDir(dataDir);
    const counts = await readBack(dataDir);
    // Still under the lock: what is written after the files (the audit trail's restore line) comes before any server.
    const marked = whileLocked ? await whileLocked() : undefined;
    return { contents, movedAsideTo, ...counts, marked };
  } catch (error) {
    await rm(staging, { recursive: true, force: true }).catch(() => {});
    throw error;
  } finally {
    release();
  }
}

const rethrowAsRefusal = (file: string) => (error: unknown) => {
  if (error instanceof ArchiveError) {
    throw new BackupError(`${file} cannot be restored: ${error.message}. Nothing was changed.`);
  }
  throw error;
};

const sameFiles = (a: ArchivedFile[], b: ArchivedFile[]) =>
  a.length === b.length && a.every((file, index) => JSON.stringify(file) === JSON.stringify(b[index]));

/** Writes every file of the backup under `dir`, each fsynced, then the folders made. */
async function unpack(file: string, dir: string): Promise<ArchiveContents> {
  const folders = new Set<string>([dir]);
  const contents = await readArchive(file, async (name, chunks) => {
    const target = path.join(dir, ...name.split('/'));
    const folder = path.dirname(target);
    if (!folders.has(folder)) {
      await mkdir(folder, { recursive: true, mode: DIR_MODE });
      for (let parent = folder; parent !== dir; parent = path.dirname(parent)) folders.add(parent);
    }
    const handle = await open(target, 'wx', FILE_MODE);
    try {
      for await (const chunk of chunks) await handle.write(chunk);
      await handle.sync();
    } finally {
      await handle.close();
    }
  });
  // Deepest first, so each folder's entry in its parent is synced after the folder itself.
  for (const folder of [...folders].sort((a, b) => b.length - a.length)) await fsyncDir(folder);
  return contents;
}

/** Moves `entries` of DATA_DIR into a new folder beside it (or inside it, on another volume); answers its path. */
async function moveAside(dataDir: string, entries: string[], stamp: string): Promise<string> {
  const parent = path.dirname(dataDir);
  const sameVolume = (await stat(parent)).dev === (await stat(dataDir)).dev;
  const aside = sameVolume ? `${dataDir}.before-restore-${stamp}` : path.join(dataDir, `.before-restore-${stamp}`);
  await ensureDir(aside);
  for (const name of entries) await rename(path.join(dataDir, name), path.join(aside, name));
  await fsyncDir(aside);
  await fsyncDir(dataDir);
  return aside;
}

/** The restored store read as the server reads it at start, with every export's PDF present. */
async function readBack(dataDir: string) {
  const accounts = await loadAccounts(dataDir);
  const clinicians = await loadClinicians(dataDir);
  let exports = 0;
  for (const clinician of clinicians) {
    for (const record of clinician.exports.values()) {
      const pdf = path.join(dataDir, EXPORTS_DIR_NAME, `${record.id}.pdf`);
      const found = await stat(pdf).catch(() => undefined);
      if (found?.size !== record.sizeBytes) {
        throw new BackupError(`The restored export ${record.id} has no PDF of ${record.sizeBytes} bytes at ${pdf}.`);
      }
      exports += 1;
    }
  }
  return {
    users: accounts.users.length,
    sessions: accounts.sessions.length,
    patients: clinicians.reduce((sum, clinician) => sum + clinician.patients.patients.length, 0),
    calculations: clinicians.reduce((sum, clinician) => sum + clinician.calculations.length, 0),
    exports,
  };
}
