import { describeResult } from './audit/chain.ts';
import { AUDIT_KEY_REQUIRED_MESSAGE, fileAuditKeyring, postgresAuditKeyring } from './audit/keys.ts';
import { pruneFileTrail, prunePostgresTrail, verifyFileTrail, verifyPostgresTrail } from './audit/trail.ts';
import { runCommand } from './cli.ts';
import { ConfigError, databaseUrlOf, loadConfig } from './config.ts';
import { redact } from './storage/backup/postgres-backup.ts';
import { lockDataDir } from './storage/data-dir-lock.ts';
import { openPostgresStore } from './storage/postgres/index.ts';
import { StorageError } from './storage/storage-error.ts';

// `npm run audit-prune [-- --dry-run]`: removes the audit lines older than AUDIT_RETENTION_DAYS (default
// 400, at least 365) and writes a signed summary in their place, so `npm run audit-verify` still says
// intact (api/audit/trail.ts). Only leading lines older than the period go: nothing younger, ever. With
// PostgreSQL it runs beside the instances, connected as AUDIT_PRUNE_DATABASE_URL's role when that is set (the
// tables' owner, which may delete audit lines: the servers' role may not) or else as DATABASE_URL's; with
// DATA_DIR the server must be stopped (it takes DATA_DIR's lock). Exit status: 0 done, 1 refused or failed, 2
// wrong arguments.

const USAGE =
  'Usage: npm run audit-prune [-- --dry-run]   (lines older than AUDIT_RETENTION_DAYS, of DATA_DIR, or of ' +
  'AUDIT_PRUNE_DATABASE_URL or else DATABASE_URL)';

/** AUDIT_PRUNE_DATABASE_URL (or its file) for hiding its password in messages, read as DATABASE_URL is. */
const pruneUrlOf = (env: NodeJS.ProcessEnv) =>
  databaseUrlOf({ DATABASE_URL: env.AUDIT_PRUNE_DATABASE_URL, DATABASE_URL_FILE: env.AUDIT_PRUNE_DATABASE_URL_FILE });

process.exitCode = await runCommand({
  name: 'audit-prune',
  usage: USAGE,
  options: { 'dry-run': { type: 'boolean' } },
  required: [],
  privateFiles: true,
  knownErrors: [StorageError, ConfigError],
  redact: (message) => redact(redact(message, databaseUrlOf(process.env)), pruneUrlOf(process.env)),
  async run(values) {
    const config = loadConfig(process.env);
    // The summary is signed with AUDIT_KEY, as the lines after it are chained (a store's key proves nothing).
    if (config.auditKeyRequired && config.auditKeys.length === 0) throw new ConfigError(AUDIT_KEY_REQUIRED_MESSAGE);
    const options = { retentionDays: config.auditRetentionDays, now: new Date(), dryRun: values['dry-run'] };
    let outcome;
    let after;
    const url = config.auditPruneDatabaseUrl ?? config.databaseUrl;
    if (url) {
      const { adapter, pool } = await openPostgresStore(url);
      try {
        const keyring = await postgresAuditKeyring(pool, config.auditKeys);
        outcome = await prunePostgresTrail(pool, { ...options, keyring });
        after = await verifyPostgresTrail(pool, { keyring });
      } finally {
        await adapter.close();
      }
    } else {
      const release = lockDataDir(config.dataDir);
      try {
        const keyring = await fileAuditKeyring(config.dataDir, config.auditKeys);
        outcome = await pruneFileTrail(config.dataDir, { ...options, keyring });
        after = await verifyFileTrail(config.dataDir, { keyring });
      } finally {
        release();
      }
    }
    const what = `lines older than ${config.auditRetentionDays} days (before ${outcome.before})`;
    if (outcome.count === 0) console.log(`Nothing to prune: no ${what}.`);
    else if (outcome.dryRun) console.log(`Would remove ${outcome.count} ${what} and write a signed summary.`);
    else console.log(`Removed ${outcome.count} ${what}; a signed summary line stands in their place.`);
    console.log(describeResult(after, url ? 'audit_events' : config.dataDir));
  },
});
