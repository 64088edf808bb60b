import { createHash } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Pool } from 'pg';
import { writeFileDurably } from '../storage/embedded/durable-fs.ts';
import {
  AUDIT_FILE_NAME,
  closeAll,
  linesForward,
  openAuditFiles,
  openAuditFilesStable,
  rotationNumber,
} from '../storage/audit-files.ts';
import { SYSTEM_ACTOR } from '../storage/audit-log.ts';
import { AUDIT_COLUMNS, insertLines, rowFields, withChainLock } from '../storage/postgres/audit-log.ts';
import { StorageError } from '../storage/storage-error.ts';
import {
  chainLine,
  ChainVerifier,
  GENESIS_HASH,
  linkAfter,
  parseLine,
  PRUNE_ACTION,
  signSummary,
  UNKEYED_SPAN,
  type AuditFields,
  type AuditKey,
  type AuditKeyring,
  type ChainedLine,
  type ReadLine,
  type VerifyResult,
} from './chain.ts';
import { fileAuditKeyring, postgresAuditKeyring } from './keys.ts';

export { AUDIT_KEY_FILE_NAME, AUDIT_KEY_SETTING, fileAuditKeyring, postgresAuditKeyring } from './keys.ts';

/** What a check is given: the keys (default: the development key of the store), the line numbers to watch. */
const PAGE = 5_000;

/** AUDIT_RETENTION_DAYS: lines younger than this are never removed; at least a year (NCA ECC: 12 months). */
export const AUDIT_RETENTION_MIN_DAYS = 365;
export const AUDIT_RETENTION_DEFAULT_DAYS = 400;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface TrailCheckOptions {
  keyring?: AuditKeyring;
  watch?: ReadonlySet<number>;
}

export interface FileVerifyResult extends VerifyResult {
  /** Bytes after the last newline of audit.log: an append a crash cut short (never acknowledged). */
  tornTail?: number;
  files: number;
}

/** Checks the chain of DATA_DIR's audit files, oldest first (safe beside a running server). */
export async function verifyFileTrail(dataDir: string, options: TrailCheckOptions = {}): Promise<FileVerifyResult> {
  const keyring = options.keyring ?? (await fileAuditKeyring(dataDir, []));
  const verifier = new ChainVerifier({ keyring, watch: options.watch });
  const files = await openAuditFilesStable(dataDir);
  let tornTail: number | undefined;
  try {
    for (const file of [...files].reverse()) {
      for await (const line of linesForward(file, (bytes) => (tornTail = bytes))) {
        if (verifier.add({ kind: 'text', text: line.text, where: line.where })) break;
      }
      if (verifier.broken) break;
      if (tornTail !== undefined && file.name !== AUDIT_FILE_NAME) {
        verifier.add({ kind: 'text', text: '', where: `the end of ${file.name}` });
        break;
      }
    }
  } finally {
    await closeAll(files);
  }
  return { ...verifier.result, files: files.length, ...(tornTail !== undefined ? { tornTail } : {}) };
}

/** Checks the chain of audit_events, in id order, a page at a time. */
export async function verifyPostgresTrail(pool: Pool, options: TrailCheckOptions = {}): Promise<VerifyResult> {
  const keyring = options.keyring ?? (await postgresAuditKeyring(pool, []));
  const verifier = new ChainVerifier({ keyring, watch: options.watch });
  let after = '0';
  for (;;) {
    const rows = (
      await pool.query(`SELECT ${AUDIT_COLUMNS} FROM audit_events WHERE id > $1 ORDER BY id LIMIT ${PAGE}`, [after])
    ).rows as Record<string, unknown>[];
    for (const row of rows) {
      if (
        verifier.add({
          kind: 'fields',
          fields: rowFields(row) as Partial<ChainedLine>,
          where: `audit_events row id ${row.id}`,
        })
      )
        return verifier.result;
    }
    if (rows.length < PAGE) return verifier.result;
    after = rows.at(-1)!.id as string;
  }
}

export interface PruneOptions {
  retentionDays: number;
  now: Date;
  dryRun?: boolean;
  /** AUDIT_KEY's keys (the first signs the summary); default: the store's development key. */
  keyring?: AuditKeyring;
}

/** A row of an earlier release without a hash, as the text its summary names it by (hashOf). */
const legacyText = (fields: AuditFields & { prev?: string }) =>
  chainLine(fields, fields.prev ?? GENESIS_HASH, undefined).text;

export interface PruneOutcome {
  /** Lines removed (0: nothing was older than the retention period). */
  count: number;
  before: string;
  /** The summary line written in their place. */
  summary?: ChainedLine;
  dryRun: boolean;
}

/** The hash a removed line is named by in the summary (a line of an earlier release has none: its text's). */
const hashOf = (line: { hash?: string }, text: string) =>
  line.hash ?? createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * The summary: the trail's first line from now on, numbered as the last line it stands in for, keyed and signed with
 * AUDIT_KEY, naming the span the lines after it are in (their key, or that they are of a release before the key).
 */
function summaryLine(key: AuditKey, at: Date, cutoff: Date, pruned: PrunedRange, retentionDays: number): ChainedLine {
  const fields: AuditFields = {
    time: at.toISOString(),
    actor: SYSTEM_ACTOR,
    action: PRUNE_ACTION,
    recordType: 'audit',
    outcome: 'success',
    detail: {
      count: pruned.count,
      firstHash: pruned.firstHash,
      lastHash: pruned.lastHash,
      before: cutoff.toISOString(),
      retentionDays,
      keyId: key.id,
      next: pruned.next,
    },
    seq: pruned.seq,
  };
  const signature = signSummary(key, { ...fields, prev: pruned.firstPrev });
  return chainLine({ ...fields, detail: { ...fields.detail, signature } }, pruned.firstPrev, key).line;
}

function signingKey(keyring: AuditKeyring): AuditKey {
  if (keyring.signing) return keyring.signing;
  throw new StorageError('Nothing was pruned: the summary must be signed with AUDIT_KEY, and no key is set.');
}

interface PrunedRange {
  /** Lines removed, and those an earlier summary among them stood in for. */
  count: number;
  /** The number of the last removed line: the summary stands as it. */
  seq: number;
  /** The span the first kept line is in: its key's id, UNKEYED_SPAN or 'legacy'. */
  next: string;
  firstHash: string;
  /** What the first kept line links to. */
  lastHash: string;
  /** The prev of the first removed line (the summary takes its place in the chain). */
  firstPrev: string;
}

/** Tracks the leading lines older than the cutoff. */
class PrefixTracker {
  range: PrunedRange | undefined;
  done = false;
  /** Follows the removed lines, for the number and the span the summary names. */
  readonly #verifier: ChainVerifier;
  constructor(
    readonly cutoff: number,
    keyring: AuditKeyring,
  ) {
    this.#verifier = new ChainVerifier({ keyring });
  }
  /** True when the line is removed. */
  take(fields: Record<string, unknown>, text: string, read: ReadLine): boolean {
    if (this.done) return false;
    // An earlier summary is as old as what it stands in for (its own time is the prune's): it goes when
    // its lines would.
    const detail = fields.detail as { before?: unknown } | null | undefined;
    const age = fields.action === PRUNE_ACTION && typeof detail?.before === 'string' ? detail.before : fields.time;
    const time = Date.parse(String(age));
    if (!(time < this.cutoff)) {
      this.done = true;
      return false;
    }
    const chained = typeof fields.hash === 'string';
    const hash = hashOf(fields as { hash?: string }, text);
    const next = chained ? linkAfter(fields as unknown as ChainedLine) : GENESIS_HASH;
    if (!this.range) {
      this.range = {
        count: 0,
        seq: 0,
        next: UNKEYED_SPAN,
        firstHash: hash,
        lastHash: next,
        firstPrev: chained ? String(fields.prev) : GENESIS_HASH,
      };
    }
    const problem = this.#verifier.add(read);
    if (problem) throw new StorageError(`Nothing was pruned: ${problem.where}: ${problem.problem}.`);
    const summarised = fields.action === PRUNE_ACTION ? Number((fields.detail as { count?: unknown }).count) : 1;
    this.range.count += summarised;
    this.range.lastHash = next;
    this.range.seq = this.#verifier.result.seq;
    const span = this.#verifier.span;
    this.range.next = span.kind === 'keyed' ? span.key.id : span.kind === 'legacy' ? 'legacy' : UNKEYED_SPAN;
    return true;
  }
}

function refuseBroken(result: VerifyResult) {
  if (result.broken) {
    throw new StorageError(
      `Nothing was pruned: the audit trail is broken at ${result.broken.where} (${result.broken.problem}). ` +
        'Pruning would hide where. Keep the files as they are for the investigation.',
    );
  }
}

/**
 * Removes the lines of DATA_DIR's trail older than `retentionDays` (only the leading ones: a line younger
 * than the period is never removed, nor anything after it) and writes a signed summary in their place, at
 * the start of the first file kept. The caller holds the DATA_DIR lock (the server is stopped).
 */
export async function pruneFileTrail(dataDir: string, options: PruneOptions): Promise<PruneOutcome> {
  const cutoff = new Date(options.now.getTime() - options.retentionDays * DAY_MS);
  const keyring = options.keyring ?? (await fileAuditKeyring(dataDir, []));
  refuseBroken(await verifyFileTrail(dataDir, { keyring }));
  const files = await openAuditFiles(dataDir);
  const oldestFirst = [...files].reverse();
  const tracker = new PrefixTracker(cutoff.getTime(), keyring);
  /** The file the old lines end in, with what it keeps; or the first file nothing is removed from. */
  let straddle: { name: string; kept: string[] } | undefined;
  let firstKept: string | undefined;
  const emptied: string[] = [];
  try {
    for (const file of oldestFirst) {
      const kept: string[] = [];
      let removed = 0;
      for await (const { text, where } of linesForward(file)) {
        if (tracker.take(parseLine(text) ?? {}, text, { kind: 'text', text, where })) removed += 1;
        else kept.push(text);
      }
      if (removed === 0) {
        firstKept = file.name;
        break;
      }
      if (kept.length > 0) {
        straddle = { name: file.name, kept };
        break;
      }
      emptied.push(file.name);
    }
  } finally {
    await closeAll(files);
  }
  const base = { before: cutoff.toISOString(), dryRun: Boolean(options.dryRun) };
  if (!tracker.range) return { count: 0, ...base };
  const key = signingKey(keyring);
  const summary = summaryLine(key, options.now, cutoff, tracker.range, options.retentionDays);
  if (options.dryRun) return { count: tracker.range.count, summary, ...base };
  const summaryText = `${chainLine(summary, summary.prev, key).text}\n`;
  // The summary goes first in the first file kept: the one the old lines end in (written without them),
  // or the next one when they end with a file; when every line was old, audit.log holds only it.
  let written: string;
  if (straddle) {
    written = straddle.name;
    await writeFileDurably(
      path.join(dataDir, written),
      summaryText + straddle.kept.map((line) => `${line}\n`).join(''),
    );
  } else if (firstKept) {
    written = firstKept;
    const file = path.join(dataDir, written);
    await writeFileDurably(file, summaryText + (await readFile(file, 'utf8')));
  } else {
    written = AUDIT_FILE_NAME;
    await writeFileDurably(path.join(dataDir, written), summaryText);
  }
  for (const name of emptied.sort((a, b) => rotationNumber(b) - rotationNumber(a))) {
    if (name !== written) await rm(path.join(dataDir, name), { force: true });
  }
  return { count: tracker.range.count, summary, ...base };
}

/**
 * The same for audit_events, in one transaction holding the chain's lock (instances keep writing: they
 * wait for it): the leading rows older than the period are deleted and the signed summary takes the id of
 * the last of them, so it comes first.
 */
export async function prunePostgresTrail(pool: Pool, options: PruneOptions): Promise<PruneOutcome> {
  const cutoff = new Date(options.now.getTime() - options.retentionDays * DAY_MS);
  const keyring = options.keyring ?? (await postgresAuditKeyring(pool, []));
  refuseBroken(await verifyPostgresTrail(pool, { keyring }));
  return withChainLock(pool, async (client) => {
    const tracker = new PrefixTracker(cutoff.getTime(), keyring);
    let lastId: string | undefined;
    let after = '0';
    scan: for (;;) {
      const rows = (
        await client.query(`SELECT ${AUDIT_COLUMNS} FROM audit_events WHERE id > $1 ORDER BY id LIMIT ${PAGE}`, [after])
      ).rows as Record<string, unknown>[];
      for (const row of rows) {
        const fields = rowFields(row);
        const read: ReadLine = { kind: 'fields', fields, where: `audit_events row id ${row.id}` };
        if (!tracker.take(fields as unknown as Record<string, unknown>, legacyText(fields), read)) break scan;
        lastId = row.id as string;
      }
      if (rows.length < PAGE) break;
      after = rows.at(-1)!.id as string;
    }
    const base = { before: cutoff.toISOString(), dryRun: Boolean(options.dryRun) };
    if (!tracker.range || lastId === undefined) return { count: 0, ...base };
    const summary = summaryLine(signingKey(keyring), options.now, cutoff, tracker.range, options.retentionDays);
    if (options.dryRun) {
      await client.query('ROLLBACK');
      await client.query('BEGIN'); // withChainLock commits: nothing is left to commit
      return { count: tracker.range.count, summary, ...base };
    }
    await client.query('DELETE FROM audit_events WHERE id <= $1', [lastId]);
    await insertLines(client, [summary]);
    // The summary must come first: it takes the id of the last line it stands in for.
    await client.query('UPDATE audit_events SET id = $1 WHERE id = (SELECT max(id) FROM audit_events) AND hash = $2', [
      lastId,
      summary.hash,
    ]);
    return { count: tracker.range.count, summary, ...base };
  });
}

/** The retention cutoff for a check that nothing younger is removed. */
export const retentionCutoff = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS);
