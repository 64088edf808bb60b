import type { Pool, PoolClient } from 'pg';
import { chainLine, GENESIS_HASH, linkAfter, type AuditFields, type ChainedLine } from '../../audit/chain.ts';
import { actionMatches, lineFields, type AuditLog, type PendingLine } from '../audit-log.ts';

/** Every writer of the trail takes this transaction-level advisory lock: one chains at a time. */
export const AUDIT_CHAIN_LOCK_KEY = 0x5367_7861; // "Sgxa"
/** Rows written before the chain (an earlier release) chained per statement, at most. */
const ADOPT_BATCH = 5_000;
const READ_BATCH = 5_000;

export const AUDIT_COLUMNS =
  'id, time, actor, action, record_type, record_id, outcome, request_id, address, detail, prev_hash, hash';

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
  if (row.hash !== null && row.hash !== undefined) {
    fields.prev = row.prev_hash as string;
    fields.hash = row.hash as string;
  }
  return fields;
}

const INSERT_COLUMNS =
  '(time, actor, action, record_type, record_id, outcome, request_id, address, detail, prev_hash, hash)';
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
  line.prev,
  line.hash,
];

/** Inserts chained lines in one statement, in order (so their ids follow the chain). */
export async function insertLines(client: PoolClient | Pool, lines: readonly ChainedLine[]): Promise<void> {
  if (lines.length === 0) return;
  const width = 11;
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
 * Under the chain's lock: chains the rows written without a hash (by an earlier release, before its
 * instances were replaced) after the last chained row, and answers the hash the next line links to.
 */
export async function chainHead(client: PoolClient): Promise<string> {
  // The newest row, by the primary key: every row this code writes is chained, so it is the head. Only rows
  // an earlier release wrote (during a rolling upgrade) make the newest row unchained; then the last chained
  // row is looked for. Asked as one query, the planner chose by its statistics of `hash`, and with them
  // stale (rows chained since the last ANALYZE) it read the whole table under the chain's lock, 46 ms at
  // 110,000 rows, which every audited request waited for (BENCHMARKS.md, "Storage at scale").
  const newest = (await client.query(`SELECT id, action, detail, hash FROM audit_events ORDER BY id DESC LIMIT 1`))
    .rows[0] as Row | undefined;
  const last =
    newest === undefined || newest.hash !== null
      ? newest
      : ((
          await client.query(
            `SELECT id, action, detail, hash FROM audit_events WHERE hash IS NOT NULL ORDER BY id DESC LIMIT 1`,
          )
        ).rows[0] as Row | undefined);
  let head = last
    ? linkAfter({ action: last.action, detail: last.detail, hash: last.hash } as ChainedLine)
    : GENESIS_HASH;
  let after = last ? (last.id as string) : '0';
  for (;;) {
    const rows = (
      await client.query(
        `SELECT ${AUDIT_COLUMNS} FROM audit_events WHERE hash IS NULL AND id > $1 ORDER BY id LIMIT ${ADOPT_BATCH}`,
        [after],
      )
    ).rows as Row[];
    if (rows.length === 0) return head;
    const ids: string[] = [];
    const prevs: string[] = [];
    const hashes: string[] = [];
    for (const row of rows) {
      const { hash } = chainLine(rowFields(row), head);
      ids.push(row.id as string);
      prevs.push(head);
      hashes.push(hash);
      head = hash;
      after = row.id as string;
    }
    await client.query(
      `UPDATE audit_events AS a SET prev_hash = u.prev, hash = u.hash
       FROM unnest($1::bigint[], $2::text[], $3::text[]) AS u(id, prev, hash) WHERE a.id = u.id`,
      [ids, prevs, hashes],
    );
  }
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
export function postgresAuditLog(pool: Pool, now: () => Date): AuditLog {
  let pending: PendingLine[] = [];
  let running: Promise<void> | undefined;

  const drain = async () => {
    while (pending.length > 0) {
      const batch = pending;
      pending = [];
      try {
        await withChainLock(pool, async (client) => {
          let head = await chainHead(client);
          const lines: ChainedLine[] = [];
          for (const item of batch) {
            const { line } = chainLine(lineFields(item.event, item.origin, item.time), head);
            lines.push(line);
            head = linkAfter(line);
          }
          await insertLines(client, lines);
        });
      } catch (error) {
        for (const item of batch) item.reject(error);
        continue;
      }
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
