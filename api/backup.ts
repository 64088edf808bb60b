import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config.ts';
import { BackupError, createBackup } from './storage/backup/backup.ts';
import { redact } from './storage/backup/postgres-backup.ts';
import { StorageError } from './storage/storage-error.ts';

// `npm run backup -- --out FILE`: a consistent backup of the store the server uses (DATA_DIR, or
// PostgreSQL with DATABASE_URL), taken while it runs (api/storage/backup/backup.ts). Reads the same
// environment as the server. Built beside it as dist/server/backup.js. Exit status: 0 written,
// 1 refused or failed (one message, never the password), 2 wrong arguments.

const USAGE =
  'Usage: npm run backup -- --out <FILE>   (of DATA_DIR, or of the database of DATABASE_URL when it is set)';

async function main(): Promise<number> {
  process.umask(0o077); // what it writes holds patient data
  let values: { out?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }));
  } catch (error) {
    console.error(`backup: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (!values.out) {
    console.error(`backup: --out missing.\n${USAGE}`);
    return 2;
  }
  try {
    const config = loadConfig(process.env);
    await createBackup(config, values.out, (message) => console.log(message));
    return 0;
  } catch (error) {
    const known = error instanceof BackupError || error instanceof StorageError || error instanceof ConfigError;
    const message = redact((error as Error).message, process.env.DATABASE_URL ?? '');
    console.error(`backup: ${known ? '' : 'failed: '}${message}`);
    return 1;
  }
}

process.exitCode = await main();
