import { runCommand } from './cli.ts';
import { ConfigError, databaseUrlOf, loadConfig } from './config.ts';
import { redact } from './storage/backup/postgres-backup.ts';
import { describeTarget, MIGRATIONS, openPostgresStore } from './storage/postgres/index.ts';
import { StorageError } from './storage/storage-error.ts';

// `npm run migrate`: brings the database of DATABASE_URL (or DATABASE_URL_FILE) to this release's
// schema and exits, as a server does at start (the same migrations, under the same advisory lock), so
// an upgrade can migrate once before any new instance starts (the Helm chart's pre-upgrade Job). Built
// beside the server as dist/server/migrate.js. Exit status: 0 up to date, 1 refused or failed (one
// message, never the password), 2 wrong arguments.

const USAGE =
  'Usage: npm run migrate   (brings the database of DATABASE_URL or DATABASE_URL_FILE to this release\u2019s schema)';

class MigrateError extends Error {
  override name = 'MigrateError';
}

process.exitCode = await runCommand({
  name: 'migrate',
  usage: USAGE,
  options: {},
  required: [],
  knownErrors: [StorageError, ConfigError, MigrateError],
  redact: (message) => redact(message, databaseUrlOf(process.env)),
  run: async () => {
    const { databaseUrl } = loadConfig(process.env);
    if (!databaseUrl) {
      throw new MigrateError(
        'DATABASE_URL (or DATABASE_URL_FILE) is not set: only a PostgreSQL database has migrations to run ' +
          '(a server converts its DATA_DIR itself at start)',
      );
    }
    let applied = 0;
    const { adapter } = await openPostgresStore(databaseUrl, {
      log: (message) => {
        if (message.startsWith('Applied')) applied += 1;
        console.log(redact(message, databaseUrl));
      },
    });
    await adapter.close();
    const latest = MIGRATIONS[MIGRATIONS.length - 1]!;
    console.log(
      `The database at ${describeTarget(databaseUrl)} is at schema version ${latest.version} ` +
        `(${latest.name})${applied === 0 ? ': nothing to apply' : ''}.`,
    );
  },
});
