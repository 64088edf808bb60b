import type { AgeGroup } from '../../clinical/index.ts';
import type { ToolType } from '../../contracts/records.ts';

/** What storage holds. Only the storage adapter touches these arrays directly. */
export interface UserRecord {
  id: string;
  email: string;
  name: string;
  license: string | null;
  passwordHash: string;
  createdAt: string;
  /**
   * Set while a deletion waits out ACCOUNT_DELETION_GRACE_DAYS: the account is disabled (no session, no
   * sign-in but to cancel) and erased after `eraseAfter`. Absent for an account in use.
   */
  deletion?: AccountDeletion;
}

export interface AccountDeletion {
  requestedAt: string;
  eraseAfter: string;
}

/** What erasing an account removed (for the audit line's counts). */
export interface ErasedAccount {
  patients: number;
  calculations: number;
  exports: number;
  sessions: number;
}

export interface SessionRecord {
  id: string;
  userId: string;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
}

/** Data minimisation: what a clinician needs to find a patient again and dose them, nothing more. */
export interface PatientRecord {
  id: string;
  ownerId: string;
  displayName: string;
  mrn: string | null;
  yearOfBirth: number | null;
  ageGroup: AgeGroup | null;
  weightKg: number | null;
  notes: string | null;
  createdAt: string;
  updatedAt: string;
}

export { TOOL_TYPES } from '../../contracts/records.ts';
export type { ToolType };

/** One calculation as computed then: the validated inputs and the response sent. */
export interface CalculationRecord {
  id: string;
  ownerId: string;
  patientId: string | null;
  toolType: ToolType;
  inputs: unknown;
  result: unknown;
  createdAt: string;
}

/**
 * A PDF a clinician saved to their notes. The bytes live in DATA_DIR/exports/<id>.pdf; this is the
 * metadata, which holds no patient values (the links are ids; fileName is the sanitised name).
 */
export interface ExportRecord {
  id: string;
  ownerId: string;
  patientId: string | null;
  calculationId: string | null;
  fileName: string;
  sizeBytes: number;
  createdAt: string;
}

export interface DatabaseShape {
  version: 1;
  users: UserRecord[];
  sessions: SessionRecord[];
  patients: PatientRecord[];
  calculations: CalculationRecord[];
  /** Added after the first release: a db.json written before it has no `exports` (read as empty). */
  exports: ExportRecord[];
}
