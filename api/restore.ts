import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config.ts';
import { BackupError, restoreBackup } from './storage/backup/backup.ts';
import { redact } from './storage/backup/postgres-backup.ts';
import { StorageError } from './storage/storage-error.ts';

// `npm run restore -- --from FILE [--force]`: restores a backup made by `npm run backup` into the store
// the server would use (DATA_DIR, or PostgreSQL with DATABASE_URL), which must be empty unless --force
// (api/storage/backup/backup.ts). Built beside the server as dist/server/restore.js. Exit status:
// 0 restored, 1 refused or failed (one message, never the password), 2 wrong arguments.

const USAGE =
  'Usage: npm run restore -- --from <FILE> [--force]   (into DATA_DIR, or the database of DATABASE_URL, ' +
  'which must be empty; --force moves a DATA_DIR\u2019s contents aside, or replaces the tables in the database)';

async function main(): Promise<number> {
  process.umask(0o077); // what it writes holds patient data
  let values: { from?: string; force?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: { from: { type: 'string' }, force: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }));
  } catch (error) {
    console.error(`restore: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (!values.from) {
    console.error(`restore: --from missing.\n${USAGE}`);
    return 2;
  }
  try {
    const config = loadConfig(process.env);
    await restoreBackup(config, values.from, { force: values.force ?? false }, (message) => console.log(message));
    return 0;
  } catch (error) {
    const known = error instanceof BackupError || error instanceof StorageError || error instanceof ConfigError;
    const message = redact((error as Error).message, process.env.DATABASE_URL ?? '');
    console.error(`restore: ${known ? '' : 'failed: '}${message}`);
    return 1;
  }
}

process.exitCode = await main();
