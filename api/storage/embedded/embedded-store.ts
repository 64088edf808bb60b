import { access, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { patientSearchText } from '../policy.ts';
import type { CalculationRecord, ExportRecord, PatientRecord, SessionRecord, UserRecord } from '../records.ts';
import type {
  ExportFilter,
  HistoryFilter,
  HistoryPageFilter,
  IdempotencyClaim,
  IdempotentAnswer,
  PatientFields,
  StoreAdapter,
} from '../store.ts';
import { AppendLog } from './append-log.ts';
import { HistoryIndex } from './history-index.ts';
import { IdempotencyKeys } from './idempotency-keys.ts';
import { DurableJsonFile, ensureDir, writeFileDurably } from './durable-fs.ts';
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
  /** The history by tool and by patient, for pages by cursor and totals (history-index.ts). */
  readonly index: HistoryIndex;
  readonly keys: IdempotencyKeys;

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
    this.index = new HistoryIndex(this.calculations);
    this.keys = new IdempotencyKeys(
      dir,
      (id) =>
        this.calculationsById.has(id) ||
        this.exports.has(id) ||
        this.deletedPatients.has(id) ||
        this.patients.data.patients.some((patient) => patient.id === id),
    );
  }

  /** A record saved after its patient was deleted (a race with the delete) reads unlinked, as on the next start. */
  unlinkIfDeleted<T extends { patientId: string | null }>(entry: T): T {
    if (entry.patientId !== null && this.deletedPatients.has(entry.patientId)) entry.patientId = null;
    return entry;
  }

  settled() {
    return Promise.all([
      this.patients.settled(),
      this.history.settled(),
      this.exportLog.settled(),
      this.keys.settled(),
    ]);
  }

  /** Writes a key's answer before the record it answers for; `answered` after the record is written. */
  async answerFirst(answer: IdempotentAnswer | undefined, recordId: string): Promise<() => void> {
    if (!answer) return () => {};
    return (await this.keys.write(answer, recordId)).answered;
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

  async createPatient(patient: PatientRecord, answer?: IdempotentAnswer) {
    const clinician = await this.#writer(patient.ownerId);
    const answered = await clinician.answerFirst(answer, patient.id);
    await clinician.patients.commit((draft) => void draft.patients.push(patient));
    answered();
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
        clinician.index.unlinkPatient(id);
        for (const entry of clinician.calculations) clinician.unlinkIfDeleted(entry);
        for (const entry of clinician.exports.values()) clinician.unlinkIfDeleted(entry);
      },
    );
  }

  async saveCalculation(entry: CalculationRecord, answer?: IdempotentAnswer) {
    const clinician = await this.#writer(entry.ownerId);
    const answered = await clinician.answerFirst(answer, entry.id);
    await clinician.history.append(entry, (stored) => {
      clinician.calculations.push(clinician.unlinkIfDeleted(stored));
      clinician.calculationsById.set(stored.id, stored);
      clinician.index.add(stored);
    });
    answered();
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
  async listCalculationsPage(ownerId: string, filter: HistoryPageFilter) {
    const index = this.#reader(ownerId)?.index;
    return index ? index.page(filter) : { items: [], total: 0, nextCursor: null };
  }
  async findCalculation(ownerId: string, id: string) {
    return this.#reader(ownerId)?.calculationsById.get(id);
  }

  #exportFile(id: string): string {
    assertSafeId(id, 'An export id');
    return path.join(this.#exportsDir, `${id}.pdf`);
  }

  async saveExport(record: ExportRecord, bytes: Uint8Array, answer?: IdempotentAnswer) {
    const file = this.#exportFile(record.id);
    const clinician = await this.#writer(record.ownerId);
    await ensureDir(this.#exportsDir);
    const answered = await clinician.answerFirst(answer, record.id);
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
    answered();
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

  async claimIdempotencyKey(claim: IdempotencyClaim) {
    return (await this.#writer(claim.ownerId)).keys.claim(claim);
  }
  async releaseIdempotencyKey(ownerId: string, key: string, token: string) {
    this.#reader(ownerId)?.keys.release(key, token);
  }
  async deleteExpiredIdempotencyKeys(at: string) {
    let deleted = 0;
    for (const clinician of this.#clinicians.values()) deleted += clinician.keys.deleteExpired(Date.parse(at));
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
