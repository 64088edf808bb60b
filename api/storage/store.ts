import type {
  AccountDeletion,
  AuthFlowRecord,
  CalculationRecord,
  ErasedAccount,
  ExportRecord,
  OidcIdentityRecord,
  PasskeyRecord,
  PatientRecord,
  RecoveryCodeRecord,
  SecondFactorChange,
  SessionRecord,
  ToolType,
  TotpRecord,
  UserRecord,
} from './records.ts';

/** What updatePatient may change; `ehrPatient` only a SMART launch sets (the patients API has no such field). */
export type PatientFields = Omit<PatientRecord, 'id' | 'ownerId' | 'createdAt' | 'updatedAt'>;

export interface HistoryFilter {
  patientId?: string;
  toolType?: ToolType;
  offset: number;
  limit: number;
}

export interface ProfileChanges {
  name?: string;
  license?: string | null;
}

export interface ExportFilter {
  patientId?: string;
}

/**
 * A page of history for `listCalculationsPage`: newest first, `limit` entries, either `offset` entries
 * in (page=, kept for existing clients) or those older than `after`, a cursor this store answered as
 * `nextCursor` (keyset paging: the same cost at any depth).
 */
export interface HistoryPageFilter {
  patientId?: string;
  toolType?: ToolType;
  limit: number;
  offset?: number;
  after?: string;
}

export interface HistoryPage {
  items: CalculationRecord[];
  /** How many entries match the filter (all pages). */
  total: number;
  /** Where the next page starts (an opaque text of digits), or null after the last entry. */
  nextCursor: string | null;
}

/** What a request asks of an Idempotency-Key (api/http/idempotency.ts) before it runs. */
export interface IdempotencyClaim {
  ownerId: string;
  key: string;
  /** The request's own hash: the same key with another request is refused. */
  fingerprint: string;
  /** A random token naming this request while it holds the key. */
  token: string;
  /** ISO times: now, when the key is forgotten, when an unfinished claim may be taken over. */
  at: string;
  expiresAt: string;
  lockedUntil: string;
  /** Keys kept per clinician: past this, the oldest answered ones are forgotten. */
  maxKeys: number;
}

export type IdempotencyClaimResult =
  | { kind: 'claimed' }
  | { kind: 'in_progress'; sameRequest: boolean }
  | { kind: 'answered'; sameRequest: boolean; status: number; body: unknown };

/**
 * The answer a keyed request gives, stored with the record it creates in one all-or-nothing write: a key is
 * answered exactly when its record exists.
 */
export interface IdempotentAnswer {
  key: string;
  token: string;
  status: number;
  body: unknown;
  expiresAt: string;
}

/**
 * How the start-up pass (sealed-values.ts sealStoredSecrets) rewrites the secrets an adapter holds, each as
 * stored: undefined leaves a value as it is.
 */
export interface SecretsRewrite {
  /** The authenticator-app secret of the account, as it is to be stored. */
  totpSecret(userId: string, stored: string): string | undefined;
  /** The session's ID token as it is to be stored; null drops it (and the session's single sign-on details). */
  idToken(session: Pick<SessionRecord, 'id' | 'revokedAt' | 'expiresAt'>, stored: string): string | null | undefined;
  /** A sign-in step's data, as it is to be stored. */
  flowData(flow: Pick<AuthFlowRecord, 'id' | 'kind'>, stored: unknown): unknown;
}

/**
 * What an adapter (embedded files, PostgreSQL) must do: store and fetch, scoped by owner, and no
 * more; the rules above it (ownership checked again, search, sort, session pruning) live once in
 * policy.ts. Every patient, history and export call takes the caller's id and answers only that
 * clinician's records. Adapters:
 * - `listPatients`: the owner's patients in any order; with `needle` (already trimmed and
 *   lower-cased, never empty, without line breaks) only those whose `patientSearchText` (policy.ts)
 *   contains it as plain text (`%`, `_`, quotes and backslashes are ordinary characters);
 * - `listCalculations` / `listExports`: newest first by the order saved (not by the createdAt text);
 * - `createUser`: e-mails are unique compared lower-cased;
 * - a session that ends (revoked, by whichever call) keeps no ID token: `oidc` reads null from then on;
 * - every write is durable when its promise resolves, and all-or-nothing.
 */
export interface StoreAdapter {
  readonly kind: 'embedded' | 'postgres';
  createUser(user: UserRecord): Promise<'created' | 'duplicate_email'>;
  findUserByEmail(email: string): Promise<UserRecord | undefined>;
  findUserById(id: string): Promise<UserRecord | undefined>;
  /**
   * Replaces the account's password hash and ends every other open session of it (all but
   * `keepSessionId`, revoked at `at`) in one all-or-nothing write. Undefined when there is no such
   * account; else how many sessions it ended.
   */
  changePassword(
    userId: string,
    passwordHash: string,
    options: { keepSessionId: string; at: string },
  ): Promise<{ endedSessions: number } | undefined>;

  /** The profile's name and licence corrected (docs/API.md#my-data); the record after, or undefined. */
  updateProfile(userId: string, changes: ProfileChanges): Promise<UserRecord | undefined>;
  /**
   * Disables the account for its grace period: marks the deletion and ends every open session of it (at
   * `deletion.requestedAt`), in one write. False when there is no such account.
   */
  scheduleErasure(userId: string, deletion: AccountDeletion): Promise<boolean>;
  /** Takes the account back into use (signing in during the grace period). False when there is none to cancel. */
  cancelErasure(userId: string): Promise<boolean>;
  /**
   * Erases the account and everything of it at once: the profile, its sessions, patients, history and
   * exports with their PDFs. After it nothing of the account is left (the audit trail keeps its id only),
   * and its e-mail can sign up again. Undefined when there is no such account.
   */
  eraseAccount(userId: string): Promise<ErasedAccount | undefined>;
  /** Accounts whose grace period ended at or before `at` (ISO time). */
  listAccountsDueForErasure(at: string): Promise<string[]>;
  /**
   * Removes every history entry saved before `before` (ISO time) and the exports (with their PDFs) of those
   * entries or themselves older (HISTORY_RETENTION_DAYS), for every clinician. Answers how many went.
   */
  removeHistoryBefore(before: string): Promise<{ calculations: number; exports: number }>;

  createSession(session: SessionRecord): Promise<void>;
  /** Every session of the account, ended ones included (not yet pruned), oldest first. */
  listSessions(userId: string): Promise<SessionRecord[]>;
  findSession(id: string): Promise<SessionRecord | undefined>;
  revokeSession(id: string, revokedAt: string): Promise<void>;
  /**
   * Records a request made with the open session at `at` (its lastUsedAt, never moved back). Called at
   * most about once a minute per session; the embedded store may keep it in memory until its next write.
   */
  touchSession(id: string, at: string): Promise<void>;
  /** Ends every open session of the account but `keepSessionId` at `at`; answers how many it ended. */
  endOtherSessions(userId: string, keepSessionId: string, at: string): Promise<number>;
  /** The account's sessions neither revoked nor expired at `at` (ISO time), oldest (first made) first. */
  listOpenSessions(userId: string, at: string): Promise<SessionRecord[]>;
  /** Deletes sessions revoked or expired at or before `endedBy` (ISO time); answers how many went. */
  deleteEndedSessions(endedBy: string): Promise<number>;

  /** The account an OpenID provider's (issuer, subject) names, if any. */
  findUserByIdentity(issuer: string, subject: string): Promise<UserRecord | undefined>;
  /** A new account and its identity in one write; nothing is written when either is taken. */
  createUserWithIdentity(
    user: UserRecord,
    identity: OidcIdentityRecord,
  ): Promise<'created' | 'duplicate_email' | 'duplicate_identity'>;
  /** Links an identity to an existing account; `duplicate_identity` when (issuer, subject) names one already. */
  addIdentity(identity: OidcIdentityRecord): Promise<'linked' | 'duplicate_identity'>;
  listIdentities(userId: string): Promise<OidcIdentityRecord[]>;
  /** Unlinks the account's identity (issuer, subject); false when the account has no such identity. */
  removeIdentity(userId: string, issuer: string, subject: string): Promise<boolean>;

  /** The account's second factors: its authenticator app, recovery codes (used ones too) and passkeys. */
  findSecondFactors(
    userId: string,
  ): Promise<{ totp: TotpRecord | null; recoveryCodes: RecoveryCodeRecord[]; passkeys: PasskeyRecord[] }>;
  /**
   * Applies the change in one all-or-nothing write. Undefined when there is no such account;
   * `duplicate_passkey` (and nothing written) when the passkey's credential id is registered already.
   */
  changeSecondFactors(change: SecondFactorChange): Promise<{ endedSessions: number } | 'duplicate_passkey' | undefined>;
  /**
   * Accepts a code's time step once: true (and `step` recorded) only when `step` is later than the last
   * step accepted for the account's authenticator app. Two requests with one code: one true, one false.
   */
  useTotpStep(userId: string, step: number): Promise<boolean>;
  /** Marks an unused recovery code used at `at`: true once, false when used already or unknown. */
  useRecoveryCode(userId: string, codeHash: string, at: string): Promise<boolean>;
  /** Records a passkey's use: its new signature counter and the time. */
  recordPasskeyUse(userId: string, id: string, counter: number, at: string): Promise<void>;
  /** How many second factors in a row failed for the account since its last success (0 when none). */
  secondFactorFailures(userId: string): Promise<number>;
  /**
   * Counts one more failed second factor at `at` and answers the count after it: two at once count two. 0 (and
   * nothing written) when there is no such account.
   */
  recordSecondFactorFailure(userId: string, at: string): Promise<number>;
  /** A second factor succeeded: the account's count starts again from 0. */
  clearSecondFactorFailures(userId: string): Promise<void>;

  /** Stores a sign-in step under way (records.ts AuthFlowRecord). */
  createAuthFlow(flow: AuthFlowRecord): Promise<void>;
  /**
   * Takes the flow away (deletes it) and answers it, if it exists, is of `kind` and has not expired at
   * `at`: of two requests taking one flow at once, exactly one gets it.
   */
  takeAuthFlow(id: string, kind: string, at: string): Promise<AuthFlowRecord | undefined>;
  /** Deletes flows expired at or before `at`; answers how many went. */
  deleteExpiredAuthFlows(at: string): Promise<number>;
  /**
   * The start-up pass of sealed-values.ts: every stored authenticator-app secret, session ID token and sign-in
   * step's data given to `rewrite`, and what it answers stored in its place, in one all-or-nothing write. Every
   * rewrite is called before anything is written, so one that throws changes nothing.
   */
  rewriteSecrets(rewrite: SecretsRewrite): Promise<void>;

  /** With `answer`, the key's answer is stored with the record (all or nothing). */
  createPatient(patient: PatientRecord, answer?: IdempotentAnswer): Promise<void>;
  listPatients(ownerId: string, needle?: string): Promise<PatientRecord[]>;
  findPatient(ownerId: string, id: string): Promise<PatientRecord | undefined>;
  /** Applies the changes and updatedAt; the stored record after, or undefined when there is none. */
  updatePatient(
    ownerId: string,
    id: string,
    changes: Partial<PatientFields>,
    updatedAt: string,
  ): Promise<PatientRecord | undefined>;
  /** Deletes the patient and sets patientId to null on the owner's calculations and exports of them (kept). */
  deletePatient(ownerId: string, id: string): Promise<boolean>;

  saveCalculation(entry: CalculationRecord, answer?: IdempotentAnswer): Promise<void>;
  /** Newest first (the order they were saved), a page of them and how many match. */
  listCalculations(ownerId: string, filter: HistoryFilter): Promise<{ items: CalculationRecord[]; total: number }>;
  /** Newest first, by offset or after a cursor, with the total and the next page's cursor. */
  listCalculationsPage(ownerId: string, filter: HistoryPageFilter): Promise<HistoryPage>;
  findCalculation(ownerId: string, id: string): Promise<CalculationRecord | undefined>;
  /** Every calculation of the owner, oldest first (the order saved), read a page at a time (the account export). */
  calculationsOf(ownerId: string): AsyncIterable<CalculationRecord>;

  /** Stores the PDF's bytes and its metadata together: if either fails, nothing is kept. */
  saveExport(record: ExportRecord, bytes: Uint8Array, answer?: IdempotentAnswer): Promise<void>;
  /** The caller's exports, newest first, optionally of one patient. */
  listExports(ownerId: string, filter: ExportFilter): Promise<ExportRecord[]>;
  findExport(ownerId: string, id: string): Promise<ExportRecord | undefined>;
  /** The stored PDF's bytes, or undefined when the export is not the caller's (or does not exist). */
  readExportFile(ownerId: string, id: string): Promise<Buffer | undefined>;
  /** Deletes the export's metadata and bytes. False when not the caller's. */
  deleteExport(ownerId: string, id: string): Promise<boolean>;

  /**
   * Takes the clinician's key for a request, unless it is answered already (then the answer), held by a
   * request still running, or of another request. An expired key, or a claim whose request died (its
   * lockedUntil passed without an answer), is taken over. Forgets the owner's expired keys, and the oldest
   * answered ones past `maxKeys`.
   */
  claimIdempotencyKey(claim: IdempotencyClaim): Promise<IdempotencyClaimResult>;
  /** Gives a claimed key up unanswered (the request created nothing): it may be sent again. */
  releaseIdempotencyKey(ownerId: string, key: string, token: string): Promise<void>;
  /** Deletes every key expired at `at` (ISO time); answers how many went. */
  deleteExpiredIdempotencyKeys(at: string): Promise<number>;

  /** Resolves when the storage answers (a query, a read); rejects otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Everything the API needs from storage (the routes' view), built by `createStore` (policy.ts) over
 * an adapter: the same calls, with another clinician's record indistinguishable from a missing one,
 * `listPatients` taking the search text as typed (and answering by name), and session pruning done
 * by the policy rather than asked for.
 */
export interface Store extends Omit<
  StoreAdapter,
  'deleteEndedSessions' | 'deleteExpiredAuthFlows' | 'listExports' | 'deleteExpiredIdempotencyKeys' | 'rewriteSecrets'
> {
  listExports(ownerId: string, filter?: ExportFilter): Promise<ExportRecord[]>;
}
