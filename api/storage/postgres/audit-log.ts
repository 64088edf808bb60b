import type { Pool, PoolClient } from 'pg';
import { type AuditFields, type AuditKeyring, type ChainedLine } from '../../audit/chain.ts';
import { chainAfter, headOf, type TrailHead } from '../../audit/head.ts';
import { postgresAuditKeyring } from '../../audit/keys.ts';
import { actionMatches, lineFields, type AuditLog, type AuditWriterOptions, type PendingLine } from '../audit-log.ts';

/** Every writer of the trail takes this transaction-level advisory lock: one chains at a time. */
export const AUDIT_CHAIN_LOCK_KEY = 0x5367_7861; // "Sgxa"
const READ_BATCH = 5_000;

export const AUDIT_COLUMNS =
  'id, time, actor, action, record_type, record_id, outcome, request_id, address, detail, seq, prev_hash, hash';

type Row = Record<string, unknown>;

/** A row of audit_events as the line it was hashed as (chain.ts). */
export function rowFields(row: Row): AuditFields & { prev?: string; hash?: string } {
  const fields: AuditFields & { prev?: string; hash?: string } = {
    time: (row.time as Date).toISOString(),
    actor: row.actor as string,
    action: row.action as string,
    recordType: row.record_type as string | null,
    recordId: row.record_id as string | null,
    outcome: row.outcome as string | null,
    requestId: row.request_id as string | null,
    address: row.address as string | null,
    detail: row.detail as AuditFields['detail'],
  };
  // bigint arrives as text; a line's number is well within a double's whole numbers.
  if (row.seq !== null && row.seq !== undefined) fields.seq = Number(row.seq);
  if (row.hash !== null && row.hash !== undefined) {
    fields.prev = row.prev_hash as string;
    fields.hash = row.hash as string;
  }
  return fields;
}

const INSERT_COLUMNS =
  '(time, actor, action, record_type, record_id, outcome, request_id, address, detail, seq, prev_hash, hash)';
const insertValues = (line: ChainedLine) => [
  line.time,
  line.actor,
  line.action,
  line.recordType ?? null,
  line.recordId ?? null,
  line.outcome ?? null,
  line.requestId ?? null,
  line.address ?? null,
  line.detail ? JSON.stringify(line.detail) : null,
  line.seq ?? null,
  line.prev,
  line.hash,
];

/** Inserts chained lines in one statement, in order (so their ids follow the chain). */
export async function insertLines(client: PoolClient | Pool, lines: readonly ChainedLine[]): Promise<void> {
  if (lines.length === 0) return;
  const width = 12;
  const values = lines.map(
    (_, row) =>
      `(${Array.from(
        { length: width },
        (_, column) => `$${row * width + column + 1}${column === 8 ? '::json' : ''}`,
      ).join(', ')})`,
  );
  await client.query(
    `INSERT INTO audit_events ${INSERT_COLUMNS} VALUES ${values.join(', ')}`,
    lines.flatMap(insertValues),
  );
}

/**
 * Under the chain's lock: where the next line goes on (head.ts), from the newest row that has a hash. Rows are never
 * chained after they were written: a newest row without a hash was inserted outside the server, so the next line
 * links over it to the last chained row, and `tampering` names it (audit-verify reports it as the break it is).
 * Rows are counted only when the head row has no number (the first write after the key came).
 */
export async function chainHead(
  client: PoolClient,
  keyring: AuditKeyring,
): Promise<TrailHead & { tampering?: string }> {
  // The newest row, by the primary key: every row this code writes is chained, so it is the head. Asked as one
  // query with `hash IS NOT NULL`, the planner chose by its statistics of `hash`, and with them stale it read the
  // whole table under the chain's lock (BENCHMARKS.md, "Storage at scale"): the newest row is read first.
  const newest = (await client.query(`SELECT ${AUDIT_COLUMNS} FROM audit_events ORDER BY id DESC LIMIT 1`)).rows[0] as
    Row | undefined;
  const last =
    newest === undefined || newest.hash !== null
      ? newest
      : ((
          await client.query(
            `SELECT ${AUDIT_COLUMNS} FROM audit_events WHERE hash IS NOT NULL ORDER BY id DESC LIMIT 1`,
          )
        ).rows[0] as Row | undefined);
  const line = last ? (rowFields(last) as ChainedLine) : undefined;
  let count = 0;
  if (!line || typeof line.seq !== 'number') {
    const upTo = last ? (last.id as string) : String(Number.MAX_SAFE_INTEGER);
    count = Number(
      (await client.query('SELECT count(*) AS n FROM audit_events WHERE id <= $1', [upTo])).rows[0].n as string,
    );
  }
  const head = headOf(line, keyring, () => count, newest !== undefined && last === undefined);
  if (newest && last && newest !== last) {
    return {
      ...head,
      tampering: `audit_events row id ${newest.id} has no hash: inserted outside the server, not chained`,
    };
  }
  return head;
}

/** Runs `work` in a transaction holding the chain's lock. */
export async function withChainLock<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [AUDIT_CHAIN_LOCK_KEY]);
    const result = await work(client);
    await client.query('COMMIT');
    client.release();
    return result;
  } catch (error) {
    const usable = await client.query('ROLLBACK').then(
      () => true,
      () => false,
    );
    client.release(!usable);
    throw error;
  }
}

/**
 * The audit trail as rows of `audit_events`, shared by every instance and chained across them: lines
 * queue while a write is under way and go out together in one transaction that holds the chain's
 * advisory lock, reads the last row's hash and inserts the new rows linked to it (so instances
 * writing at once never fork the chain, and each commit carries every line queued meanwhile). This code
 * only inserts; text fields are cut as in the file log. Resolves once the row is committed.
 */
export function postgresAuditLog(pool: Pool, now: () => Date, options: AuditWriterOptions = {}): AuditLog {
  let pending: PendingLine[] = [];
  let running: Promise<void> | undefined;
  let keyring = options.keyring;
  let tampering: string | undefined;

  const drain = async () => {
    while (pending.length > 0) {
      const batch = pending;
      pending = [];
      let written: { lines: number; head: string; count: number } | undefined;
      try {
        keyring ??= await postgresAuditKeyring(pool, [], { create: true });
        const key = keyring.signing;
        if (!key) throw new Error('The audit trail has no key to write with');
        const ring = keyring;
        written = await withChainLock(pool, async (client) => {
          const head = await chainHead(client, ring);
          if (head.tampering) tampering = head.tampering;
          const fields = batch.map((item) => lineFields(item.event, item.origin, item.time));
          const { lines, head: link, seq } = chainAfter(head, fields, key, batch[0]!.time);
          await insertLines(client, lines);
          return { lines: seq, head: link, count: lines.length };
        });
      } catch (error) {
        for (const item of batch) item.reject(error);
        continue;
      }
      options.anchors?.written({ lines: written.lines, head: written.head }, written.count);
      for (const item of batch) item.resolve();
    }
    running = undefined;
  };

  return {
    record(event, origin) {
      return new Promise<void>((resolve, reject) => {
        pending.push({ event, origin, time: now(), resolve, reject });
        running ??= drain();
      });
    },

    async tampering() {
      if (tampering) return tampering;
      // Any instance's view: a row without a hash after the first chained one (the index of unchained rows).
      const row = (
        await pool.query(
          `SELECT id FROM audit_events WHERE hash IS NULL
           AND id > (SELECT min(id) FROM audit_events WHERE hash IS NOT NULL) ORDER BY id LIMIT 1`,
        )
      ).rows[0] as Row | undefined;
      return row ? `audit_events row id ${row.id} has no hash: inserted outside the server, not chained` : undefined;
    },

    async listByActor(query) {
      // A page's `next` here is a row id; any other text (another store's cursor) names no line.
      if (query.before !== undefined && !/^\d{1,18}$/.test(query.before)) return { items: [], next: null };
      const values: unknown[] = [query.actor];
      let where = 'actor = $1';
      if (query.action !== undefined) {
        const at = values.push(query.action);
        where += ` AND (action = $${at} OR left(action, length($${at}) + 1) = $${at} || '.')`;
      }
      if (query.before !== undefined) where += ` AND id < $${values.push(query.before)}`;
      const rows = (
        await pool.query(
          `SELECT ${AUDIT_COLUMNS} FROM audit_events WHERE ${where} ORDER BY id DESC LIMIT ${query.limit + 1}`,
          values,
        )
      ).rows as Row[];
      const page = rows.slice(0, query.limit);
      const items = page.map((row) => asLine(row)).filter((line) => actionMatches(line.action, query.action));
      return { items, next: rows.length > query.limit ? String(page.at(-1)!.id) : null };
    },

    async *linesByActor(actor) {
      let after = '0';
      for (;;) {
        const rows = (
          await pool.query(
            `SELECT ${AUDIT_COLUMNS} FROM audit_events WHERE actor = $1 AND id > $2 ORDER BY id LIMIT ${READ_BATCH}`,
            [actor, after],
          )
        ).rows as Row[];
        for (const row of rows) yield asLine(row);
        if (rows.length < READ_BATCH) return;
        after = rows.at(-1)!.id as string;
      }
    },
  };
}

/** A row as a line (rows not chained yet carry empty prev and hash). */
const asLine = (row: Row): ChainedLine => {
  const fields = rowFields(row);
  return { ...fields, prev: fields.prev ?? '', hash: fields.hash ?? '' } as ChainedLine;
};
