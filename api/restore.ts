import { runCommand } from './cli.ts';
import { ConfigError, databaseUrlOf, loadConfig } from './config.ts';
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

process.exitCode = await runCommand({
  name: 'restore',
  usage: USAGE,
  options: { from: { type: 'string' }, force: { type: 'boolean' } },
  required: ['from'],
  privateFiles: true, // what it writes holds patient data
  knownErrors: [BackupError, StorageError, ConfigError],
  redact: (message) => redact(message, databaseUrlOf(process.env)),
  run: (values) =>
    restoreBackup(loadConfig(process.env), values.from!, { force: values.force ?? false }, (message) =>
      console.log(message),
    ),
});
