import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { dropTornTail } from './embedded/append-log.ts';
import { ensureDir, isMissing, writeFileDurably } from './embedded/durable-fs.ts';
import { EmbeddedStore, removeClinicianFiles } from './embedded/embedded-store.ts';
import { prepareLayout } from './embedded/layout.ts';
import { ACCOUNTS_FILE_NAME, EXPORTS_DIR_NAME } from './embedded/layout-names.ts';
import { loadAccounts, loadClinicians } from './embedded/load.ts';
import type { StoreAdapter } from './store.ts';

export { EXPORTS_DIR_NAME, LAYOUT_FILE_NAME, LEGACY_DATA_FILE_NAME } from './embedded/layout-names.ts';

/**
 * The default store, in DATA_DIR: lowdb JSON files for accounts and each clinician's patients,
 * append-only JSON lines for each clinician's history and export records (layout 2, described in
 * embedded/layout-names.ts and docs/engineering-notes.md#storage-lowdb). A write is acknowledged (the
 * promise resolves) only once it is on disk, fsynced. A db.json of layout 1 is migrated at the first
 * start and kept as a backup. Every file is read and checked at start: a damaged one stops start-up
 * with a message naming it and is never changed; an unfinished last line a crash left in a log is
 * cut off (it was never acknowledged). Export files a crash left behind are removed. `log` hears of
 * a migration, cut lines and removed files.
 */
export async function openLowdbStore(
  dataDir: string,
  options: { log?: (message: string) => void } = {},
): Promise<StoreAdapter> {
  const log = options.log ?? (() => {});
  await ensureDir(dataDir);
  await prepareLayout(dataDir, log);
  const accounts = await loadAccounts(dataDir);
  // An erasure a crash cut short (embedded-store.ts eraseAccount): the account is already gone from
  // accounts.json; its folder goes now, its PDFs with the orphaned files below.
  if (accounts.erasing?.length) {
    for (const id of accounts.erasing) await removeClinicianFiles(dataDir, id, []);
    log(`Finished erasing ${accounts.erasing.length} deleted account(s) a stop interrupted.`);
    delete accounts.erasing;
    await writeFileDurably(path.join(dataDir, ACCOUNTS_FILE_NAME), JSON.stringify(accounts));
  }
  const clinicians = await loadClinicians(dataDir);
  // Only once every file has been read and checked, so a refused start changes nothing.
  for (const torn of clinicians.flatMap((clinician) => clinician.tornTails)) {
    await dropTornTail(torn);
    log(
      `Dropped an unfinished last line (${torn.droppedBytes} bytes) from ${torn.file}: ` +
        'a write a crash cut short, never acknowledged.',
    );
  }
  const store = new EmbeddedStore(dataDir, accounts, clinicians);
  const exportsDir = path.join(dataDir, EXPORTS_DIR_NAME);
  const { partial, unreferenced } = await removeOrphanedExports(exportsDir, store.allExportIds());
  if (partial + unreferenced > 0) {
    log(
      `Removed ${partial + unreferenced} orphaned export files from ${exportsDir} ` +
        `(${partial} unfinished uploads, ${unreferenced} PDF${unreferenced === 1 ? '' : 's'} with no export record)`,
    );
  }
  return store;
}

/**
 * A crash mid-upload leaves `<id>.pdf.partial`; a crash between the file and its record leaves a
 * `<id>.pdf` no record names (so does a deletion cut short). Neither can ever be downloaded, and both
 * hold patient documents, so they go at start (the DATA_DIR lock is held: no upload is under way).
 * Other files are left alone.
 */
async function removeOrphanedExports(exportsDir: string, exportIds: ReadonlySet<string>) {
  const removed = { partial: 0, unreferenced: 0 };
  let entries;
  try {
    entries = await readdir(exportsDir, { withFileTypes: true });
  } catch (error) {
    if (isMissing(error)) return removed;
    throw error;
  }
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    if (entry.name.endsWith('.pdf.partial')) removed.partial += 1;
    else if (entry.name.endsWith('.pdf') && !exportIds.has(entry.name.slice(0, -'.pdf'.length))) {
      removed.unreferenced += 1;
    } else continue;
    await rm(path.join(exportsDir, entry.name), { force: true });
  }
  return removed;
}
