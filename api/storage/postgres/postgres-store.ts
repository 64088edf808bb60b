import pg, { type Pool, type PoolClient } from 'pg';
import { emailOwner, flowId } from '../../auth/flows.ts';
import { patientSearchText } from '../policy.ts';
import type {
  AccountDeletion,
  AuthFlowRecord,
  EhrPatientLink,
  CalculationRecord,
  ErasedAccount,
  ExportRecord,
  OidcIdentityRecord,
  PasskeyRecord,
  PatientRecord,
  RecoveryCodeRecord,
  SecondFactorChange,
  SessionMethod,
  SessionRecord,
  ToolType,
  TotpRecord,
  UserRecord,
} from '../records.ts';
import { StorageError } from '../storage-error.ts';
import type {
  ExportFilter,
  HistoryFilter,
  HistoryPageFilter,
  IdempotencyClaim,
  IdempotencyClaimResult,
  IdempotentAnswer,
  PatientFields,
  ProfileChanges,
  SecretsRewrite,
  StoreAdapter,
} from '../store.ts';
import { runMigrations } from './migrations.ts';

export interface PostgresStoreOptions {
  /** Hears what start-up did (migrations applied) and errors of idle connections. */
  log?: (message: string) => void;
  /** Connections kept at most (pg's default: 10). */
  poolSize?: number;
  /** How long a new connection may take, and the wait for a free one when all are busy (10 s). */
  connectTimeoutMs?: number;
  /** `npm run migrate -- --server-role NAME`: the servers' role, granted what they need (migrations.ts). */
  serverRole?: string;
}

/** The adapter, and the pool it uses, for the audit log, the rate limiter and the shared secret. */
export interface PostgresStore {
  adapter: StoreAdapter;
  pool: Pool;
}

/** How long ping waits for `SELECT 1` before reporting the database as not answering. */
export const PING_TIMEOUT_MS = 2_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

/**
 * Connects to the database at `url` (postgres://user:password@host:port/database), applies the
 * migrations not yet applied (migrations.ts) and answers the adapter. A database that cannot be
 * reached or migrated is a StorageError with one line naming host, port and database, never the
 * password.
 */
export async function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
  const target = describeTarget(url);
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    application_name: 'sgx-api',
  });
  // An idle connection the server ends (a restart, a failover) must not crash the process: the pool
  // drops it and opens another one on demand.
  const connectionLost = (error: Error) => options.log?.(`PostgreSQL connection lost: ${redact(error.message, url)}`);
  pool.on('error', connectionLost);
  // A connection the server ends while a query is under way (a restart, an administrator) fails that
  // query; without a listener on the connection itself, Node would also end this process.
  pool.on('connect', (client) => client.on('error', connectionLost));
  try {
    const client = await pool.connect();
    client.release();
  } catch (error) {
    await pool.end().catch(() => {});
    const problem = connectProblem(error, url, options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS);
    throw new StorageError(`Cannot connect to PostgreSQL at ${target}: ${problem}`);
  }
  try {
    await runMigrations(pool, options);
  } catch (error) {
    await pool.end().catch(() => {});
    if (error instanceof StorageError) throw new StorageError(`PostgreSQL at ${target}: ${error.message}`);
    throw new StorageError(`Cannot prepare the database at ${target}: ${redact((error as Error).message, url)}`);
  }
  return { adapter: new PostgresAdapter(pool), pool };
}

/** Percent-decoding that keeps malformed text as it is rather than throwing. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** "host:port/database as user" from the URL, for messages: never the password. */
export function describeTarget(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new StorageError('The PostgreSQL URL is not a valid URL (expected postgres://user:password@host:port/db).');
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new StorageError(`The PostgreSQL URL must start with postgres:// (it starts with ${parsed.protocol}//).`);
  }
  const host = parsed.searchParams.get('host') ?? (decoded(parsed.hostname) || 'localhost');
  const port = parsed.port || '5432';
  const database = decoded(parsed.pathname.slice(1)) || '(default database)';
  const user = parsed.username ? ` as ${decoded(parsed.username)}` : '';
  return `${host}:${port}/${database}${user}`;
}

export function connectProblem(error: unknown, url: string, timeoutMs: number): string {
  const { code, message } = error as { code?: string; message?: string };
  // pg's own timeouts (the pool's, the client's) are plain errors without a code
  if (!code && /timeout/i.test(message ?? '')) {
    return `no answer within ${timeoutMs / 1000} s (is this a PostgreSQL server?)`;
  }
  const explained: Record<string, string> = {
    ECONNREFUSED: 'connection refused (is the server running, and on this port?)',
    ENOTFOUND: 'host name not found',
    EAI_AGAIN: 'host name not found (DNS did not answer)',
    ETIMEDOUT: 'the connection timed out',
    '28P01': 'password authentication failed',
    '28000': 'this user may not connect (pg_hba.conf)',
    '3D000': 'the database does not exist',
  };
  return (code && explained[code]) ?? redact(message ?? String(error), url);
}

/**
 * The message on one line, with the URL's password, if any, replaced: drivers may echo what they
 * were given.
 */
function redact(message: string, url: string): string {
  let passwords: string[] = [];
  try {
    const parsed = new URL(url);
    passwords = [decoded(parsed.password), parsed.password, parsed.searchParams.get('password') ?? ''];
  } catch {
    // not a URL: it was refused before connecting
  }
  const redacted = passwords.filter(Boolean).reduce((text, password) => text.split(password).join('***'), message);
  return redacted.replace(/\s+/g, ' ').trim();
}

const USER_COLUMNS = 'id, email, name, license, password_hash, created_at';
/** A user as read: the columns written at sign-up, and the deletion waiting out its grace period. */
const USER_READ_COLUMNS = `${USER_COLUMNS}, deletion_requested_at, erase_after`;
const SESSION_COLUMNS =
  'id, user_id, created_at, expires_at, revoked_at, last_used_at, device, method, oidc_issuer, oidc_id_token';
/**
 * What ending a session sets, before `= <the time>`: its ID token (kept only to sign out of the provider) goes
 * with it, in the same statement.
 */
const END_SESSION = 'oidc_issuer = NULL, oidc_id_token = NULL, revoked_at';
const PATIENT_COLUMNS =
  'id, owner_id, display_name, mrn, year_of_birth, age_group, weight_kg, notes, created_at, updated_at, ' +
  'ehr_fhir_base, ehr_patient_id, ehr_link_details';
/** A patient row as inserted: the record's fields, then the text a search looks in (policy.ts). */
export const PATIENT_INSERT_COLUMNS = [...PATIENT_COLUMNS.split(', '), 'search_text'];
/** Their types, for an INSERT … SELECT of parameters. */
const PATIENT_INSERT_TYPES = [
  ...['text', 'text', 'text', 'text', 'integer', 'text', 'float8', 'text'],
  ...['timestamptz', 'timestamptz', 'text', 'text', 'jsonb', 'text'],
];
export const patientValues = (patient: PatientRecord): unknown[] => [
  patient.id,
  patient.ownerId,
  patient.displayName,
  patient.mrn,
  patient.yearOfBirth,
  patient.ageGroup,
  patient.weightKg,
  patient.notes,
  patient.createdAt,
  patient.updatedAt,
  patient.ehrPatient?.fhirBase ?? null,
  patient.ehrPatient?.patientId ?? null,
  ehrLinkDetails(patient.ehrPatient),
  patientSearchText(patient),
];
/** The ehr_link_details column of a link: its identifier and weight as JSON text, or null when it has neither. */
function ehrLinkDetails(link: PatientRecord['ehrPatient']): string | null {
  if (!link || (!link.identifier && !link.weight)) return null;
  return JSON.stringify({
    ...(link.identifier ? { identifier: link.identifier } : {}),
    ...(link.weight ? { weight: link.weight } : {}),
  });
}
const CALCULATION_COLUMNS = 'id, owner_id, patient_id, tool_type, inputs, result, created_at';
/** Never the bytes: lists and lookups read metadata only. */
const EXPORT_COLUMNS = 'id, owner_id, patient_id, calculation_id, file_name, size_bytes, created_at';

type Row = Record<string, unknown>;
/** timestamptz comes back as a Date; records hold the ISO text they were saved with. */
const iso = (value: unknown) => (value as Date).toISOString();
const isoOrNull = (value: unknown) => (value === null ? null : iso(value));

const toUser = (row: Row): UserRecord => ({
  id: row.id as string,
  email: row.email as string,
  name: row.name as string,
  license: row.license as string | null,
  passwordHash: row.password_hash as string,
  createdAt: iso(row.created_at),
  ...(row.erase_after
    ? { deletion: { requestedAt: iso(row.deletion_requested_at), eraseAfter: iso(row.erase_after) } }
    : {}),
});
const toSession = (row: Row): SessionRecord => ({
  id: row.id as string,
  userId: row.user_id as string,
  createdAt: iso(row.created_at),
  expiresAt: iso(row.expires_at),
  revokedAt: isoOrNull(row.revoked_at),
  lastUsedAt: row.last_used_at === null ? iso(row.created_at) : iso(row.last_used_at),
  device: row.device as string | null,
  method: row.method as SessionMethod,
  oidc:
    row.oidc_issuer === null || row.oidc_id_token === null
      ? null
      : { issuer: row.oidc_issuer as string, idToken: row.oidc_id_token as string },
});
const IDENTITY_COLUMNS = 'issuer, subject, user_id, created_at';
const toIdentity = (row: Row): OidcIdentityRecord => ({
  issuer: row.issuer as string,
  subject: row.subject as string,
  userId: row.user_id as string,
  createdAt: iso(row.created_at),
});
const toTotp = (row: Row): TotpRecord => ({
  userId: row.user_id as string,
  secret: row.secret as string,
  lastUsedStep: Number(row.last_used_step),
  createdAt: iso(row.created_at),
});
const toRecoveryCode = (row: Row): RecoveryCodeRecord => ({
  userId: row.user_id as string,
  codeHash: row.code_hash as string,
  usedAt: isoOrNull(row.used_at),
  createdAt: iso(row.created_at),
});
const PASSKEY_COLUMNS = 'id, user_id, public_key, counter, transports, name, created_at, last_used_at';
const toPasskey = (row: Row): PasskeyRecord => ({
  id: row.id as string,
  userId: row.user_id as string,
  publicKey: row.public_key as string,
  counter: Number(row.counter),
  transports: row.transports as string[],
  name: row.name as string,
  createdAt: iso(row.created_at),
  lastUsedAt: isoOrNull(row.last_used_at),
});
const toAuthFlow = (row: Row): AuthFlowRecord => ({
  id: row.id as string,
  kind: row.kind as string,
  data: row.data,
  createdAt: iso(row.created_at),
  expiresAt: iso(row.expires_at),
});
/** A PostgreSQL unique violation (an id or key taken). */
const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';
const toPatient = (row: Row): PatientRecord => ({
  id: row.id as string,
  ownerId: row.owner_id as string,
  displayName: row.display_name as string,
  mrn: row.mrn as string | null,
  yearOfBirth: row.year_of_birth as number | null,
  ageGroup: row.age_group as PatientRecord['ageGroup'],
  weightKg: row.weight_kg as number | null,
  notes: row.notes as string | null,
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
  // a patient made by hand has no EHR link: the field is absent, as in the embedded store
  ...(row.ehr_fhir_base === null
    ? {}
    : {
        ehrPatient: {
          fhirBase: row.ehr_fhir_base as string,
          patientId: row.ehr_patient_id as string,
          ...((row.ehr_link_details as Pick<EhrPatientLink, 'identifier' | 'weight'> | null) ?? {}),
        },
      }),
});
const toCalculation = (row: Row): CalculationRecord => ({
  id: row.id as string,
  ownerId: row.owner_id as string,
  patientId: row.patient_id as string | null,
  toolType: row.tool_type as ToolType,
  inputs: row.inputs,
  result: row.result,
  createdAt: iso(row.created_at),
});
const toExport = (row: Row): ExportRecord => ({
  id: row.id as string,
  ownerId: row.owner_id as string,
  patientId: row.patient_id as string | null,
  calculationId: row.calculation_id as string | null,
  fileName: row.file_name as string,
  sizeBytes: row.size_bytes as number,
  createdAt: iso(row.created_at),
});

/** A value for a json column: always JSON text (pg would turn a JS array into a PostgreSQL array). */
const json = (value: unknown) => JSON.stringify(value ?? null);

/** A LIKE pattern matching `text` anywhere, as plain text: %, _ and the escape character are escaped. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** The patient fields updatePatient may change, and their columns (the EHR link has two: see updatePatient). */
const PATIENT_FIELD_COLUMNS = {
  displayName: 'display_name',
  mrn: 'mrn',
  yearOfBirth: 'year_of_birth',
  ageGroup: 'age_group',
  weightKg: 'weight_kg',
  notes: 'notes',
} as const satisfies Record<Exclude<keyof PatientFields, 'ehrPatient'>, string>;

/** Thrown inside a transaction to roll it back: the identity was taken by another sign-in meanwhile. */
class DuplicateIdentity extends Error {}
/** Thrown inside a transaction to roll it back: the passkey's credential id is registered already. */
class DuplicatePasskey extends Error {}

/**
 * The StoreAdapter over PostgreSQL: every query is parameterised, every owner-scoped one filters by
 * owner_id, and each change is one statement or one transaction (durable once COMMIT answers).
 */
class PostgresAdapter implements StoreAdapter {
  readonly kind = 'postgres' as const;
  readonly #pool: Pool;
  #closed = false;
  constructor(pool: Pool) {
    this.#pool = pool;
  }

  async #rows(text: string, values: unknown[]): Promise<Row[]> {
    return (await this.#pool.query(text, values)).rows as Row[];
  }

  /** Runs `work` in one transaction on one connection: all of it is kept, or none. */
  async #transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.#pool.connect();
    let result: T;
    try {
      await client.query('BEGIN');
      result = await work(client);
      await client.query('COMMIT');
    } catch (error) {
      // A connection that cannot even roll back is closed rather than reused.
      const usable = await client.query('ROLLBACK').then(
        () => true,
        () => false,
      );
      client.release(!usable);
      throw error;
    }
    client.release();
    return result;
  }

  async createUser(user: UserRecord) {
    // The unique index on lower(email) decides, also between two sign-ups at once: the second waits
    // for the first and then inserts nothing.
    const inserted = await this.#rows(
      `INSERT INTO users (${USER_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT ((lower(email))) DO NOTHING RETURNING id`,
      [user.id, user.email, user.name, user.license, user.passwordHash, user.createdAt],
    );
    return inserted.length === 1 ? ('created' as const) : ('duplicate_email' as const);
  }
  async findUserByEmail(email: string) {
    // The exact address, as the embedded store compares; lower(email) lets the unique index find it.
    const rows = await this.#rows(
      `SELECT ${USER_READ_COLUMNS} FROM users WHERE lower(email) = lower($1) AND email = $1`,
      [email],
    );
    return rows[0] && toUser(rows[0]);
  }
  async findUserById(id: string) {
    const rows = await this.#rows(`SELECT ${USER_READ_COLUMNS} FROM users WHERE id = $1`, [id]);
    return rows[0] && toUser(rows[0]);
  }

  async changePassword(userId: string, passwordHash: string, options: { keepSessionId: string; at: string }) {
    // One statement, so one transaction: the new hash and the other sessions ended, or neither.
    const rows = await this.#rows(
      `WITH changed AS (UPDATE users SET password_hash = $2 WHERE id = $1 RETURNING id),
            ended AS (UPDATE sessions SET ${END_SESSION} = $3
                      WHERE user_id IN (SELECT id FROM changed) AND id <> $4 AND revoked_at IS NULL
                      RETURNING id)
       SELECT (SELECT count(*) FROM changed) AS users, (SELECT count(*) FROM ended) AS sessions`,
      [userId, passwordHash, options.at, options.keepSessionId],
    );
    const row = rows[0];
    if (!row || Number(row.users) === 0) return undefined;
    return { endedSessions: Number(row.sessions) };
  }

  async updateProfile(userId: string, changes: ProfileChanges) {
    const rows = await this.#rows(
      `UPDATE users SET name = CASE WHEN $2 THEN $3 ELSE name END, license = CASE WHEN $4 THEN $5 ELSE license END
       WHERE id = $1 RETURNING ${USER_READ_COLUMNS}`,
      [
        userId,
        changes.name !== undefined,
        changes.name ?? null,
        changes.license !== undefined,
        changes.license ?? null,
      ],
    );
    return rows[0] && toUser(rows[0]);
  }

  async scheduleErasure(userId: string, deletion: AccountDeletion) {
    // One statement: the account disabled and its open sessions ended together.
    const rows = await this.#rows(
      `WITH marked AS (UPDATE users SET deletion_requested_at = $2, erase_after = $3 WHERE id = $1 RETURNING id),
            ended AS (UPDATE sessions SET ${END_SESSION} = $2
                      WHERE user_id IN (SELECT id FROM marked) AND revoked_at IS NULL RETURNING id)
       SELECT (SELECT count(*) FROM marked) AS users`,
      [userId, deletion.requestedAt, deletion.eraseAfter],
    );
    return Number(rows[0]?.users ?? 0) > 0;
  }

  async cancelErasure(userId: string) {
    const result = await this.#pool.query(
      'UPDATE users SET deletion_requested_at = NULL, erase_after = NULL WHERE id = $1 AND erase_after IS NOT NULL',
      [userId],
    );
    return (result.rowCount ?? 0) > 0;
  }

  async eraseAccount(userId: string) {
    // One transaction: every instance sees the account whole or not at all. The user row is locked
    // first, so two erasures of one account do not both count.
    return this.#transaction(async (client): Promise<ErasedAccount | undefined> => {
      const user = await client.query('SELECT id, email FROM users WHERE id = $1 FOR UPDATE', [userId]);
      if (user.rowCount === 0) return undefined;
      const count = async (sql: string) => (await client.query(sql, [userId])).rowCount ?? 0;
      const sessions = (await client.query('DELETE FROM sessions WHERE user_id = $1 RETURNING id', [userId])).rows;
      const erased = {
        exports: await count('DELETE FROM exports WHERE owner_id = $1'),
        calculations: await count('DELETE FROM calculations WHERE owner_id = $1'),
        patients: await count('DELETE FROM patients WHERE owner_id = $1'),
        sessions: sessions.length,
      };
      // Its sign-in steps under way, and the EHR links (and steps) kept under its sessions' ids.
      await client.query('DELETE FROM auth_flows WHERE owner = ANY($1::text[]) OR id = ANY($2::text[])', [
        [userId, emailOwner(user.rows[0].email as string)],
        sessions.map((session) => flowId(session.id as string)),
      ]);
      // The hospital sign-ins and second factors go with the account (docs/API.md#my-data).
      for (const table of ['oidc_identities', 'totp_factors', 'recovery_codes', 'passkeys'])
        await client.query(`DELETE FROM ${table} WHERE user_id = $1`, [userId]);
      // The answers kept for Idempotency-Keys hold what the requests created (a patient's name): they go too.
      for (const table of ['idempotency_keys', 'calculation_counts'])
        await client.query(`DELETE FROM ${table} WHERE owner_id = $1`, [userId]);
      await client.query('DELETE FROM users WHERE id = $1', [userId]);
      return erased;
    });
  }

  async listAccountsDueForErasure(at: string) {
    return (await this.#rows('SELECT id FROM users WHERE erase_after <= $1 ORDER BY erase_after', [at])).map(
      (row) => row.id as string,
    );
  }

  async removeHistoryBefore(before: string) {
    return this.#transaction(async (client) => {
      const exports = await client.query(
        `DELETE FROM exports AS e WHERE e.created_at < $1
           OR EXISTS (SELECT 1 FROM calculations AS c
                      WHERE c.owner_id = e.owner_id AND c.id = e.calculation_id AND c.created_at < $1)`,
        [before],
      );
      const calculations = await client.query('DELETE FROM calculations WHERE created_at < $1', [before]);
      return { calculations: calculations.rowCount ?? 0, exports: exports.rowCount ?? 0 };
    });
  }

  async listSessions(userId: string) {
    return (await this.#rows(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE user_id = $1 ORDER BY seq`, [userId])).map(
      toSession,
    );
  }

  async createSession(session: SessionRecord) {
    await this.#rows(`INSERT INTO sessions (${SESSION_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`, [
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
    ]);
  }
  async touchSession(id: string, at: string) {
    // Never moved back; an ended session is left as it ended.
    await this.#rows(
      `UPDATE sessions SET last_used_at = $2
       WHERE id = $1 AND revoked_at IS NULL AND (last_used_at IS NULL OR last_used_at < $2)`,
      [id, at],
    );
  }
  async endOtherSessions(userId: string, keepSessionId: string, at: string) {
    const result = await this.#pool.query(
      `UPDATE sessions SET ${END_SESSION} = $3 WHERE user_id = $1 AND id <> $2 AND revoked_at IS NULL`,
      [userId, keepSessionId, at],
    );
    return result.rowCount ?? 0;
  }
  async findSession(id: string) {
    const rows = await this.#rows(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE id = $1`, [id]);
    return rows[0] && toSession(rows[0]);
  }
  async revokeSession(id: string, revokedAt: string) {
    // A session revoked already keeps its first revocation time.
    await this.#rows(`UPDATE sessions SET ${END_SESSION} = $2 WHERE id = $1 AND revoked_at IS NULL`, [id, revokedAt]);
  }
  async listOpenSessions(userId: string, at: string) {
    const rows = await this.#rows(
      `SELECT ${SESSION_COLUMNS} FROM sessions ` +
        'WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > $2 ORDER BY seq',
      [userId, at],
    );
    return rows.map(toSession);
  }
  async deleteEndedSessions(endedBy: string) {
    const result = await this.#pool.query('DELETE FROM sessions WHERE revoked_at <= $1 OR expires_at <= $1', [endedBy]);
    return result.rowCount ?? 0;
  }

  async findUserByIdentity(issuer: string, subject: string) {
    const rows = await this.#rows(
      `SELECT ${USER_READ_COLUMNS.split(', ')
        .map((column) => `users.${column}`)
        .join(', ')} FROM oidc_identities JOIN users ON users.id = oidc_identities.user_id
       WHERE oidc_identities.issuer = $1 AND oidc_identities.subject = $2`,
      [issuer, subject],
    );
    return rows[0] && toUser(rows[0]);
  }
  async createUserWithIdentity(user: UserRecord, identity: OidcIdentityRecord) {
    return this.#transaction(async (client) => {
      const taken = await client.query('SELECT 1 FROM oidc_identities WHERE issuer = $1 AND subject = $2 FOR UPDATE', [
        identity.issuer,
        identity.subject,
      ]);
      if (taken.rowCount) return 'duplicate_identity' as const;
      const inserted = await client.query(
        `INSERT INTO users (${USER_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT ((lower(email))) DO NOTHING RETURNING id`,
        [user.id, user.email, user.name, user.license, user.passwordHash, user.createdAt],
      );
      if (inserted.rowCount !== 1) return 'duplicate_email' as const;
      const linked = await client.query(
        `INSERT INTO oidc_identities (${IDENTITY_COLUMNS}) VALUES ($1, $2, $3, $4)
         ON CONFLICT (issuer, subject) DO NOTHING RETURNING issuer`,
        [identity.issuer, identity.subject, identity.userId, identity.createdAt],
      );
      // Another sign-in of the same identity got there first: roll the user back too.
      if (linked.rowCount !== 1) throw new DuplicateIdentity();
      return 'created' as const;
    }).catch((error: unknown) => {
      if (error instanceof DuplicateIdentity) return 'duplicate_identity' as const;
      throw error;
    });
  }
  async addIdentity(identity: OidcIdentityRecord) {
    const rows = await this.#rows(
      `INSERT INTO oidc_identities (${IDENTITY_COLUMNS}) VALUES ($1, $2, $3, $4)
       ON CONFLICT (issuer, subject) DO NOTHING RETURNING issuer`,
      [identity.issuer, identity.subject, identity.userId, identity.createdAt],
    );
    return rows.length === 1 ? ('linked' as const) : ('duplicate_identity' as const);
  }
  async listIdentities(userId: string) {
    const rows = await this.#rows(
      `SELECT ${IDENTITY_COLUMNS} FROM oidc_identities WHERE user_id = $1 ORDER BY created_at, issuer, subject`,
      [userId],
    );
    return rows.map(toIdentity);
  }
  async removeIdentity(userId: string, issuer: string, subject: string) {
    const rows = await this.#rows(
      'DELETE FROM oidc_identities WHERE user_id = $1 AND issuer = $2 AND subject = $3 RETURNING issuer',
      [userId, issuer, subject],
    );
    return rows.length === 1;
  }

  async findSecondFactors(userId: string) {
    const [totp, codes, passkeys] = await Promise.all([
      this.#rows('SELECT user_id, secret, last_used_step, created_at FROM totp_factors WHERE user_id = $1', [userId]),
      this.#rows(
        'SELECT user_id, code_hash, used_at, created_at FROM recovery_codes WHERE user_id = $1 ORDER BY code_hash',
        [userId],
      ),
      this.#rows(`SELECT ${PASSKEY_COLUMNS} FROM passkeys WHERE user_id = $1 ORDER BY seq`, [userId]),
    ]);
    return {
      totp: totp[0] ? toTotp(totp[0]) : null,
      recoveryCodes: codes.map(toRecoveryCode),
      passkeys: passkeys.map(toPasskey),
    };
  }
  async changeSecondFactors(change: SecondFactorChange) {
    const { userId, at } = change;
    return this.#transaction(async (client) => {
      // The account's row, locked: two changes of one account's factors run one after the other.
      const user = await client.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
      if (user.rowCount !== 1) return undefined;
      if (change.totp !== undefined) {
        await client.query('DELETE FROM totp_factors WHERE user_id = $1', [userId]);
        if (change.totp)
          await client.query(
            'INSERT INTO totp_factors (user_id, secret, last_used_step, created_at) VALUES ($1, $2, $3, $4)',
            [userId, change.totp.secret, change.totp.lastUsedStep, change.totp.createdAt],
          );
      }
      if (change.removePasskeyId !== undefined)
        await client.query('DELETE FROM passkeys WHERE user_id = $1 AND id = $2', [userId, change.removePasskeyId]);
      if (change.addPasskey) {
        const passkey = change.addPasskey;
        const added = await client.query(
          `INSERT INTO passkeys (${PASSKEY_COLUMNS}) VALUES ($1, $2, $3, $4, $5::json, $6, $7, $8)
           ON CONFLICT (id) DO NOTHING RETURNING id`,
          [
            passkey.id,
            userId,
            passkey.publicKey,
            passkey.counter,
            json(passkey.transports),
            passkey.name,
            passkey.createdAt,
            passkey.lastUsedAt,
          ],
        );
        if (added.rowCount !== 1) throw new DuplicatePasskey();
      }
      if (change.recoveryCodeHashes) {
        await client.query('DELETE FROM recovery_codes WHERE user_id = $1', [userId]);
        for (const codeHash of change.recoveryCodeHashes)
          await client.query(
            'INSERT INTO recovery_codes (user_id, code_hash, used_at, created_at) VALUES ($1, $2, NULL, $3)',
            [userId, codeHash, at],
          );
      }
      if (change.upgradeSession)
        await client.query('UPDATE sessions SET method = $3 WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL', [
          change.upgradeSession.sessionId,
          userId,
          change.upgradeSession.method,
        ]);
      let endedSessions = 0;
      if (change.endOtherSessions) {
        const ended = await client.query(
          `UPDATE sessions SET ${END_SESSION} = $3 WHERE user_id = $1 AND id <> $2 AND revoked_at IS NULL`,
          [userId, change.endOtherSessions.keepSessionId, at],
        );
        endedSessions = ended.rowCount ?? 0;
      }
      return { endedSessions };
    }).catch((error: unknown) => {
      if (error instanceof DuplicatePasskey || isUniqueViolation(error)) return 'duplicate_passkey' as const;
      throw error;
    });
  }
  async useTotpStep(userId: string, step: number) {
    const rows = await this.#rows(
      'UPDATE totp_factors SET last_used_step = $2 WHERE user_id = $1 AND last_used_step < $2 RETURNING user_id',
      [userId, step],
    );
    return rows.length === 1;
  }
  async useRecoveryCode(userId: string, codeHash: string, at: string) {
    const rows = await this.#rows(
      `UPDATE recovery_codes SET used_at = $3
       WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL RETURNING user_id`,
      [userId, codeHash, at],
    );
    return rows.length === 1;
  }
  async recordPasskeyUse(userId: string, id: string, counter: number, at: string) {
    await this.#rows('UPDATE passkeys SET counter = $3, last_used_at = $4 WHERE user_id = $1 AND id = $2', [
      userId,
      id,
      counter,
      at,
    ]);
  }
  async secondFactorFailures(userId: string) {
    const rows = await this.#rows('SELECT second_factor_failures FROM users WHERE id = $1', [userId]);
    return Number(rows[0]?.second_factor_failures ?? 0);
  }
  async recordSecondFactorFailure(userId: string, at: string) {
    // One statement: two failures at once count two.
    const rows = await this.#rows(
      `UPDATE users SET second_factor_failures = second_factor_failures + 1, last_second_factor_failure_at = $2
       WHERE id = $1 RETURNING second_factor_failures`,
      [userId, at],
    );
    return Number(rows[0]?.second_factor_failures ?? 0);
  }
  async clearSecondFactorFailures(userId: string) {
    await this.#rows(
      `UPDATE users SET second_factor_failures = 0, last_second_factor_failure_at = NULL
       WHERE id = $1 AND second_factor_failures <> 0`,
      [userId],
    );
  }

  async createAuthFlow(flow: AuthFlowRecord) {
    await this.#rows(
      `INSERT INTO auth_flows (id, kind, data, created_at, expires_at, owner) VALUES ($1, $2, $3::json, $4, $5, $6)
       ON CONFLICT (id) DO UPDATE SET kind = $2, data = $3::json, created_at = $4, expires_at = $5, owner = $6`,
      [flow.id, flow.kind, json(flow.data), flow.createdAt, flow.expiresAt, flow.owner ?? null],
    );
  }
  async takeAuthFlow(id: string, kind: string, at: string) {
    // One statement: of two instances taking one flow at once, exactly one gets its row.
    const rows = await this.#rows(
      `DELETE FROM auth_flows WHERE id = $1 AND kind = $2 AND expires_at > $3
       RETURNING id, kind, data, created_at, expires_at`,
      [id, kind, at],
    );
    return rows[0] && toAuthFlow(rows[0]);
  }
  async deleteExpiredAuthFlows(at: string) {
    const result = await this.#pool.query('DELETE FROM auth_flows WHERE expires_at <= $1', [at]);
    return result.rowCount ?? 0;
  }

  async rewriteSecrets(rewrite: SecretsRewrite) {
    // One transaction over the rows locked, every rewrite called before the first UPDATE: a rewrite that throws
    // rolls it all back. Instances starting at once take the locks in turn; the later finds nothing to do.
    await this.#transaction(async (client) => {
      const totp = (await client.query('SELECT user_id, secret FROM totp_factors ORDER BY user_id FOR UPDATE')).rows;
      const sessions = (
        await client.query(
          'SELECT id, revoked_at, expires_at, oidc_id_token FROM sessions WHERE oidc_id_token IS NOT NULL ' +
            'ORDER BY id FOR UPDATE',
        )
      ).rows;
      const flows = (await client.query('SELECT id, kind, data FROM auth_flows ORDER BY id FOR UPDATE')).rows;
      const updates: [string, unknown[]][] = [];
      for (const row of totp) {
        const secret = rewrite.totpSecret(row.user_id, row.secret);
        if (secret !== undefined)
          updates.push(['UPDATE totp_factors SET secret = $2 WHERE user_id = $1', [row.user_id, secret]]);
      }
      for (const row of sessions) {
        const session = { id: row.id, revokedAt: isoOrNull(row.revoked_at), expiresAt: iso(row.expires_at) };
        const idToken = rewrite.idToken(session, row.oidc_id_token);
        if (idToken === null)
          updates.push(['UPDATE sessions SET oidc_issuer = NULL, oidc_id_token = NULL WHERE id = $1', [row.id]]);
        else if (idToken !== undefined)
          updates.push(['UPDATE sessions SET oidc_id_token = $2 WHERE id = $1', [row.id, idToken]]);
      }
      for (const row of flows) {
        const data = rewrite.flowData({ id: row.id, kind: row.kind }, row.data);
        if (data !== undefined)
          updates.push(['UPDATE auth_flows SET data = $2::json WHERE id = $1', [row.id, json(data)]]);
      }
      for (const [text, values] of updates) await client.query(text, values);
    });
  }

  async createPatient(patient: PatientRecord, answer?: IdempotentAnswer) {
    await this.#insert('patients', PATIENT_INSERT_COLUMNS, PATIENT_INSERT_TYPES, patientValues(patient), answer);
  }
  async listPatients(ownerId: string, needle?: string) {
    if (needle === undefined) {
      return (await this.#rows(`SELECT ${PATIENT_COLUMNS} FROM patients WHERE owner_id = $1`, [ownerId])).map(
        toPatient,
      );
    }
    const rows = await this.#rows(
      `SELECT ${PATIENT_COLUMNS} FROM patients WHERE owner_id = $1 AND search_text LIKE $2 ESCAPE '\\'`,
      [ownerId, containsPattern(needle)],
    );
    return rows.map(toPatient);
  }
  async findPatient(ownerId: string, id: string) {
    const rows = await this.#rows(`SELECT ${PATIENT_COLUMNS} FROM patients WHERE owner_id = $1 AND id = $2`, [
      ownerId,
      id,
    ]);
    return rows[0] && toPatient(rows[0]);
  }
  async updatePatient(ownerId: string, id: string, changes: Partial<PatientFields>, updatedAt: string) {
    // search_text follows the name and MRN, computed here from the record as it will be: read it
    // under a row lock, merge, write it back.
    return this.#transaction(async (client) => {
      const current = (
        await client.query(`SELECT ${PATIENT_COLUMNS} FROM patients WHERE owner_id = $1 AND id = $2 FOR UPDATE`, [
          ownerId,
          id,
        ])
      ).rows[0] as Row | undefined;
      if (!current) return undefined;
      const next: PatientRecord = { ...toPatient(current), updatedAt };
      for (const field of Object.keys(PATIENT_FIELD_COLUMNS) as (keyof PatientFields)[]) {
        if (changes[field] !== undefined) (next as unknown as Record<string, unknown>)[field] = changes[field];
      }
      if (changes.ehrPatient !== undefined) next.ehrPatient = changes.ehrPatient;
      const updated = await client.query(
        `UPDATE patients SET display_name = $3, mrn = $4, year_of_birth = $5, age_group = $6, weight_kg = $7,
           notes = $8, updated_at = $9, search_text = $10, ehr_fhir_base = $11, ehr_patient_id = $12,
           ehr_link_details = $13
         WHERE owner_id = $1 AND id = $2 RETURNING ${PATIENT_COLUMNS}`,
        [
          ownerId,
          id,
          next.displayName,
          next.mrn,
          next.yearOfBirth,
          next.ageGroup,
          next.weightKg,
          next.notes,
          next.updatedAt,
          patientSearchText(next),
          next.ehrPatient?.fhirBase ?? null,
          next.ehrPatient?.patientId ?? null,
          ehrLinkDetails(next.ehrPatient),
        ],
      );
      return toPatient(updated.rows[0] as Row);
    });
  }
  async deletePatient(ownerId: string, id: string) {
    return this.#transaction(async (client) => {
      const deleted = await client.query('DELETE FROM patients WHERE owner_id = $1 AND id = $2', [ownerId, id]);
      if (deleted.rowCount === 0) return false;
      // The Idempotency-Key answers that name the patient (its record, a calculation or export for it) hold its
      // name or MRN: they go with it (a key sent again is a new request). The id as a JSON string, exactly.
      await client.query('DELETE FROM idempotency_keys WHERE owner_id = $1 AND strpos(body::text, $2) > 0', [
        ownerId,
        JSON.stringify(id),
      ]);
      await client.query('UPDATE calculations SET patient_id = NULL WHERE owner_id = $1 AND patient_id = $2', [
        ownerId,
        id,
      ]);
      await client.query('UPDATE exports SET patient_id = NULL WHERE owner_id = $1 AND patient_id = $2', [ownerId, id]);
      return true;
    });
  }

  async saveCalculation(entry: CalculationRecord, answer?: IdempotentAnswer) {
    await this.#insert(
      'calculations',
      CALCULATION_COLUMNS.split(', '),
      ['text', 'text', 'text', 'text', 'json', 'json', 'timestamptz'],
      [
        entry.id,
        entry.ownerId,
        entry.patientId,
        entry.toolType,
        json(entry.inputs),
        json(entry.result),
        entry.createdAt,
      ],
      answer,
    );
  }
  async listCalculations(ownerId: string, filter: HistoryFilter) {
    const values: unknown[] = [ownerId];
    let where = 'owner_id = $1';
    if (filter.patientId !== undefined) where += ` AND patient_id = $${values.push(filter.patientId)}`;
    if (filter.toolType !== undefined) where += ` AND tool_type = $${values.push(filter.toolType)}`;
    const offset = `$${values.push(filter.offset)}`;
    const limit = `$${values.push(filter.limit)}`;
    // One statement, so the page and the count come from one snapshot; the count's row is there
    // even when the page is empty (an offset past the end).
    const rows = await this.#rows(
      `SELECT counted.total, page.* FROM (SELECT count(*) AS total FROM calculations WHERE ${where}) AS counted
       LEFT JOIN LATERAL (
         SELECT seq, ${CALCULATION_COLUMNS} FROM calculations WHERE ${where}
         ORDER BY seq DESC OFFSET ${offset} LIMIT ${limit}
       ) AS page ON true
       ORDER BY page.seq DESC`,
      values,
    );
    return {
      items: rows.filter((row) => row.id !== null).map(toCalculation),
      total: Number(rows[0]?.total ?? 0),
    };
  }
  async listCalculationsPage(ownerId: string, filter: HistoryPageFilter) {
    const values: unknown[] = [ownerId];
    let where = 'owner_id = $1';
    if (filter.patientId !== undefined) where += ` AND patient_id = $${values.push(filter.patientId)}`;
    if (filter.toolType !== undefined) where += ` AND tool_type = $${values.push(filter.toolType)}`;
    // The total: a patient's entries are counted (few, by calculations_owner_patient_seq_idx); a
    // clinician's, by tool or all, are read from calculation_counts (migration 3), whatever their number.
    const total =
      filter.patientId !== undefined
        ? `SELECT count(*) FROM calculations WHERE ${where}`
        : `SELECT coalesce(sum(entries), 0) FROM calculation_counts WHERE owner_id = $1` +
          (filter.toolType !== undefined ? ' AND tool_type = $2' : '');
    // Keyset paging: the entries before the cursor's, by the same index, at any depth.
    const pageWhere = filter.after !== undefined ? `${where} AND seq < $${values.push(filter.after)}::bigint` : where;
    const offset = filter.after === undefined && filter.offset ? ` OFFSET $${values.push(filter.offset)}` : '';
    const limit = `$${values.push(filter.limit + 1)}`; // one more: is there a next page?
    // One statement, so the page and the total come from one snapshot.
    const rows = await this.#rows(
      `SELECT (${total}) AS total, page.* FROM (SELECT 1) AS one
       LEFT JOIN LATERAL (
         SELECT seq, ${CALCULATION_COLUMNS} FROM calculations WHERE ${pageWhere}
         ORDER BY seq DESC${offset} LIMIT ${limit}
       ) AS page ON true
       ORDER BY page.seq DESC`,
      values,
    );
    const found = rows.filter((row) => row.id !== null);
    const items = found.slice(0, filter.limit);
    return {
      items: items.map(toCalculation),
      total: Number(rows[0]?.total ?? 0),
      nextCursor: found.length > filter.limit ? String(items.at(-1)!.seq) : null,
    };
  }
  async findCalculation(ownerId: string, id: string) {
    const rows = await this.#rows(`SELECT ${CALCULATION_COLUMNS} FROM calculations WHERE owner_id = $1 AND id = $2`, [
      ownerId,
      id,
    ]);
    return rows[0] && toCalculation(rows[0]);
  }

  async *calculationsOf(ownerId: string) {
    // Keyset pages by the order saved: no OFFSET scan, and never the whole history in memory.
    let after = 0n;
    for (;;) {
      const rows = await this.#rows(
        `SELECT seq, ${CALCULATION_COLUMNS} FROM calculations WHERE owner_id = $1 AND seq > $2 ORDER BY seq LIMIT 500`,
        [ownerId, String(after)],
      );
      for (const row of rows) yield toCalculation(row);
      if (rows.length < 500) return;
      after = BigInt(rows.at(-1)!.seq as string);
    }
  }

  async saveExport(record: ExportRecord, bytes: Uint8Array, answer?: IdempotentAnswer) {
    // One INSERT: the metadata and the bytes are kept together or not at all.
    await this.#insert(
      'exports',
      [...EXPORT_COLUMNS.split(', '), 'bytes'],
      ['text', 'text', 'text', 'text', 'text', 'integer', 'timestamptz', 'bytea'],
      [
        record.id,
        record.ownerId,
        record.patientId,
        record.calculationId,
        record.fileName,
        record.sizeBytes,
        record.createdAt,
        Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      ],
      answer,
    );
  }
  async listExports(ownerId: string, filter: ExportFilter) {
    const values: unknown[] = [ownerId];
    let where = 'owner_id = $1';
    if (filter.patientId !== undefined) where += ` AND patient_id = $${values.push(filter.patientId)}`;
    const rows = await this.#rows(`SELECT ${EXPORT_COLUMNS} FROM exports WHERE ${where} ORDER BY seq DESC`, values);
    return rows.map(toExport);
  }
  async findExport(ownerId: string, id: string) {
    const rows = await this.#rows(`SELECT ${EXPORT_COLUMNS} FROM exports WHERE owner_id = $1 AND id = $2`, [
      ownerId,
      id,
    ]);
    return rows[0] && toExport(rows[0]);
  }
  async readExportFile(ownerId: string, id: string) {
    const rows = await this.#rows('SELECT bytes FROM exports WHERE owner_id = $1 AND id = $2', [ownerId, id]);
    return rows[0] && (rows[0].bytes as Buffer);
  }
  async deleteExport(ownerId: string, id: string) {
    const result = await this.#pool.query('DELETE FROM exports WHERE owner_id = $1 AND id = $2', [ownerId, id]);
    return (result.rowCount ?? 0) > 0;
  }

  /**
   * An INSERT of one row; with `answer`, only if the request still holds its key, and the key's answer is
   * written by the same statement: the record and the answer are kept together or not at all.
   */
  async #insert(table: string, columns: string[], types: string[], values: unknown[], answer?: IdempotentAnswer) {
    const list = columns.join(', ');
    if (!answer) {
      await this.#rows(
        `INSERT INTO ${table} (${list}) VALUES (${columns.map((_, n) => `$${n + 1}`).join(', ')})`,
        values,
      );
      return;
    }
    const selected = types.map((type, n) => `$${n + 1}::${type}`).join(', ');
    const at = values.length;
    const result = await this.#pool.query(
      `WITH answered AS (
         UPDATE idempotency_keys SET status = $${at + 1}, body = $${at + 2}::json, locked_until = NULL
         WHERE owner_id = $${at + 3} AND key = $${at + 4} AND claim = $${at + 5} AND status IS NULL
         RETURNING 1
       )
       INSERT INTO ${table} (${list}) SELECT ${selected} WHERE EXISTS (SELECT 1 FROM answered)`,
      [...values, answer.status, json(answer.body), values[1], answer.key, answer.token],
    );
    if (result.rowCount !== 1) throw new StorageError('The request no longer holds its idempotency key');
  }

  async claimIdempotencyKey(claim: IdempotencyClaim): Promise<IdempotencyClaimResult> {
    // The owner's expired keys, and the oldest answered ones past the bound (by idempotency_keys_owner_seq_idx).
    await this.#rows(
      `DELETE FROM idempotency_keys WHERE owner_id = $1 AND (expires_at <= $2 OR (status IS NOT NULL AND seq <=
         (SELECT seq FROM idempotency_keys WHERE owner_id = $1 ORDER BY seq DESC OFFSET $3 LIMIT 1)))`,
      [claim.ownerId, claim.at, Math.max(0, claim.maxKeys - 1)],
    );
    for (let attempt = 0; attempt < 3; attempt += 1) {
      // The primary key decides between two requests at once, on any instance: the second waits for the
      // first's row, then takes it only if it expired or its request died unanswered.
      const taken = await this.#rows(
        `INSERT INTO idempotency_keys (owner_id, key, fingerprint, claim, created_at, expires_at, locked_until)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (owner_id, key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, claim = EXCLUDED.claim,
           created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at,
           locked_until = EXCLUDED.locked_until, status = NULL, body = NULL
         WHERE idempotency_keys.expires_at <= EXCLUDED.created_at
           OR (idempotency_keys.status IS NULL AND idempotency_keys.locked_until <= EXCLUDED.created_at)
         RETURNING claim`,
        [claim.ownerId, claim.key, claim.fingerprint, claim.token, claim.at, claim.expiresAt, claim.lockedUntil],
      );
      if (taken[0]?.claim === claim.token) return { kind: 'claimed' };
      const rows = await this.#rows(
        'SELECT fingerprint, status, body FROM idempotency_keys WHERE owner_id = $1 AND key = $2',
        [claim.ownerId, claim.key],
      );
      const row = rows[0];
      if (!row) continue; // released or forgotten meanwhile: try again
      const sameRequest = row.fingerprint === claim.fingerprint;
      if (row.status === null) return { kind: 'in_progress', sameRequest };
      return { kind: 'answered', sameRequest, status: row.status as number, body: row.body };
    }
    throw new StorageError('An idempotency key kept changing hands');
  }
  async releaseIdempotencyKey(ownerId: string, key: string, token: string) {
    await this.#rows(
      'DELETE FROM idempotency_keys WHERE owner_id = $1 AND key = $2 AND claim = $3 AND status IS NULL',
      [ownerId, key, token],
    );
  }
  async deleteExpiredIdempotencyKeys(at: string) {
    const result = await this.#pool.query('DELETE FROM idempotency_keys WHERE expires_at <= $1', [at]);
    return result.rowCount ?? 0;
  }

  async ping() {
    // A client-side limit: it also covers a connection that hangs (a server-side statement_timeout
    // would never fire for a SELECT 1 that never reaches the server). A timed-out connection is closed.
    // pg reads query_timeout from a query's config; @types/pg declares it only for the client's.
    await this.#pool.query({ text: 'SELECT 1', query_timeout: PING_TIMEOUT_MS } as pg.QueryConfig);
  }

  async close() {
    if (this.#closed) return;
    this.#closed = true;
    await this.#pool.end();
  }
}
