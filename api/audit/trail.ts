import { createHash, randomBytes } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Pool, PoolClient } from 'pg';
import { isMissing, writeFileDurably } from '../storage/embedded/durable-fs.ts';
import {
  AUDIT_FILE_NAME,
  closeAll,
  linesForward,
  openAuditFiles,
  openAuditFilesStable,
  rotationNumber,
} from '../storage/audit-files.ts';
import { SYSTEM_ACTOR } from '../storage/audit-log.ts';
import { AUDIT_COLUMNS, chainHead, insertLines, rowFields, withChainLock } from '../storage/postgres/audit-log.ts';
import { StorageError } from '../storage/storage-error.ts';
import {
  chainLine,
  ChainVerifier,
  GENESIS_HASH,
  linkAfter,
  parseLine,
  PRUNE_ACTION,
  signSummary,
  type AuditFields,
  type ChainedLine,
  type VerifyResult,
} from './chain.ts';

/** The key that signs prune summaries: DATA_DIR/audit-key, or app_settings "audit_signing_key". */
export const AUDIT_KEY_FILE_NAME = 'audit-key';
export const AUDIT_KEY_SETTING = 'audit_signing_key';
const KEY_BYTES = 48;
const PAGE = 5_000;

/** AUDIT_RETENTION_DAYS: lines younger than this are never removed; at least a year (NCA ECC: 12 months). */
export const AUDIT_RETENTION_MIN_DAYS = 365;
export const AUDIT_RETENTION_DEFAULT_DAYS = 400;
const DAY_MS = 24 * 60 * 60 * 1000;

function decodeKey(text: string, where: string): Buffer {
  const trimmed = text.trim();
  const bytes = Buffer.from(trimmed, 'base64');
  if (bytes.length >= 32 && bytes.toString('base64') === trimmed) return bytes;
  throw new StorageError(
    `The audit trail's signing key (${where}) is damaged: it must hold at least 32 random bytes, base64.`,
  );
}

/** The embedded store's key, or undefined when no prune has made one yet. */
export async function readFileKey(dataDir: string): Promise<Buffer | undefined> {
  const file = path.join(dataDir, AUDIT_KEY_FILE_NAME);
  try {
    return decodeKey(await readFile(file, 'utf8'), file);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

async function fileKey(dataDir: string): Promise<Buffer> {
  const existing = await readFileKey(dataDir);
  if (existing) return existing;
  const key = randomBytes(KEY_BYTES);
  await writeFileDurably(path.join(dataDir, AUDIT_KEY_FILE_NAME), `${key.toString('base64')}\n`);
  return key;
}

export async function readPostgresKey(pool: Pool | PoolClient): Promise<Buffer | undefined> {
  const rows = (await pool.query('SELECT value FROM app_settings WHERE key = $1', [AUDIT_KEY_SETTING])).rows as {
    value: string;
  }[];
  return rows[0] ? decodeKey(rows[0].value, `app_settings "${AUDIT_KEY_SETTING}"`) : undefined;
}

async function postgresKey(client: PoolClient): Promise<Buffer> {
  await client.query('INSERT INTO app_settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [
    AUDIT_KEY_SETTING,
    randomBytes(KEY_BYTES).toString('base64'),
  ]);
  return (await readPostgresKey(client))!;
}

export interface FileVerifyResult extends VerifyResult {
  /** Bytes after the last newline of audit.log: an append a crash cut short (never acknowledged). */
  tornTail?: number;
  files: number;
}

/** Checks the chain of DATA_DIR's audit files, oldest first (safe beside a running server). */
export async function verifyFileTrail(dataDir: string): Promise<FileVerifyResult> {
  const verifier = new ChainVerifier(await readFileKey(dataDir));
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
export async function verifyPostgresTrail(pool: Pool): Promise<VerifyResult> {
  const verifier = new ChainVerifier(await readPostgresKey(pool));
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

function summaryLine(key: Buffer, at: Date, cutoff: Date, pruned: PrunedRange): ChainedLine {
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
    },
  };
  const signature = signSummary(key, { ...fields, prev: pruned.firstPrev });
  return chainLine({ ...fields, detail: { ...fields.detail, signature } }, pruned.firstPrev).line;
}

interface PrunedRange {
  count: number;
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
  constructor(readonly cutoff: number) {}
  /** True when the line is removed. */
  take(fields: Record<string, unknown>, text: string): boolean {
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
        firstHash: hash,
        lastHash: next,
        firstPrev: chained ? String(fields.prev) : GENESIS_HASH,
      };
    }
    this.range.count += 1;
    this.range.lastHash = next;
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
export async function pruneFileTrail(
  dataDir: string,
  options: { retentionDays: number; now: Date; dryRun?: boolean },
): Promise<PruneOutcome> {
  const cutoff = new Date(options.now.getTime() - options.retentionDays * DAY_MS);
  refuseBroken(await verifyFileTrail(dataDir));
  const files = await openAuditFiles(dataDir);
  const oldestFirst = [...files].reverse();
  const tracker = new PrefixTracker(cutoff.getTime());
  /** The file the old lines end in, with what it keeps; or the first file nothing is removed from. */
  let straddle: { name: string; kept: string[] } | undefined;
  let firstKept: string | undefined;
  const emptied: string[] = [];
  try {
    for (const file of oldestFirst) {
      const kept: string[] = [];
      let removed = 0;
      for await (const { text } of linesForward(file)) {
        if (tracker.take(parseLine(text) ?? {}, text)) removed += 1;
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
  const summary = summaryLine(await fileKey(dataDir), options.now, cutoff, tracker.range);
  if (options.dryRun) return { count: tracker.range.count, summary, ...base };
  const summaryText = `${chainLine(summary, summary.prev).text}\n`;
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
export async function prunePostgresTrail(
  pool: Pool,
  options: { retentionDays: number; now: Date; dryRun?: boolean },
): Promise<PruneOutcome> {
  const cutoff = new Date(options.now.getTime() - options.retentionDays * DAY_MS);
  refuseBroken(await verifyPostgresTrail(pool));
  return withChainLock(pool, async (client) => {
    await chainHead(client); // rows an earlier release wrote are chained first
    const tracker = new PrefixTracker(cutoff.getTime());
    let lastId: string | undefined;
    let after = '0';
    scan: for (;;) {
      const rows = (
        await client.query(`SELECT ${AUDIT_COLUMNS} FROM audit_events WHERE id > $1 ORDER BY id LIMIT ${PAGE}`, [after])
      ).rows as Record<string, unknown>[];
      for (const row of rows) {
        const fields = rowFields(row);
        if (
          !tracker.take(
            fields as unknown as Record<string, unknown>,
            chainLine(fields, fields.prev ?? GENESIS_HASH).text,
          )
        )
          break scan;
        lastId = row.id as string;
      }
      if (rows.length < PAGE) break;
      after = rows.at(-1)!.id as string;
    }
    const base = { before: cutoff.toISOString(), dryRun: Boolean(options.dryRun) };
    if (!tracker.range || lastId === undefined) return { count: 0, ...base };
    const summary = summaryLine(await postgresKey(client), options.now, cutoff, tracker.range);
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
