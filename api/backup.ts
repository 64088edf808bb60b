import { runCommand } from './cli.ts';
import { ConfigError, databaseUrlOf, loadConfig } from './config.ts';
import { BackupError, createBackup } from './storage/backup/backup.ts';
import { redact } from './storage/backup/postgres-backup.ts';
import { StorageError } from './storage/storage-error.ts';

// `npm run backup -- --out FILE`: a consistent backup of the store the server uses (DATA_DIR, or
// PostgreSQL with DATABASE_URL), taken while it runs (api/storage/backup/backup.ts). Reads the same
// environment as the server. Built beside it as dist/server/backup.js. Exit status: 0 written,
// 1 refused or failed (one message, never the password), 2 wrong arguments.

const USAGE =
  'Usage: npm run backup -- --out <FILE>   (of DATA_DIR, or of the database of DATABASE_URL when it is set)';

process.exitCode = await runCommand({
  name: 'backup',
  usage: USAGE,
  options: { out: { type: 'string' } },
  required: ['out'],
  privateFiles: true, // what it writes holds patient data
  knownErrors: [BackupError, StorageError, ConfigError],
  redact: (message) => redact(message, databaseUrlOf(process.env)),
  run: (values) => createBackup(loadConfig(process.env), values.out!, (message) => console.log(message)),
});
