import { afterEach, describe, expect, inject, it } from 'vitest';
import { describeResult } from '../../audit/chain.ts';
import { prunePostgresTrail, verifyPostgresTrail } from '../../audit/trail.ts';
import { createTestDatabase } from '../../test-support/postgres-cluster.ts';
import type { AuditEvent } from '../audit-log.ts';
import { postgresAuditKeyring } from '../../audit/keys.ts';
import { chainHead, openPostgresStore, postgresAuditLog, withChainLock } from './index.ts';

// The audit trail's hash chain in audit_events (api/audit/chain.ts): instances writing at once, rows of an
// earlier release, a changed row, and pruning with a signed summary.
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
async function database() {
  const created = await createTestDatabase(inject('postgresBaseUrl'));
  cleanups.push(() => created.drop());
  const open = async () => {
    const opened = await openPostgresStore(created.url);
    cleanups.push(() => opened.adapter.close());
    return opened.pool;
  };
  return { url: created.url, open };
}
const read = (recordId: string): AuditEvent => ({
  actor: 'u-1',
  action: 'patient.read',
  recordType: 'patient',
  recordId,
  outcome: 'success',
});

describe('the audit trail in PostgreSQL', () => {
  it('two instances writing at once make one chain, which verifies', async () => {
    const db = await database();
    const [a, b] = [await db.open(), await db.open()];
    const first = postgresAuditLog(a, () => new Date('2026-11-22T10:00:00Z'));
    const second = postgresAuditLog(b, () => new Date('2026-11-22T10:00:01Z'));
    await Promise.all(
      Array.from({ length: 150 }, (_, index) => (index % 2 ? first : second).record(read(`r-${index}`), null)),
    );
    const result = await verifyPostgresTrail(a);
    expect(result.broken).toBeUndefined();
    expect(describeResult(result, 'audit_events')).toMatch(/^Audit trail intact, 151 lines/); // the key line, then 150
    const links = (await a.query('SELECT prev_hash, hash FROM audit_events ORDER BY id')).rows;
    for (let index = 1; index < links.length; index += 1) expect(links[index].prev_hash).toBe(links[index - 1].hash);
  });

  it('names the row changed by an UPDATE, and one deleted', async () => {
    const db = await database();
    const pool = await db.open();
    const audit = postgresAuditLog(pool, () => new Date('2026-11-22T10:00:00Z'));
    for (let index = 0; index < 6; index += 1) await audit.record(read(`r-${index}`), null);
    const ids = (await pool.query('SELECT id FROM audit_events ORDER BY id')).rows.map((row) => row.id as string);
    await pool.query("UPDATE audit_events SET record_id = 'r-x' WHERE id = $1", [ids[2]]);
    expect((await verifyPostgresTrail(pool)).broken).toMatchObject({
      where: `audit_events row id ${ids[2]}`,
      index: 3,
      problem: expect.stringContaining('is not the HMAC-SHA-256 under the trail'),
    });
    await pool.query("UPDATE audit_events SET record_id = 'r-1' WHERE id = $1", [ids[2]]); // ids[0]: the key line
    expect((await verifyPostgresTrail(pool)).broken).toBeUndefined();
    await pool.query('DELETE FROM audit_events WHERE id = $1', [ids[4]]);
    expect((await verifyPostgresTrail(pool)).broken?.where).toBe(`audit_events row id ${ids[5]}`);
  });

  it('keeps the rows an earlier release wrote (no hash) as they are, first, and goes on after them', async () => {
    const db = await database();
    const pool = await db.open();
    await pool.query(
      `INSERT INTO audit_events (time, actor, action, outcome) VALUES
       ('2025-01-01T00:00:00Z', 'u-0', 'user.signin', 'success'),
       ('2025-01-02T00:00:00Z', 'u-0', 'user.signout', 'success')`,
    );
    await postgresAuditLog(pool, () => new Date('2026-11-22T10:00:00Z')).record(read('r-1'), null);
    const rows = (await pool.query('SELECT action, seq, prev_hash, hash FROM audit_events ORDER BY id')).rows;
    expect(rows.map((row) => row.action)).toEqual(['user.signin', 'user.signout', 'audit.key', 'patient.read']);
    expect(rows.map((row) => row.seq)).toEqual([null, null, '3', '4']);
    expect(rows[0].hash).toBeNull();
    expect(rows[2].prev_hash).toBe('0'.repeat(64));
    expect(await verifyPostgresTrail(pool)).toMatchObject({ lines: 4, legacy: 2, seq: 4 });
  });

  it('never chains a row inserted without a hash after chained ones: it is tampering, and said', async () => {
    const db = await database();
    const pool = await db.open();
    const audit = postgresAuditLog(pool, () => new Date('2026-11-22T10:00:00Z'));
    await audit.record(read('r-1'), null);
    await audit.record(read('r-2'), null);
    const forged = (
      await pool.query(
        `INSERT INTO audit_events (time, actor, action, outcome)
         VALUES ('2026-11-22T10:00:01Z', 'u-0', 'user.signin', 'success') RETURNING id`,
      )
    ).rows[0].id as string;
    await audit.record(read('r-3'), null);
    const rows = (await pool.query('SELECT action, record_id, prev_hash, hash FROM audit_events ORDER BY id')).rows;
    expect(rows.map((row) => row.record_id ?? row.action)).toEqual(['audit.key', 'r-1', 'r-2', 'user.signin', 'r-3']);
    expect(rows[3].hash).toBeNull();
    expect(rows[4].prev_hash).toBe(rows[2].hash); // linked over the forged row
    expect(await audit.tampering()).toContain(`audit_events row id ${forged} has no hash`);
    expect(await postgresAuditLog(pool, () => new Date()).tampering()).toContain(`row id ${forged}`);
    expect((await verifyPostgresTrail(pool)).broken).toMatchObject({
      where: `audit_events row id ${forged}`,
      problem: expect.stringContaining('without a hash after the chain began'),
    });
  });

  it("finds the chain's head by the primary key, whatever the statistics say of the hashes", async () => {
    const db = await database();
    const pool = await db.open();
    await pool.query(
      `INSERT INTO audit_events (time, actor, action, outcome)
       SELECT '2025-01-01T00:00:00Z'::timestamptz + n * interval '1 second', 'u-0', 'user.signin', 'success'
       FROM generate_series(1, 20000) AS n`,
    );
    // Statistics taken while no row had a hash, then every row chained: the planner believes none has one.
    await pool.query('ANALYZE audit_events');
    const keyring = await postgresAuditKeyring(pool, [], { create: true });
    // The first line after them counts them once (the key line's number); from then on the head row has one.
    await postgresAuditLog(pool, () => new Date('2026-11-22T10:00:00Z'), { keyring }).record(read('r-1'), null);
    // Every query chainHead runs, planned as it ran: none may read the table through.
    const asked: { text: string; values?: unknown[] }[] = [];
    await withChainLock(pool, (client) => {
      const query = client.query.bind(client) as (text: string, values?: unknown[]) => Promise<unknown>;
      const spy = Object.assign(Object.create(client) as object, {
        query: (text: string, values?: unknown[]) => {
          asked.push({ text, values });
          return query(text, values);
        },
      }) as typeof client;
      return chainHead(spy, keyring);
    });
    expect(asked.length).toBeGreaterThan(0);
    for (const { text, values } of asked) {
      const plan = (await pool.query(`EXPLAIN ${text}`, values)).rows.map((row) => row['QUERY PLAN'] as string);
      expect(plan.join('\n')).not.toMatch(/Seq Scan/);
    }
    expect((await verifyPostgresTrail(pool)).lines).toBe(20002);
  });

  it('prunes only rows older than the period, the signed summary first; the chain verifies', async () => {
    const db = await database();
    const pool = await db.open();
    const today = new Date('2027-06-01T00:00:00Z');
    for (const days of [600, 500, 401, 399, 10]) {
      const at = new Date(today.getTime() - days * 24 * 60 * 60 * 1000);
      await postgresAuditLog(pool, () => at).record(read(`${days}-days`), null);
    }
    const dry = await prunePostgresTrail(pool, { retentionDays: 400, now: today, dryRun: true });
    expect(dry.count).toBe(4); // the key line (as old as the first line) and 600, 500, 401 days
    expect((await pool.query('SELECT count(*)::int AS n FROM audit_events')).rows[0].n).toBe(6);

    const outcome = await prunePostgresTrail(pool, { retentionDays: 400, now: today });
    expect(outcome.count).toBe(4);
    const rows = (await pool.query('SELECT action, record_id, detail FROM audit_events ORDER BY id')).rows;
    expect(rows.map((row) => row.record_id ?? row.action)).toEqual(['audit.prune', '399-days', '10-days']);
    expect(rows[0].detail).toMatchObject({ count: 4, before: '2026-04-27T00:00:00.000Z' });
    const result = await verifyPostgresTrail(pool);
    expect(result.broken).toBeUndefined();
    expect(result).toMatchObject({ lines: 3, summaries: 1, pruned: 4, seq: 6 });
    // writing goes on after the summary
    await postgresAuditLog(pool, () => today).record(read('after'), null);
    expect((await verifyPostgresTrail(pool)).broken).toBeUndefined();
    // a forged summary: the signature no longer matches
    await pool.query(`UPDATE audit_events SET detail = '{"count":1}'::json WHERE action = 'audit.prune'`);
    expect((await verifyPostgresTrail(pool)).broken?.index).toBe(1);
  });

  it('the writer only appends: rows already written stay as they were', async () => {
    const db = await database();
    const pool = await db.open();
    const audit = postgresAuditLog(pool, () => new Date('2026-11-22T10:00:00Z'));
    await audit.record(read('a'), null);
    const before = (await pool.query('SELECT * FROM audit_events')).rows;
    await audit.record(read('b'), null);
    const after = (await pool.query('SELECT * FROM audit_events ORDER BY id')).rows;
    expect(after.slice(0, 2)).toEqual(before.sort((x, y) => Number(x.id) - Number(y.id)));
    expect(after).toHaveLength(3); // the key line, a, b
  });
});
