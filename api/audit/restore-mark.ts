import type { Pool } from 'pg';
import type { ServerConfig } from '../config.ts';
import { fileAuditLog, type AuditEvent } from '../storage/audit-log.ts';
import { postgresAuditLog } from '../storage/postgres/audit-log.ts';
import { anchorSink, type AnchorSink } from './anchors.ts';
import { describeResult, RESTORE_ACTION, SYSTEM_ACTOR, type AuditKeyring, type VerifyResult } from './chain.ts';
import { fileAuditKeyring, postgresAuditKeyring } from './keys.ts';
import { verifyFileTrail, verifyPostgresTrail } from './trail.ts';

// After `npm run restore`: the restored trail is verified, and a restore line (`audit.restore`, keyed under
// AUDIT_KEY like every line) goes on from its last line, naming the time of that line. The anchors written after
// that time name lines this restore took away: `npm run audit-verify -- --anchors` says so, and checks every anchor
// up to the backup (anchors.ts). Without the line (a restore by pg_restore or a copy of files, not by this command,
// or by someone without AUDIT_KEY) a restored trail shorter than its anchors is a cut.

type MarkConfig = Pick<ServerConfig, 'auditKeys' | 'auditLogMaxBytes'> & Partial<Pick<ServerConfig, 'auditAnchorFile'>>;

export interface RestoreMarkOutcome {
  /** The restored trail as verified before the line was written. */
  verified: VerifyResult;
  /** The restore line's number, undefined when the restored trail is broken (then no line is written). */
  seq?: number;
  /** The time of the restored trail's last line: what the restore line names as the backup's. */
  backupTime?: string;
}

/** A trail with no line at all: the backup's time is the beginning. */
const NO_LINE_TIME = new Date(0).toISOString();

async function mark(
  keyring: AuditKeyring,
  verified: VerifyResult,
  config: MarkConfig,
  write: (anchors: AnchorSink | undefined, backupTime: string) => Promise<void>,
): Promise<RestoreMarkOutcome> {
  if (verified.broken) return { verified };
  const backupTime = verified.last ?? NO_LINE_TIME;
  let problem: unknown;
  const anchors =
    keyring.signing &&
    anchorSink({
      key: keyring.signing,
      file: config.auditAnchorFile,
      every: { lines: 1, seconds: 60 },
      log: () => {},
      onError: (error) => (problem ??= error),
    });
  try {
    await write(anchors || undefined, backupTime);
  } finally {
    await anchors?.close();
  }
  if (problem) {
    throw new Error(`The audit anchor file ${config.auditAnchorFile} cannot be written: ${(problem as Error).message}`);
  }
  return { verified, seq: verified.seq + 1, backupTime };
}

const restoreEvent = (backupTime: string, lines: number): AuditEvent => ({
  actor: SYSTEM_ACTOR,
  action: RESTORE_ACTION,
  recordType: 'audit',
  outcome: 'success',
  detail: { backupTime, lines },
});

/** Marks a restored DATA_DIR (its lock held by the restore). */
export async function markFileRestore(dataDir: string, config: MarkConfig): Promise<RestoreMarkOutcome> {
  const keyring = await fileAuditKeyring(dataDir, config.auditKeys, { create: true });
  const verified = await verifyFileTrail(dataDir, { keyring });
  return mark(keyring, verified, config, async (anchors, backupTime) => {
    const audit = fileAuditLog(dataDir, () => new Date(), { maxBytes: config.auditLogMaxBytes, keyring, anchors });
    await audit.record(restoreEvent(backupTime, verified.seq), null);
  });
}

/** Marks a restored database (no server connected: the restore checked). */
export async function markPostgresRestore(pool: Pool, config: MarkConfig): Promise<RestoreMarkOutcome> {
  const keyring = await postgresAuditKeyring(pool, config.auditKeys, { create: true });
  const verified = await verifyPostgresTrail(pool, { keyring });
  return mark(keyring, verified, config, async (anchors, backupTime) => {
    const audit = postgresAuditLog(pool, () => new Date(), { keyring, anchors });
    await audit.record(restoreEvent(backupTime, verified.seq), null);
  });
}

/** The outcome in a sentence, for the restore's output. */
export function describeRestoreMark(outcome: RestoreMarkOutcome, source: string): string {
  if (outcome.seq === undefined) {
    return (
      `${describeResult(outcome.verified, source)} No restore line was written: the backup's own trail does not ` +
      'verify, so npm run audit-verify will say where it breaks.'
    );
  }
  return (
    `The restored audit trail verifies (${outcome.verified.seq} lines, the last of ${outcome.backupTime}); line ` +
    `${outcome.seq} says it was restored, so npm run audit-verify -- --anchors checks every anchor up to that time ` +
    'and names the lines written after it, which this restore took away.'
  );
}
