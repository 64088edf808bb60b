import { runCommand } from './cli.ts';
import { ConfigError, databaseUrlOf, loadConfig } from './config.ts';
import { redact } from './storage/backup/postgres-backup.ts';
import { describeTarget, MIGRATIONS, openPostgresStore } from './storage/postgres/index.ts';
import { StorageError } from './storage/storage-error.ts';

// `npm run migrate`: brings the database of DATABASE_URL (or DATABASE_URL_FILE) to this release's
// schema and exits, as a server does at start (the same migrations, under the same advisory lock), so
// an upgrade can migrate once before any new instance starts (the Helm chart's pre-upgrade Job). Built
// beside the server as dist/server/migrate.js. With two roles (README, "Two roles: one that cannot rewrite the
// audit trail") it runs as the tables' owner and `--server-role NAME` names the role the servers connect as, which
// is granted what they need, on audit_events only INSERT and SELECT. Exit status: 0 up to date, 1 refused or
// failed (one message, never the password), 2 wrong arguments.

const USAGE =
  'Usage: npm run migrate [-- --server-role NAME]   (brings the database of DATABASE_URL or DATABASE_URL_FILE ' +
  'to this release\u2019s schema; NAME: the role the servers connect as, when it is not the one of DATABASE_URL)';

class MigrateError extends Error {
  override name = 'MigrateError';
}

process.exitCode = await runCommand({
  name: 'migrate',
  usage: USAGE,
  options: { 'server-role': { type: 'string' } },
  required: [],
  knownErrors: [StorageError, ConfigError, MigrateError],
  redact: (message) => redact(message, databaseUrlOf(process.env)),
  run: async (values) => {
    const { databaseUrl } = loadConfig(process.env);
    const serverRole = values['server-role']?.trim();
    if (values['server-role'] !== undefined && !serverRole) throw new MigrateError('--server-role needs a role name');
    if (!databaseUrl) {
      throw new MigrateError(
        'DATABASE_URL (or DATABASE_URL_FILE) is not set: only a PostgreSQL database has migrations to run ' +
          '(a server converts its DATA_DIR itself at start)',
      );
    }
    let applied = 0;
    const { adapter } = await openPostgresStore(databaseUrl, {
      serverRole,
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
    if (serverRole) {
      console.log(
        `The role "${serverRole}" is granted what a server needs: the tables, but on audit_events only INSERT and ` +
          'SELECT (it cannot change, remove or empty the audit trail\u2019s lines).',
      );
    }
  },
});
