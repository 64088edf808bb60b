import type { CalculationRecord, ExportRecord, PatientRecord, SessionRecord, ToolType, UserRecord } from './records.ts';

export type PatientFields = Omit<PatientRecord, 'id' | 'ownerId' | 'createdAt' | 'updatedAt'>;

export interface HistoryFilter {
  patientId?: string;
  toolType?: ToolType;
  offset: number;
  limit: number;
}

export interface ExportFilter {
  patientId?: string;
}

/**
 * Everything the API needs from storage. Every patient and history call takes the caller's id and
 * answers only that clinician's records: another clinician's id is indistinguishable from a missing
 * one. The lowdb adapter implements it today; a PostgreSQL adapter can implement it later.
 * A returned promise resolves only once the change is written.
 */
export interface Store {
  createUser(user: UserRecord): Promise<'created' | 'duplicate_email'>;
  findUserByEmail(email: string): Promise<UserRecord | undefined>;
  findUserById(id: string): Promise<UserRecord | undefined>;

  createSession(session: SessionRecord): Promise<void>;
  findSession(id: string): Promise<SessionRecord | undefined>;
  revokeSession(id: string, revokedAt: string): Promise<void>;

  createPatient(patient: PatientRecord): Promise<void>;
  listPatients(ownerId: string, query?: string): Promise<PatientRecord[]>;
  findPatient(ownerId: string, id: string): Promise<PatientRecord | undefined>;
  updatePatient(
    ownerId: string,
    id: string,
    changes: Partial<PatientFields>,
    updatedAt: string,
  ): Promise<PatientRecord | undefined>;
  /** Deletes the patient and unlinks (keeps) their calculations and exports. False when not the caller's. */
  deletePatient(ownerId: string, id: string): Promise<boolean>;

  saveCalculation(entry: CalculationRecord): Promise<void>;
  listCalculations(ownerId: string, filter: HistoryFilter): Promise<{ items: CalculationRecord[]; total: number }>;
  findCalculation(ownerId: string, id: string): Promise<CalculationRecord | undefined>;

  /**
   * Stores the PDF's bytes, then its metadata; resolves once both are written. If either write
   * fails, nothing is kept (no file without metadata, no metadata without its file).
   */
  saveExport(record: ExportRecord, bytes: Uint8Array): Promise<void>;
  /** The caller's exports, newest first, optionally of one patient. */
  listExports(ownerId: string, filter?: ExportFilter): Promise<ExportRecord[]>;
  findExport(ownerId: string, id: string): Promise<ExportRecord | undefined>;
  /** The stored PDF's bytes, or undefined when the export is not the caller's (or does not exist). */
  readExportFile(ownerId: string, id: string): Promise<Buffer | undefined>;

  close(): Promise<void>;
}
