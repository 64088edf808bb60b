import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The audit trail's chain (docs/API.md#audit-trail), the same on both stores: a line of DATA_DIR/audit.log and a
 * row of audit_events are one JSON text, written here and checked here.
 *
 *   {"time":…,"actor":…,"action":…[,"recordType"][,"recordId"][,"outcome"][,"requestId"][,"address"]
 *    [,"detail":{…}],"seq":<n>,"prev":"<64 hex>","hash":"<64 hex>"}
 *
 * `hash` is the HMAC-SHA-256, under the trail's key (AUDIT_KEY, never kept in the store), of the line's text
 * without its `hash` field; `prev` is the hash of the line before (the first line's is 64 zeros) and `seq` the
 * line's number in the trail, counted from its first line ever (pruned lines included). So a changed byte makes
 * the line's hash wrong, a removed, added or reordered line breaks the link and the numbering, and without the key
 * nobody can write a line that verifies: whoever holds the database, DATA_DIR or a backup cannot rewrite the trail.
 * Cutting lines off the end is what the checkpoints kept outside the store show (anchors.ts).
 *
 * Which key: a key line (`audit.key`, detail `keyId`) starts the lines hashed under that key (the first line the
 * server writes with a key, and again when the key is rotated); it is itself hashed under the new key. Lines
 * written by releases before the key (hashed with plain SHA-256, no `seq`) and before the chain (no hash at all)
 * may only come first: they are counted and reported as not proven, never accepted after a key line.
 *
 * A signed summary (`audit.prune`) stands in for lines removed by `npm run audit-prune`, only as the trail's first
 * line: its detail says how many, the hash of the first and the last, the date they were all older than, the key
 * the lines after it are under, and an HMAC signature under AUDIT_KEY. A restore line (`audit.restore`) says a
 * backup was restored: the lines written after that backup are gone, and the checkpoints say so (anchors.ts).
 */

export const GENESIS_HASH = '0'.repeat(64);
/** The actor of lines no clinician caused: the retention job, the erasure after a grace period, a prune, a key. */
export const SYSTEM_ACTOR = 'system';
export const PRUNE_ACTION = 'audit.prune';
export const KEY_ACTION = 'audit.key';
export const RESTORE_ACTION = 'audit.restore' as const;
/** A summary's `next` when the lines after it are of a release before the key. */
export const UNKEYED_SPAN = 'sha256';
const HEX64 = /^[0-9a-f]{64}$/;
const DAY_MS = 24 * 60 * 60 * 1000;
/** AUDIT_RETENTION_DAYS's floor: a summary must stand for lines at least this much older than itself. */
export const SUMMARY_MIN_AGE_DAYS = 365;

/** Detail values: plain text and whole numbers only (the summary's and the retention job's counts). */
export type AuditDetail = Record<string, string | number>;

/** What one line holds, before it is chained. */
export interface AuditFields {
  time: string;
  actor: string;
  action: string;
  recordType?: string | null;
  recordId?: string | null;
  outcome?: string | null;
  requestId?: string | null;
  address?: string | null;
  detail?: AuditDetail | null;
  /** The line's number in the trail: every keyed line has one; lines of releases before the key do not. */
  seq?: number | null;
}

export interface ChainedLine extends AuditFields {
  prev: string;
  hash: string;
}

/** A key of the chain. `stored`: a development key kept in the store (no AUDIT_KEY), which proves nothing. */
export interface AuditKey {
  id: string;
  key: Buffer;
  stored: boolean;
}

/** The keys a writer or a verifier knows: `signing` keys new lines (undefined: verify only). */
export interface AuditKeyring {
  signing: AuditKey | undefined;
  keys: ReadonlyMap<string, AuditKey>;
  /** Whether AUDIT_KEY set the keys: then a key kept in the store is never trusted for a summary. */
  configured: boolean;
}

/** A key's public name: the first 16 hex digits of an HMAC under it of a fixed text (tells nothing of the key). */
export const auditKeyId = (key: Buffer) =>
  createHmac('sha256', key).update('sgx audit key id', 'utf8').digest('hex').slice(0, 16);

/** AUDIT_KEY's keys (the first keys new lines), and a development key kept in the store, read after them. */
export function auditKeyring(configured: readonly Buffer[], stored?: Buffer): AuditKeyring {
  const keys = new Map<string, AuditKey>();
  for (const key of configured) keys.set(auditKeyId(key), { id: auditKeyId(key), key, stored: false });
  if (stored && !keys.has(auditKeyId(stored))) {
    keys.set(auditKeyId(stored), { id: auditKeyId(stored), key: stored, stored: true });
  }
  const first = configured[0] ? keys.get(auditKeyId(configured[0])) : stored ? keys.get(auditKeyId(stored)) : undefined;
  return { signing: first, keys, configured: configured.length > 0 };
}

const OPTIONAL = ['recordType', 'recordId', 'outcome', 'requestId', 'address'] as const;

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const hmac = (key: Buffer, text: string) => createHmac('sha256', key).update(text, 'utf8').digest('hex');

/** Detail with its keys sorted, so that it is written one way whatever order it was built in. */
function canonicalDetail(detail: AuditDetail): AuditDetail {
  return Object.fromEntries(Object.entries(detail).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The line's text without its hash: what the hash is taken of. */
export function chainBody(fields: AuditFields, prev: string): string {
  const ordered: Record<string, unknown> = { time: fields.time, actor: fields.actor, action: fields.action };
  for (const name of OPTIONAL) {
    const value = fields[name];
    if (value !== undefined && value !== null) ordered[name] = value;
  }
  if (fields.detail) ordered.detail = canonicalDetail(fields.detail);
  if (fields.seq !== undefined && fields.seq !== null) ordered.seq = fields.seq;
  ordered.prev = prev;
  return JSON.stringify(ordered);
}

/**
 * The line as written (without its newline), and its hash: the next line's `prev`. With a key, the HMAC under it
 * (every line this release writes); without, the plain SHA-256 of the releases before the key (checks only).
 */
export function chainLine(
  fields: AuditFields,
  prev: string,
  key: AuditKey | undefined,
): { text: string; hash: string; line: ChainedLine } {
  const body = chainBody(fields, prev);
  const hash = key ? hmac(key.key, body) : sha256(body);
  const text = `${body.slice(0, -1)},"hash":"${hash}"}`;
  return { text, hash, line: { ...stripEmpty(fields), prev, hash } };
}

function stripEmpty(fields: AuditFields): AuditFields {
  const out: AuditFields = { time: fields.time, actor: fields.actor, action: fields.action };
  for (const name of OPTIONAL) if (fields[name] !== undefined && fields[name] !== null) out[name] = fields[name];
  if (fields.detail) out.detail = canonicalDetail(fields.detail);
  if (fields.seq !== undefined && fields.seq !== null) out.seq = fields.seq;
  return out;
}

/**
 * The hash the next line must link to after this one: its own, or for a summary the hash of the last line
 * it stands in for.
 */
export function linkAfter(line: Pick<ChainedLine, 'action' | 'detail' | 'hash'>): string {
  if (line.action === PRUNE_ACTION && typeof line.detail?.lastHash === 'string') return line.detail.lastHash;
  return line.hash;
}

/** Whether the line's hash is the HMAC under `key` of its text: the writer's test of which key a line is under. */
export function keyedUnder(line: ChainedLine, key: AuditKey): boolean {
  return chainLine(line, line.prev, key).hash === line.hash;
}

/** The text a summary's signature covers: every field of it but the signature. */
function summarySigned(line: AuditFields & { prev: string }): string {
  const { signature: _signature, ...detail } = line.detail ?? {};
  return chainBody({ ...line, detail }, line.prev);
}

export function signSummary(key: AuditKey, line: AuditFields & { prev: string }): string {
  return hmac(key.key, `sgx audit summary\n${summarySigned(line)}`);
}

function signatureMatches(expected: string, given: unknown): boolean {
  if (typeof given !== 'string' || !HEX64.test(given)) return false;
  return timingSafeEqual(Buffer.from(expected, 'hex'), Buffer.from(given, 'hex'));
}

export type VerifyProblem = { where: string; index: number; problem: string };

/** A line as read back: its text (files) or its fields (rows), or a legacy line written before the chain. */
export type ReadLine =
  { kind: 'text'; text: string; where: string } | { kind: 'fields'; fields: Partial<ChainedLine>; where: string };

/** A restore line as the verifier met it: the backup's time, and where the restored trail went on. */
export interface RestoreMark {
  /** The number of the restore line (the first after the backup's lines). */
  seq: number;
  time: string;
  backupTime: string;
}

export interface VerifyResult {
  /** Lines read, summaries and legacy lines included. */
  lines: number;
  /** Lines written before the chain began (by a release without it): not hashed, so not proven. */
  legacy: number;
  /** Lines of a release before the key (plain SHA-256): chained, but anyone could have rewritten them. */
  unkeyed: number;
  /** Lines under a development key kept in the store (no AUDIT_KEY): no proof against whoever holds the store. */
  storedKey: number;
  /** The keys the keyed lines are under, oldest first (their ids). */
  keys: string[];
  /** Signed summaries of pruned lines among them. */
  summaries: number;
  /** Lines the summaries stand in for. */
  pruned: number;
  first?: string;
  last?: string;
  /** The number of the last line (pruned lines counted): what a checkpoint of this trail would say. */
  seq: number;
  /** Where the last line is, for messages. */
  lastWhere?: string;
  /** The first broken link, if any (then the counts are those read up to it). */
  broken?: VerifyProblem;
  /** The hash a line appended now would link to. */
  head: string;
  /** The key the last line is under (its id), or undefined when it is not keyed. */
  headKey?: string;
  restores: RestoreMark[];
  /** The hash and place of each line whose number was asked to be watched (checkpoints, anchors.ts). */
  watched: Map<number, { hash: string; where: string }>;
}

/** Parses a written line; undefined when it is not a JSON object. */
export function parseLine(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a parsed line is one of a release before the chain: the event's fields and neither prev nor hash. */
function isLegacy(value: Record<string, unknown>): boolean {
  return !('prev' in value) && !('hash' in value) && typeof value.action === 'string';
}

type Span = { kind: 'start' } | { kind: 'legacy' } | { kind: 'unkeyed' } | { kind: 'keyed'; key: AuditKey };

export interface VerifierOptions {
  keyring?: AuditKeyring;
  /** Line numbers whose hash to keep in `result.watched` (the checkpoints' lines). */
  watch?: ReadonlySet<number>;
}

/**
 * Checks the chain one line at a time, in the order written (oldest first). `add` answers the problem of the first
 * broken line and stops checking after it. Holds one line at a time, whatever the trail's length.
 */
export class ChainVerifier {
  readonly #keyring: AuditKeyring | undefined;
  readonly #watch: ReadonlySet<number> | undefined;
  #expected: string | undefined;
  #span: Span = { kind: 'start' };
  /** After a summary: the time every line it removed was older than (the next line is not). */
  #summaryBefore: number | undefined;
  #broken: VerifyProblem | undefined;
  readonly result: VerifyResult = {
    lines: 0,
    legacy: 0,
    unkeyed: 0,
    storedKey: 0,
    keys: [],
    summaries: 0,
    pruned: 0,
    seq: 0,
    head: GENESIS_HASH,
    restores: [],
    watched: new Map(),
  };

  constructor(options: VerifierOptions = {}) {
    this.#keyring = options.keyring;
    this.#watch = options.watch;
  }

  get broken(): VerifyProblem | undefined {
    return this.#broken;
  }

  /** The span the next line goes on in: its key, or that it is of a release before the key. */
  get span(): Readonly<Span> {
    return this.#span;
  }

  add(read: ReadLine): VerifyProblem | undefined {
    if (this.#broken) return this.#broken;
    const index = this.result.lines + 1;
    const fail = (problem: string) => {
      this.#broken = { where: read.where, index, problem };
      this.result.broken = this.#broken;
      return this.#broken;
    };
    let fields: Record<string, unknown> | undefined;
    if (read.kind === 'text') {
      fields = parseLine(read.text);
      if (!fields) return fail('the line is not a JSON object: it was changed or cut short');
    } else fields = read.fields as Record<string, unknown>;

    if (this.#summaryBefore !== undefined) {
      const time = Date.parse(String(fields.time));
      if (!(time >= this.#summaryBefore)) {
        return fail(
          'the line is older than the date the summary before it says every removed line was older than: the ' +
            'summary was planted over lines that were not pruned',
        );
      }
      this.#summaryBefore = undefined;
    }

    if (isLegacy(fields)) {
      if (this.#span.kind !== 'start' && this.#span.kind !== 'legacy') {
        return fail('a line without a hash after the chain began: it was added outside the server');
      }
      this.#span = { kind: 'legacy' };
      this.#accept(fields, undefined, read.where);
      this.result.legacy += 1;
      return undefined;
    }
    const line = fields as unknown as ChainedLine;
    if (typeof line.prev !== 'string' || !HEX64.test(line.prev) || typeof line.hash !== 'string') {
      return fail('the line has no valid "prev" or "hash": it was changed');
    }
    if (typeof line.time !== 'string' || typeof line.actor !== 'string' || typeof line.action !== 'string') {
      return fail('the line lacks its time, actor or action: it was changed');
    }
    if (line.seq !== undefined && line.seq !== null && !Number.isSafeInteger(line.seq)) {
      return fail('the line\'s number ("seq") is not a whole number: it was changed');
    }
    const problem =
      line.action === PRUNE_ACTION
        ? this.#summary(line)
        : line.action === KEY_ACTION
          ? this.#keyLine(line)
          : this.#line(line);
    if (problem) return fail(problem);
    if (read.kind === 'text' && chainLine(line, line.prev, this.#keyOf()).text !== read.text) {
      return fail('the line was changed after it was written (it is not the text that was hashed)');
    }
    if (this.#expected !== undefined && line.prev !== this.#expected) {
      return fail(
        'the link to the line before is broken ("prev" is not that line\'s hash): a line before it was changed, ' +
          'removed or added',
      );
    }
    if (this.#expected === undefined && line.action !== PRUNE_ACTION && line.prev !== GENESIS_HASH) {
      return fail(
        'the trail does not start at its beginning: the first line links to an earlier one, and no signed ' +
          'summary says what was pruned before it',
      );
    }
    this.#expected = linkAfter(line);
    this.result.head = this.#expected;
    if (line.action === RESTORE_ACTION && typeof line.detail?.backupTime === 'string') {
      this.result.restores.push({ seq: this.result.seq + 1, time: line.time, backupTime: line.detail.backupTime });
    }
    this.#accept(line as unknown as Record<string, unknown>, line, read.where);
    return undefined;
  }

  /** The key the line just checked is under (undefined: plain SHA-256). */
  #keyOf(): AuditKey | undefined {
    return this.#pendingKey ?? (this.#span.kind === 'keyed' ? this.#span.key : undefined);
  }

  #pendingKey: AuditKey | undefined;

  #lookup(keyId: unknown): AuditKey | string {
    if (typeof keyId !== 'string' || !/^[0-9a-f]{16}$/.test(keyId)) return 'it names no key';
    const key = this.#keyring?.keys.get(keyId);
    if (!key) {
      return (
        `the key it is under (id ${keyId}) is not among the keys given (AUDIT_KEY): the lines from here cannot ` +
        'be checked without it (keep an old key in AUDIT_KEY after the new one when rotating)'
      );
    }
    return key;
  }

  /** A line between key lines: under the span's key, numbered one after the line before. */
  #line(line: ChainedLine): string | undefined {
    this.#pendingKey = undefined;
    const span = this.#span;
    if (span.kind === 'keyed') {
      if (chainLine(line, line.prev, span.key).hash !== line.hash) {
        return (
          `its hash is not the HMAC-SHA-256 under the trail's key (id ${span.key.id}): the line was changed, or ` +
          'written by someone without the key (a plain SHA-256 or another key)'
        );
      }
      return this.#numbered(line);
    }
    if (line.seq !== undefined && line.seq !== null) {
      return 'the line is numbered as a keyed line, but no key line comes before it: a line before it was removed';
    }
    if (chainLine(line, line.prev, undefined).hash !== line.hash) {
      return 'the line was changed after it was written (its SHA-256 is not the hash it carries)';
    }
    this.#span = { kind: 'unkeyed' };
    return undefined;
  }

  #numbered(line: ChainedLine): string | undefined {
    const wanted = this.result.seq + 1;
    if (line.seq === wanted) return undefined;
    return (
      `the line is numbered ${String(line.seq ?? 'nothing')} where line ${wanted} comes: lines before it were ` +
      'removed or added'
    );
  }

  #keyLine(line: ChainedLine): string | undefined {
    const key = this.#lookup(line.detail?.keyId);
    if (typeof key === 'string') return `a key line that cannot be checked: ${key}`;
    if (chainLine(line, line.prev, key).hash !== line.hash) {
      return `the key line's hash is not the HMAC-SHA-256 under the key it names (id ${key.id}): it was forged`;
    }
    const result = this.result;
    const underAuditKey = result.lines - result.storedKey - result.unkeyed - result.legacy;
    if (key.stored && this.#keyring?.configured && underAuditKey > 0) {
      return 'the trail goes over to a key kept in the store after lines under AUDIT_KEY: the key line was planted';
    }
    const numbered = this.#numbered(line);
    if (numbered) return numbered;
    this.#span = { kind: 'keyed', key };
    return undefined;
  }

  #summary(line: ChainedLine): string | undefined {
    if (this.result.lines > 0) {
      return 'a summary of pruned lines stands only as the first line of the trail: this one was moved or planted';
    }
    const detail = line.detail ?? {};
    const key = this.#lookup(detail.keyId);
    if (typeof key === 'string') return `a summary of pruned lines that cannot be checked: ${key}`;
    if (key.stored && this.#keyring?.configured) {
      return 'the summary of pruned lines is signed with a key kept in the store, not AUDIT_KEY: it was forged';
    }
    if (
      chainLine(line, line.prev, key).hash !== line.hash ||
      !signatureMatches(signSummary(key, line), detail.signature)
    ) {
      return "the summary of pruned lines is not signed with the trail's key: it was changed or forged";
    }
    if (typeof detail.lastHash !== 'string' || !HEX64.test(detail.lastHash)) {
      return 'the summary of pruned lines has no last hash';
    }
    const before = typeof detail.before === 'string' ? Date.parse(detail.before) : NaN;
    const days = Number(detail.retentionDays);
    const age = Date.parse(line.time) - before;
    if (!(age >= SUMMARY_MIN_AGE_DAYS * DAY_MS) || !(Number.isFinite(days) && age >= days * DAY_MS)) {
      return (
        `the summary of pruned lines says it removed lines younger than ${SUMMARY_MIN_AGE_DAYS} days (or than the ` +
        'retention it names): no prune removes those'
      );
    }
    if (!Number.isSafeInteger(line.seq) || (line.seq as number) < Number(detail.count)) {
      return 'the summary of pruned lines does not say which line it stands as ("seq")';
    }
    let next: Span;
    if (detail.next === UNKEYED_SPAN) next = { kind: 'unkeyed' };
    else if (detail.next === 'legacy') next = { kind: 'legacy' };
    else {
      const nextKey = this.#lookup(detail.next);
      if (typeof nextKey === 'string') return `the lines after the summary cannot be checked: ${nextKey}`;
      next = { kind: 'keyed', key: nextKey };
    }
    this.#pendingKey = key;
    this.#summaryBefore = before;
    this.result.seq = (line.seq as number) - 1; // #accept counts the summary as the line it takes the place of
    this.result.summaries += 1;
    this.result.pruned += Number(detail.count ?? 0);
    this.#afterSummary = next;
    return undefined;
  }

  #afterSummary: Span | undefined;

  #accept(fields: Record<string, unknown>, line: ChainedLine | undefined, where: string) {
    this.result.lines += 1;
    this.result.seq += 1;
    this.result.lastWhere = where;
    const key = this.#keyOf();
    if (line) {
      if (key) {
        if (key.stored) this.result.storedKey += 1;
        if (this.result.keys.at(-1) !== key.id) this.result.keys.push(key.id);
      } else this.result.unkeyed += 1;
      if (this.#watch?.has(this.result.seq)) this.result.watched.set(this.result.seq, { hash: linkAfter(line), where });
      this.result.headKey = key?.id;
    } else this.result.headKey = undefined;
    this.#pendingKey = undefined;
    if (this.#afterSummary) {
      this.#span = this.#afterSummary;
      this.#afterSummary = undefined;
    }
    if (typeof fields.time !== 'string') return;
    this.result.first ??= fields.time;
    this.result.last = fields.time;
  }
}

/** The result in one line for an operator (`npm run audit-verify`). */
export function describeResult(result: VerifyResult, source: string): string {
  if (result.broken) {
    return (
      `Audit trail BROKEN at ${result.broken.where} (line ${result.broken.index} of the trail): ` +
      `${result.broken.problem}. The ${result.broken.index - 1} lines before it are intact.`
    );
  }
  const keyed = result.lines - result.legacy - result.unkeyed;
  const extras = [
    result.summaries > 0 ? `${result.pruned} older lines pruned under ${result.summaries} signed summary` : '',
    keyed > 0 ? `${keyed} keyed (key ${result.keys.join(', then ')})` : '',
    result.storedKey > 0
      ? `${result.storedKey} under a development key kept in the store, which proves nothing against whoever ` +
        'holds the store: set AUDIT_KEY'
      : '',
    result.unkeyed > 0 ? `${result.unkeyed} lines of a release before the key, chained by SHA-256 only` : '',
    result.legacy > 0 ? `${result.legacy} lines written before the chain began, not hashed` : '',
  ].filter(Boolean);
  const span = result.first ? `, ${result.first} to ${result.last}` : '';
  const notes = extras.length ? `; ${extras.join('; ')}` : '';
  return `Audit trail intact, ${result.lines} lines (${source}${span})${notes}.`;
}
