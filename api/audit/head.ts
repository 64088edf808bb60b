import {
  chainLine,
  GENESIS_HASH,
  KEY_ACTION,
  keyedUnder,
  linkAfter,
  PRUNE_ACTION,
  UNKEYED_SPAN,
  type AuditFields,
  type AuditKey,
  type AuditKeyring,
  type ChainedLine,
  SYSTEM_ACTOR,
} from './chain.ts';

/**
 * Where a writer goes on from (both stores): the hash to link to, the number of the last line, and the key the
 * last line's span is under (undefined: it is not keyed, or under a key this server does not hold). A writer
 * whose AUDIT_KEY is not that key first writes a key line (chain.ts): the first start with a key, a rotation.
 */
export interface TrailHead {
  head: string;
  seq: number;
  spanKey: string | undefined;
  /** What the key line names as the span before it: a key id, UNKEYED_SPAN, 'legacy', 'none' or 'unknown'. */
  previous: string;
}

/** The trail's newest chained line (undefined: none yet), with the number of lines when that line has none. */
export function headOf(
  line: ChainedLine | undefined,
  keyring: AuditKeyring,
  countLines: () => number,
  legacyLines: boolean,
): TrailHead {
  if (!line) {
    return { head: GENESIS_HASH, seq: countLines(), spanKey: undefined, previous: legacyLines ? 'legacy' : 'none' };
  }
  const head = linkAfter(line);
  if (typeof line.seq !== 'number') return { head, seq: countLines(), spanKey: undefined, previous: UNKEYED_SPAN };
  if (line.action === PRUNE_ACTION) {
    const next = String(line.detail?.next ?? '');
    const known = keyring.keys.has(next) ? next : undefined;
    return { head, seq: line.seq, spanKey: known, previous: known ?? next };
  }
  const key = [...keyring.keys.values()].find((candidate) => keyedUnder(line, candidate));
  return { head, seq: line.seq, spanKey: key?.id, previous: key?.id ?? 'unknown' };
}

/** The key line a writer puts first when its key is not the span's. */
export function keyLineFields(key: AuditKey, head: TrailHead, time: Date): AuditFields {
  return {
    time: time.toISOString(),
    actor: SYSTEM_ACTOR,
    action: KEY_ACTION,
    recordType: 'audit',
    outcome: 'success',
    detail: { keyId: key.id, previous: head.previous },
  };
}

/**
 * The lines that go on from `head` under `key`: a key line first when the span is under another key, then `fields`,
 * each numbered and linked to the one before. Returns them with the new head and number (for the anchors).
 */
export function chainAfter(
  head: TrailHead,
  fields: readonly AuditFields[],
  key: AuditKey,
  time: Date,
): { lines: ChainedLine[]; head: string; seq: number } {
  const all = head.spanKey === key.id ? fields : [keyLineFields(key, head, time), ...fields];
  const lines: ChainedLine[] = [];
  let { head: link, seq } = head;
  for (const each of all) {
    seq += 1;
    const { line } = chainLine({ ...each, seq }, link, key);
    lines.push(line);
    link = linkAfter(line);
  }
  return { lines, head: link, seq };
}
