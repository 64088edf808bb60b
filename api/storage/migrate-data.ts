import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Pool } from 'pg';
import { KEY_ACTION, PRUNE_ACTION, type AuditKeyring } from '../audit/chain.ts';
import { chainAfter } from '../audit/head.ts';
import { postgresAuditKeyring } from '../audit/keys.ts';
import { chainHead, insertLines, withChainLock } from './postgres/audit-log.ts';
import { AUDIT_FILE_NAME } from './audit-log.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { DATA_KEY_FILE_NAME, DATA_KEY_SETTING, readDataDirKey, readPostgresKey } from './data-key.ts';
import { dataKeyId, isSealed, sealedKeyId } from './sealed-values.ts';
import { loadAccounts, loadClinicians } from './embedded/load.ts';
import { assertSafeId, EXPORTS_DIR_NAME, LAYOUT_FILE_NAME, LEGACY_DATA_FILE_NAME } from './embedded/layout-names.ts';
import { openLowdbStore } from './lowdb-store.ts';
import { patientSearchText } from './policy.ts';
import { describeTarget, openPostgresStore, PATIENT_INSERT_COLUMNS, patientValues } from './postgres/index.ts';
import type {
  CalculationRecord,
  ExportRecord,
  OidcIdentityRecord,
  PasskeyRecord,
  PatientRecord,
  RecoveryCodeRecord,
  SessionRecord,
  TotpRecord,
  UserRecord,
} from './records.ts';
import type { StoreAdapter } from './store.ts';

/**
 * `npm run migrate-data -- --from ./data --to postgres://…` (api/migrate-data.ts is the command):
 * copies everything an embedded DATA_DIR holds into PostgreSQL, and checks that it is all there.
 *
 * 1. Reads DATA_DIR under its lock (a running server refuses it): opening it as the server does may
 *    convert an old db.json to layout 2 and drop what a crash left unfinished; nothing else in it is
 *    written. The target gets its schema from the normal migrations (openPostgresStore).
 * 2. Compares every source record with the target's record of the same id. A record there with other
 *    data (or a user with the same e-mail and another id) stops the run before anything is copied:
 *    nothing is overwritten, and the run changes nothing.
 * 3. Copies what is missing, kind by kind, in multi-row INSERT … ON CONFLICT (id) DO NOTHING
 *    statements (each statement is its own transaction: a record is copied whole or not at all).
 *    Calculations and exports go in the order each clinician saved them, so the identity column `seq`
 *    lists them newest first as DATA_DIR did.
 * 4. Checks again: every source record present with identical content (PDF bytes by sha256),
 *    calculations and exports in the same order, every audit line present. Any gap is a
 *    MigrationError after the counts are printed.
 * Running it again copies only what is new in DATA_DIR.
 */

export const MIGRATED_KINDS = [
  'users',
  'sessions',
  'identities',
  'totpFactors',
  'recoveryCodes',
  'passkeys',
  'patients',
  'calculations',
  'exports',
  'auditEvents',
] as const;
export type MigratedKind = (typeof MIGRATED_KINDS)[number];

export interface KindCounts {
  /** Records (audit lines) in DATA_DIR. */
  found: number;
  /** Copied by this run. */
  copied: number;
  /** Already in PostgreSQL, identical (found − copied). */
  alreadyPresent: number;
}
export type MigrationCounts = Record<MigratedKind, KindCounts>;

export interface MigrateDataOptions {
  /** The embedded store's data directory (DATA_DIR). */
  from: string;
  /** postgres://user:password@host:port/database */
  to: string;
  /** Hears each step, the counts and the check (never the password). */
  log?: (message: string) => void;
  /** DATA_KEY's keys as the servers have them (config.ts dataKeysOf): the secrets copied must open with them. */
  dataKeys?: readonly Buffer[];
  /** AUDIT_KEY's keys as the servers have them (config.ts auditKeysOf): the copied lines are chained with them. */
  auditKeys?: readonly Buffer[];
}

/** A run that must stop (a conflict, a failed check, a bad --from), with a message for the operator. */
export class MigrationError extends Error {
  override name = 'MigrationError';
}

const KIND_LABELS: Record<MigratedKind, string> = {
  users: 'users',
  sessions: 'sessions',
  identities: 'single sign-on identities',
  totpFactors: 'authenticator apps',
  recoveryCodes: 'recovery codes',
  passkeys: 'passkeys',
  patients: 'patients',
  calculations: 'calculations',
  exports: 'exports',
  auditEvents: 'audit events',
};

/** Listed one a line in an error; the rest are counted. */
const MAX_LISTED_PROBLEMS = 20;
/** Ids per lookup query. */
const LOOKUP_CHUNK = 1_000;
/** Rows per INSERT statement (a statement takes at most 65,535 parameters). */
const INSERT_ROWS = 200;
/** Export rows per INSERT statement, and the PDF bytes one may carry. */
const EXPORT_INSERT_ROWS = 50;
const EXPORT_INSERT_BYTES = 16 * 1024 * 1024;

export async function migrateData(options: MigrateDataOptions): Promise<MigrationCounts> {
  const log = options.log ?? (() => {});
  const from = path.resolve(options.from);
  await checkDataDir(from);
  const target = `PostgreSQL at ${describeTarget(options.to)}`; // a bad URL stops here, before the lock
  log(`Copying the data directory ${from} to ${target}.`);

  const releaseLock = lockDataDir(from); // refuses while a server uses it
  let embedded: StoreAdapter | undefined;
  let pool: Pool | undefined;
  let postgres: StoreAdapter | undefined;
  try {
    ({ adapter: postgres, pool } = await openPostgresStore(options.to, { log }));
    log(
      'The data directory is locked (server.lock) and otherwise only read. Opening it as the server does ' +
        `may convert an old ${LEGACY_DATA_FILE_NAME} to layout 2 (keeping it as a backup) and remove what a ` +
        'crash left unfinished; it is said below when it does.',
    );
    // Opened for what a start does to the files (the conversion, the clean-up after a crash), then let go: the
    // records are read again from the files below, and keeping the store's copy of them in memory beside that
    // one ran out of memory at 2,000,000 history entries (BENCHMARKS.md, "Storage at scale").
    embedded = await openLowdbStore(from, { log });
    await embedded.close();
    embedded = undefined;
    const source = await readSource(from, log);
    log(`Found in ${from}: ${MIGRATED_KINDS.map((kind) => `${source.count(kind)} ${KIND_LABELS[kind]}`).join(', ')}.`);
    const copyKey = await checkDataKeys(pool, from, source, options.dataKeys ?? []);
    const keyring = await postgresAuditKeyring(pool, options.auditKeys ?? [], { create: true });
    return await copyAndCheck(pool, source, log, copyKey, keyring);
  } finally {
    await postgres?.close().catch(() => {});
    await embedded?.close().catch(() => {});
    releaseLock();
  }
}

/** The counts as a table, one line each: what the command prints. */
export function formatCounts(counts: MigrationCounts): string[] {
  const header = ['', 'found in DATA_DIR', 'newly copied', 'already in PostgreSQL'];
  const rows = MIGRATED_KINDS.map((kind) => [
    KIND_LABELS[kind],
    String(counts[kind].found),
    String(counts[kind].copied),
    String(counts[kind].alreadyPresent),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  return [header, ...rows].map((row) =>
    row.map((cell, column) => (column === 0 ? cell.padEnd(widths[0]!) : cell.padStart(widths[column]!))).join('  '),
  );
}

/**
 * The secrets are copied as they are stored, encrypted (sealed-values.ts): each must open with a key the servers of
 * the database will have, DATA_KEY's or the database's generated one. DATA_DIR's generated key (data-key) goes into
 * the database when it has none yet (answered here, written with the records); a secret no key will open stops the
 * run before anything is copied.
 */
async function checkDataKeys(
  pool: Pool,
  from: string,
  source: Source,
  dataKeys: readonly Buffer[],
): Promise<Buffer | undefined> {
  const fileKey = await readDataDirKey(from);
  const databaseKey = await readPostgresKey(pool);
  const copyKey = fileKey && !databaseKey ? fileKey : undefined;
  const readable = new Set([...dataKeys, ...[databaseKey, copyKey].filter((key) => key !== undefined)].map(dataKeyId));
  const unreadable = new Map<string, number>();
  const sealedValues = [
    ...source.totpFactors.map((factor) => factor.secret),
    ...source.sessions.map((session) => session.oidc?.idToken),
  ];
  for (const value of sealedValues) {
    const keyId = isSealed(value) ? (sealedKeyId(value) ?? value.slice(0, 12)) : undefined;
    if (keyId !== undefined && !readable.has(keyId)) unreadable.set(keyId, (unreadable.get(keyId) ?? 0) + 1);
  }
  if (unreadable.size === 0) return copyKey;
  const [keyId, count] = [...unreadable][0]!;
  const differs =
    fileKey && databaseKey && dataKeyId(fileKey) === keyId
      ? ` ${DATA_KEY_FILE_NAME} in the data directory is that key, and the database already holds another ` +
        "generated one: give its contents as DATA_KEY, to this command and to the servers (the database's key " +
        'is still read).'
      : ' Run this with the DATA_KEY the server of the data directory had, and give the servers the same.';
  throw new MigrationError(
    `${count} secret${count === 1 ? '' : 's'} of the data directory (authenticator apps, sessions' ID tokens) ` +
      `${count === 1 ? 'is' : 'are'} encrypted with data key ${keyId}, which the servers of the database would ` +
      `not have.${differs} Nothing has been copied.`,
  );
}

/** --from must be a data directory: an empty or unrelated folder would be made a new, empty store. */
async function checkDataDir(dir: string): Promise<void> {
  const found = await stat(dir).catch(() => undefined);
  if (!found) throw new MigrationError(`--from ${dir}: there is no such directory.`);
  if (!found.isDirectory()) throw new MigrationError(`--from ${dir} is not a directory.`);
  const names = await readdir(dir);
  if (!names.includes(LAYOUT_FILE_NAME) && !names.includes(LEGACY_DATA_FILE_NAME)) {
    throw new MigrationError(
      `--from ${dir} is not a data directory (it holds neither ${LAYOUT_FILE_NAME} nor ${LEGACY_DATA_FILE_NAME}).`,
    );
  }
}

// ---------------------------------------------------------------------------------------------------
// The source

interface AuditLine {
  time: string;
  actor: string;
  action: string;
  recordType: string | null;
  recordId: string | null;
  outcome: string | null;
  /** What a line carries beside its event since the hash chain (audit/chain.ts): copied as it is. */
  requestId: string | null;
  address: string | null;
  detail: Record<string, string | number> | null;
}

/** Records without an id of their own get one made of their key (what the table is unique on). */
type Keyed<R> = R & { id: string };

interface Source {
  users: UserRecord[];
  sessions: SessionRecord[];
  identities: Keyed<OidcIdentityRecord>[];
  totpFactors: Keyed<TotpRecord>[];
  recoveryCodes: Keyed<RecoveryCodeRecord>[];
  passkeys: PasskeyRecord[];
  patients: PatientRecord[];
  /** Each clinician's in the order saved (oldest first). */
  calculations: CalculationRecord[];
  /** Each clinician's in the order saved (oldest first), deleted ones left out. */
  exports: ExportRecord[];
  /** sha256 (hex) of each export's PDF. */
  exportHashes: Map<string, string>;
  readExport(record: ExportRecord): Promise<Buffer>;
  /** audit.log.N … audit.log.1, audit.log: oldest first. */
  audit: AuditLine[];
  count(kind: MigratedKind): number;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * Everything the opened store holds, read from its files as it read them at start (deleted patients'
 * records unlinked, deleted exports gone), with each PDF read once to hash it.
 */
async function readSource(dataDir: string, log: (message: string) => void): Promise<Source> {
  const accounts = await loadAccounts(dataDir);
  const clinicians = await loadClinicians(dataDir);
  const exports = clinicians.flatMap((clinician) => [...clinician.exports.values()]);
  const readExport = async (record: ExportRecord) => {
    assertSafeId(record.id, 'An export id');
    const file = path.join(dataDir, EXPORTS_DIR_NAME, `${record.id}.pdf`);
    try {
      return await readFile(file);
    } catch (error) {
      throw new MigrationError(
        `Export ${record.id} of clinician ${record.ownerId}: its PDF ${file} cannot be read ` +
          `(${(error as NodeJS.ErrnoException).code ?? (error as Error).message}). Nothing has been copied.`,
      );
    }
  };
  const exportHashes = new Map<string, string>();
  for (const record of exports) exportHashes.set(record.id, sha256(await readExport(record)));
  const source: Omit<Source, 'count'> = {
    users: accounts.users,
    sessions: accounts.sessions,
    identities: accounts.identities.map((identity) => ({ ...identity, id: `${identity.issuer}\n${identity.subject}` })),
    totpFactors: accounts.totp.map((factor) => ({ ...factor, id: factor.userId })),
    recoveryCodes: accounts.recoveryCodes.map((code) => ({ ...code, id: `${code.userId}\n${code.codeHash}` })),
    passkeys: accounts.passkeys,
    patients: clinicians.flatMap((clinician) => clinician.patients.patients),
    calculations: clinicians.flatMap((clinician) => clinician.calculations),
    exports,
    exportHashes,
    readExport,
    audit: await readAuditLog(dataDir, log),
  };
  return { ...source, count: (kind) => (kind === 'auditEvents' ? source.audit.length : source[kind].length) };
}

/**
 * Every line of audit.log and its rotated files, oldest file first. A last line without its newline
 * (an append a crash cut short) is left out and said; any other line that is not an audit event
 * stops the run, naming the file and line.
 */
async function readAuditLog(dataDir: string, log: (message: string) => void): Promise<AuditLine[]> {
  const rotated = new RegExp(`^${AUDIT_FILE_NAME.replace('.', '\\.')}\\.(\\d+)$`);
  const names = await readdir(dataDir);
  const files = [
    ...names
      .flatMap((name) => {
        const match = rotated.exec(name);
        return match ? [{ name, number: Number(match[1]) }] : [];
      })
      .sort((a, b) => b.number - a.number)
      .map(({ name }) => name),
    ...(names.includes(AUDIT_FILE_NAME) ? [AUDIT_FILE_NAME] : []),
  ];
  const events: AuditLine[] = [];
  let structure = 0;
  for (const name of files) {
    const file = path.join(dataDir, name);
    const lines = (await readFile(file, 'utf8')).split('\n');
    const unfinished = lines.pop()!; // after the last newline: '' when the file ends with one
    if (unfinished) log(`Left out an unfinished last line of ${file} (${unfinished.length} characters).`);
    lines.forEach((text, index) => {
      if (text.trim() === '') return;
      const line = auditLine(text, `${file} line ${index + 1}`);
      // The chain's own lines (its key lines, a summary of pruned lines) belong to DATA_DIR's chain: the
      // database's chain has its own. Every event is copied.
      if (line.action === KEY_ACTION || line.action === PRUNE_ACTION) structure += 1;
      else events.push(line);
    });
  }
  if (structure > 0) {
    log(`Left out ${structure} line(s) of DATA_DIR's chain itself (its key lines, a summary of pruned lines).`);
  }
  return events;
}

function auditLine(text: string, where: string): AuditLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const event = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const optional = (name: string) => {
    const field = event[name] ?? null;
    return typeof field === 'string' || field === null;
  };
  const valid =
    typeof event.time === 'string' &&
    Number.isFinite(Date.parse(event.time)) &&
    typeof event.actor === 'string' &&
    typeof event.action === 'string' &&
    optional('recordType') &&
    optional('recordId') &&
    optional('outcome');
  if (!valid) {
    throw new MigrationError(
      `${where} is not an audit event (JSON with time, actor and action). Nothing has been copied. ` +
        'Correct or remove that line, then run this again.',
    );
  }
  return {
    time: canonicalTime(event.time),
    actor: event.actor as string,
    action: event.action as string,
    recordType: (event.recordType ?? null) as string | null,
    recordId: (event.recordId ?? null) as string | null,
    outcome: (event.outcome ?? null) as string | null,
    requestId: typeof event.requestId === 'string' ? event.requestId : null,
    address: typeof event.address === 'string' ? event.address : null,
    detail:
      typeof event.detail === 'object' && event.detail !== null && !Array.isArray(event.detail)
        ? (event.detail as Record<string, string | number>)
        : null,
  };
}

// ---------------------------------------------------------------------------------------------------
// Comparing and copying records with ids

/** A record's content as compared: plain values, timestamps as JavaScript ISO text. */
type Flat = Record<string, string | number | null>;

/** Timestamps compare as the instant they name, written as the adapter hands them back. */
function canonicalTime(value: unknown): string {
  const time = typeof value === 'string' ? Date.parse(value) : NaN;
  return Number.isFinite(time) ? new Date(time).toISOString() : `not a time: ${JSON.stringify(value)}`;
}
const orNull = (value: unknown) => (value ?? null) as string | number | null;
/** A json column's text, as the adapter writes it. */
const jsonText = (value: unknown) => JSON.stringify(value ?? null);

interface RecordSpec<R extends { id: string }> {
  kind: Exclude<MigratedKind, 'auditEvents'>;
  noun: string;
  table: string;
  /** The SQL that gives a row's id (default `id`), and what the table is unique on (default `(id)`). */
  key?: string;
  conflict?: string;
  /** The columns written, and a cast for each placeholder that needs one. */
  columns: readonly string[];
  casts?: Readonly<Record<string, string>>;
  row(record: R, bytes?: Buffer): unknown[];
  /** The target's columns named as flat()'s keys. */
  select: string;
  flat(record: R): Flat;
  owner?(record: R): string;
}

function recordSpecs(source: Source) {
  const users: RecordSpec<UserRecord> = {
    kind: 'users',
    noun: 'user',
    table: 'users',
    columns: ['id', 'email', 'name', 'license', 'password_hash', 'created_at'],
    row: (user) => [user.id, user.email, user.name, user.license, user.passwordHash, user.createdAt],
    select: 'email, name, license, password_hash AS "passwordHash", created_at AS "createdAt"',
    flat: (user) => ({
      email: orNull(user.email),
      name: orNull(user.name),
      license: orNull(user.license),
      passwordHash: orNull(user.passwordHash),
      createdAt: canonicalTime(user.createdAt),
    }),
  };
  const sessions: RecordSpec<SessionRecord> = {
    kind: 'sessions',
    noun: 'session',
    table: 'sessions',
    columns: [
      'id',
      'user_id',
      'created_at',
      'expires_at',
      'revoked_at',
      'last_used_at',
      'device',
      'method',
      'oidc_issuer',
      'oidc_id_token',
    ],
    row: (session) => [
      session.id,
      session.userId,
      session.createdAt,
      session.expiresAt,
      session.revokedAt,
      session.lastUsedAt,
      session.device,
      session.method,
      session.oidc?.issuer ?? null,
      session.oidc?.idToken ?? null,
    ],
    select:
      'user_id AS "userId", created_at AS "createdAt", expires_at AS "expiresAt", revoked_at AS "revokedAt", ' +
      'coalesce(last_used_at, created_at) AS "lastUsedAt", device, method, oidc_issuer AS "oidcIssuer", ' +
      'oidc_id_token AS "oidcIdToken"',
    flat: (session) => ({
      userId: orNull(session.userId),
      createdAt: canonicalTime(session.createdAt),
      expiresAt: canonicalTime(session.expiresAt),
      revokedAt: session.revokedAt == null ? null : canonicalTime(session.revokedAt),
      lastUsedAt: canonicalTime(session.lastUsedAt),
      device: orNull(session.device),
      method: orNull(session.method),
      oidcIssuer: orNull(session.oidc?.issuer),
      oidcIdToken: orNull(session.oidc?.idToken),
    }),
  };
  const identities: RecordSpec<Keyed<OidcIdentityRecord>> = {
    kind: 'identities',
    noun: 'single sign-on identity',
    table: 'oidc_identities',
    key: 'issuer || chr(10) || subject',
    conflict: '(issuer, subject)',
    columns: ['issuer', 'subject', 'user_id', 'created_at'],
    row: (identity) => [identity.issuer, identity.subject, identity.userId, identity.createdAt],
    select: 'user_id AS "userId", created_at AS "createdAt"',
    flat: (identity) => ({ userId: orNull(identity.userId), createdAt: canonicalTime(identity.createdAt) }),
  };
  const totpFactors: RecordSpec<Keyed<TotpRecord>> = {
    kind: 'totpFactors',
    noun: 'authenticator app of user',
    table: 'totp_factors',
    key: 'user_id',
    conflict: '(user_id)',
    columns: ['user_id', 'secret', 'last_used_step', 'created_at'],
    row: (factor) => [factor.userId, factor.secret, factor.lastUsedStep, factor.createdAt],
    select: 'secret, last_used_step::float8 AS "lastUsedStep", created_at AS "createdAt"',
    flat: (factor) => ({
      secret: orNull(factor.secret),
      lastUsedStep: orNull(factor.lastUsedStep),
      createdAt: canonicalTime(factor.createdAt),
    }),
  };
  const recoveryCodes: RecordSpec<Keyed<RecoveryCodeRecord>> = {
    kind: 'recoveryCodes',
    noun: 'recovery code',
    table: 'recovery_codes',
    key: 'user_id || chr(10) || code_hash',
    conflict: '(user_id, code_hash)',
    columns: ['user_id', 'code_hash', 'used_at', 'created_at'],
    row: (code) => [code.userId, code.codeHash, code.usedAt, code.createdAt],
    select: 'used_at AS "usedAt", created_at AS "createdAt"',
    flat: (code) => ({
      usedAt: code.usedAt == null ? null : canonicalTime(code.usedAt),
      createdAt: canonicalTime(code.createdAt),
    }),
  };
  const passkeys: RecordSpec<PasskeyRecord> = {
    kind: 'passkeys',
    noun: 'passkey',
    table: 'passkeys',
    columns: ['id', 'user_id', 'public_key', 'counter', 'transports', 'name', 'created_at', 'last_used_at'],
    casts: { transports: '::json' },
    row: (passkey) => [
      passkey.id,
      passkey.userId,
      passkey.publicKey,
      passkey.counter,
      jsonText(passkey.transports),
      passkey.name,
      passkey.createdAt,
      passkey.lastUsedAt,
    ],
    select:
      'user_id AS "userId", public_key AS "publicKey", counter::float8 AS counter, transports::text AS transports, ' +
      'name, created_at AS "createdAt", last_used_at AS "lastUsedAt"',
    flat: (passkey) => ({
      userId: orNull(passkey.userId),
      publicKey: orNull(passkey.publicKey),
      counter: orNull(passkey.counter),
      transports: jsonText(passkey.transports),
      name: orNull(passkey.name),
      createdAt: canonicalTime(passkey.createdAt),
      lastUsedAt: passkey.lastUsedAt == null ? null : canonicalTime(passkey.lastUsedAt),
    }),
  };
  const patients: RecordSpec<PatientRecord> = {
    kind: 'patients',
    noun: 'patient',
    table: 'patients',
    columns: PATIENT_INSERT_COLUMNS,
    row: patientValues,
    select:
      'owner_id AS "ownerId", display_name AS "displayName", mrn, year_of_birth AS "yearOfBirth", ' +
      'age_group AS "ageGroup", weight_kg AS "weightKg", notes, created_at AS "createdAt", ' +
      'updated_at AS "updatedAt", ehr_fhir_base AS "ehrFhirBase", ehr_patient_id AS "ehrPatientId", ' +
      `ehr_link_details->'identifier'->>'system' AS "ehrIdentifierSystem", ` +
      `ehr_link_details->'identifier'->>'value' AS "ehrIdentifierValue", ` +
      `(ehr_link_details->'weight'->>'kg')::float8 AS "ehrWeightKg", ` +
      `ehr_link_details->'weight'->>'recordedAt' AS "ehrWeightRecordedAt", ` +
      `ehr_link_details->'weight'->>'readAt' AS "ehrWeightReadAt", search_text AS "searchText"`,
    flat: (patient) => ({
      ownerId: orNull(patient.ownerId),
      displayName: orNull(patient.displayName),
      mrn: orNull(patient.mrn),
      yearOfBirth: orNull(patient.yearOfBirth),
      ageGroup: orNull(patient.ageGroup),
      weightKg: orNull(patient.weightKg),
      notes: orNull(patient.notes),
      createdAt: canonicalTime(patient.createdAt),
      updatedAt: canonicalTime(patient.updatedAt),
      ehrFhirBase: orNull(patient.ehrPatient?.fhirBase),
      ehrPatientId: orNull(patient.ehrPatient?.patientId),
      ehrIdentifierSystem: orNull(patient.ehrPatient?.identifier?.system),
      ehrIdentifierValue: orNull(patient.ehrPatient?.identifier?.value),
      ehrWeightKg: orNull(patient.ehrPatient?.weight?.kg),
      ehrWeightRecordedAt: orNull(patient.ehrPatient?.weight?.recordedAt),
      ehrWeightReadAt: orNull(patient.ehrPatient?.weight?.readAt),
      searchText: patientSearchText(patient),
    }),
    owner: (patient) => patient.ownerId,
  };
  const calculations: RecordSpec<CalculationRecord> = {
    kind: 'calculations',
    noun: 'calculation',
    table: 'calculations',
    columns: ['id', 'owner_id', 'patient_id', 'tool_type', 'inputs', 'result', 'created_at'],
    casts: { inputs: '::json', result: '::json' },
    row: (entry) => [
      entry.id,
      entry.ownerId,
      entry.patientId,
      entry.toolType,
      jsonText(entry.inputs),
      jsonText(entry.result),
      entry.createdAt,
    ],
    // json keeps the text as written: compared as text, key order included
    select:
      'owner_id AS "ownerId", patient_id AS "patientId", tool_type AS "toolType", inputs::text AS inputs, ' +
      'result::text AS result, created_at AS "createdAt"',
    flat: (entry) => ({
      ownerId: orNull(entry.ownerId),
      patientId: orNull(entry.patientId),
      toolType: orNull(entry.toolType),
      inputs: jsonText(entry.inputs),
      result: jsonText(entry.result),
      createdAt: canonicalTime(entry.createdAt),
    }),
    owner: (entry) => entry.ownerId,
  };
  const exports: RecordSpec<ExportRecord> = {
    kind: 'exports',
    noun: 'export',
    table: 'exports',
    columns: ['id', 'owner_id', 'patient_id', 'calculation_id', 'file_name', 'size_bytes', 'created_at', 'bytes'],
    row: (record, bytes) => [
      record.id,
      record.ownerId,
      record.patientId,
      record.calculationId,
      record.fileName,
      record.sizeBytes,
      record.createdAt,
      bytes,
    ],
    select:
      'owner_id AS "ownerId", patient_id AS "patientId", calculation_id AS "calculationId", ' +
      'file_name AS "fileName", size_bytes AS "sizeBytes", created_at AS "createdAt", ' +
      `encode(sha256(bytes), 'hex') AS "pdfSha256"`,
    flat: (record) => ({
      ownerId: orNull(record.ownerId),
      patientId: orNull(record.patientId),
      calculationId: orNull(record.calculationId),
      fileName: orNull(record.fileName),
      sizeBytes: orNull(record.sizeBytes),
      createdAt: canonicalTime(record.createdAt),
      pdfSha256: source.exportHashes.get(record.id) ?? null,
    }),
    owner: (record) => record.ownerId,
  };
  return { users, sessions, identities, totpFactors, recoveryCodes, passkeys, patients, calculations, exports };
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
}

const describe = <R extends { id: string }>(spec: RecordSpec<R>, record: R) =>
  `${spec.noun} ${record.id}${spec.owner ? ` of clinician ${spec.owner(record)}` : ''}`;

interface Comparison {
  /** Ids in the target with the same content. */
  same: Set<string>;
  missing: string[];
  /** One line each: which record, which fields. */
  differing: string[];
}

/** Every source record against the target's row of the same id. */
async function compare<R extends { id: string }>(
  pool: Pool,
  spec: RecordSpec<R>,
  records: readonly R[],
): Promise<Comparison> {
  const result: Comparison = { same: new Set(), missing: [], differing: [] };
  for (const chunk of chunks(records, LOOKUP_CHUNK)) {
    const key = spec.key ?? 'id';
    const { rows } = await pool.query(
      `SELECT ${key} AS id, ${spec.select} FROM ${spec.table} WHERE ${key} = ANY($1::text[])`,
      [chunk.map((record) => record.id)],
    );
    const byId = new Map(rows.map((row: Record<string, unknown>) => [row.id as string, row]));
    for (const record of chunk) {
      const row = byId.get(record.id);
      if (!row) {
        result.missing.push(record.id);
        continue;
      }
      const wanted = spec.flat(record);
      const fields = Object.keys(wanted).filter((field) => {
        const value = row[field];
        return (value instanceof Date ? value.toISOString() : value) !== wanted[field];
      });
      if (fields.length === 0) result.same.add(record.id);
      else result.differing.push(`${describe(spec, record)}: ${fields.join(', ')} differ`);
    }
  }
  return result;
}

/** Source ids that appear twice: copying one would make the other look changed. */
function duplicates<R extends { id: string }>(spec: RecordSpec<R>, records: readonly R[]): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const record of records) (seen.has(record.id) ? twice : seen).add(record.id);
  return [...twice].map((id) => `${spec.noun} ${id}: appears more than once in the data directory`);
}

/** Users the target holds under another id with the same e-mail (compared as the unique index does). */
async function emailConflicts(pool: Pool, users: readonly UserRecord[]): Promise<string[]> {
  const problems: string[] = [];
  for (const chunk of chunks(users, LOOKUP_CHUNK)) {
    const { rows } = await pool.query(
      `SELECT source.id AS source_id, users.id AS target_id
       FROM unnest($1::text[], $2::text[]) AS source(id, email)
       JOIN users ON lower(users.email) = lower(source.email) AND users.id <> source.id`,
      [chunk.map((user) => user.id), chunk.map((user) => user.email)],
    );
    for (const row of rows as { source_id: string; target_id: string }[]) {
      problems.push(`user ${row.source_id}: PostgreSQL has another user (${row.target_id}) with the same e-mail`);
    }
  }
  return problems;
}

/**
 * Inserts the records, in their order, a batch per statement (its own transaction); answers how
 * many were inserted (a record that arrived since the comparison is left as it is).
 */
/** `$n`, with a cast such as `::json` when the column needs one. */
const placeholder = (position: number, cast: string | undefined) => `$${position}${cast ?? ''}`;

async function copyRecords<R extends { id: string }>(
  pool: Pool,
  spec: RecordSpec<R>,
  records: readonly R[],
  readBytes?: (record: R) => Promise<Buffer>,
): Promise<number> {
  let copied = 0;
  const insert = async (batch: unknown[][]) => {
    if (batch.length === 0) return;
    const width = spec.columns.length;
    const values = batch.map(
      (_, row) =>
        `(${spec.columns
          .map((column, index) => placeholder(row * width + index + 1, spec.casts?.[column]))
          .join(', ')})`,
    );
    const result = await pool.query(
      `INSERT INTO ${spec.table} (${spec.columns.join(', ')}) VALUES ${values.join(', ')}
       ON CONFLICT ${spec.conflict ?? '(id)'} DO NOTHING RETURNING 1`,
      batch.flat(),
    );
    copied += result.rowCount ?? 0;
  };
  if (!readBytes) {
    for (const chunk of chunks(records, INSERT_ROWS)) await insert(chunk.map((record) => spec.row(record)));
    return copied;
  }
  let batch: unknown[][] = [];
  let batchBytes = 0;
  for (const record of records) {
    const bytes = await readBytes(record);
    if (batch.length > 0 && (batch.length >= EXPORT_INSERT_ROWS || batchBytes + bytes.length > EXPORT_INSERT_BYTES)) {
      await insert(batch);
      batch = [];
      batchBytes = 0;
    }
    batch.push(spec.row(record, bytes));
    batchBytes += bytes.length;
  }
  await insert(batch);
  return copied;
}

/**
 * Each clinician's records of `table` that came from the source must be in the source's order by
 * `seq` (what lists newest first); records the target had of its own may sit between them.
 */
async function orderProblems(
  pool: Pool,
  table: 'calculations' | 'exports',
  noun: string,
  records: readonly { id: string; ownerId: string }[],
): Promise<string[]> {
  const byOwner = new Map<string, string[]>();
  for (const record of records) {
    const ids = byOwner.get(record.ownerId) ?? [];
    ids.push(record.id);
    byOwner.set(record.ownerId, ids);
  }
  const problems: string[] = [];
  for (const [ownerId, ids] of byOwner) {
    const { rows } = await pool.query(
      `SELECT id FROM ${table} WHERE owner_id = $1 AND id = ANY($2::text[]) ORDER BY seq`,
      [ownerId, ids],
    );
    const stored = rows.map((row: { id: string }) => row.id);
    if (stored.length === ids.length && stored.some((id, index) => id !== ids[index])) {
      problems.push(`the ${noun}s of clinician ${ownerId} are not in the data directory's order (newest first)`);
    }
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------------
// The audit log

/**
 * Audit lines have no id, so "already copied" is decided by counting: the key is the whole event
 * (time, actor, action, record type, record id, outcome). For each key the source holds n lines and
 * the target m rows (m counted over the source's time span only); the last n − m of that key's lines
 * are inserted, in the source's order, and none when m ≥ n. Exact for any number of runs and for a
 * source that grew since: only a row identical to the millisecond in every field counts as a copy, so
 * a target row from elsewhere is taken for a copy only if it is that identical.
 */
const auditKey = (event: Pick<AuditLine, 'time' | 'actor' | 'action' | 'recordType' | 'recordId' | 'outcome'>) =>
  JSON.stringify([event.time, event.actor, event.action, event.recordType, event.recordId, event.outcome]);

async function targetAuditCounts(pool: Pool, events: readonly AuditLine[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (events.length === 0) return counts;
  let first = Infinity;
  let last = -Infinity; // a loop, not Math.min(...times): a long log would overflow the call's arguments
  for (const event of events) {
    const time = Date.parse(event.time);
    first = Math.min(first, time);
    last = Math.max(last, time);
  }
  const { rows } = await pool.query(
    `SELECT time, actor, action, record_type, record_id, outcome, count(*)::int AS n FROM audit_events
     WHERE time BETWEEN $1 AND $2 GROUP BY time, actor, action, record_type, record_id, outcome`,
    [new Date(first).toISOString(), new Date(last).toISOString()],
  );
  for (const row of rows as Record<string, unknown>[]) {
    const key = auditKey({
      time: (row.time as Date).toISOString(),
      actor: row.actor as string,
      action: row.action as string,
      recordType: row.record_type as string | null,
      recordId: row.record_id as string | null,
      outcome: row.outcome as string | null,
    });
    counts.set(key, (counts.get(key) ?? 0) + (row.n as number));
  }
  return counts;
}

/** The lines to insert: of each key's lines, those after the first m (m = the target's rows of that key). */
function missingAuditLines(events: readonly AuditLine[], present: ReadonlyMap<string, number>): AuditLine[] {
  const seen = new Map<string, number>();
  return events.filter((event) => {
    const key = auditKey(event);
    const occurrence = (seen.get(key) ?? 0) + 1;
    seen.set(key, occurrence);
    return occurrence > (present.get(key) ?? 0);
  });
}

/**
 * The lines are chained in the database after whatever it already holds, under AUDIT_KEY (a key line first when the
 * database's chain is under another): a database a server already wrote to keeps one chain. Each run of lines is
 * chained and inserted under the chain's lock, so servers writing meanwhile interleave whole runs.
 */
async function copyAuditLines(pool: Pool, events: readonly AuditLine[], keyring: AuditKeyring): Promise<number> {
  const key = keyring.signing;
  if (!key) throw new MigrationError('The audit lines cannot be chained: no audit key (AUDIT_KEY) is set.');
  let copied = 0;
  for (const chunk of chunks(events, INSERT_ROWS)) {
    await withChainLock(pool, async (client) => {
      const { lines } = chainAfter(await chainHead(client, keyring), chunk, key, new Date());
      await insertLines(client, lines);
    });
    copied += chunk.length;
  }
  return copied;
}

// ---------------------------------------------------------------------------------------------------
// The run

function listed(problems: readonly string[]): string {
  const shown = problems.slice(0, MAX_LISTED_PROBLEMS).map((problem) => `  ${problem}`);
  if (problems.length > MAX_LISTED_PROBLEMS) shown.push(`  … and ${problems.length - MAX_LISTED_PROBLEMS} more`);
  return shown.join('\n');
}

async function copyAndCheck(
  pool: Pool,
  source: Source,
  log: (message: string) => void,
  dataKey: Buffer | undefined,
  keyring: AuditKeyring,
): Promise<MigrationCounts> {
  const specs = recordSpecs(source);
  const kinds = [
    { spec: specs.users, records: source.users },
    { spec: specs.sessions, records: source.sessions },
    { spec: specs.identities, records: source.identities },
    { spec: specs.totpFactors, records: source.totpFactors },
    { spec: specs.recoveryCodes, records: source.recoveryCodes },
    { spec: specs.passkeys, records: source.passkeys },
    { spec: specs.patients, records: source.patients },
    { spec: specs.calculations, records: source.calculations },
    { spec: specs.exports, records: source.exports },
  ] as { spec: RecordSpec<{ id: string }>; records: { id: string }[] }[];

  // Before anything is written: every conflict, so that a refused run changes nothing.
  const conflicts: string[] = [];
  const before = new Map<string, Comparison>();
  for (const { spec, records } of kinds) {
    conflicts.push(...duplicates(spec, records));
    const comparison = await compare(pool, spec, records);
    conflicts.push(...comparison.differing);
    before.set(spec.kind, comparison);
  }
  conflicts.push(...(await emailConflicts(pool, source.users)));
  if (conflicts.length > 0) {
    throw new MigrationError(
      `${conflicts.length} record${conflicts.length === 1 ? '' : 's'} of the data directory ` +
        `conflict${conflicts.length === 1 ? 's' : ''} with what PostgreSQL already holds. Nothing has been ` +
        `copied and nothing overwritten:\n${listed(conflicts)}`,
    );
  }

  if (dataKey) {
    // ON CONFLICT: a server that started meanwhile generated its own; the check below then names the secrets.
    await pool.query('INSERT INTO app_settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [
      DATA_KEY_SETTING,
      dataKey.toString('base64'),
    ]);
    log(`Copied the data directory's generated data key (key ${dataKeyId(dataKey)}) into the database.`);
  }
  const counts = {} as MigrationCounts;
  for (const { spec, records } of kinds) {
    const missing = new Set(before.get(spec.kind)!.missing);
    const toCopy = records.filter((record) => missing.has(record.id));
    const readBytes =
      spec.kind === 'exports' ? (source.readExport as (record: { id: string }) => Promise<Buffer>) : undefined;
    const copied = await copyRecords(pool, spec, toCopy, readBytes);
    counts[spec.kind] = { found: records.length, copied, alreadyPresent: records.length - copied };
  }
  const auditToCopy = missingAuditLines(source.audit, await targetAuditCounts(pool, source.audit));
  const auditCopied = await copyAuditLines(pool, auditToCopy, keyring);
  counts.auditEvents = {
    found: source.audit.length,
    copied: auditCopied,
    alreadyPresent: source.audit.length - auditCopied,
  };
  for (const line of formatCounts(counts)) log(line);

  // The check: everything of the source, as it is there, from the target itself.
  const problems: string[] = [];
  for (const { spec, records } of kinds) {
    const comparison = await compare(pool, spec, records);
    problems.push(...comparison.missing.map((id) => `${spec.noun} ${id}: missing from PostgreSQL`));
    problems.push(...comparison.differing);
  }
  problems.push(...(await orderProblems(pool, 'calculations', 'calculation', source.calculations)));
  problems.push(...(await orderProblems(pool, 'exports', 'export', source.exports)));
  const stillMissing = missingAuditLines(source.audit, await targetAuditCounts(pool, source.audit)).length;
  if (stillMissing > 0) problems.push(`${stillMissing} audit lines: missing from PostgreSQL`);
  if (problems.length > 0) {
    throw new MigrationError(
      `The check after copying failed: ${problems.length} problem${problems.length === 1 ? '' : 's'} ` +
        `in PostgreSQL:\n${listed(problems)}`,
    );
  }
  log(
    'Checked: every record of the data directory is in PostgreSQL with identical content (PDFs by sha256), ' +
      'calculations and exports in their saved order, and every audit line.',
  );
  return counts;
}
