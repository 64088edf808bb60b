import { anchoredLines, checkAnchors, describeAnchors, readAnchors, type ReadAnchor } from './audit/anchors.ts';
import { describeResult, type AuditKeyring, type VerifyResult } from './audit/chain.ts';
import { fileAuditKeyring, postgresAuditKeyring } from './audit/keys.ts';
import { verifyFileTrail, verifyPostgresTrail } from './audit/trail.ts';
import { runCommand } from './cli.ts';
import { ConfigError, databaseUrlOf, loadConfig } from './config.ts';
import { redact } from './storage/backup/postgres-backup.ts';
import { openPostgresStore } from './storage/postgres/index.ts';
import { StorageError } from './storage/storage-error.ts';

// `npm run audit-verify [-- --anchors FILE]`: checks the audit trail's chain (api/audit/chain.ts) of the store the
// server uses, DATA_DIR's audit files or PostgreSQL's audit_events, under AUDIT_KEY, and against the checkpoints
// kept outside the store (api/audit/anchors.ts): AUDIT_ANCHOR_FILE, or the file given (the anchor file, or a copy
// of the server log). Prints "intact, N lines" and what the anchors say, or the first fault and where. Safe while
// the server runs. Exit status: 0 intact, 1 broken, cut, rewritten or failed, 2 wrong arguments.

/** A broken chain: its message is the report, printed as it is, exit status 1. */
class AuditBroken extends Error {
  override name = 'AuditBroken';
}

const USAGE =
  'Usage: npm run audit-verify [-- --anchors FILE]   (the audit trail of DATA_DIR, or of DATABASE_URL when it is ' +
  'set, checked against the anchors of FILE or AUDIT_ANCHOR_FILE)';

process.exitCode = await runCommand({
  name: 'audit-verify',
  usage: USAGE,
  options: { anchors: { type: 'string' } },
  required: [],
  knownErrors: [StorageError, ConfigError, AuditBroken],
  redact: (message) => redact(message, databaseUrlOf(process.env)),
  async run(values) {
    const config = loadConfig(process.env);
    const anchorFile = values.anchors ?? config.auditAnchorFile;
    let anchors: ReadAnchor[] = [];
    if (anchorFile) {
      const read = await readAnchors(anchorFile).catch((error: NodeJS.ErrnoException) => {
        throw new StorageError(`The anchor file ${anchorFile} cannot be read (${error.code ?? error.message}).`);
      });
      if (read.damaged.length > 0) {
        throw new AuditBroken(
          `The anchor file is damaged at ${read.damaged.slice(0, 3).join(', ')}: an anchor line was changed or cut.`,
        );
      }
      anchors = read.anchors;
    }
    const watch = anchoredLines(anchors);
    if (config.databaseUrl) {
      const { adapter, pool } = await openPostgresStore(config.databaseUrl);
      try {
        const keyring = await postgresAuditKeyring(pool, config.auditKeys);
        report(await verifyPostgresTrail(pool, { keyring, watch }), 'audit_events', keyring, anchors, anchorFile);
      } finally {
        await adapter.close();
      }
      return;
    }
    const keyring = await fileAuditKeyring(config.dataDir, config.auditKeys);
    const result = await verifyFileTrail(config.dataDir, { keyring, watch });
    if (result.tornTail !== undefined) {
      console.log(
        `Left out an unfinished last line of audit.log (${result.tornTail} bytes): an append a crash cut short.`,
      );
    }
    const source = `${result.files} file${result.files === 1 ? '' : 's'} in ${config.dataDir}`;
    report(result, source, keyring, anchors, anchorFile);
  },
});

function report(
  result: VerifyResult,
  source: string,
  keyring: AuditKeyring,
  anchors: readonly ReadAnchor[],
  anchorFile: string | undefined,
) {
  const text = describeResult(result, source);
  if (result.broken) throw new AuditBroken(text);
  if (!anchorFile) {
    console.log(
      `${text} No anchors given (--anchors FILE or AUDIT_ANCHOR_FILE): lines cut off the end would not show.`,
    );
    return;
  }
  const checked = checkAnchors(result, anchors, keyring);
  const said = describeAnchors(checked, anchorFile);
  if (checked.problem) throw new AuditBroken(`${said}\n${text}`);
  console.log(`${text}\n${said}`);
}
