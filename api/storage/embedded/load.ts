import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { completeSession, type CalculationRecord, type ExportRecord } from '../records.ts';
import { StorageError } from '../storage-error.ts';
import { readLog, type TornTail } from './append-log.ts';
import { DurableJsonFile, ensureDir, writeFileDurably } from './durable-fs.ts';
import {
  ACCOUNTS_FILE_NAME,
  CLINICIANS_DIR_NAME,
  EXPORT_LOG_FILE_NAME,
  HISTORY_FILE_NAME,
  PATIENTS_FILE_NAME,
  SAFE_ID,
  ACCOUNT_SECURITY_LISTS,
  emptyAccounts,
  emptyPatients,
  type AccountsFile,
  type ExportLogLine,
  type PatientsFile,
} from './layout-names.ts';

/** What one clinician's folder held at start, checked, with deletions applied. */
export interface LoadedClinician {
  ownerId: string;
  patients: PatientsFile;
  patientsFileExists: boolean;
  calculations: CalculationRecord[];
  historyFileExists: boolean;
  /** By id, in the order saved. */
  exports: Map<string, ExportRecord>;
  exportLogFileExists: boolean;
  /** Unfinished last lines a crash left, to cut off once everything has been read and checked. */
  tornTails: TornTail[];
}

/** A JSON file read whole and checked; null when it does not exist. Damage is a StorageError naming it. */
async function readJson<T>(file: string, problemOf: (data: unknown) => string | undefined): Promise<T | null> {
  let data: unknown;
  try {
    data = await new DurableJsonFile<unknown>(file).read();
  } catch (error) {
    throw new StorageError(
      `The data file ${file} is damaged and cannot be read (${(error as Error).message}). ` +
        'It has not been changed. Restore it from a backup.',
    );
  }
  if (data === null) return null;
  const problem = problemOf(data);
  if (problem) {
    throw new StorageError(
      `The data file ${file} is not one this server can read (${problem}). It has not been changed.`,
    );
  }
  return data as T;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function listsProblem(data: unknown, names: readonly string[]): string | undefined {
  if (!isObject(data)) return 'it does not hold an object';
  const missing = names.find((name) => !Array.isArray(data[name]));
  return missing ? `the "${missing}" list is missing` : undefined;
}

/** A record of this clinician: an object with a string id and this owner's id. */
function recordProblem(value: unknown, ownerId: string): string | undefined {
  if (!isObject(value)) return 'not an object';
  if (typeof value.id !== 'string') return 'no id';
  if (value.ownerId !== ownerId) return `the ownerId ${JSON.stringify(value.ownerId)} is not this folder's`;
  if (value.patientId !== null && typeof value.patientId !== 'string') return 'the patientId is not an id or null';
  return undefined;
}

/** A patient's EHR link, when it has one (a file written before launches existed has none). */
function ehrPatientProblem(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const valid = isObject(value) && typeof value.fhirBase === 'string' && typeof value.patientId === 'string';
  if (!valid) return 'the ehrPatient is not a FHIR base URL and a Patient id';
  const { identifier, weight } = value;
  if (
    identifier !== undefined &&
    !(isObject(identifier) && typeof identifier.system === 'string' && typeof identifier.value === 'string')
  )
    return "the ehrPatient's identifier is not a system and a value";
  if (
    weight !== undefined &&
    !(
      isObject(weight) &&
      typeof weight.kg === 'number' &&
      typeof weight.recordedAt === 'string' &&
      typeof weight.readAt === 'string'
    )
  )
    return "the ehrPatient's weight is not kg, recordedAt and readAt";
  return undefined;
}

export async function loadAccounts(dataDir: string): Promise<AccountsFile> {
  const file = path.join(dataDir, ACCOUNTS_FILE_NAME);
  const accounts = await readJson<AccountsFile>(file, (data) => {
    const problem = listsProblem(data, ['users', 'sessions']);
    if (problem) return problem;
    const present = ACCOUNT_SECURITY_LISTS.find(
      (name) => name in (data as object) && !Array.isArray((data as never)[name]),
    );
    return present ? `the "${present}" list is not a list` : undefined;
  });
  if (accounts) {
    // A file of an earlier release: no identities, second factors or sign-ins under way yet.
    for (const name of ACCOUNT_SECURITY_LISTS) accounts[name] ??= [];
    accounts.sessions = accounts.sessions.map(completeSession);
    return accounts;
  }
  // Missing: a first start stopped before writing it. With clinicians' data present, it was lost.
  const clinicians = await readdir(path.join(dataDir, CLINICIANS_DIR_NAME)).catch(() => []);
  if (clinicians.length > 0) {
    throw new StorageError(
      `The data file ${file} is missing, but ${path.join(dataDir, CLINICIANS_DIR_NAME)} holds clinicians' data. ` +
        'Nothing has been changed. Restore it from a backup.',
    );
  }
  const empty = emptyAccounts();
  await writeFileDurably(file, JSON.stringify(empty));
  return empty;
}

/** Every clinician folder's data (folders whose names cannot be owner ids are not ours, and are left alone). */
export async function loadClinicians(dataDir: string): Promise<LoadedClinician[]> {
  const dir = path.join(dataDir, CLINICIANS_DIR_NAME);
  await ensureDir(dir);
  const loaded: LoadedClinician[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isDirectory() && SAFE_ID.test(entry.name))
      loaded.push(await loadClinician(path.join(dir, entry.name), entry.name));
  }
  return loaded;
}

async function loadClinician(dir: string, ownerId: string): Promise<LoadedClinician> {
  const patientsFile = path.join(dir, PATIENTS_FILE_NAME);
  const stored = await readJson<PatientsFile>(patientsFile, (data) => {
    const problem = listsProblem(data, ['patients', 'deletedPatientIds']);
    if (problem) return problem;
    const { patients, deletedPatientIds } = data as { patients: unknown[]; deletedPatientIds: unknown[] };
    for (const [index, patient] of patients.entries()) {
      const problem =
        recordProblem(isObject(patient) ? { patientId: null, ...patient } : patient, ownerId) ??
        ehrPatientProblem((patient as Record<string, unknown>).ehrPatient);
      if (problem) return `patient ${index + 1}: ${problem}`;
    }
    if (deletedPatientIds.some((id) => typeof id !== 'string')) return 'a deleted patient id is not text';
    return undefined;
  });
  const patients = stored ?? emptyPatients();
  const deleted = new Set(patients.deletedPatientIds);

  const historyFile = path.join(dir, HISTORY_FILE_NAME);
  const history = await readLog(historyFile);
  const calculations = history.lines.map((line, index) => {
    const problem = recordProblem(line, ownerId);
    if (problem) throw lineError(historyFile, index, problem);
    const entry = line as CalculationRecord;
    if (entry.patientId !== null && deleted.has(entry.patientId)) entry.patientId = null;
    return entry;
  });

  const exportLogFile = path.join(dir, EXPORT_LOG_FILE_NAME);
  const exportLog = await readLog(exportLogFile);
  const exports = new Map<string, ExportRecord>();
  exportLog.lines.forEach((line, index) => {
    if (isObject(line) && typeof line.deletedExport === 'string' && Object.keys(line).length === 1) {
      exports.delete(line.deletedExport);
      return;
    }
    const problem = recordProblem(line, ownerId);
    if (problem) throw lineError(exportLogFile, index, problem);
    const entry = line as ExportLogLine as ExportRecord;
    if (entry.patientId !== null && deleted.has(entry.patientId)) entry.patientId = null;
    exports.set(entry.id, entry);
  });

  return {
    ownerId,
    patients,
    patientsFileExists: stored !== null,
    calculations,
    historyFileExists: history.exists,
    exports,
    exportLogFileExists: exportLog.exists,
    tornTails: [history.torn, exportLog.torn].filter((torn) => torn !== undefined),
  };
}

const lineError = (file: string, index: number, problem: string) =>
  new StorageError(
    `The data file ${file} is not one this server can read (line ${index + 1}: ${problem}). It has not been changed.`,
  );
