import { access, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { patientSearchText } from '../policy.ts';
import type {
  AccountDeletion,
  CalculationRecord,
  ErasedAccount,
  ExportRecord,
  PatientRecord,
  SessionRecord,
  UserRecord,
} from '../records.ts';
import type { ExportFilter, HistoryFilter, PatientFields, ProfileChanges, StoreAdapter } from '../store.ts';
import { AppendLog } from './append-log.ts';
import { DurableJsonFile, ensureDir, fsyncDir, writeFileDurably } from './durable-fs.ts';
import { JsonDocument } from './json-document.ts';
import {
  ACCOUNTS_FILE_NAME,
  EXPORT_LOG_FILE_NAME,
  EXPORTS_DIR_NAME,
  HISTORY_FILE_NAME,
  LAYOUT_FILE_NAME,
  PATIENTS_FILE_NAME,
  assertSafeId,
  clinicianDir,
  emptyPatients,
  type AccountsFile,
  type ExportLogLine,
  type PatientsFile,
} from './layout-names.ts';
import type { LoadedClinician } from './load.ts';

/**
 * Removes a clinician's folder (patients, history, export records) and their PDFs, durably: a removed
 * name survives a power cut once its folder is fsynced.
 */
export async function removeClinicianFiles(dataDir: string, ownerId: string, exportIds: readonly string[]) {
  const dir = clinicianDir(dataDir, ownerId);
  await rm(dir, { recursive: true, force: true });
  await fsyncDir(path.dirname(dir)).catch(() => {});
  for (const id of exportIds) {
    assertSafeId(id, 'An export id');
    await rm(path.join(dataDir, EXPORTS_DIR_NAME, `${id}.pdf`), { force: true });
  }
  if (exportIds.length > 0) await fsyncDir(path.join(dataDir, EXPORTS_DIR_NAME)).catch(() => {});
}

/** One clinician's records in memory (what their files hold) and the files that change them. */
class Clinician {
  /** Resolves once the clinician's folder exists on disk (made durable when it is new). */
  readonly ready: Promise<void>;
  readonly patients: JsonDocument<PatientsFile>;
  readonly deletedPatients: Set<string>;
  readonly history: AppendLog;
  readonly calculations: CalculationRecord[];
  readonly calculationsById: Map<string, CalculationRecord>;
  readonly exportLog: AppendLog;
  /** By id, in the order saved. */
  readonly exports: Map<string, ExportRecord>;

  constructor(dir: string, loaded: LoadedClinician | undefined) {
    this.ready = loaded ? Promise.resolve() : ensureDir(dir);
    this.ready.catch(() => {}); // awaited by every write, which reports it
    const patients = loaded?.patients ?? emptyPatients();
    this.patients = new JsonDocument(new DurableJsonFile<PatientsFile>(path.join(dir, PATIENTS_FILE_NAME)), patients);
    this.deletedPatients = new Set(patients.deletedPatientIds);
    this.history = new AppendLog(path.join(dir, HISTORY_FILE_NAME), loaded?.historyFileExists ?? false);
    this.calculations = loaded?.calculations ?? [];
    this.calculationsById = new Map(this.calculations.map((entry) => [entry.id, entry]));
    this.exportLog = new AppendLog(path.join(dir, EXPORT_LOG_FILE_NAME), loaded?.exportLogFileExists ?? false);
    this.exports = loaded?.exports ?? new Map();
  }

  /** A record saved after its patient was deleted (a race with the delete) reads unlinked, as on the next start. */
  unlinkIfDeleted<T extends { patientId: string | null }>(entry: T): T {
    if (entry.patientId !== null && this.deletedPatients.has(entry.patientId)) entry.patientId = null;
    return entry;
  }

  settled() {
    return Promise.all([this.patients.settled(), this.history.settled(), this.exportLog.settled()]);
  }
}

/**
 * The embedded store (layout 2, see layout-names.ts): everything in memory, each change written to
 * the one small file it concerns and durable before its promise resolves. Saving a calculation or an
 * export's record appends one line to that clinician's log, whatever the store's size.
 */
export class EmbeddedStore implements StoreAdapter {
  readonly kind = 'embedded' as const;
  readonly #dataDir: string;
  readonly #exportsDir: string;
  readonly #accounts: JsonDocument<AccountsFile>;
  readonly #clinicians = new Map<string, Clinician>();
  /** Accounts erased while this process runs: a request already under way for one writes nothing. */
  readonly #erased = new Set<string>();

  constructor(dataDir: string, accounts: AccountsFile, clinicians: LoadedClinician[]) {
    this.#dataDir = dataDir;
    this.#exportsDir = path.join(dataDir, EXPORTS_DIR_NAME);
    this.#accounts = new JsonDocument(new DurableJsonFile(path.join(dataDir, ACCOUNTS_FILE_NAME)), accounts);
    for (const loaded of clinicians) {
      this.#clinicians.set(loaded.ownerId, new Clinician(clinicianDir(dataDir, loaded.ownerId), loaded));
    }
  }

  /** Every export record, for the start-up check of the exports folder. */
  allExportIds(): Set<string> {
    const ids = new Set<string>();
    for (const clinician of this.#clinicians.values()) for (const id of clinician.exports.keys()) ids.add(id);
    return ids;
  }

  /** The clinician's records for reading: none (and nothing created) for an owner with no data. */
  #reader(ownerId: string): Clinician | undefined {
    return this.#clinicians.get(ownerId);
  }

  /** The clinician's records for a change, created (with their folder) for a new owner. */
  async #writer(ownerId: string): Promise<Clinician> {
    if (this.#erased.has(ownerId)) throw new Error('The account was erased while this request was under way');
    let clinician = this.#clinicians.get(ownerId);
    if (!clinician) {
      clinician = new Clinician(clinicianDir(this.#dataDir, ownerId), undefined); // checks the id
      this.#clinicians.set(ownerId, clinician);
    }
    try {
      await clinician.ready;
    } catch (error) {
      // The folder could not be made, so nothing was written for them: the next write tries again.
      if (this.#clinicians.get(ownerId) === clinician) this.#clinicians.delete(ownerId);
      throw error;
    }
    return clinician;
  }

  get #users(): UserRecord[] {
    return this.#accounts.data.users;
  }
  get #sessions(): SessionRecord[] {
    return this.#accounts.data.sessions;
  }

  async createUser(user: UserRecord) {
    const email = user.email.toLowerCase();
    const taken = (users: UserRecord[]) => users.some((existing) => existing.email.toLowerCase() === email);
    if (taken(this.#users)) return 'duplicate_email' as const;
    return this.#accounts.commit((draft) => {
      if (taken(draft.users)) return 'duplicate_email' as const;
      draft.users.push(user);
      return 'created' as const;
    });
  }
  async findUserByEmail(email: string) {
    const wanted = email.toLowerCase();
    return this.#users.find((user) => user.email.toLowerCase() === wanted);
  }
  async findUserById(id: string) {
    return this.#users.find((user) => user.id === id);
  }

  async changePassword(userId: string, passwordHash: string, options: { keepSessionId: string; at: string }) {
    if (!(await this.findUserById(userId))) return undefined;
    // One rewrite of accounts.json holds both: the new hash and the other sessions ended.
    return this.#accounts.commit((draft) => {
      const user = draft.users.find((candidate) => candidate.id === userId);
      if (!user) return undefined;
      user.passwordHash = passwordHash;
      let endedSessions = 0;
      for (const session of draft.sessions) {
        if (session.userId !== userId || session.id === options.keepSessionId || session.revokedAt) continue;
        session.revokedAt = options.at;
        endedSessions += 1;
      }
      return { endedSessions };
    });
  }

  async updateProfile(userId: string, changes: ProfileChanges) {
    if (!(await this.findUserById(userId))) return undefined;
    return this.#accounts.commit((draft) => {
      const user = draft.users.find((candidate) => candidate.id === userId);
      if (!user) return undefined;
      if (changes.name !== undefined) user.name = changes.name;
      if (changes.license !== undefined) user.license = changes.license;
      return { ...user };
    });
  }

  async scheduleErasure(userId: string, deletion: AccountDeletion) {
    if (!(await this.findUserById(userId))) return false;
    // One rewrite of accounts.json: the account disabled and its sessions ended together.
    return this.#accounts.commit((draft) => {
      const user = draft.users.find((candidate) => candidate.id === userId);
      if (!user) return false;
      user.deletion = { ...deletion };
      for (const session of draft.sessions) {
        if (session.userId === userId && !session.revokedAt) session.revokedAt = deletion.requestedAt;
      }
      return true;
    });
  }

  async cancelErasure(userId: string) {
    if (!(await this.findUserById(userId))?.deletion) return false;
    return this.#accounts.commit((draft) => {
      const user = draft.users.find((candidate) => candidate.id === userId);
      if (!user?.deletion) return false;
      delete user.deletion;
      return true;
    });
  }

  /**
   * One rewrite of accounts.json removes the user and their sessions and notes the id in `erasing`: from
   * then on the account does not exist. Then the clinician's folder and PDFs are removed, and the note
   * with them; a crash before that is finished at the next start (lowdb-store.ts).
   */
  async eraseAccount(userId: string) {
    if (!(await this.findUserById(userId))) return undefined;
    const sessions = await this.#accounts.commit((draft) => {
      const before = draft.sessions.length;
      draft.users = draft.users.filter((user) => user.id !== userId);
      draft.sessions = draft.sessions.filter((session) => session.userId !== userId);
      draft.erasing = [...(draft.erasing ?? []).filter((id) => id !== userId), userId];
      return before - draft.sessions.length;
    });
    this.#erased.add(userId);
    const clinician = this.#clinicians.get(userId);
    this.#clinicians.delete(userId);
    const erased: ErasedAccount = { patients: 0, calculations: 0, exports: 0, sessions };
    if (clinician) {
      await clinician.settled();
      erased.patients = clinician.patients.data.patients.length;
      erased.calculations = clinician.calculations.length;
      erased.exports = clinician.exports.size;
      await removeClinicianFiles(this.#dataDir, userId, [...clinician.exports.keys()]);
    }
    await this.#accounts.commit((draft) => {
      draft.erasing = (draft.erasing ?? []).filter((id) => id !== userId);
      if (draft.erasing.length === 0) delete draft.erasing;
    });
    return erased;
  }

  async listAccountsDueForErasure(at: string) {
    const cutoff = Date.parse(at);
    return this.#users
      .filter((user) => user.deletion && Date.parse(user.deletion.eraseAfter) <= cutoff)
      .map((user) => user.id);
  }

  /**
   * Per clinician: history.jsonl rewritten without the old entries, then exports.jsonl without the old
   * exports and those of removed entries, then their PDFs removed (a crash between leaves PDFs no record
   * names, removed at the next start).
   */
  async removeHistoryBefore(before: string) {
    const cutoff = Date.parse(before);
    const removed = { calculations: 0, exports: 0 };
    for (const clinician of [...this.#clinicians.values()]) {
      const old = new Set(
        clinician.calculations.filter((entry) => Date.parse(entry.createdAt) < cutoff).map((entry) => entry.id),
      );
      if (old.size > 0) {
        await clinician.history.rewrite(
          () => clinician.calculations.filter((entry) => !old.has(entry.id)),
          () => {
            const kept = clinician.calculations.filter((entry) => !old.has(entry.id));
            clinician.calculations.splice(0, clinician.calculations.length, ...kept);
            for (const id of old) clinician.calculationsById.delete(id);
          },
        );
        removed.calculations += old.size;
      }
      const goes = (record: ExportRecord) =>
        Date.parse(record.createdAt) < cutoff || (record.calculationId !== null && old.has(record.calculationId));
      const gone = [...clinician.exports.values()].filter(goes).map((record) => record.id);
      if (gone.length === 0) continue;
      await clinician.exportLog.rewrite(
        () => [...clinician.exports.values()].filter((record) => !gone.includes(record.id)),
        () => {
          for (const id of gone) clinician.exports.delete(id);
        },
      );
      for (const id of gone) await rm(this.#exportFile(id), { force: true });
      removed.exports += gone.length;
    }
    if (removed.exports > 0) await fsyncDir(this.#exportsDir);
    return removed;
  }

  async listSessions(userId: string) {
    return this.#sessions.filter((session) => session.userId === userId);
  }

  async createSession(session: SessionRecord) {
    await this.#accounts.commit((draft) => void draft.sessions.push(session));
  }
  async findSession(id: string) {
    return this.#sessions.find((session) => session.id === id);
  }
  async revokeSession(id: string, revokedAt: string) {
    const session = this.#sessions.find((candidate) => candidate.id === id);
    if (!session || session.revokedAt) return;
    await this.#accounts.commit((draft) => {
      const stored = draft.sessions.find((candidate) => candidate.id === id);
      if (stored && !stored.revokedAt) stored.revokedAt = revokedAt;
    });
  }
  async listOpenSessions(userId: string, at: string) {
    const now = Date.parse(at);
    // Kept in the order made: the oldest first.
    return this.#sessions.filter(
      (session) => session.userId === userId && !session.revokedAt && Date.parse(session.expiresAt) > now,
    );
  }
  async deleteEndedSessions(endedBy: string) {
    const cutoff = Date.parse(endedBy);
    const ended = (session: SessionRecord) =>
      (session.revokedAt !== null && Date.parse(session.revokedAt) <= cutoff) ||
      Date.parse(session.expiresAt) <= cutoff;
    if (!this.#sessions.some(ended)) return 0;
    return this.#accounts.commit((draft) => {
      const before = draft.sessions.length;
      draft.sessions = draft.sessions.filter((session) => !ended(session));
      return before - draft.sessions.length;
    });
  }

  async createPatient(patient: PatientRecord) {
    const clinician = await this.#writer(patient.ownerId);
    await clinician.patients.commit((draft) => void draft.patients.push(patient));
  }
  async listPatients(ownerId: string, needle?: string) {
    const patients = this.#reader(ownerId)?.patients.data.patients ?? [];
    return needle ? patients.filter((patient) => patientSearchText(patient).includes(needle)) : [...patients];
  }
  async findPatient(ownerId: string, id: string) {
    return this.#reader(ownerId)?.patients.data.patients.find((patient) => patient.id === id);
  }
  async updatePatient(ownerId: string, id: string, changes: Partial<PatientFields>, updatedAt: string) {
    if (!(await this.findPatient(ownerId, id))) return undefined;
    const clinician = await this.#writer(ownerId);
    return clinician.patients.commit((draft) => {
      const patient = draft.patients.find((candidate) => candidate.id === id);
      return patient && Object.assign(patient, changes, { updatedAt });
    });
  }
  async deletePatient(ownerId: string, id: string) {
    if (!(await this.findPatient(ownerId, id))) return false;
    const clinician = await this.#writer(ownerId);
    // One rewrite of patients.json removes the patient and records the id as deleted: the logs are
    // not touched, their records of the patient read as unlinked from now on (and at every start).
    return clinician.patients.commit(
      (draft) => {
        const index = draft.patients.findIndex((patient) => patient.id === id);
        if (index === -1) return false;
        draft.patients.splice(index, 1);
        draft.deletedPatientIds.push(id);
        return true;
      },
      (deleted) => {
        if (!deleted) return;
        clinician.deletedPatients.add(id);
        for (const entry of clinician.calculations) clinician.unlinkIfDeleted(entry);
        for (const entry of clinician.exports.values()) clinician.unlinkIfDeleted(entry);
      },
    );
  }

  async saveCalculation(entry: CalculationRecord) {
    const clinician = await this.#writer(entry.ownerId);
    await clinician.history.append(entry, (stored) => {
      clinician.calculations.push(clinician.unlinkIfDeleted(stored));
      clinician.calculationsById.set(stored.id, stored);
    });
  }
  async listCalculations(ownerId: string, filter: HistoryFilter) {
    const calculations = this.#reader(ownerId)?.calculations ?? [];
    const matches = [];
    // Entries are appended in time order: walk backwards for newest first.
    for (let index = calculations.length - 1; index >= 0; index -= 1) {
      const entry = calculations[index]!;
      if (filter.patientId !== undefined && entry.patientId !== filter.patientId) continue;
      if (filter.toolType !== undefined && entry.toolType !== filter.toolType) continue;
      matches.push(entry);
    }
    return { items: matches.slice(filter.offset, filter.offset + filter.limit), total: matches.length };
  }
  async findCalculation(ownerId: string, id: string) {
    return this.#reader(ownerId)?.calculationsById.get(id);
  }
  async *calculationsOf(ownerId: string) {
    // A copy of the list as it is now (the records themselves are never changed in place but to unlink).
    yield* [...(this.#reader(ownerId)?.calculations ?? [])];
  }

  #exportFile(id: string): string {
    assertSafeId(id, 'An export id');
    return path.join(this.#exportsDir, `${id}.pdf`);
  }

  async saveExport(record: ExportRecord, bytes: Uint8Array) {
    const file = this.#exportFile(record.id);
    const clinician = await this.#writer(record.ownerId);
    await ensureDir(this.#exportsDir);
    // The bytes first, under a temporary name renamed once complete and fsynced: a crash leaves no
    // half PDF under an export's name. The record is appended only once the file is in place; a PDF
    // no record names is removed at the next start.
    await writeFileDurably(file, bytes, `${file}.partial`);
    try {
      await clinician.exportLog.append<ExportLogLine>(record, (stored) =>
        clinician.exports.set(record.id, clinician.unlinkIfDeleted(stored as ExportRecord)),
      );
    } catch (error) {
      await rm(file, { force: true });
      throw error;
    }
  }
  async listExports(ownerId: string, filter: ExportFilter) {
    const exports = [...(this.#reader(ownerId)?.exports.values() ?? [])].reverse(); // newest first
    return filter.patientId === undefined ? exports : exports.filter((entry) => entry.patientId === filter.patientId);
  }
  async findExport(ownerId: string, id: string) {
    return this.#reader(ownerId)?.exports.get(id);
  }
  async readExportFile(ownerId: string, id: string) {
    const entry = await this.findExport(ownerId, id);
    // The path comes from the stored record, never from the caller's text. A stored export whose
    // file is gone is a storage fault (an error), not a "not found".
    return entry ? readFile(this.#exportFile(entry.id)) : undefined;
  }
  async deleteExport(ownerId: string, id: string) {
    if (!(await this.findExport(ownerId, id))) return false;
    const file = this.#exportFile(id);
    const clinician = await this.#writer(ownerId);
    // The record's deletion first: a crash after it leaves a file no record names, removed at the next start.
    let deleted = false;
    await clinician.exportLog.append<ExportLogLine>({ deletedExport: id }, () => {
      deleted = clinician.exports.delete(id);
    });
    await rm(file, { force: true });
    return deleted;
  }

  async ping() {
    await access(path.join(this.#dataDir, LAYOUT_FILE_NAME));
  }

  /** Resolves once every write under way is on disk (nothing is held open between writes). */
  async close() {
    await this.#accounts.settled();
    await Promise.all([...this.#clinicians.values()].map((clinician) => clinician.settled()));
  }
}
