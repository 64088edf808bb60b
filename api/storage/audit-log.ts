import { appendFile, open, rename, stat, truncate } from 'node:fs/promises';
import path from 'node:path';
import type { AuditAction, AUDIT_RECORD_TYPES } from '../../contracts/audit.ts';
import type { AnchorSink } from '../audit/anchors.ts';
import {
  chainLine,
  linkAfter,
  parseLine,
  RESTORE_ACTION,
  SYSTEM_ACTOR,
  type AuditDetail,
  type AuditFields,
  type AuditKeyring,
  type ChainedLine,
} from '../audit/chain.ts';
import { headOf, keyLineFields, type TrailHead } from '../audit/head.ts';
import { fileAuditKeyring } from '../audit/keys.ts';
import type { AuditRequestContext } from '../audit/request-context.ts';
import {
  AUDIT_FILE_NAME,
  auditFileNames,
  closeAll,
  linesBackward,
  linesForward,
  openAuditFiles,
  rotationNumber,
} from './audit-files.ts';

export { AUDIT_FILE_NAME } from './audit-files.ts';
/** Longer text in any field is cut: the log's size must not be up to the caller. */
export const AUDIT_FIELD_MAX_LENGTH = 128;
/** audit.log is renamed to audit.log.1 (and older ones shifted up) once it would pass this size. */
export const AUDIT_LOG_DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
export { SYSTEM_ACTOR };

/**
 * Who did what to which record, and when: never a patient value, a name, an e-mail, a password or a
 * token. `actor` is a user id ("anonymous" for a sign-in with an unknown e-mail, "system" for the jobs);
 * `recordId` names the record acted on; `detail` holds counts only (the retention job's, a prune's).
 * The request id and the client address come with it from the request being served (request-context.ts).
 */
export interface AuditEvent {
  actor: string;
  /** One of contracts/audit.ts's, or the trail's own restore line (restore-mark.ts). */
  action: AuditAction | typeof RESTORE_ACTION;
  recordType?: (typeof AUDIT_RECORD_TYPES)[number];
  recordId?: string;
  outcome?: 'success' | 'failure' | 'denied';
  detail?: AuditDetail;
}

/** The caller's lines: `action` is one action or a family (`patient` for every `patient.*`). */
export interface ActivityQuery {
  actor: string;
  action?: string;
  /** The `next` of the page before: lines older than the one it names. */
  before?: string;
  limit: number;
}

export interface ActivityPageResult {
  items: ChainedLine[];
  next: string | null;
}

/**
 * The audit trail (docs/API.md#audit-trail): every line hash-chained to the one before (audit/chain.ts),
 * appended in order. The embedded store keeps it in DATA_DIR/audit.log and its rotated files, PostgreSQL
 * in audit_events; both read it back for "Activity" and the account export.
 */
export interface AuditLog {
  /**
   * Appends the line (chained, stamped with the time and the request's id and address); resolves once written.
   * `origin`: the request that caused it (`auditContext(ctx)`), or null for a job or a command.
   */
  record(event: AuditEvent, origin: AuditRequestContext | null): Promise<void>;
  /** The actor's lines, newest first, a page at a time. */
  listByActor(query: ActivityQuery): Promise<ActivityPageResult>;
  /** Every line of the actor, oldest first, read as it goes (the account export). */
  linesByActor(actor: string): AsyncIterable<ChainedLine>;
  /**
   * What the writer found changed outside the server (lines without a hash after the chained ones, a file grown or
   * cut by someone else): not chained, reported by /readyz's detail; undefined when nothing was.
   */
  tampering(): Promise<string | undefined>;
}

/** What a writer keys its lines with, and where it sends its checkpoints. */
export interface AuditWriterOptions {
  /** AUDIT_KEY's keys (the first keys new lines); default: the store's development key, made if missing. */
  keyring?: AuditKeyring;
  anchors?: AnchorSink;
}

/** A line waiting to be written with the next batch, and the promise its caller waits on. */
export interface PendingLine {
  event: AuditEvent;
  origin: AuditRequestContext | null;
  time: Date;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** Whether a line's action is the one asked for, or of the family asked for. */
export const actionMatches = (action: string, wanted: string | undefined) =>
  wanted === undefined || action === wanted || action.startsWith(`${wanted}.`);

/** The event's fields as a line holds them: text cut, the request's context added. */
export function lineFields(event: AuditEvent, origin: AuditRequestContext | null, time: Date) {
  const capped = capFields({ ...event, requestId: origin?.requestId, address: origin?.address });
  return { ...capped, time: time.toISOString() };
}

/**
 * Append-only JSON lines in DATA_DIR/audit.log, chained (audit/chain.ts). Lines queue while one write
 * is under way and go out together, in order; at `maxBytes` audit.log is renamed audit.log.1 and the
 * older files move up one, and the next line links to the last one of the file just renamed: the chain
 * goes on across files. Files are never deleted here: only `npm run audit-prune` removes lines, past
 * AUDIT_RETENTION_DAYS. An unfinished last line a crash left (never acknowledged) is cut off first.
 */
export function fileAuditLog(
  dataDir: string,
  now: () => Date,
  limits: { maxBytes?: number } & AuditWriterOptions = {},
): AuditLog {
  const file = path.join(dataDir, AUDIT_FILE_NAME);
  const maxBytes = limits.maxBytes ?? AUDIT_LOG_DEFAULT_MAX_BYTES;
  let state: ({ size: number } & TrailHead) | undefined; // read from disk before the first append
  let keyring = limits.keyring;
  let tampering: string | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  let pending: PendingLine[] = [];

  /** Runs `work` in the writer's order: no append or rotation runs meanwhile. */
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const done = queue.then(work);
    queue = done.catch(() => {
      state = undefined; // a failed append or rename: read the state again next time
    });
    return done;
  };

  const rotate = async () => {
    const rotated = (await auditFileNames(dataDir)).filter((name) => name !== AUDIT_FILE_NAME);
    // The highest first, so a crash half way leaves every file older than the one below it (a gap at most).
    for (const name of rotated.sort((a, b) => rotationNumber(b) - rotationNumber(a))) {
      await renameIfPresent(path.join(dataDir, name), `${file}.${rotationNumber(name) + 1}`);
    }
    await renameIfPresent(file, `${file}.1`);
  };

  const flush = async () => {
    const batch = pending;
    pending = [];
    if (batch.length === 0) return;
    try {
      keyring ??= await fileAuditKeyring(dataDir, [], { create: true });
      const key = keyring.signing;
      if (!key) throw new Error('The audit trail has no key to write with');
      if (state) {
        const size = await stat(file).then(
          (found) => found.size,
          () => 0,
        );
        if (size !== state.size) {
          tampering =
            `audit.log was changed outside the server: ${size} bytes ` + `where this server had written ${state.size}`;
          state = undefined;
        }
      }
      if (!state) {
        const read = await readState(dataDir, keyring);
        if (read.tampering) tampering = read.tampering;
        state = read.state;
      }
      const fields: AuditFields[] = [];
      if (state.spanKey !== key.id) fields.push(keyLineFields(key, state, batch[0]!.time));
      for (const item of batch) fields.push(lineFields(item.event, item.origin, item.time));
      let text = '';
      for (const each of fields) {
        const { text: line, line: chained } = chainLine({ ...each, seq: state.seq + 1 }, state.head, key);
        const bytes = Buffer.byteLength(line) + 1;
        if (state.size + Buffer.byteLength(text) > 0 && state.size + Buffer.byteLength(text) + bytes > maxBytes) {
          if (text) await appendFile(file, text, { mode: 0o600 });
          state.size += Buffer.byteLength(text);
          text = '';
          await rotate();
          state.size = 0;
        }
        text += `${line}\n`;
        state.head = linkAfter(chained);
        state.seq += 1;
        state.spanKey = key.id;
      }
      await appendFile(file, text, { mode: 0o600 });
      state.size += Buffer.byteLength(text);
      limits.anchors?.written({ lines: state.seq, head: state.head }, fields.length);
    } catch (error) {
      for (const item of batch) item.reject(error);
      throw error;
    }
    for (const item of batch) item.resolve();
  };

  return {
    record(event, origin) {
      const written = new Promise<void>((resolve, reject) =>
        pending.push({ event, origin, time: now(), resolve, reject }),
      );
      void serial(flush).catch(() => {});
      return written;
    },

    async listByActor(query) {
      // A page's `next` here is a line's hash; any other text (another store's cursor) names no line.
      if (query.before !== undefined && !/^[0-9a-f]{64}$/.test(query.before)) return { items: [], next: null };
      const files = await serial(() => openAuditFiles(dataDir));
      const items: ChainedLine[] = [];
      let passedCursor = query.before === undefined;
      try {
        for (const opened of files) {
          for await (const text of linesBackward(opened)) {
            if (!text.includes(`"actor":${JSON.stringify(query.actor)}`)) continue;
            const line = parseLine(text) as ChainedLine | undefined;
            if (!line || line.actor !== query.actor) continue;
            if (!passedCursor) {
              passedCursor = line.hash === query.before;
              continue;
            }
            if (!actionMatches(line.action, query.action)) continue;
            if (items.length === query.limit) return { items, next: items.at(-1)?.hash ?? null };
            items.push(line);
          }
        }
      } finally {
        await closeAll(files);
      }
      return { items, next: null };
    },

    tampering: async () => tampering,

    async *linesByActor(actor) {
      const files = await serial(() => openAuditFiles(dataDir));
      try {
        for (const opened of [...files].reverse()) {
          for await (const { text } of linesForward(opened)) {
            if (!text.includes(`"actor":${JSON.stringify(actor)}`)) continue;
            const line = parseLine(text) as ChainedLine | undefined;
            if (line && line.actor === actor) yield line;
          }
        }
      } finally {
        await closeAll(files);
      }
    },
  };
}

/**
 * Where the next line goes on: audit.log's size, and the trail's head (head.ts): the newest line that has a hash.
 * Lines without a hash after it were added outside the server: they are not chained (the next line links over
 * them), and said. An unfinished last line of audit.log (an append a crash cut short, never acknowledged) is cut
 * off. The lines are counted only when the head line has no number (the first start after the key came).
 */
async function readState(
  dataDir: string,
  keyring: AuditKeyring,
): Promise<{ state: { size: number } & TrailHead; tampering?: string }> {
  let size = 0;
  let headLine: ChainedLine | undefined;
  let unhashed = 0;
  const files = await openAuditFiles(dataDir);
  try {
    scan: for (const opened of files) {
      if (opened.name === AUDIT_FILE_NAME) {
        size = opened.size;
        const complete = await completeEnd(opened.handle, opened.size);
        if (complete < opened.size) {
          await truncate(path.join(dataDir, AUDIT_FILE_NAME), complete);
          size = complete;
          opened.size = complete;
        }
      }
      for await (const text of linesBackward(opened)) {
        const line = parseLine(text);
        if (line && typeof line.hash === 'string') {
          headLine = line as unknown as ChainedLine;
          break scan;
        }
        unhashed += 1;
      }
    }
  } finally {
    await closeAll(files);
  }
  const count = headLine && typeof headLine.seq === 'number' ? 0 : await countLines(dataDir);
  const state = { size, ...headOf(headLine, keyring, () => count, unhashed > 0) };
  if (headLine && unhashed > 0) {
    return {
      state,
      tampering:
        `${unhashed} line(s) without a hash after the last chained line of the audit files: ` +
        'added outside the server, not chained',
    };
  }
  return { state };
}

/** Every line of the trail, pruned ones included (a first summary stands as its number). */
async function countLines(dataDir: string): Promise<number> {
  const files = await openAuditFiles(dataDir);
  let count = 0;
  try {
    for (const opened of [...files].reverse()) {
      for await (const { text } of linesForward(opened)) {
        const line = count === 0 ? parseLine(text) : undefined;
        count = line && typeof line.seq === 'number' ? line.seq : count + 1;
      }
    }
  } finally {
    await closeAll(files);
  }
  return count;
}

/** Where the last complete line of a file ends. */
async function completeEnd(handle: Awaited<ReturnType<typeof open>>, size: number): Promise<number> {
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - 64 * 1024);
    const buffer = Buffer.alloc(end - start);
    await handle.read(buffer, 0, buffer.length, start);
    const newline = buffer.lastIndexOf(0x0a);
    if (newline !== -1) return start + newline + 1;
    end = start;
  }
  return 0;
}

/** The event with every text field cut to AUDIT_FIELD_MAX_LENGTH (every audit log stores it so). */
export function capFields<T extends object>(event: T): T {
  const capped: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(event))
    capped[key] = typeof value === 'string' ? value.slice(0, AUDIT_FIELD_MAX_LENGTH) : value;
  return capped as T;
}

async function renameIfPresent(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
