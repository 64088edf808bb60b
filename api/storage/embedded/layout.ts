import { createHash } from 'node:crypto';
import { readdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { DatabaseShape } from '../records.ts';
import { StorageError } from '../storage-error.ts';
import { DurableJsonFile, ensureDir, exists, fsyncDir, isMissing, tempFileOf, writeFileDurably } from './durable-fs.ts';
import {
  ACCOUNTS_FILE_NAME,
  CLINICIANS_DIR_NAME,
  EXPORT_LOG_FILE_NAME,
  HISTORY_FILE_NAME,
  LAYOUT_FILE_NAME,
  LAYOUT_VERSION,
  LEGACY_DATA_FILE_NAME,
  MIGRATION_MARKER_NAME,
  PATIENTS_FILE_NAME,
  emptyAccounts,
  type AccountsFile,
  type LayoutFile,
  type PatientsFile,
} from './layout-names.ts';
import { readLegacyDatabase } from './legacy-db.ts';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * Makes DATA_DIR hold layout 2, whatever state a first start, a migration or a crash left it in:
 * - store.json says layout 2: ready (a migration that stopped after it is finished: db.json renamed);
 * - no store.json, db.json: migrate it (a migration a crash interrupted is redone from db.json);
 * - neither: a new, empty database.
 * Nothing is removed or replaced that this code did not write; anything else stops start-up.
 */
export async function prepareLayout(dataDir: string, log: (message: string) => void): Promise<void> {
  const layoutFile = path.join(dataDir, LAYOUT_FILE_NAME);
  const legacyFile = path.join(dataDir, LEGACY_DATA_FILE_NAME);
  const layout = await readLayoutFile(layoutFile, dataDir);
  if (layout) {
    if (await exists(legacyFile)) await finishMigration(dataDir, layout, log);
    await removeMarker(dataDir);
    return;
  }
  if (await exists(legacyFile)) return migrate(dataDir, log);
  await refuseUnexplainedFiles(dataDir, false);
  // Nothing to lose yet: store.json first, so a crash after it leaves a layout-2 folder with its
  // remaining files missing, which opening creates.
  await writeFileDurably(layoutFile, JSON.stringify({ layout: LAYOUT_VERSION } satisfies LayoutFile));
}

async function readLayoutFile(file: string, dataDir: string): Promise<LayoutFile | undefined> {
  let data: unknown;
  try {
    data = await new DurableJsonFile<unknown>(file).read();
  } catch (error) {
    throw new StorageError(
      `The layout file ${file} is damaged and cannot be read (${(error as Error).message}). ` +
        `It has not been changed. Restore it from a backup (this version writes {"layout":${LAYOUT_VERSION}}).`,
    );
  }
  if (data === null) return undefined;
  const layout = typeof data === 'object' && !Array.isArray(data) ? (data as { layout?: unknown }).layout : undefined;
  if (layout === LAYOUT_VERSION) return data as LayoutFile;
  if (typeof layout === 'number' && layout > LAYOUT_VERSION) {
    throw new StorageError(
      `The data directory ${dataDir} was written by a newer version of the server (layout ${layout} in ${file}); ` +
        `this version reads layout ${LAYOUT_VERSION}. Nothing has been changed. ` +
        'Run the newer version, or restore a backup made for this one.',
    );
  }
  throw new StorageError(
    `The layout file ${file} is not one this server can read (layout ${JSON.stringify(layout)}). ` +
      'It has not been changed.',
  );
}

/**
 * Files of layout 2 without store.json, and no migration under way: not ours to replace (store.json
 * was lost or moved away). With `migrating`, the marker says a migration wrote them: they are redone.
 */
async function refuseUnexplainedFiles(dataDir: string, migrating: boolean): Promise<void> {
  const found: string[] = [];
  if (await exists(path.join(dataDir, ACCOUNTS_FILE_NAME))) found.push(ACCOUNTS_FILE_NAME);
  const clinicians = await readdir(path.join(dataDir, CLINICIANS_DIR_NAME)).catch((error: unknown) => {
    if (isMissing(error)) return [];
    throw error;
  });
  if (clinicians.length > 0) found.push(`${CLINICIANS_DIR_NAME}/`);
  if (found.length === 0 || (migrating && (await exists(path.join(dataDir, MIGRATION_MARKER_NAME))))) return;
  throw new StorageError(
    `The data directory ${dataDir} holds ${found.join(' and ')} but no ${LAYOUT_FILE_NAME}, which says how to ` +
      `read them. Nothing has been changed. Restore ${LAYOUT_FILE_NAME} from a backup ` +
      `(this version writes {"layout":${LAYOUT_VERSION}}), or move them away to start with an empty database.`,
  );
}

/**
 * Layout 1 → 2. The new files are written (each fsynced, with its folder) while db.json stays as it
 * is; store.json, naming db.json's hash, is written last and is the commit; only then is db.json
 * renamed to its backup name. A crash before store.json leaves the marker: the next start removes the
 * half-written files and migrates again from db.json; after it, the next start only renames db.json.
 */
async function migrate(dataDir: string, log: (message: string) => void): Promise<void> {
  const legacyFile = path.join(dataDir, LEGACY_DATA_FILE_NAME);
  const { data, bytes } = await readLegacyDatabase(legacyFile);
  await refuseUnexplainedFiles(dataDir, true);
  const marker = path.join(dataDir, MIGRATION_MARKER_NAME);
  await writeFileDurably(marker, `Migrating ${LEGACY_DATA_FILE_NAME} to layout ${LAYOUT_VERSION}\n`);
  // Leftovers of an interrupted run (the marker proves they are ours).
  const accountsFile = path.join(dataDir, ACCOUNTS_FILE_NAME);
  await rm(path.join(dataDir, CLINICIANS_DIR_NAME), { recursive: true, force: true });
  await rm(tempFileOf(accountsFile), { force: true });
  await writeLayout(dataDir, data);

  const layout: LayoutFile = {
    layout: LAYOUT_VERSION,
    migratedFrom: { file: LEGACY_DATA_FILE_NAME, sha256: sha256(bytes) },
  };
  await writeFileDurably(path.join(dataDir, LAYOUT_FILE_NAME), JSON.stringify(layout));
  const backup = await renameLegacyFile(dataDir);
  await removeMarker(dataDir);
  log(
    `Migrated ${legacyFile} to layout ${LAYOUT_VERSION}: ${data.users.length} users, ` +
      `${data.patients.length} patients, ${data.calculations.length} calculations, ${data.exports.length} exports. ` +
      `The old file is kept as ${backup}.`,
  );
}

async function writeLayout(dataDir: string, data: DatabaseShape): Promise<void> {
  const cliniciansDir = path.join(dataDir, CLINICIANS_DIR_NAME);
  await ensureDir(cliniciansDir);
  const accounts: AccountsFile = { ...emptyAccounts(), users: data.users, sessions: data.sessions };
  await writeFileDurably(path.join(dataDir, ACCOUNTS_FILE_NAME), JSON.stringify(accounts));

  // Split by owner, keeping each list's order (the order saved, which lists newest first from).
  const owners = new Map<string, { patients: PatientsFile; history: string[]; exports: string[] }>();
  const of = (ownerId: string) => {
    let owner = owners.get(ownerId);
    if (!owner) {
      owner = { patients: { patients: [], deletedPatientIds: [] }, history: [], exports: [] };
      owners.set(ownerId, owner);
    }
    return owner;
  };
  for (const patient of data.patients) of(patient.ownerId).patients.patients.push(patient);
  for (const entry of data.calculations) of(entry.ownerId).history.push(`${JSON.stringify(entry)}\n`);
  for (const entry of data.exports) of(entry.ownerId).exports.push(`${JSON.stringify(entry)}\n`);
  for (const [ownerId, owner] of owners) {
    const dir = path.join(cliniciansDir, ownerId); // ownerIds checked by readLegacyDatabase
    await ensureDir(dir);
    await writeFileDurably(path.join(dir, PATIENTS_FILE_NAME), JSON.stringify(owner.patients));
    if (owner.history.length > 0) await writeFileDurably(path.join(dir, HISTORY_FILE_NAME), owner.history.join(''));
    if (owner.exports.length > 0) await writeFileDurably(path.join(dir, EXPORT_LOG_FILE_NAME), owner.exports.join(''));
  }
}

/** store.json is written: db.json is renamed, if it is the file that was migrated (never a newer one). */
async function finishMigration(dataDir: string, layout: LayoutFile, log: (message: string) => void) {
  const legacyFile = path.join(dataDir, LEGACY_DATA_FILE_NAME);
  if (layout.migratedFrom?.sha256 !== sha256(await readFile(legacyFile))) {
    throw new StorageError(
      `The data directory ${dataDir} holds both data of layout ${LAYOUT_VERSION} (${LAYOUT_FILE_NAME}) and ` +
        `${legacyFile}, which was not migrated into it. Nothing has been changed. Move ${legacyFile} away to use ` +
        `the current data, or move ${LAYOUT_FILE_NAME}, ${ACCOUNTS_FILE_NAME} and ${CLINICIANS_DIR_NAME}/ away ` +
        `to migrate ${LEGACY_DATA_FILE_NAME} again.`,
    );
  }
  const backup = await renameLegacyFile(dataDir);
  log(`Finished migrating ${legacyFile}: the old file is kept as ${backup}.`);
}

async function renameLegacyFile(dataDir: string): Promise<string> {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const backup = path.join(dataDir, `${LEGACY_DATA_FILE_NAME}.migrated-${stamp}.bak`);
  await rename(path.join(dataDir, LEGACY_DATA_FILE_NAME), backup);
  await fsyncDir(dataDir);
  return backup;
}

async function removeMarker(dataDir: string): Promise<void> {
  const marker = path.join(dataDir, MIGRATION_MARKER_NAME);
  if (!(await exists(marker))) return;
  await rm(marker, { force: true });
  await fsyncDir(dataDir);
}
