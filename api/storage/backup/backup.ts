import { createWriteStream } from 'node:fs';
import { chmod, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { ServerConfig } from '../../config.ts';
import { fsyncDir } from '../embedded/durable-fs.ts';
import { detectBackupKind, MANIFEST_NAME } from './archive.ts';
import { BackupError } from './backup-error.ts';
import { backupEmbedded } from './embedded-backup.ts';
import { restoreEmbedded } from './embedded-restore.ts';
import { backupPostgres, restorePostgres } from './postgres-backup.ts';
import { describeRestoreMark, markFileRestore, markPostgresRestore } from '../../audit/restore-mark.ts';
import { AUDIT_KEY_REQUIRED_MESSAGE } from '../../audit/keys.ts';
import { AUDIT_LOG_DEFAULT_MAX_BYTES } from '../audit-log.ts';
import { openPostgresStore } from '../postgres/index.ts';

export { BackupError } from './backup-error.ts';

/**
 * `npm run backup -- --out FILE` and `npm run restore -- --from FILE` (api/backup.ts and
 * api/restore.ts are the commands), for the store the server uses: PostgreSQL when DATABASE_URL is
 * set, else the embedded store in DATA_DIR. The backup is written to FILE.partial, fsynced and
 * renamed, so FILE is either a whole backup or absent; it is readable by its owner only (0600): it
 * holds patient data and password hashes.
 */

type StoreConfig = Pick<ServerConfig, 'dataDir' | 'databaseUrl'> &
  Partial<Pick<ServerConfig, 'dataKeys' | 'auditKeys' | 'auditKeyRequired' | 'auditLogMaxBytes' | 'auditAnchorFile'>>;
type Log = (message: string) => void;

const bytes = (count: number) => `${count.toLocaleString('en-US')} bytes`;
/** The development key's mention in the summary (DATA_KEY unset). */
const GENERATED_DATA_KEY = 'the data key generated for development (what it encrypts opens after a restore)';
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

export async function createBackup(config: StoreConfig, out: string, log: Log): Promise<void> {
  const file = path.resolve(out);
  const existing = await stat(file).catch(() => undefined);
  if (existing) {
    throw new BackupError(
      `${file} already exists: a backup never replaces another. Choose a new name (with the date in it, say) ` +
        'or move that one away first.',
    );
  }
  const folder = await stat(path.dirname(file)).catch(() => undefined);
  if (!folder?.isDirectory()) throw new BackupError(`The folder ${path.dirname(file)} (of --out) does not exist.`);

  const partial = `${file}.partial`;
  await rm(partial, { force: true }); // a failed run's, with whatever mode it had
  try {
    if (config.databaseUrl) {
      const summary = await backupPostgres(config.databaseUrl, partial);
      log(
        `Backed up PostgreSQL at ${summary.target} (server ${summary.serverVersion}) with pg_dump ` +
          `${summary.tool.version} (${summary.tool.path}), custom format: one consistent snapshot.`,
      );
    } else {
      log(`Backing up the data directory ${config.dataDir} (embedded store).`);
      const write = (chunks: AsyncIterable<Buffer>) =>
        pipeline(Readable.from(chunks), createGzip(), createWriteStream(partial, { mode: 0o600 }));
      const summary = await backupEmbedded(config.dataDir, write);
      log(
        `Snapshot of ${config.dataDir} at ${summary.snapshotAt.toISOString()} (a moment without writes, found at ` +
          `attempt ${summary.attempts}): ${plural(summary.users, 'user')}, ${plural(summary.sessions, 'session')}, ` +
          `${plural(summary.patients, 'patient')}, ${plural(summary.calculations, 'calculation')}, ` +
          `${plural(summary.exports, 'export')} with their PDFs, ${plural(summary.auditFiles, 'audit log file')}` +
          `${summary.jwtSecret ? ', and the JWT secret (tokens signed before stay valid after a restore)' : ''}` +
          `${summary.dataKey ? `, and ${GENERATED_DATA_KEY}` : ''}.`,
      );
      if (summary.leftOut.length > 0) log(`Not backed up (not the store's files): ${summary.leftOut.join(', ')}.`);
    }
    if (config.auditKeys?.length)
      log('AUDIT_KEY is not in the backup: keep it apart; the restored audit trail is checked and continued with it.');
    if (config.dataKeys?.length)
      log(
        'DATA_KEY is not in the backup: keep it apart, and restore with it, or the authenticator apps set up ' +
          '(and the sign-ins under way) in the backup cannot be read.',
      );
    await chmod(partial, 0o600);
    const handle = await open(partial, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(partial, file);
    await fsyncDir(path.dirname(file));
  } catch (error) {
    await rm(partial, { force: true }).catch(() => {});
    throw error;
  }
  log(`Wrote ${file} (${bytes((await stat(file)).size)}, mode 0600).`);
}

export interface RestoreOptions {
  force: boolean;
}

export async function restoreBackup(config: StoreConfig, from: string, options: RestoreOptions, log: Log) {
  const file = path.resolve(from);
  if (config.auditKeyRequired && !config.auditKeys?.length) {
    throw new BackupError(`${AUDIT_KEY_REQUIRED_MESSAGE}. Nothing was changed.`);
  }
  const markConfig = {
    auditKeys: config.auditKeys ?? [],
    auditLogMaxBytes: config.auditLogMaxBytes ?? AUDIT_LOG_DEFAULT_MAX_BYTES,
    auditAnchorFile: config.auditAnchorFile,
  };
  const found = await stat(file).catch(() => undefined);
  if (!found) throw new BackupError(`${file} does not exist.`);
  if (!found.isFile()) throw new BackupError(`${file} is not a file.`);
  const kind = await detectBackupKind(file);
  if (kind === 'damaged') {
    throw new BackupError(
      `${file} cannot be restored: it is damaged or cut short (its start does not decompress to a tar ` +
        'header). Nothing was changed.',
    );
  }
  if (kind === 'empty' || kind === 'unknown') {
    const what =
      kind === 'empty'
        ? 'it is empty'
        : `it is neither a DATA_DIR backup (a gzip'd tar starting with ${MANIFEST_NAME}) nor a pg_dump ` +
          'custom-format file';
    throw new BackupError(`${file} is not a backup made by npm run backup: ${what}. Nothing was changed.`);
  }
  if (kind === 'embedded' && config.databaseUrl) {
    throw new BackupError(
      `${file} is a backup of an embedded DATA_DIR, but DATABASE_URL is set, so it would go to PostgreSQL. ` +
        'Unset DATABASE_URL to restore it into DATA_DIR (npm run migrate-data then copies a DATA_DIR into ' +
        'PostgreSQL). Nothing was changed.',
    );
  }
  if (kind === 'postgres' && !config.databaseUrl) {
    throw new BackupError(
      `${file} is a PostgreSQL backup (pg_dump), but DATABASE_URL is not set: set it to the empty database to ` +
        'restore it into. Nothing was changed.',
    );
  }

  if (kind === 'postgres') {
    const summary = await restorePostgres(config.databaseUrl!, file, options.force);
    const counts = summary.counts;
    log(
      `Restored ${file} into PostgreSQL at ${summary.target} with pg_restore ${summary.tool.version}` +
        `${summary.cleaned ? ' (--clean: what the backup holds was replaced)' : ''}: ` +
        `${plural(counts.users!, 'user')}, ${plural(counts.sessions!, 'session')}, ` +
        `${plural(counts.patients!, 'patient')}, ${plural(counts.calculations!, 'calculation')}, ` +
        `${plural(counts.exports!, 'export')}, ${plural(counts.audit_events!, 'audit event')}.`,
    );
    const { adapter, pool } = await openPostgresStore(config.databaseUrl!);
    try {
      log(describeRestoreMark(await markPostgresRestore(pool, markConfig), 'audit_events'));
    } finally {
      await adapter.close();
    }
    return;
  }
  const summary = await restoreEmbedded(config.dataDir, file, options.force, () =>
    markFileRestore(config.dataDir, markConfig),
  );
  const manifest = summary.contents.manifest;
  log(
    `Checked ${file}: a backup of ${manifest.source} taken at ${manifest.snapshotAt}, ` +
      `${plural(summary.contents.files.length, 'file')}, every sha256 as written.`,
  );
  if (summary.movedAsideTo) log(`Moved what ${config.dataDir} held to ${summary.movedAsideTo}.`);
  log(
    `Restored into ${config.dataDir}: ${plural(summary.users, 'user')}, ${plural(summary.sessions, 'session')}, ` +
      `${plural(summary.patients, 'patient')}, ${plural(summary.calculations, 'calculation')}, ` +
      `${plural(summary.exports, 'export')} with their PDFs.`,
  );
  if (summary.marked) log(describeRestoreMark(summary.marked, config.dataDir));
}
