import { createHmac, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { AuditKey, AuditKeyring, VerifyResult } from './chain.ts';

/**
 * Checkpoints of the audit trail kept outside the store (docs/API.md#audit-trail): every so many lines or seconds
 * (AUDIT_ANCHOR_EVERY) the server writes `{lines, head, time, keyId}`, signed with AUDIT_KEY, as one JSON line to
 * the server log (a SIEM keeps it) and, with AUDIT_ANCHOR_FILE, appended to that file (opened O_APPEND, fsynced),
 * on storage the database's administrator does not control. `lines` is the number of the trail's last line and
 * `head` its hash: whoever cuts the newest lines off, or rewrites the trail, cannot change what was anchored, and
 * `npm run audit-verify -- --anchors FILE` reports where the trail no longer matches.
 *
 * A line of either sink is `{"auditAnchor":{…}}` (the log's line carries the logger's fields beside it).
 */
export interface AuditAnchor {
  /** The number of the trail's last line when it was anchored. */
  lines: number;
  /** That line's hash (for a summary: the hash of the last line it stands in for). */
  head: string;
  time: string;
  /** The key that signs the anchor (chain.ts auditKeyId). */
  keyId: string;
  signature: string;
}

const HEX64 = /^[0-9a-f]{64}$/;

const anchorSigned = (anchor: Omit<AuditAnchor, 'signature'>) =>
  `sgx audit anchor\n${JSON.stringify({
    lines: anchor.lines,
    head: anchor.head,
    time: anchor.time,
    keyId: anchor.keyId,
  })}`;

export function makeAnchor(key: AuditKey, at: { lines: number; head: string }, time: Date): AuditAnchor {
  const unsigned = { lines: at.lines, head: at.head, time: time.toISOString(), keyId: key.id };
  return { ...unsigned, signature: createHmac('sha256', key.key).update(anchorSigned(unsigned)).digest('hex') };
}

function signatureValid(anchor: AuditAnchor, keyring: AuditKeyring): boolean | 'no key' {
  const key = keyring.keys.get(anchor.keyId);
  if (!key) return 'no key';
  const expected = createHmac('sha256', key.key).update(anchorSigned(anchor)).digest();
  const given = Buffer.from(anchor.signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** One line of the anchor file (without its newline). */
export const anchorText = (anchor: AuditAnchor) => JSON.stringify({ auditAnchor: anchor });

export interface ReadAnchor {
  anchor: AuditAnchor;
  where: string;
}

function asAnchor(value: unknown): AuditAnchor | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const a = value as Record<string, unknown>;
  if (!Number.isSafeInteger(a.lines) || (a.lines as number) < 1) return undefined;
  if (typeof a.head !== 'string' || !HEX64.test(a.head)) return undefined;
  if (typeof a.time !== 'string' || Number.isNaN(Date.parse(a.time))) return undefined;
  if (typeof a.keyId !== 'string' || typeof a.signature !== 'string') return undefined;
  return { lines: a.lines as number, head: a.head, time: a.time, keyId: a.keyId, signature: a.signature };
}

/**
 * The anchors of a file: AUDIT_ANCHOR_FILE, or a copy of the server log (every line that is not an anchor is
 * passed over). A line that names an anchor but is not a whole one is answered as damaged.
 */
export async function readAnchors(file: string): Promise<{ anchors: ReadAnchor[]; damaged: string[] }> {
  const anchors: ReadAnchor[] = [];
  const damaged: string[] = [];
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  let number = 0;
  for await (const text of lines) {
    number += 1;
    if (!text.includes('"auditAnchor"')) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      damaged.push(`${file} line ${number}`);
      continue;
    }
    const anchor = asAnchor((parsed as { auditAnchor?: unknown }).auditAnchor);
    if (anchor) anchors.push({ anchor, where: `${file} line ${number}` });
    else damaged.push(`${file} line ${number}`);
  }
  return { anchors, damaged };
}

/** The line numbers the verifier must keep the hashes of, to check these anchors. */
export const anchoredLines = (anchors: readonly ReadAnchor[]) => new Set(anchors.map(({ anchor }) => anchor.lines));

export interface AnchorReport {
  /** Anchors read and matched by the trail. */
  checked: number;
  /** Anchors of lines a prune has removed since (the summary stands for them). */
  pruned: number;
  /** The newest anchor read (the one a cut would be measured against). */
  latest?: AuditAnchor;
  /** Lines anchored after a backup that a restore then took away: said, not a fault. */
  lost: { lines: number; anchoredAt: string; backupTime: string; restoredAt: string }[];
  /** The first fault: the trail was cut, rewritten, or the anchor itself is not genuine. */
  problem?: string;
}

/**
 * Checks a verified trail (its `watched` hashes) against the anchors. Faults, in the order looked for: an anchor not
 * signed with the trail's key; a line whose hash is not the anchored one (rewritten); an anchor of a line past the
 * trail's end (cut off). An anchor made after a backup that a restore line says was restored names lines that are
 * gone by that restore: reported as lost, not as a cut.
 */
export function checkAnchors(
  result: VerifyResult,
  anchors: readonly ReadAnchor[],
  keyring: AuditKeyring,
): AnchorReport {
  const report: AnchorReport = { checked: 0, pruned: 0, lost: [] };
  const firstLine = result.seq - result.lines + 1;
  const byTime = [...anchors].sort((a, b) => Date.parse(a.anchor.time) - Date.parse(b.anchor.time));
  let cut: ReadAnchor | undefined;
  for (const read of byTime) {
    const { anchor } = read;
    report.latest = anchor;
    const valid = signatureValid(anchor, keyring);
    if (valid !== true) {
      report.problem =
        valid === 'no key'
          ? `the anchor at ${read.where} is signed with a key (id ${anchor.keyId}) not among AUDIT_KEY's keys`
          : `the anchor at ${read.where} is not signed with the trail's key: the anchor file was changed`;
      return report;
    }
    const time = Date.parse(anchor.time);
    const restore = result.restores.find(
      (mark) => anchor.lines >= mark.seq && time > Date.parse(mark.backupTime) && time < Date.parse(mark.time),
    );
    if (restore) {
      report.lost.push({
        lines: anchor.lines,
        anchoredAt: anchor.time,
        backupTime: restore.backupTime,
        restoredAt: restore.time,
      });
      continue;
    }
    if (anchor.lines < firstLine) {
      report.pruned += 1;
      continue;
    }
    if (anchor.lines > result.seq) {
      if (!cut || anchor.lines > cut.anchor.lines) cut = read;
      continue;
    }
    const seen = result.watched.get(anchor.lines);
    if (!seen || seen.hash !== anchor.head) {
      report.problem =
        `the trail was rewritten: line ${anchor.lines} (${seen?.where ?? 'not found'}) is not the line anchored at ` +
        `${anchor.time} (${read.where}); the line anchored there had hash ${anchor.head.slice(0, 16)}…`;
      return report;
    }
    report.checked += 1;
  }
  if (cut) {
    report.problem =
      `the trail was cut: it ends at line ${result.seq} (${result.lastWhere ?? 'no line'}${
        result.last ? `, ` + `${result.last}` : ''
      }), but the anchor of ${cut.anchor.time} (${cut.where}) says line ${cut.anchor.lines} ` +
      `had been written: lines ${result.seq + 1} to ${cut.anchor.lines} or more were removed`;
  }
  return report;
}

/** The report in a sentence, after describeResult's. */
export function describeAnchors(report: AnchorReport, source: string): string {
  if (report.problem) return `Audit trail does NOT match its anchors (${source}): ${report.problem}.`;
  if (!report.latest) return `No anchors in ${source}: the trail's end is not checked against anything outside it.`;
  const lost = report.lost.length
    ? ` Restored from a backup: ${report.lost.length} anchor${report.lost.length === 1 ? '' : 's'} name lines ` +
      `written after the backup of ${report.lost[0]!.backupTime} and lost by the restore of ` +
      `${report.lost[0]!.restoredAt} (up to line ${Math.max(...report.lost.map((lost) => lost.lines))}); the ` +
      'restored trail matches every anchor up to the backup.'
    : '';
  const pruned = report.pruned ? ` (${report.pruned} more name lines pruned since)` : '';
  return (
    `Audit trail matches its ${report.checked} anchor${report.checked === 1 ? '' : 's'} in ${source}${pruned}, ` +
    `the newest of ${report.latest.time} at line ${report.latest.lines}.${lost}`
  );
}

export interface AnchorSink {
  /** Called after lines are written: the trail's last line now, and how many were written. */
  written(head: { lines: number; head: string }, count: number): void;
  /** Writes a checkpoint of the last head now, if lines came since the last one (a stop calls it). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The server's checkpoints: after `every.lines` lines, or `every.seconds` after the first line not yet anchored,
 * whichever comes first. A failing file write is reported (`onError`) and tried again with the next checkpoint;
 * it never holds a request back (the log line is written regardless).
 */
export function anchorSink(options: {
  key: AuditKey;
  file?: string;
  every: { lines: number; seconds: number };
  log: (anchor: AuditAnchor) => void;
  onError: (error: unknown) => void;
  now?: () => Date;
}): AnchorSink {
  const now = options.now ?? (() => new Date());
  let pending: { lines: number; head: string } | undefined;
  let since = 0;
  let timer: NodeJS.Timeout | undefined;
  let handle: FileHandle | undefined;
  let queue: Promise<void> = Promise.resolve();

  const write = async (anchor: AuditAnchor) => {
    options.log(anchor);
    if (!options.file) return;
    try {
      handle ??= await open(options.file, 'a', 0o600);
      await handle.write(`${anchorText(anchor)}\n`);
      await handle.sync();
    } catch (error) {
      await handle?.close().catch(() => {});
      handle = undefined;
      options.onError(error);
    }
  };

  const anchorNow = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (!pending) return queue;
    const anchor = makeAnchor(options.key, pending, now());
    pending = undefined;
    since = 0;
    queue = queue.then(() => write(anchor));
    return queue;
  };

  return {
    written(head, count) {
      pending = head;
      since += count;
      if (since >= options.every.lines) void anchorNow();
      else if (!timer) {
        timer = setTimeout(() => void anchorNow(), options.every.seconds * 1000);
        timer.unref();
      }
    },
    flush: () => anchorNow(),
    async close() {
      await anchorNow();
      await handle?.close().catch(() => {});
      handle = undefined;
    },
  };
}
