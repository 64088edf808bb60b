import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test-support/postgres-cluster.ts';
import { builtServer } from '../test-support/server-process.ts';
import { fileAuditLog, type AuditEvent } from './audit-log.ts';
import { exists } from './embedded/durable-fs.ts';
import { openLowdbStore } from './lowdb-store.ts';
import { loadFileKeyring } from './data-key.ts';
import { MIGRATED_KINDS, migrateData, MigrationError, type MigrationCounts } from './migrate-data.ts';
import { openStorage } from './open-storage.ts';
import { createStore } from './policy.ts';
import { openPostgresStore } from './postgres/index.ts';
import type { CalculationRecord, ExportRecord, PatientRecord, SessionRecord, UserRecord } from './records.ts';
import { dataKeyId, sealedAdapter } from './sealed-values.ts';
import { StorageError } from './storage-error.ts';
import type { Store } from './store.ts';

// npm run migrate-data: a DATA_DIR filled through the real embedded Store, copied into a database of
// the run's throwaway cluster, then every Store answer compared between the two.
const baseUrl = inject('postgresBaseUrl');

let dataDir: string;
const cleanups: (() => Promise<unknown>)[] = [];
beforeEach(async () => {
  dataDir = realpathSync(await mkdtemp(path.join(tmpdir(), 'sgx-migrate-')));
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await rm(dataDir, { recursive: true, force: true });
});

async function freshDatabase(): Promise<TestDatabase> {
  const database = await createTestDatabase(baseUrl);
  cleanups.push(() => database.drop());
  return database;
}
async function query<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}
/** Rows per table of the target, the audit table included. */
async function tableCounts(url: string) {
  const [row] = await query<Record<string, number>>(
    url,
    `SELECT (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM sessions) AS sessions,
       (SELECT count(*)::int FROM patients) AS patients, (SELECT count(*)::int FROM calculations) AS calculations,
       (SELECT count(*)::int FROM exports) AS exports,
       (SELECT count(*)::int FROM audit_events WHERE action <> 'audit.key') AS "auditEvents"`,
  );
  return row!;
}

// ---------------------------------------------------------------------------------------------------
// The source data

/** The clock of the source's Store: before every revocation below, so nothing is pruned. */
const CLOCK = () => new Date('2026-01-01T00:00:00.000Z');
const A = '0a1b2c3d-0000-4000-8000-00000000000a';
const B = '0a1b2c3d-0000-4000-8000-00000000000b';
const C = '0a1b2c3d-0000-4000-8000-00000000000c';
const HASH = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdEFCQ0Q$aGFzaGhhc2hoYXNoaGFzaA';

const users: Record<'A' | 'B' | 'C', UserRecord> = {
  A: {
    id: A,
    email: 'Amina.Haddad@Hospital.example',
    name: 'د. أمينة حداد',
    license: 'SCFHS-12345',
    passwordHash: HASH,
    createdAt: '2026-01-02T08:00:00.123Z',
  },
  B: {
    id: B,
    email: 'bilal@hospital.example',
    name: 'Bilal Okafor',
    license: null,
    passwordHash: `${HASH}B`,
    createdAt: '2026-01-03T09:30:00.000Z',
  },
  C: {
    id: C,
    email: 'chen@hospital.example',
    name: 'Chen Wei',
    license: 'MOH-9',
    passwordHash: `${HASH}C`,
    createdAt: '2026-03-01T10:00:00.000Z',
  },
};
const session = (id: string, userId: string, revokedAt: string | null = null): SessionRecord => ({
  id,
  userId,
  createdAt: '2026-02-01T10:00:00.000Z',
  expiresAt: '2099-02-01T10:00:00.000Z',
  revokedAt,
  lastUsedAt: '2026-02-01T10:05:00.000Z',
  device: 'Chrome on Windows',
  method: 'password+totp',
  oidc: null,
});
/** The EHR's Patient a launched patient came from (api/smart/routes.ts). */
const EHR_LINK = {
  fhirBase: 'https://fhir.hospital.example/api/FHIR/R4',
  patientId: 'eXk2Lm9',
  identifier: { system: 'urn:oid:2.16.840.1.113883.3.1234', value: 'MRN-٠٠١' },
  weight: { kg: 82.5, recordedAt: '2026-11-20T07:30:00.000Z', readAt: '2026-11-21T09:00:00.000Z' },
};

const patient = (id: string, ownerId: string, displayName: string, fields: Partial<PatientRecord> = {}) =>
  ({
    id,
    ownerId,
    displayName,
    mrn: null,
    yearOfBirth: null,
    ageGroup: null,
    weightKg: null,
    notes: null,
    createdAt: '2026-02-01T11:00:00.000Z',
    updatedAt: '2026-02-01T11:00:00.000Z',
    ...fields,
  }) satisfies PatientRecord;
let calculationTime = Date.parse('2026-02-10T00:00:00.000Z');
function calculation(id: string, ownerId: string, patientId: string | null, toolType: CalculationRecord['toolType']) {
  calculationTime += 60_000;
  return {
    id,
    ownerId,
    patientId,
    toolType,
    // key order that is not alphabetical, Arabic text, nesting: json keeps them as written
    inputs: { weight: 82.5, ageGroup: 'adult', tofCount: 2, note: 'جرعة' },
    result: { kind: 'dose', totalDoseMg: 165, warnings: ['CrCl not entered'], nested: { z: 1, a: [null, true] } },
    createdAt: new Date(calculationTime).toISOString(),
  } satisfies CalculationRecord;
}
/** Every byte value, runs of 0x00 and 0xFF, then the tag. */
const pdf = (tag: string) =>
  Buffer.concat([
    Buffer.from('%PDF-1.7\n'),
    Buffer.from(Array.from({ length: 256 }, (_, value) => value)),
    Buffer.alloc(200, 0x00),
    Buffer.alloc(200, 0xff),
    Buffer.from(tag),
  ]);
const exportRecord = (id: string, ownerId: string, patientId: string | null, calculationId: string | null) =>
  ({
    id,
    ownerId,
    patientId,
    calculationId,
    fileName: `notes-${id}.pdf`,
    sizeBytes: pdf(id).length,
    createdAt: '2026-02-20T12:00:00.000Z',
  }) satisfies ExportRecord;

/** The audit log's limits for these tests: small files, so the log rotates. */
const AUDIT_LIMITS = { maxBytes: 600 };
const AUDIT_TIME = new Date('2026-02-01T10:00:00.000Z');

/** Ids of what `fill` wrote, by kind, as the source lists them. */
const ids = {
  sessions: ['s-a-live', 's-a-revoked', 's-b-live'],
  patients: ['p-a-ahmed', 'p-a-zoe', 'p-b-fatima'],
  deletedPatient: 'p-a-deleted',
  calculations: { [A]: ['c-a-1', 'c-a-2', 'c-a-3', 'c-a-4', 'c-a-5'], [B]: ['c-b-1', 'c-b-2'] },
  exports: { [A]: ['e-a-1', 'e-a-2'], [B]: ['e-b-1'] },
  deletedExport: 'e-a-deleted',
};

async function withSourceStore<T>(work: (store: Store) => Promise<T>): Promise<T> {
  const adapter = await openLowdbStore(dataDir);
  try {
    return await work(createStore(adapter, { now: CLOCK }));
  } finally {
    await adapter.close();
  }
}

/** Appends `count` events, all at one time (several identical, as a double click makes). */
async function writeAudit(count: number, actor: string) {
  const audit = fileAuditLog(dataDir, () => AUDIT_TIME, AUDIT_LIMITS);
  for (let index = 0; index < count; index += 1) {
    const event: AuditEvent =
      index % 3 === 2
        ? { actor, action: 'user.signin', outcome: 'success' }
        : { actor, action: 'patient.read', recordType: 'patient', recordId: 'p-a-ahmed', outcome: 'success' };
    await audit.record(event, null);
  }
}

/** Two clinicians' data, through the real embedded Store, and an audit log that has rotated. */
async function fill() {
  await withSourceStore(async (store) => {
    expect(await store.createUser(users.A)).toBe('created');
    expect(await store.createUser(users.B)).toBe('created');
    await store.createSession(session('s-a-live', A));
    await store.createSession(session('s-a-revoked', A));
    await store.createSession(session('s-b-live', B));
    await store.revokeSession('s-a-revoked', '2026-02-02T10:00:00.000Z');
    // A's second factors (an authenticator app, a passkey, two recovery codes: one used); B linked to the
    // hospital's single sign-on.
    await store.changeSecondFactors({
      userId: A,
      at: '2026-02-03T09:00:00.000Z',
      totp: {
        userId: A,
        secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
        lastUsedStep: 59_000_123,
        createdAt: '2026-02-03T09:00:00.000Z',
      },
      addPasskey: {
        id: 'cred-A_1-x',
        userId: A,
        publicKey: 'pQECAyYgASFYIB',
        counter: 0,
        transports: ['internal', 'hybrid'],
        name: 'حاسوب الجناح',
        createdAt: '2026-02-03T09:01:00.000Z',
        lastUsedAt: null,
      },
      recoveryCodeHashes: ['hash-1', 'hash-2'],
    });
    expect(await store.useRecoveryCode(A, 'hash-2', '2026-02-04T07:00:00.000Z')).toBe(true);
    expect(
      await store.addIdentity({
        issuer: 'https://login.microsoftonline.com/72f988bf-86f1-41af-91ab-2d7cd011db47/v2.0',
        subject: 'AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ',
        userId: B,
        createdAt: '2026-02-05T11:00:00.000Z',
      }),
    ).toBe('linked');

    await store.createPatient(
      patient('p-a-ahmed', A, 'أحمد الفارسي', {
        mrn: 'MRN-٠٠١',
        yearOfBirth: 1980,
        ageGroup: 'adult',
        weightKg: 82.5,
        notes: 'حساسية من البنسلين',
        // opened from an EHR (a SMART launch): the link to its Patient goes across too
        ehrPatient: EHR_LINK,
      }),
    );
    await store.createPatient(patient('p-a-zoe', A, 'Zoë Ålander', { ageGroup: 'pediatric', weightKg: 23.4 }));
    await store.createPatient(patient(ids.deletedPatient, A, 'To be deleted', { mrn: 'X-1' }));
    await store.createPatient(patient('p-b-fatima', B, 'فاطمة الزهراء', { weightKg: 61 }));

    await store.saveCalculation(calculation('c-a-1', A, 'p-a-ahmed', 'dose_calculator'));
    await store.saveCalculation(calculation('c-a-2', A, ids.deletedPatient, 'bradycardia_advisor'));
    // saved third, but with the earliest time: lists go by the order saved
    await store.saveCalculation({
      ...calculation('c-a-3', A, null, 'roi_calculator'),
      createdAt: '2025-12-01T00:00:00.000Z',
    });
    await store.saveCalculation(calculation('c-a-4', A, ids.deletedPatient, 'dose_calculator'));
    await store.saveCalculation(calculation('c-a-5', A, 'p-a-ahmed', 'bradycardia_advisor'));
    await store.saveCalculation(calculation('c-b-1', B, 'p-b-fatima', 'dose_calculator'));
    await store.saveCalculation(calculation('c-b-2', B, null, 'dose_calculator'));

    await store.saveExport(exportRecord('e-a-1', A, 'p-a-ahmed', 'c-a-1'), pdf('e-a-1'));
    await store.saveExport(exportRecord(ids.deletedExport, A, 'p-a-ahmed', null), pdf(ids.deletedExport));
    await store.saveExport(exportRecord('e-a-2', A, ids.deletedPatient, 'c-a-2'), pdf('e-a-2'));
    await store.saveExport(exportRecord('e-b-1', B, 'p-b-fatima', 'c-b-1'), pdf('e-b-1'));
    expect(await store.deleteExport(A, ids.deletedExport)).toBe(true);
    expect(await store.deletePatient(A, ids.deletedPatient)).toBe(true);
  });
  await writeAudit(10, A);
  await writeAudit(4, B);
  // rotated several times, every file kept
  expect((await readdir(dataDir)).filter((name) => name.startsWith('audit.log')).length).toBeGreaterThan(5);
}

/** The audit lines of DATA_DIR, oldest file first, as rows of audit_events read them. */
async function auditLines() {
  const names = (await readdir(dataDir)).filter((name) => name.startsWith('audit.log'));
  const order = (name: string) => (name === 'audit.log' ? 0 : Number(name.slice('audit.log.'.length)));
  const lines: Record<string, unknown>[] = [];
  for (const name of names.sort((a, b) => order(b) - order(a))) {
    for (const line of (await readFile(path.join(dataDir, name), 'utf8')).split('\n').filter(Boolean)) {
      const event = JSON.parse(line) as Record<string, unknown>;
      if (event.action === 'audit.key') continue; // the chain's own line: not copied (the database has its own)
      lines.push({
        time: event.time,
        actor: event.actor,
        action: event.action,
        record_type: event.recordType ?? null,
        record_id: event.recordId ?? null,
        outcome: event.outcome ?? null,
      });
    }
  }
  return lines;
}
async function auditRows(url: string) {
  const rows = await query<Record<string, unknown>>(
    url,
    'SELECT time, actor, action, record_type, record_id, outcome FROM audit_events ' +
      "WHERE action <> 'audit.key' ORDER BY id",
  );
  return rows.map((row) => ({ ...row, time: (row.time as Date).toISOString() }));
}

/** Every Store answer the routes rely on, for both clinicians and for every id either one has. */
async function answers(store: Store, everyUser: readonly UserRecord[], sessionIds: readonly string[]) {
  const out: Record<string, unknown> = {};
  const calculationIds = Object.values(ids.calculations).flat();
  const exportIds = [...Object.values(ids.exports).flat(), ids.deletedExport];
  for (const owner of [A, B, C]) {
    out[`${owner} second factors`] = await store.findSecondFactors(owner);
    out[`${owner} identities`] = await store.listIdentities(owner);
    out[`${owner} patients`] = await store.listPatients(owner);
    out[`${owner} search أحمد`] = await store.listPatients(owner, 'أحمد');
    out[`${owner} search zoë`] = await store.listPatients(owner, ' ZOË ');
    for (const [offset, limit] of [
      [0, 2],
      [2, 2],
      [4, 2],
      [6, 2],
      [0, 100],
    ] as const) {
      out[`${owner} history ${offset}+${limit}`] = await store.listCalculations(owner, { offset, limit });
    }
    out[`${owner} history of ahmed`] = await store.listCalculations(owner, {
      offset: 0,
      limit: 100,
      patientId: 'p-a-ahmed',
    });
    out[`${owner} history of the deleted patient`] = await store.listCalculations(owner, {
      offset: 0,
      limit: 100,
      patientId: ids.deletedPatient,
    });
    out[`${owner} dose history`] = await store.listCalculations(owner, {
      offset: 1,
      limit: 2,
      toolType: 'dose_calculator',
    });
    for (const id of calculationIds)
      out[`${owner} calculation ${id}`] = (await store.findCalculation(owner, id)) ?? null;
    out[`${owner} exports`] = await store.listExports(owner);
    out[`${owner} exports of ahmed`] = await store.listExports(owner, { patientId: 'p-a-ahmed' });
    for (const id of exportIds) {
      out[`${owner} export ${id}`] = (await store.findExport(owner, id)) ?? null;
      out[`${owner} pdf ${id}`] = (await store.readExportFile(owner, id))?.toString('hex') ?? null;
    }
  }
  for (const user of everyUser) {
    out[`user ${user.email}`] = (await store.findUserByEmail(user.email)) ?? null;
    out[`user id ${user.id}`] = (await store.findUserById(user.id)) ?? null;
  }
  for (const id of sessionIds) out[`session ${id}`] = (await store.findSession(id)) ?? null;
  return out;
}

/** The embedded Store's answers and the PostgreSQL Store's, side by side. */
async function bothAnswers(url: string, everyUser: readonly UserRecord[], sessionIds: readonly string[]) {
  const embedded = await withSourceStore((store) => answers(store, everyUser, sessionIds));
  const { adapter } = await openPostgresStore(url);
  try {
    return { embedded, postgres: await answers(createStore(adapter, { now: CLOCK }), everyUser, sessionIds) };
  } finally {
    await adapter.close();
  }
}

const counts = (rows: Record<(typeof MIGRATED_KINDS)[number], [number, number, number]>): MigrationCounts =>
  Object.fromEntries(
    MIGRATED_KINDS.map((kind) => {
      const [found, copied, alreadyPresent] = rows[kind];
      return [kind, { found, copied, alreadyPresent }];
    }),
  ) as unknown as MigrationCounts;

async function migrate(url: string) {
  const log: string[] = [];
  const result = await migrateData({ from: dataDir, to: url, log: (message) => log.push(message) });
  return { result, log: log.join('\n') };
}

// ---------------------------------------------------------------------------------------------------

describe('migrateData', { timeout: 30_000 }, () => {
  it('copies every record, PDF and audit line; PostgreSQL then answers every Store call as DATA_DIR did', async () => {
    await fill();
    const database = await freshDatabase();
    const { result, log } = await migrate(database.url);
    expect(result).toEqual(
      counts({
        users: [2, 2, 0],
        sessions: [3, 3, 0],
        identities: [1, 1, 0],
        totpFactors: [1, 1, 0],
        recoveryCodes: [2, 2, 0],
        passkeys: [1, 1, 0],
        patients: [3, 3, 0],
        calculations: [7, 7, 0],
        exports: [3, 3, 0],
        auditEvents: [14, 14, 0],
      }),
    );
    expect(log).toContain(`Copying the data directory ${dataDir} to PostgreSQL at 127.0.0.1:`);
    expect(log).toContain('Applied database migration 1 (initial schema)');
    expect(log).toMatch(/^users\s+2\s+2\s+0$/m);
    expect(log).toMatch(/^audit events\s+14\s+14\s+0$/m);
    expect(log).toContain('Checked: every record of the data directory is in PostgreSQL with identical content');

    const { embedded, postgres } = await bothAnswers(database.url, [users.A, users.B], ids.sessions);
    expect(postgres).toEqual(embedded);
    // and the answers are the data written, not two empty stores agreeing
    const history = embedded[`${A} history 0+100`] as { items: CalculationRecord[]; total: number };
    expect(history.items.map((entry) => entry.id)).toEqual(['c-a-5', 'c-a-4', 'c-a-3', 'c-a-2', 'c-a-1']);
    expect(history.total).toBe(5);
    expect(history.items.find((entry) => entry.id === 'c-a-2')?.patientId).toBeNull(); // unlinked
    expect((embedded[`${A} history 2+2`] as { items: CalculationRecord[] }).items.map((entry) => entry.id)).toEqual([
      'c-a-3',
      'c-a-2',
    ]);
    expect((embedded[`${A} patients`] as PatientRecord[]).map((entry) => entry.displayName)).toEqual([
      'Zoë Ålander',
      'أحمد الفارسي',
    ]);
    expect((embedded[`${A} search zoë`] as PatientRecord[]).map((entry) => entry.id)).toEqual(['p-a-zoe']);
    expect((postgres[`${A} patients`] as PatientRecord[]).map((entry) => entry.ehrPatient)).toEqual([
      undefined,
      EHR_LINK,
    ]);
    expect((embedded[`${A} exports`] as ExportRecord[]).map((entry) => [entry.id, entry.patientId])).toEqual([
      ['e-a-2', null],
      ['e-a-1', 'p-a-ahmed'],
    ]);
    expect(embedded[`${A} pdf e-a-1`]).toBe(pdf('e-a-1').toString('hex'));
    expect(embedded[`${B} pdf e-a-1`]).toBeNull();
    expect(embedded[`${A} export ${ids.deletedExport}`]).toBeNull();
    expect(embedded[`user ${users.A.email}`]).toEqual(users.A);
    expect((embedded['session s-a-revoked'] as SessionRecord).revokedAt).toBe('2026-02-02T10:00:00.000Z');
    expect((embedded['session s-a-live'] as SessionRecord).revokedAt).toBeNull();

    const lines = await auditLines();
    expect(lines).toHaveLength(14);
    expect(await auditRows(database.url)).toEqual(lines);
    // the data directory was read, not changed: the deleted export's PDF is still gone, nothing added
    expect(await readdir(path.join(dataDir, 'exports'))).toEqual(['e-a-1.pdf', 'e-a-2.pdf', 'e-b-1.pdf']);
  });

  it('a second run copies nothing and finds everything already there', async () => {
    await fill();
    const database = await freshDatabase();
    await migrate(database.url);
    const before = await tableCounts(database.url);
    expect(before).toEqual({ users: 2, sessions: 3, patients: 3, calculations: 7, exports: 3, auditEvents: 14 });
    const { result, log } = await migrate(database.url);
    expect(result).toEqual(
      counts({
        users: [2, 0, 2],
        sessions: [3, 0, 3],
        identities: [1, 0, 1],
        totpFactors: [1, 0, 1],
        recoveryCodes: [2, 0, 2],
        passkeys: [1, 0, 1],
        patients: [3, 0, 3],
        calculations: [7, 0, 7],
        exports: [3, 0, 3],
        auditEvents: [14, 0, 14],
      }),
    );
    expect(log).not.toContain('Applied database migration');
    expect(await tableCounts(database.url)).toEqual(before);
    expect(await auditRows(database.url)).toEqual(await auditLines());
  });

  it('after more data in DATA_DIR, a run copies only the new records and audit lines, in saved order', async () => {
    await fill();
    const database = await freshDatabase();
    await migrate(database.url);
    await withSourceStore(async (store) => {
      expect(await store.createUser(users.C)).toBe('created');
      await store.createSession(session('s-c-live', C));
      await store.createPatient(patient('p-c-new', C, 'New patient'));
      await store.saveCalculation(calculation('c-a-6', A, 'p-a-zoe', 'dose_calculator'));
      await store.saveCalculation(calculation('c-a-7', A, null, 'dose_calculator'));
      await store.saveExport(exportRecord('e-b-2', B, null, 'c-b-2'), pdf('e-b-2'));
    });
    // the same events again (identical lines) and new ones: the log rotates once more
    await writeAudit(5, A);
    ids.calculations[A]!.push('c-a-6', 'c-a-7');
    ids.exports[B]!.push('e-b-2');
    try {
      const { result } = await migrate(database.url);
      expect(result).toEqual(
        counts({
          users: [3, 1, 2],
          sessions: [4, 1, 3],
          identities: [1, 0, 1],
          totpFactors: [1, 0, 1],
          recoveryCodes: [2, 0, 2],
          passkeys: [1, 0, 1],
          patients: [4, 1, 3],
          calculations: [9, 2, 7],
          exports: [4, 1, 3],
          auditEvents: [19, 5, 14],
        }),
      );
      const { embedded, postgres } = await bothAnswers(database.url, Object.values(users), [
        ...ids.sessions,
        's-c-live',
      ]);
      expect(postgres).toEqual(embedded);
      const history = postgres[`${A} history 0+2`] as { items: CalculationRecord[]; total: number };
      expect(history.items.map((entry) => entry.id)).toEqual(['c-a-7', 'c-a-6']);
      expect(history.total).toBe(7);
      expect((postgres[`${B} exports`] as ExportRecord[]).map((entry) => entry.id)).toEqual(['e-b-2', 'e-b-1']);
      expect(await auditRows(database.url)).toEqual(await auditLines());
    } finally {
      ids.calculations[A]!.splice(5);
      ids.exports[B]!.splice(1);
    }
  });

  it('a record PostgreSQL holds with other data stops the run before anything is copied, naming it', async () => {
    await fill();
    const database = await freshDatabase();
    const { adapter } = await openPostgresStore(database.url);
    const conflicting = patient('p-a-zoe', A, 'Somebody else', {
      ageGroup: 'pediatric',
      weightKg: 23.4,
      ehrPatient: EHR_LINK,
    });
    try {
      await adapter.createPatient(conflicting);
      await adapter.createUser({ ...users.B, id: 'u-other', email: 'BILAL@hospital.example' });
    } finally {
      await adapter.close();
    }
    const error = await migrate(database.url).then(
      () => new Error('migrated, but should have refused'),
      (caught: unknown) => caught as Error,
    );
    expect(error).toBeInstanceOf(MigrationError);
    expect(error.message).toContain('2 records of the data directory conflict with what PostgreSQL already holds');
    expect(error.message).toContain('Nothing has been copied and nothing overwritten');
    expect(error.message).toContain(
      `patient p-a-zoe of clinician ${A}: displayName, ehrFhirBase, ehrPatientId, ehrIdentifierSystem, ` +
        'ehrIdentifierValue, ehrWeightKg, ehrWeightRecordedAt, ehrWeightReadAt, searchText differ',
    );
    expect(error.message).toContain(`user ${B}: PostgreSQL has another user (u-other) with the same e-mail`);
    expect(error.message).not.toContain('Somebody else'); // names records, never their values
    expect(await tableCounts(database.url)).toEqual({
      users: 1,
      sessions: 0,
      patients: 1,
      calculations: 0,
      exports: 0,
      auditEvents: 0,
    });
    const { adapter: after } = await openPostgresStore(database.url);
    try {
      expect(await after.findPatient(A, 'p-a-zoe')).toEqual(conflicting);
    } finally {
      await after.close();
    }
  });

  it('refuses while another process holds the DATA_DIR lock, before changing anything', async () => {
    await writeLegacyDatabase();
    const database = await freshDatabase();
    // a shell that takes the lock on its own descriptor and keeps it (as a server's lock) until killed
    const holder = spawn(
      'sh',
      ['-c', 'exec 3>>"$0"; flock --exclusive 3; echo locked; exec sleep 60', path.join(dataDir, 'server.lock')],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    cleanups.push(async () => {
      holder.kill('SIGKILL');
      await exited;
    });
    await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
    const error = await migrate(database.url).then(
      () => new Error('migrated, but should have refused'),
      (caught: unknown) => caught as Error,
    );
    expect(error).toBeInstanceOf(StorageError);
    expect(error.message).toBe(
      `Another server is already using the data directory ${dataDir}. ` +
        'Stop it first, or give this one its own DATA_DIR.',
    );
    expect(await exists(path.join(dataDir, 'db.json'))).toBe(true); // not converted
    expect(await exists(path.join(dataDir, 'store.json'))).toBe(false);
    expect(await query(database.url, "SELECT to_regclass('schema_migrations') AS t")).toEqual([{ t: null }]);

    holder.kill('SIGKILL');
    await exited;
    const { result } = await migrate(database.url);
    expect(result.users).toEqual({ found: 1, copied: 1, alreadyPresent: 0 });
  });

  it('a db.json of layout 1 is converted as the server converts it at start, said so, and copied', async () => {
    await writeLegacyDatabase();
    const database = await freshDatabase();
    const { result, log } = await migrate(database.url);
    expect(log).toContain('only read');
    expect(log).toContain(`Migrated ${path.join(dataDir, 'db.json')} to layout 2: 1 users, 1 patients`);
    expect(result).toEqual(
      counts({
        users: [1, 1, 0],
        sessions: [1, 1, 0],
        identities: [0, 0, 0],
        totpFactors: [0, 0, 0],
        recoveryCodes: [0, 0, 0],
        passkeys: [0, 0, 0],
        patients: [1, 1, 0],
        calculations: [2, 2, 0],
        exports: [1, 1, 0],
        auditEvents: [0, 0, 0],
      }),
    );
    const { adapter } = await openPostgresStore(database.url);
    try {
      const store = createStore(adapter, { now: CLOCK });
      expect((await store.listCalculations(A, { offset: 0, limit: 10 })).items.map((entry) => entry.id)).toEqual([
        'legacy-c-2',
        'legacy-c-1',
      ]);
      expect((await store.readExportFile(A, 'legacy-e-1'))?.equals(pdf('legacy'))).toBe(true);
      expect((await store.findUserByEmail(users.A.email))?.passwordHash).toBe(HASH);
    } finally {
      await adapter.close();
    }
  });

  it('a --from that is not a data directory, a bad URL, an unreachable database: one line each', async () => {
    const database = await freshDatabase();
    await expect(migrateData({ from: dataDir, to: database.url })).rejects.toThrow(
      new MigrationError(`--from ${dataDir} is not a data directory (it holds neither store.json nor db.json).`),
    );
    await expect(migrateData({ from: path.join(dataDir, 'nope'), to: database.url })).rejects.toThrow(
      `--from ${path.join(dataDir, 'nope')}: there is no such directory.`,
    );
    expect(await readdir(dataDir)).toEqual([]); // not even a lock file

    await writeLegacyDatabase();
    await expect(migrateData({ from: dataDir, to: 'mysql://root:pw-secret@localhost/db' })).rejects.toThrow(
      new StorageError('The PostgreSQL URL must start with postgres:// (it starts with mysql://).'),
    );
    const port = await closedPort();
    const error = await migrateData({ from: dataDir, to: `postgres://clinic:s3cret-pw@127.0.0.1:${port}/clinic` }).then(
      () => new Error('migrated, but should have refused'),
      (caught: unknown) => caught as Error,
    );
    expect(error.message).toBe(
      `Cannot connect to PostgreSQL at 127.0.0.1:${port}/clinic as clinic: ` +
        'connection refused (is the server running, and on this port?)',
    );
    expect(await exists(path.join(dataDir, 'store.json'))).toBe(false); // db.json not converted for nothing
  });
});

describe('the migrate-data command (built as the server is)', () => {
  it('prints the counts and exits 0, copies nothing the second time, and fails with one line', async () => {
    const command = path.join(path.dirname(await builtServer()), 'migrate-data.js');
    await fill();
    const database = await freshDatabase();
    const passworded = database.url.replace('postgres@', 'postgres:pa55-Secret@'); // trust auth ignores it

    const first = await run(command, ['--from', dataDir, '--to', passworded]);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(
      [
        '                           found in DATA_DIR  newly copied  already in PostgreSQL',
        'users                                      2             2                      0',
        'sessions                                   3             3                      0',
        'single sign-on identities                  1             1                      0',
        'authenticator apps                         1             1                      0',
        'recovery codes                             2             2                      0',
        'passkeys                                   1             1                      0',
        'patients                                   3             3                      0',
        'calculations                               7             7                      0',
        'exports                                    3             3                      0',
        'audit events                              14            14                      0',
      ].join('\n'),
    );
    expect(first.stdout).toContain('Checked: every record');
    expect(first.stdout).not.toContain('pa55-Secret');

    const second = await run(command, [`--from=${dataDir}`, `--to=${passworded}`]);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/^calculations\s+7\s+0\s+7$/m);
    expect(second.stdout).toMatch(/^audit events\s+14\s+0\s+14$/m);

    const usage = 'Usage: npm run migrate-data -- --from <DATA_DIR> --to <postgres://user:password@host:port/database>';
    expect(await run(command, [])).toEqual({
      code: 2,
      stdout: '',
      stderr: `migrate-data: --from and --to missing.\n${usage}\n`,
    });
    expect(await run(command, ['--from', dataDir])).toEqual({
      code: 2,
      stdout: '',
      stderr: `migrate-data: --to missing.\n${usage}\n`,
    });

    const port = await closedPort();
    const unreachable = await run(command, [
      '--from',
      dataDir,
      '--to',
      `postgres://u:pa55-Secret@127.0.0.1:${port}/db`,
    ]);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toBe(
      `migrate-data: Cannot connect to PostgreSQL at 127.0.0.1:${port}/db as u: ` +
        'connection refused (is the server running, and on this port?)\n',
    );
    const notData = await run(command, ['--from', path.join(dataDir, 'exports'), '--to', passworded]);
    expect(notData.code).toBe(1);
    expect(notData.stderr).toMatch(/^migrate-data: --from \S+ is not a data directory .*\n$/);

    await query(database.url, "UPDATE calculations SET result = '{}' WHERE id = 'c-b-2'");
    const conflict = await run(command, ['--from', dataDir, '--to', passworded]);
    expect(conflict.code).toBe(1);
    expect(conflict.stderr).toContain(`calculation c-b-2 of clinician ${B}: result differ`);
    expect(`${conflict.stdout}${conflict.stderr}`).not.toContain('pa55-Secret');
  }, 120_000);
});

// ---------------------------------------------------------------------------------------------------

/** A DATA_DIR of an earlier release: one db.json, and a PDF in exports/. */
async function writeLegacyDatabase() {
  const first = calculation('legacy-c-1', A, 'legacy-p-1', 'dose_calculator');
  const second = calculation('legacy-c-2', A, null, 'roi_calculator');
  await writeFile(
    path.join(dataDir, 'db.json'),
    JSON.stringify({
      version: 1,
      users: [users.A],
      sessions: [session('legacy-s-1', A)],
      patients: [patient('legacy-p-1', A, 'Legacy patient')],
      calculations: [first, second],
      exports: [exportRecord('legacy-e-1', A, 'legacy-p-1', 'legacy-c-1')],
    }),
  );
  await mkdir(path.join(dataDir, 'exports'));
  await writeFile(path.join(dataDir, 'exports', 'legacy-e-1.pdf'), pdf('legacy'));
}

describe('migrate-data and the data key (issue 44 item 6)', () => {
  // The secrets are copied encrypted: they must open on the database's servers (DATA_KEY, or its generated key).
  const SEED = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
  const AT = '2026-01-03T00:00:00.000Z';
  /** DATA_DIR with account A and its authenticator app, sealed as a server with these DATA_KEY keys seals. */
  async function sealedSource(dataKeys: Buffer[]) {
    const opened = await openLowdbStore(dataDir);
    const { keyring } = await loadFileKeyring(dataDir, dataKeys);
    const store = sealedAdapter(opened, keyring);
    await store.createUser(users.A);
    await store.changeSecondFactors({
      userId: A,
      at: AT,
      totp: { userId: A, secret: SEED, lastUsedStep: 0, createdAt: AT },
    });
    await opened.close();
    return keyring.current.id;
  }
  /** The authenticator app's secret as a server on the database (with these DATA_KEY keys) reads it. */
  async function seedOnDatabase(url: string, dataKeys: Buffer[] = []) {
    const storage = await openStorage({
      dataDir: path.join(dataDir, 'unused'),
      databaseUrl: url,
      jwtSecret: undefined,
      auditLogMaxBytes: 4096,
      dataKeys,
    });
    try {
      return (await storage.store.findSecondFactors(A)).totp?.secret;
    } finally {
      await storage.close();
    }
  }
  const storedKey = async (url: string) =>
    (await query<{ value: string }>(url, "SELECT value FROM app_settings WHERE key = 'data_key'"))[0]?.value;

  it("copies DATA_DIR's generated key into a database without one: the secrets open there", async () => {
    const keyId = await sealedSource([]);
    const database = await freshDatabase();
    const log: string[] = [];
    await migrateData({ from: dataDir, to: database.url, log: (message) => log.push(message) });
    expect(log).toContain(`Copied the data directory's generated data key (key ${keyId}) into the database.`);
    expect(await storedKey(database.url)).toBe((await readFile(path.join(dataDir, 'data-key'), 'utf8')).trim());
    expect(JSON.stringify(await query(database.url, 'SELECT * FROM totp_factors'))).not.toContain(SEED);
    expect(await seedOnDatabase(database.url)).toBe(SEED);
  });

  it('refuses, copying nothing, secrets sealed with a DATA_KEY it is not given; copies them with it', async () => {
    const dataKey = randomBytes(32);
    await sealedSource([dataKey]);
    const database = await freshDatabase();
    await expect(migrateData({ from: dataDir, to: database.url })).rejects.toThrow(
      new MigrationError(
        "1 secret of the data directory (authenticator apps, sessions' ID tokens) is encrypted with data key " +
          `${dataKeyId(dataKey)}, which the servers of the database would not have. Run this with the DATA_KEY the ` +
          'server of the data directory had, and give the servers the same. Nothing has been copied.',
      ),
    );
    expect((await tableCounts(database.url)).users).toBe(0);
    expect(await storedKey(database.url)).toBeUndefined();
    await migrateData({ from: dataDir, to: database.url, dataKeys: [dataKey] });
    expect(await seedOnDatabase(database.url, [dataKey])).toBe(SEED);
  });

  it("a database that generated its own key: refused, naming DATA_DIR's as the DATA_KEY to give", async () => {
    const database = await freshDatabase();
    await seedOnDatabase(database.url); // a server started on it once, without DATA_KEY
    const keyId = await sealedSource([]);
    await expect(migrateData({ from: dataDir, to: database.url })).rejects.toThrow(
      new MigrationError(
        "1 secret of the data directory (authenticator apps, sessions' ID tokens) is encrypted with data key " +
          `${keyId}, which the servers of the database would not have. data-key in the data directory is that ` +
          'key, and the database already holds another generated one: give its contents as DATA_KEY, to this ' +
          "command and to the servers (the database's key is still read). Nothing has been copied.",
      ),
    );
    expect((await tableCounts(database.url)).users).toBe(0);
    const fileKey = Buffer.from((await readFile(path.join(dataDir, 'data-key'), 'utf8')).trim(), 'base64');
    await migrateData({ from: dataDir, to: database.url, dataKeys: [fileKey] });
    expect(await seedOnDatabase(database.url, [fileKey])).toBe(SEED);
  });
});

/** A port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function run(file: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file, ...args], {
      env: { PATH: process.env.PATH ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}
