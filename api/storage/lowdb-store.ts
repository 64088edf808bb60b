import { access, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Low, type Adapter } from 'lowdb';
import { DataFile } from 'lowdb/node';
import type { DatabaseShape, ExportRecord, PatientRecord } from './records.ts';
import { patientSearchText } from './policy.ts';
import type { ExportFilter, HistoryFilter, PatientFields, StoreAdapter } from './store.ts';
import { StorageError } from './storage-error.ts';

export const DATA_FILE_NAME = 'db.json';
/** The stored PDFs: DATA_DIR/exports/<id>.pdf. */
export const EXPORTS_DIR_NAME = 'exports';
const COLLECTIONS = ['users', 'sessions', 'patients', 'calculations'] as const;
/** Lists added after the first release: a file written before them may lack them (they start empty). */
const ADDED_COLLECTIONS = ['exports'] as const;

const emptyDatabase = (): DatabaseShape => ({
  version: 1,
  users: [],
  sessions: [],
  patients: [],
  calculations: [],
  exports: [],
});

/**
 * The default store: one JSON file in DATA_DIR, opened with lowdb's file adapter explicitly (the
 * JSONFilePreset keeps data in memory under NODE_ENV=test). lowdb writes through steno: a temp file
 * then a rename, so a killed process leaves the old or the new file, never half of one. A write is
 * acknowledged (the promise resolves) only once it is on disk. A damaged file stops start-up with
 * a message naming it and is never overwritten. Export files a crash left behind are removed
 * (`log` hears how many).
 */
export async function openLowdbStore(
  dataDir: string,
  options: { log?: (message: string) => void } = {},
): Promise<StoreAdapter> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, DATA_FILE_NAME);
  // Compact JSON: every write rewrites the whole file.
  const adapter = new DataFile<DatabaseShape>(file, { parse: JSON.parse, stringify: (data) => JSON.stringify(data) });
  const exists = await access(file).then(
    () => true,
    () => false,
  );
  const data = exists ? await readDatabase(adapter, file) : emptyDatabase();
  const db = new Low<DatabaseShape>(adapter, data);
  if (!exists) await db.write();
  const exportsDir = path.join(dataDir, EXPORTS_DIR_NAME);
  const { partial, unreferenced } = await removeOrphanedExports(exportsDir, data.exports);
  if (partial + unreferenced > 0) {
    options.log?.(
      `Removed ${partial + unreferenced} orphaned export files from ${exportsDir} ` +
        `(${partial} unfinished uploads, ${unreferenced} PDF${unreferenced === 1 ? '' : 's'} with no export record)`,
    );
  }
  return new LowdbStore(db, file, exportsDir);
}

/**
 * A crash mid-upload leaves `<id>.pdf.partial`; a crash between the file and its metadata leaves a
 * `<id>.pdf` no record names. Neither can ever be downloaded, and both hold patient documents, so
 * they go at start (the DATA_DIR lock is held: no upload is under way). Other files are left alone.
 */
async function removeOrphanedExports(exportsDir: string, records: readonly ExportRecord[]) {
  const referenced = new Set(records.map((record) => `${record.id}.pdf`));
  const removed = { partial: 0, unreferenced: 0 };
  let entries;
  try {
    entries = await readdir(exportsDir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return removed;
    throw error;
  }
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    if (entry.name.endsWith('.pdf.partial')) removed.partial += 1;
    else if (entry.name.endsWith('.pdf') && !referenced.has(entry.name)) removed.unreferenced += 1;
    else continue;
    await rm(path.join(exportsDir, entry.name), { force: true });
  }
  return removed;
}

/**
 * The file's database, checked and with the lists added since it was written; a damaged file is a
 * StorageError naming it. Read through the adapter, never Low.read(): that keeps the data it has when
 * the file holds null, 0 or false, and the next write would replace the file with it.
 */
async function readDatabase(adapter: Adapter<DatabaseShape>, file: string): Promise<DatabaseShape> {
  let data: unknown;
  try {
    data = await adapter.read();
  } catch (error) {
    throw new StorageError(
      `The data file ${file} is damaged and cannot be read (${(error as Error).message}). ` +
        'It has not been changed. Restore it from a backup, or move it away to start with an empty database.',
    );
  }
  assertShape(data, file);
  addMissingLists(data);
  return data;
}

function assertShape(data: unknown, file: string): asserts data is DatabaseShape {
  const problem = shapeProblem(data);
  if (problem) {
    throw new StorageError(
      `The data file ${file} is not a database this server can read (${problem}). It has not been changed.`,
    );
  }
}

function shapeProblem(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return 'it does not hold an object';
  const record = data as Record<string, unknown>;
  if (record.version !== 1) return `unknown data version ${JSON.stringify(record.version)}`;
  const missing = COLLECTIONS.find((name) => !Array.isArray(record[name]));
  if (missing) return `the "${missing}" list is missing`;
  const damaged = ADDED_COLLECTIONS.find((name) => record[name] !== undefined && !Array.isArray(record[name]));
  return damaged ? `the "${damaged}" entry is not a list` : undefined;
}

/**
 * Additive migration: a list added since the file was written starts empty. Only memory changes;
 * the file gains the list with the next write.
 */
function addMissingLists(data: DatabaseShape): void {
  for (const name of ADDED_COLLECTIONS) data[name] ??= [];
}

/** Export ids are ours (UUIDs); anything else never becomes part of a file path. */
const SAFE_EXPORT_ID = /^[A-Za-z0-9-]{1,100}$/;

class LowdbStore implements StoreAdapter {
  readonly kind = 'embedded' as const;
  readonly #db: Low<DatabaseShape>;
  readonly #file: string;
  readonly #exportsDir: string;
  constructor(db: Low<DatabaseShape>, file: string, exportsDir: string) {
    this.#db = db;
    this.#file = file;
    this.#exportsDir = exportsDir;
  }

  get #data(): DatabaseShape {
    return this.#db.data;
  }

  /**
   * Applies a change in memory and resolves once the file holds it; on a failed write, memory is reloaded from disk.
   */
  async #commit<T>(change: (data: DatabaseShape) => T): Promise<T> {
    const result = change(this.#data);
    try {
      await this.#db.write();
    } catch (error) {
      this.#db.data = await readDatabase(this.#db.adapter, this.#file);
      throw error;
    }
    return result;
  }

  async createUser(user: DatabaseShape['users'][number]) {
    if (this.#data.users.some((existing) => existing.email === user.email)) return 'duplicate_email' as const;
    await this.#commit((data) => data.users.push(user));
    return 'created' as const;
  }
  async findUserByEmail(email: string) {
    return this.#data.users.find((user) => user.email === email);
  }
  async findUserById(id: string) {
    return this.#data.users.find((user) => user.id === id);
  }

  async createSession(session: DatabaseShape['sessions'][number]) {
    await this.#commit((data) => data.sessions.push(session));
  }
  async deleteEndedSessions(endedBy: string) {
    const cutoff = Date.parse(endedBy);
    const ended = (session: DatabaseShape['sessions'][number]) =>
      (session.revokedAt !== null && Date.parse(session.revokedAt) <= cutoff) ||
      Date.parse(session.expiresAt) <= cutoff;
    const count = this.#data.sessions.filter(ended).length;
    if (count > 0) await this.#commit((data) => (data.sessions = data.sessions.filter((session) => !ended(session))));
    return count;
  }
  async findSession(id: string) {
    return this.#data.sessions.find((session) => session.id === id);
  }
  async revokeSession(id: string, revokedAt: string) {
    const session = this.#data.sessions.find((candidate) => candidate.id === id);
    if (!session || session.revokedAt) return;
    await this.#commit(() => {
      session.revokedAt = revokedAt;
    });
  }

  async createPatient(patient: PatientRecord) {
    await this.#commit((data) => data.patients.push(patient));
  }
  async listPatients(ownerId: string, needle?: string) {
    return this.#data.patients.filter(
      (patient) => patient.ownerId === ownerId && (!needle || patientSearchText(patient).includes(needle)),
    );
  }
  async findPatient(ownerId: string, id: string) {
    return this.#data.patients.find((patient) => patient.id === id && patient.ownerId === ownerId);
  }
  async updatePatient(ownerId: string, id: string, changes: Partial<PatientFields>, updatedAt: string) {
    const patient = await this.findPatient(ownerId, id);
    if (!patient) return undefined;
    await this.#commit(() => Object.assign(patient, changes, { updatedAt }));
    return patient;
  }
  async deletePatient(ownerId: string, id: string) {
    const index = this.#data.patients.findIndex((patient) => patient.id === id && patient.ownerId === ownerId);
    if (index === -1) return false;
    await this.#commit((data) => {
      data.patients.splice(index, 1);
      for (const entry of data.calculations)
        if (entry.ownerId === ownerId && entry.patientId === id) entry.patientId = null;
      for (const entry of data.exports) if (entry.ownerId === ownerId && entry.patientId === id) entry.patientId = null;
    });
    return true;
  }

  async saveCalculation(entry: DatabaseShape['calculations'][number]) {
    await this.#commit((data) => data.calculations.push(entry));
  }
  async listCalculations(ownerId: string, filter: HistoryFilter) {
    const matches = [];
    // Entries are appended in time order: walk backwards for newest first.
    for (let index = this.#data.calculations.length - 1; index >= 0; index -= 1) {
      const entry = this.#data.calculations[index]!;
      if (entry.ownerId !== ownerId) continue;
      if (filter.patientId !== undefined && entry.patientId !== filter.patientId) continue;
      if (filter.toolType !== undefined && entry.toolType !== filter.toolType) continue;
      matches.push(entry);
    }
    return { items: matches.slice(filter.offset, filter.offset + filter.limit), total: matches.length };
  }
  async findCalculation(ownerId: string, id: string) {
    return this.#data.calculations.find((entry) => entry.id === id && entry.ownerId === ownerId);
  }

  #exportFile(id: string): string {
    if (!SAFE_EXPORT_ID.test(id)) throw new Error('An export id must be letters, digits and dashes');
    return path.join(this.#exportsDir, `${id}.pdf`);
  }

  async saveExport(record: ExportRecord, bytes: Uint8Array) {
    const file = this.#exportFile(record.id);
    const partial = `${file}.partial`;
    await mkdir(this.#exportsDir, { recursive: true, mode: 0o700 });
    // The bytes first, under a temporary name renamed once complete: a crash leaves no half PDF
    // under an export's name. Metadata is written only once the file is in place.
    try {
      await writeFile(partial, bytes, { mode: 0o600, flag: 'wx' });
      await rename(partial, file);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    try {
      await this.#commit((data) => data.exports.push(record));
    } catch (error) {
      await rm(file, { force: true });
      throw error;
    }
  }
  async listExports(ownerId: string, filter: ExportFilter) {
    const matches: ExportRecord[] = [];
    // Appended in time order: walk backwards for newest first.
    for (let index = this.#data.exports.length - 1; index >= 0; index -= 1) {
      const entry = this.#data.exports[index]!;
      if (entry.ownerId !== ownerId) continue;
      if (filter.patientId !== undefined && entry.patientId !== filter.patientId) continue;
      matches.push(entry);
    }
    return matches;
  }
  async findExport(ownerId: string, id: string) {
    return this.#data.exports.find((entry) => entry.id === id && entry.ownerId === ownerId);
  }
  async readExportFile(ownerId: string, id: string) {
    const entry = await this.findExport(ownerId, id);
    // The path comes from the stored record, never from the caller's text. A stored export whose
    // file is gone is a storage fault (an error), not a "not found".
    return entry ? readFile(this.#exportFile(entry.id)) : undefined;
  }

  async deleteExport(ownerId: string, id: string) {
    const index = this.#data.exports.findIndex((entry) => entry.id === id && entry.ownerId === ownerId);
    if (index === -1) return false;
    const file = this.#exportFile(id);
    // Metadata first: a crash after it leaves a file no record names, removed at the next start.
    await this.#commit((data) => data.exports.splice(index, 1));
    await rm(file, { force: true });
    return true;
  }

  async ping() {
    await access(this.#file);
  }

  async close() {
    // lowdb holds no handle between writes; nothing to release.
  }
}
