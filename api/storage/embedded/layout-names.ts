import path from 'node:path';
import type {
  AuthFlowRecord,
  ExportRecord,
  OidcIdentityRecord,
  PasskeyRecord,
  PatientRecord,
  RecoveryCodeRecord,
  SecondFactorFailureRecord,
  SessionRecord,
  TotpRecord,
  UserRecord,
} from '../records.ts';

/**
 * The embedded store's files in DATA_DIR (layout 2):
 *
 *   store.json                       {"layout":2}: how to read the rest (a later layout migrates again)
 *   accounts.json                    users, sessions, single sign-on identities, second factors (and failed
 *                                    ones in a row), sign-in steps under way (lowdb, rewritten on a change)
 *   clinicians/<ownerId>/patients.json   the clinician's patients and deleted patient ids (lowdb)
 *   clinicians/<ownerId>/history.jsonl   their calculations, one JSON line each, append-only
 *   clinicians/<ownerId>/exports.jsonl   their export records and deletions, append-only
 *   exports/<exportId>.pdf           the stored PDFs
 *
 * Layout 1 was one lowdb file, db.json, rewritten whole on every write.
 */
export const LAYOUT_VERSION = 2;
export const LAYOUT_FILE_NAME = 'store.json';
export const ACCOUNTS_FILE_NAME = 'accounts.json';
export const CLINICIANS_DIR_NAME = 'clinicians';
export const PATIENTS_FILE_NAME = 'patients.json';
export const HISTORY_FILE_NAME = 'history.jsonl';
export const EXPORT_LOG_FILE_NAME = 'exports.jsonl';
/** The stored PDFs: DATA_DIR/exports/<id>.pdf. */
export const EXPORTS_DIR_NAME = 'exports';
/** Layout 1's single file, migrated at the first start and then kept as `db.json.migrated-<time>.bak`. */
export const LEGACY_DATA_FILE_NAME = 'db.json';
/** Present while a migration writes the new layout: what it finds at start is its own, unfinished work. */
export const MIGRATION_MARKER_NAME = 'migration-in-progress';

/** Owner and export ids are ours (UUIDs); anything else never becomes part of a file path. */
export const SAFE_ID = /^[A-Za-z0-9-]{1,100}$/;

export function assertSafeId(id: string, what: 'An owner id' | 'An export id'): void {
  if (!SAFE_ID.test(id)) throw new Error(`${what} must be letters, digits and dashes`);
}

export const clinicianDir = (dataDir: string, ownerId: string) => {
  assertSafeId(ownerId, 'An owner id');
  return path.join(dataDir, CLINICIANS_DIR_NAME, ownerId);
};

export interface LayoutFile {
  layout: typeof LAYOUT_VERSION;
  /** Set by a migration from db.json: the hash of the file migrated, so it is renamed, never migrated twice. */
  migratedFrom?: { file: string; sha256: string };
}

export interface AccountsFile {
  users: UserRecord[];
  sessions: SessionRecord[];
  // Added with single sign-on and second factors: a file written before them has none (read as empty).
  identities: OidcIdentityRecord[];
  totp: TotpRecord[];
  recoveryCodes: RecoveryCodeRecord[];
  passkeys: PasskeyRecord[];
  authFlows: AuthFlowRecord[];
  /** Added with the cap on failed second factors: a file written before it has none (read as empty). */
  secondFactorFailures: SecondFactorFailureRecord[];
  /**
   * Accounts removed from `users` whose folder and PDFs are being removed (eraseAccount): a start that
   * finds one here finishes the removal first. Absent when there is none.
   */
  erasing?: string[];
}

/** The lists an accounts.json of an earlier release may lack. */
export const ACCOUNT_SECURITY_LISTS = [
  'identities',
  'totp',
  'recoveryCodes',
  'passkeys',
  'authFlows',
  'secondFactorFailures',
] as const;

export interface PatientsFile {
  patients: PatientRecord[];
  /**
   * Patients deleted: their calculations and exports read as unlinked (patientId null). Deleting is
   * one rewrite of this file, so it is all or nothing without touching the append-only logs.
   */
  deletedPatientIds: string[];
}

/** A line of exports.jsonl: an export's record, or the deletion of one written before it. */
export type ExportLogLine = ExportRecord | { deletedExport: string };

export const emptyAccounts = (): AccountsFile => ({
  users: [],
  sessions: [],
  identities: [],
  totp: [],
  recoveryCodes: [],
  passkeys: [],
  authFlows: [],
  secondFactorFailures: [],
});
export const emptyPatients = (): PatientsFile => ({ patients: [], deletedPatientIds: [] });
