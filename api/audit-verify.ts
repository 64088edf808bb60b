import { describeResult } from './audit/chain.ts';
import { verifyFileTrail, verifyPostgresTrail } from './audit/trail.ts';
import { runCommand } from './cli.ts';
import { ConfigError, databaseUrlOf, loadConfig } from './config.ts';
import { redact } from './storage/backup/postgres-backup.ts';
import { openPostgresStore } from './storage/postgres/index.ts';
import { StorageError } from './storage/storage-error.ts';

// `npm run audit-verify`: checks the audit trail's hash chain (api/audit/chain.ts) of the store the server
// uses, DATA_DIR's audit files or PostgreSQL's audit_events, and prints "intact, N lines" or the first
// broken link. Safe while the server runs. Exit status: 0 intact, 1 broken or failed, 2 wrong arguments.

/** A broken chain: its message is the report, printed as it is, exit status 1. */
class AuditBroken extends Error {
  override name = 'AuditBroken';
}

const USAGE = 'Usage: npm run audit-verify   (the audit trail of DATA_DIR, or of DATABASE_URL when it is set)';

process.exitCode = await runCommand({
  name: 'audit-verify',
  usage: USAGE,
  options: {},
  required: [],
  knownErrors: [StorageError, ConfigError, AuditBroken],
  redact: (message) => redact(message, databaseUrlOf(process.env)),
  async run() {
    const config = loadConfig(process.env);
    if (config.databaseUrl) {
      const { adapter, pool } = await openPostgresStore(config.databaseUrl);
      try {
        report(await verifyPostgresTrail(pool), 'audit_events');
      } finally {
        await adapter.close();
      }
      return;
    }
    const result = await verifyFileTrail(config.dataDir);
    if (result.tornTail !== undefined) {
      console.log(
        `Left out an unfinished last line of audit.log (${result.tornTail} bytes): an append a crash cut short.`,
      );
    }
    report(result, `${result.files} file${result.files === 1 ? '' : 's'} in ${config.dataDir}`);
  },
});

function report(result: Parameters<typeof describeResult>[0], source: string) {
  const text = describeResult(result, source);
  if (result.broken) throw new AuditBroken(text);
  console.log(text);
}
