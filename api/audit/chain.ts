import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The audit trail's hash chain (docs/API.md#audit-trail), the same on both stores: a line of
 * DATA_DIR/audit.log and a row of audit_events are one JSON text, written here and checked here.
 *
 *   {"time":…,"actor":…,"action":…[,"recordType"][,"recordId"][,"outcome"][,"requestId"][,"address"]
 *    [,"detail":{…}],"prev":"<64 hex>","hash":"<64 hex>"}
 *
 * `hash` is the SHA-256 of the line's text without its `hash` field (everything up to and including
 * `prev`, then `}`), and `prev` is the `hash` of the line before: the first line's is 64 zeros. So a
 * changed byte anywhere in a line makes its own hash wrong, and a removed, added or reordered line
 * breaks the link to the next. Fields are written in this order and optional ones left out when empty,
 * so a row of audit_events rebuilds exactly the text it was hashed as.
 *
 * A signed summary line (`audit.prune`, docs/API.md#audit-trail) stands in for lines removed by
 * `npm run audit-prune`: its detail says how many, the hash of the first and of the last, and carries
 * an HMAC-SHA256 made with the trail's signing key. The line after it links to the last removed line's
 * hash, so the chain still verifies; a summary can be made only with the key.
 */

export const GENESIS_HASH = '0'.repeat(64);
export const PRUNE_ACTION = 'audit.prune';
const HEX64 = /^[0-9a-f]{64}$/;

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
}

export interface ChainedLine extends AuditFields {
  prev: string;
  hash: string;
}

const OPTIONAL = ['recordType', 'recordId', 'outcome', 'requestId', 'address'] as const;

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

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
  ordered.prev = prev;
  return JSON.stringify(ordered);
}

/** The line as written (without its newline), and its hash: the next line's `prev`. */
export function chainLine(fields: AuditFields, prev: string): { text: string; hash: string; line: ChainedLine } {
  const body = chainBody(fields, prev);
  const hash = sha256(body);
  const text = `${body.slice(0, -1)},"hash":"${hash}"}`;
  return { text, hash, line: { ...stripEmpty(fields), prev, hash } };
}

function stripEmpty(fields: AuditFields): AuditFields {
  const out: AuditFields = { time: fields.time, actor: fields.actor, action: fields.action };
  for (const name of OPTIONAL) if (fields[name] !== undefined && fields[name] !== null) out[name] = fields[name];
  if (fields.detail) out.detail = canonicalDetail(fields.detail);
  return out;
}

/**
 * The hash the next line must link to after this one: its own, or for a summary the hash of the last line
 * it stands in for.
 */
export function linkAfter(line: ChainedLine): string {
  if (line.action === PRUNE_ACTION && typeof line.detail?.lastHash === 'string') return line.detail.lastHash;
  return line.hash;
}

/** The text a summary's signature covers: every field of it but the signature. */
function summarySigned(line: AuditFields & { prev: string }): string {
  const { signature: _signature, ...detail } = line.detail ?? {};
  return chainBody({ ...line, detail }, line.prev);
}

export function signSummary(key: Buffer, line: AuditFields & { prev: string }): string {
  return createHmac('sha256', key).update(summarySigned(line), 'utf8').digest('hex');
}

function summarySignatureValid(key: Buffer, line: ChainedLine): boolean {
  const given = line.detail?.signature;
  if (typeof given !== 'string' || !HEX64.test(given)) return false;
  return timingSafeEqual(Buffer.from(signSummary(key, line), 'hex'), Buffer.from(given, 'hex'));
}

/** Where a line is, for messages: a file's line, or a table's row. */
export interface LinePlace {
  /** "audit.log.2 line 17", "audit_events row 1234" */
  where: string;
}

export type VerifyProblem = { where: string; index: number; problem: string };

/** A line as read back: its text (files) or its fields (rows), or a legacy line written before the chain. */
export type ReadLine =
  { kind: 'text'; text: string; where: string } | { kind: 'fields'; fields: Partial<ChainedLine>; where: string };

export interface VerifyResult {
  /** Lines read, summaries and legacy lines included. */
  lines: number;
  /** Lines written before the chain began (by a release without it): not hashed, so not proven. */
  legacy: number;
  /** Signed summaries of pruned lines among them. */
  summaries: number;
  /** Lines the summaries stand in for. */
  pruned: number;
  first?: string;
  last?: string;
  /** The first broken link, if any (then the counts are those read up to it). */
  broken?: VerifyProblem;
  /** The hash a line appended now would link to. */
  head: string;
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

/**
 * Checks the chain one line at a time, in the order written (oldest first). `add` answers the problem of
 * the first broken line and stops checking after it. `key` checks summaries' signatures (without it a
 * summary is reported as unverifiable).
 */
export class ChainVerifier {
  readonly #key: Buffer | undefined;
  #expected: string | undefined;
  #started = false;
  #broken: VerifyProblem | undefined;
  readonly result: VerifyResult = { lines: 0, legacy: 0, summaries: 0, pruned: 0, head: GENESIS_HASH };

  constructor(key?: Buffer) {
    this.#key = key;
  }

  get broken(): VerifyProblem | undefined {
    return this.#broken;
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

    if (isLegacy(fields)) {
      if (this.#started) return fail('a line without a hash after the chain began: it was added later');
      this.result.lines += 1;
      this.result.legacy += 1;
      this.#note(fields);
      return undefined;
    }
    const line = fields as unknown as ChainedLine;
    if (typeof line.prev !== 'string' || !HEX64.test(line.prev) || typeof line.hash !== 'string') {
      return fail('the line has no valid "prev" or "hash": it was changed');
    }
    if (typeof line.time !== 'string' || typeof line.actor !== 'string' || typeof line.action !== 'string') {
      return fail('the line lacks its time, actor or action: it was changed');
    }
    const rebuilt = chainLine(line, line.prev);
    if (rebuilt.hash !== line.hash) {
      return fail('the line was changed after it was written (its SHA-256 is not the hash it carries)');
    }
    if (read.kind === 'text' && rebuilt.text !== read.text) {
      return fail('the line was changed after it was written (it is not the text that was hashed)');
    }
    const isSummary = line.action === PRUNE_ACTION;
    if (isSummary) {
      if (!this.#key) return fail('a summary of pruned lines cannot be checked: the signing key is missing');
      if (!summarySignatureValid(this.#key, line)) {
        return fail("the summary of pruned lines is not signed with the trail's key: it was changed or forged");
      }
      if (typeof line.detail?.lastHash !== 'string' || !HEX64.test(line.detail.lastHash)) {
        return fail('the summary of pruned lines has no last hash');
      }
    }
    if (this.#expected !== undefined && line.prev !== this.#expected) {
      return fail(
        'the link to the line before is broken ("prev" is not that line\'s hash): a line before it was changed, ' +
          'removed or added',
      );
    }
    if (this.#expected === undefined && !isSummary && line.prev !== GENESIS_HASH) {
      return fail(
        'the trail does not start at its beginning: the first line links to an earlier one, and no signed ' +
          'summary says what was pruned before it',
      );
    }
    this.#started = true;
    this.result.lines += 1;
    if (isSummary) {
      this.result.summaries += 1;
      this.result.pruned += Number(line.detail?.count ?? 0);
    }
    this.#expected = linkAfter(line);
    this.result.head = this.#expected;
    this.#note(line as unknown as Record<string, unknown>);
    return undefined;
  }

  #note(fields: Record<string, unknown>) {
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
  const extras = [
    result.summaries > 0 ? `${result.pruned} older lines pruned under ${result.summaries} signed summary` : '',
    result.legacy > 0 ? `${result.legacy} lines written before the chain began, not hashed` : '',
  ].filter(Boolean);
  const span = result.first ? `, ${result.first} to ${result.last}` : '';
  const notes = extras.length ? `; ${extras.join('; ')}` : '';
  return `Audit trail intact, ${result.lines} lines (${source}${span})${notes}.`;
}
