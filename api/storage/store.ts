import type {
  AccountDeletion,
  CalculationRecord,
  ErasedAccount,
  ExportRecord,
  PatientRecord,
  SessionRecord,
  ToolType,
  UserRecord,
} from './records.ts';

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
 * What an adapter (embedded files, PostgreSQL) must do: store and fetch, scoped by owner, and no
 * more; the rules above it (ownership checked again, search, sort, session pruning) live once in
 * policy.ts. Every patient, history and export call takes the caller's id and answers only that
 * clinician's records. Adapters:
 * - `listPatients`: the owner's patients in any order; with `needle` (already trimmed and
 *   lower-cased, never empty, without line breaks) only those whose `patientSearchText` (policy.ts)
 *   contains it as plain text (`%`, `_`, quotes and backslashes are ordinary characters);
 * - `listCalculations` / `listExports`: newest first by the order saved (not by the createdAt text);
 * - `createUser`: e-mails are unique compared lower-cased;
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
  /** The account's sessions neither revoked nor expired at `at` (ISO time), oldest (first made) first. */
  listOpenSessions(userId: string, at: string): Promise<SessionRecord[]>;
  /** Deletes sessions revoked or expired at or before `endedBy` (ISO time); answers how many went. */
  deleteEndedSessions(endedBy: string): Promise<number>;

  createPatient(patient: PatientRecord): Promise<void>;
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

  saveCalculation(entry: CalculationRecord): Promise<void>;
  /** Newest first (the order they were saved), a page of them and how many match. */
  listCalculations(ownerId: string, filter: HistoryFilter): Promise<{ items: CalculationRecord[]; total: number }>;
  findCalculation(ownerId: string, id: string): Promise<CalculationRecord | undefined>;
  /** Every calculation of the owner, oldest first (the order saved), read a page at a time (the account export). */
  calculationsOf(ownerId: string): AsyncIterable<CalculationRecord>;

  /** Stores the PDF's bytes and its metadata together: if either fails, nothing is kept. */
  saveExport(record: ExportRecord, bytes: Uint8Array): Promise<void>;
  /** The caller's exports, newest first, optionally of one patient. */
  listExports(ownerId: string, filter: ExportFilter): Promise<ExportRecord[]>;
  findExport(ownerId: string, id: string): Promise<ExportRecord | undefined>;
  /** The stored PDF's bytes, or undefined when the export is not the caller's (or does not exist). */
  readExportFile(ownerId: string, id: string): Promise<Buffer | undefined>;
  /** Deletes the export's metadata and bytes. False when not the caller's. */
  deleteExport(ownerId: string, id: string): Promise<boolean>;

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
export interface Store extends Omit<StoreAdapter, 'deleteEndedSessions' | 'listExports'> {
  listExports(ownerId: string, filter?: ExportFilter): Promise<ExportRecord[]>;
}
