import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test-support/postgres-cluster.ts';
import { IDEMPOTENCY_FILE_NAME } from './embedded/idempotency-keys.ts';
import { CLINICIANS_DIR_NAME } from './embedded/layout-names.ts';
import { openLowdbStore } from './lowdb-store.ts';
import { openPostgresStore } from './postgres/postgres-store.ts';
import type { CalculationRecord, PatientRecord } from './records.ts';
import type { IdempotencyClaim, IdempotentAnswer, StoreAdapter } from './store.ts';

// The stores' side of Idempotency-Key and of history pages by cursor, on both adapters.
const AT = Date.parse('2026-06-01T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const claimOf = (ownerId: string, key: string, fields: Partial<IdempotencyClaim> = {}): IdempotencyClaim => ({
  ownerId,
  key,
  fingerprint: 'f1',
  token: randomUUID(),
  at: iso(AT),
  expiresAt: iso(AT + 86_400_000),
  lockedUntil: iso(AT + 60_000),
  maxKeys: 1000,
  ...fields,
});
const entry = (ownerId: string, fields: Partial<CalculationRecord> = {}): CalculationRecord => ({
  id: randomUUID(),
  ownerId,
  patientId: null,
  toolType: 'dose_calculator',
  inputs: { bodyWeight: 70 },
  result: { kind: 'dose' },
  createdAt: iso(AT),
  ...fields,
});

const patientRecord = (ownerId: string, id: string, displayName: string): PatientRecord => ({
  id,
  ownerId,
  displayName,
  mrn: `MRN-${id}`,
  yearOfBirth: null,
  ageGroup: null,
  weightKg: null,
  notes: null,
  createdAt: iso(AT),
  updatedAt: iso(AT),
});
const keysFile = (dataDir: string, owner: string) =>
  path.join(dataDir, CLINICIANS_DIR_NAME, owner, IDEMPOTENCY_FILE_NAME);

interface Opened {
  open(): Promise<StoreAdapter>;
  dataDir?: string;
  database?: TestDatabase;
}
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const stores: [string, () => Promise<Opened>][] = [
  [
    'embedded',
    async () => {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'sgx-keys-'));
      cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
      return { open: () => openLowdbStore(dataDir), dataDir };
    },
  ],
  [
    'postgres',
    async () => {
      const database = await createTestDatabase(inject('postgresBaseUrl'));
      cleanups.push(() => database.drop());
      return { open: async () => (await openPostgresStore(database.url)).adapter, database };
    },
  ],
];

describe.each(stores)('the %s store', (_name, make) => {
  it('claims a key once: answered with its record, in progress, another request; released keys go', async () => {
    const storage = await make();
    const store = await storage.open();
    try {
      const owner = randomUUID();
      const first = claimOf(owner, 'k1');
      expect(await store.claimIdempotencyKey(first)).toEqual({ kind: 'claimed' });
      expect(await store.claimIdempotencyKey(claimOf(owner, 'k1'))).toEqual({ kind: 'in_progress', sameRequest: true });
      expect(await store.claimIdempotencyKey(claimOf(owner, 'k1', { fingerprint: 'f2' }))).toEqual({
        kind: 'in_progress',
        sameRequest: false,
      });
      const saved = entry(owner);
      const body = { historyId: saved.id, note: 'كذا' };
      await store.saveCalculation(saved, {
        key: 'k1',
        token: first.token,
        status: 200,
        body,
        expiresAt: first.expiresAt,
      });
      expect(await store.claimIdempotencyKey(claimOf(owner, 'k1'))).toEqual({
        kind: 'answered',
        sameRequest: true,
        status: 200,
        body,
      });
      // another clinician's k1 is theirs
      expect(await store.claimIdempotencyKey(claimOf(randomUUID(), 'k1'))).toEqual({ kind: 'claimed' });
      // a request that no longer holds its key saves nothing
      const second = claimOf(owner, 'k2');
      await store.claimIdempotencyKey(second);
      await store.releaseIdempotencyKey(owner, 'k2', second.token);
      const lost = entry(owner);
      await expect(
        store.saveCalculation(lost, {
          key: 'k2',
          token: second.token,
          status: 200,
          body: {},
          expiresAt: second.expiresAt,
        }),
      ).rejects.toThrow(/no longer holds/);
      expect(await store.findCalculation(owner, lost.id)).toBeUndefined();
      expect(await store.claimIdempotencyKey(claimOf(owner, 'k2'))).toEqual({ kind: 'claimed' });
    } finally {
      await store.close();
    }
  });

  it('expires keys, takes over a claim whose request died, and keeps at most maxKeys per clinician', async () => {
    const storage = await make();
    const store = await storage.open();
    try {
      const owner = randomUUID();
      const dead = claimOf(owner, 'dead');
      await store.claimIdempotencyKey(dead);
      const later = { at: iso(AT + 60_000), lockedUntil: iso(AT + 120_000) };
      expect(await store.claimIdempotencyKey(claimOf(owner, 'dead', later))).toEqual({ kind: 'claimed' });

      for (let n = 0; n < 5; n += 1) {
        const claim = claimOf(owner, `b${n}`, { maxKeys: 3 });
        await store.claimIdempotencyKey(claim);
        const saved = entry(owner);
        await store.saveCalculation(saved, { ...claim, status: 200, body: { n }, expiresAt: claim.expiresAt });
      }
      // b0, b1 forgotten (the oldest answered past 3 keys), b4 kept
      expect((await store.claimIdempotencyKey(claimOf(owner, 'b4', { maxKeys: 3 }))).kind).toBe('answered');
      expect((await store.claimIdempotencyKey(claimOf(owner, 'b0', { maxKeys: 3 }))).kind).toBe('claimed');

      const dayLater = { at: iso(AT + 86_400_000), lockedUntil: iso(AT + 86_460_000) };
      expect((await store.claimIdempotencyKey(claimOf(owner, 'b4', dayLater))).kind).toBe('claimed');
      expect(await store.deleteExpiredIdempotencyKeys(iso(AT + 2 * 86_400_000))).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  });

  it('an answered key outlives a restart; history pages by cursor walk every entry once', async () => {
    const storage = await make();
    let store = await storage.open();
    const owner = randomUUID();
    const claim = claimOf(owner, 'kept');
    await store.claimIdempotencyKey(claim);
    await store.createPatient(
      {
        id: 'p-kept',
        ownerId: owner,
        displayName: 'P',
        mrn: null,
        yearOfBirth: null,
        ageGroup: null,
        weightKg: null,
        notes: null,
        createdAt: iso(AT),
        updatedAt: iso(AT),
      },
      { key: 'kept', token: claim.token, status: 201, body: { id: 'p-kept' }, expiresAt: claim.expiresAt },
    );
    const saved = [];
    for (let n = 0; n < 7; n += 1) {
      const record = entry(owner, {
        toolType: n % 2 ? 'roi_calculator' : 'dose_calculator',
        patientId: n % 3 ? null : 'p-kept',
      });
      await store.saveCalculation(record);
      saved.push(record);
    }
    await store.close();
    store = await storage.open();
    try {
      expect(await store.claimIdempotencyKey(claimOf(owner, 'kept'))).toMatchObject({ kind: 'answered', status: 201 });
      const ids: string[] = [];
      let after: string | undefined;
      for (;;) {
        const page = await store.listCalculationsPage(owner, { limit: 3, ...(after ? { after } : {}) });
        expect(page.total).toBe(7);
        ids.push(...page.items.map((item) => item.id));
        if (page.nextCursor === null) break;
        after = page.nextCursor;
      }
      expect(ids).toEqual(saved.map((record) => record.id).reverse());
      const roi = await store.listCalculationsPage(owner, { limit: 10, toolType: 'roi_calculator' });
      expect(roi.total).toBe(3);
      const ofPatient = await store.listCalculationsPage(owner, { limit: 1, patientId: 'p-kept' });
      expect([ofPatient.total, ofPatient.items[0]?.id]).toEqual([3, saved[6]!.id]);
      expect(await store.deletePatient(owner, 'p-kept')).toBe(true);
      expect((await store.listCalculationsPage(owner, { limit: 10, patientId: 'p-kept' })).total).toBe(0);
      expect((await store.listCalculationsPage(owner, { limit: 10, offset: 5 })).items).toHaveLength(2);
    } finally {
      await store.close();
    }
  });

  it('deleting a patient forgets the answers that name it (its record, a calculation for it), only those', async () => {
    const storage = await make();
    let store = await storage.open();
    const owner = randomUUID();
    const keyed = async (key: string, write: (answer: IdempotentAnswer) => Promise<void>, body: object) => {
      const claim = claimOf(owner, key);
      expect(await store.claimIdempotencyKey(claim)).toEqual({ kind: 'claimed' });
      await write({ key, token: claim.token, status: 201, body, expiresAt: claim.expiresAt });
    };
    for (const [id, name] of [
      ['p-gone', 'Gone Patient Name'],
      ['p-kept', 'Kept Patient Name'],
    ] as const) {
      const record = patientRecord(owner, id, name);
      await keyed(`create-${id}`, (answer) => store.createPatient(record, answer), { id, displayName: name });
      const run = entry(owner, { patientId: id });
      await keyed(`run-${id}`, (answer) => store.saveCalculation(run, answer), {
        historyId: run.id,
        patientId: id,
        patient: { displayName: name },
      });
    }
    expect(await store.deletePatient(owner, 'p-gone')).toBe(true);
    await store.close();
    store = await storage.open();
    try {
      // nowhere in the store: not in idempotency.jsonl, not in idempotency_keys
      if (storage.dataDir) expect(await readFile(keysFile(storage.dataDir, owner), 'utf8')).not.toContain('Gone');
      if (storage.database) {
        const pool = new pg.Pool({ connectionString: storage.database.url, max: 1 });
        const rows = await pool.query("SELECT key FROM idempotency_keys WHERE body::text LIKE '%Gone%'");
        await pool.end();
        expect(rows.rows).toEqual([]);
      }
      for (const key of ['create-p-gone', 'run-p-gone'])
        expect([key, (await store.claimIdempotencyKey(claimOf(owner, key))).kind]).toEqual([key, 'claimed']);
      for (const key of ['create-p-kept', 'run-p-kept'])
        expect([key, (await store.claimIdempotencyKey(claimOf(owner, key))).kind]).toEqual([key, 'answered']);
    } finally {
      await store.close();
    }
  });

  it.runIf(_name === 'embedded')(
    'drops, when read, an answer naming a deleted patient that a crash left in the file, and rewrites it',
    async () => {
      const storage = await make();
      let store = await storage.open();
      const owner = randomUUID();
      const claim = claimOf(owner, 'named');
      await store.claimIdempotencyKey(claim);
      await store.createPatient(patientRecord(owner, 'p-crash', 'Crash Patient Name'), {
        ...claim,
        status: 201,
        body: { id: 'p-crash', displayName: 'Crash Patient Name' },
      });
      await store.close();
      const file = keysFile(storage.dataDir!, owner);
      const before = await readFile(file, 'utf8');
      store = await storage.open();
      expect(await store.deletePatient(owner, 'p-crash')).toBe(true);
      await store.close();
      // As if the server died after patients.json and before idempotency.jsonl was rewritten.
      await writeFile(file, before);
      store = await storage.open();
      try {
        expect((await store.claimIdempotencyKey(claimOf(owner, 'named'))).kind).toBe('claimed');
      } finally {
        await store.close();
      }
      expect(await readFile(file, 'utf8')).not.toContain('Crash Patient Name');
    },
  );

  it.runIf(_name === 'embedded')(
    'drops, when read, an answer whose record a crash kept from being written',
    async () => {
      const storage = await make();
      let store = await storage.open();
      const owner = randomUUID();
      const claim = claimOf(owner, 'torn');
      await store.claimIdempotencyKey(claim);
      await store.saveCalculation(entry(owner), { ...claim, status: 200, body: { ok: true } });
      await store.close();
      // As if the server died after the answer's line and before its record's: a line naming no record.
      const file = path.join(storage.dataDir!, CLINICIANS_DIR_NAME, owner, IDEMPOTENCY_FILE_NAME);
      const line = JSON.parse((await readFile(file, 'utf8')).trim());
      await writeFile(file, `${JSON.stringify(line)}\n${JSON.stringify({ ...line, key: 'lost', recordId: 'gone' })}\n`);
      store = await storage.open();
      try {
        expect((await store.claimIdempotencyKey(claimOf(owner, 'torn'))).kind).toBe('answered');
        expect((await store.claimIdempotencyKey(claimOf(owner, 'lost'))).kind).toBe('claimed');
      } finally {
        await store.close();
      }
    },
  );

  it.runIf(_name === 'postgres')(
    'keeps calculation_counts with every insert and delete, however many rows',
    async () => {
      const storage = await make();
      const store = await storage.open();
      const pool = new pg.Pool({ connectionString: storage.database!.url, max: 1 });
      try {
        const owner = randomUUID();
        for (let n = 0; n < 4; n += 1) await store.saveCalculation(entry(owner));
        await pool.query(
          `INSERT INTO calculations (id, owner_id, patient_id, tool_type, inputs, result, created_at)
         SELECT 'bulk-' || n, $1, NULL, 'roi_calculator', '{}', '{}', now() FROM generate_series(1, 50) AS n`,
          [owner],
        );
        expect((await store.listCalculationsPage(owner, { limit: 1 })).total).toBe(54);
        expect((await store.listCalculationsPage(owner, { limit: 1, toolType: 'roi_calculator' })).total).toBe(50);
        await pool.query(`DELETE FROM calculations WHERE owner_id = $1 AND id LIKE 'bulk-1%'`, [owner]);
        const counted = await pool.query('SELECT count(*)::int AS n FROM calculations WHERE owner_id = $1', [owner]);
        expect((await store.listCalculationsPage(owner, { limit: 1 })).total).toBe(counted.rows[0].n);
        await pool.query('TRUNCATE calculations');
        expect((await store.listCalculationsPage(owner, { limit: 1 })).total).toBe(0);
      } finally {
        await pool.end();
        await store.close();
      }
    },
  );
});
