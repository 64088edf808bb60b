import { access, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { emailOwner, flowId } from '../../auth/flows.ts';
import { patientSearchText } from '../policy.ts';
import type {
  AccountDeletion,
  AuthFlowRecord,
  CalculationRecord,
  ErasedAccount,
  ExportRecord,
  OidcIdentityRecord,
  PatientRecord,
  SecondFactorChange,
  SessionRecord,
  UserRecord,
} from '../records.ts';
import type {
  ExportFilter,
  HistoryFilter,
  HistoryPageFilter,
  IdempotencyClaim,
  IdempotentAnswer,
  PatientFields,
  ProfileChanges,
  SecretsRewrite,
  StoreAdapter,
} from '../store.ts';
import { AppendLog } from './append-log.ts';
import { HistoryIndex, keepOnly } from './history-index.ts';
import { IdempotencyKeys } from './idempotency-keys.ts';
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
        this.patients.data.patients.some((patient) => patient.id === id),
      this.deletedPatients,
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

/** Ends a session in a draft of accounts.json: its ID token, needed only to sign out of the provider, goes. */
function endSession(session: SessionRecord, at: string) {
  session.revokedAt = at;
  session.oidc = null;
}

/** A session's last use is written to accounts.json once the stored one is this old (else kept in memory). */
export const TOUCH_PERSIST_MS = 5 * 60 * 1000;

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
  /**
   * Sessions' last use newer than accounts.json holds: written with the next change of the file, or by a
   * touch once the stored time is TOUCH_PERSIST_MS old. One process owns DATA_DIR (its lock), so memory is
   * the truth while it runs; after a crash a session's last use is at most that much older than it was,
   * which can only end it sooner.
   */
  readonly #lastUsed = new Map<string, string>();
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
    return this.#commitAccounts((draft) => {
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
    return this.#commitAccounts((draft) => {
      const user = draft.users.find((candidate) => candidate.id === userId);
      if (!user) return undefined;
      user.passwordHash = passwordHash;
      let endedSessions = 0;
      for (const session of draft.sessions) {
        if (session.userId !== userId || session.id === options.keepSessionId || session.revokedAt) continue;
        endSession(session, options.at);
        endedSessions += 1;
      }
      return { endedSessions };
    });
  }

  /** A session as stored, with its last use as this process knows it. */
  #withLastUse(session: SessionRecord): SessionRecord {
    const touched = this.#lastUsed.get(session.id);
    return touched && touched > (session.lastUsedAt ?? '') ? { ...session, lastUsedAt: touched } : session;
  }

  /** Writes every last use held in memory into the draft (each change of accounts.json carries them). */
  #flushLastUse(draft: AccountsFile) {
    if (this.#lastUsed.size === 0) return;
    for (const session of draft.sessions) {
      const touched = this.#lastUsed.get(session.id);
      if (touched && touched > (session.lastUsedAt ?? '')) session.lastUsedAt = touched;
    }
  }

  /** Commits a change of accounts.json, carrying the sessions' last use kept in memory. */
  #commitAccounts<R>(change: (draft: AccountsFile) => R): Promise<R> {
    const pending = new Map(this.#lastUsed);
    return this.#accounts.commit(
      (draft) => {
        this.#flushLastUse(draft);
        return change(draft);
      },
      () => {
        // Written: forget what the file now holds (a newer touch since stays).
        for (const [id, at] of pending) if (this.#lastUsed.get(id) === at) this.#lastUsed.delete(id);
      },
    );
  }

  async updateProfile(userId: string, changes: ProfileChanges) {
    if (!(await this.findUserById(userId))) return undefined;
    return this.#commitAccounts((draft) => {
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
    return this.#commitAccounts((draft) => {
      const user = draft.users.find((candidate) => candidate.id === userId);
      if (!user) return false;
      user.deletion = { ...deletion };
      for (const session of draft.sessions) {
        if (session.userId === userId && !session.revokedAt) endSession(session, deletion.requestedAt);
      }
      return true;
    });
  }

  async cancelErasure(userId: string) {
    if (!(await this.findUserById(userId))?.deletion) return false;
    return this.#commitAccounts((draft) => {
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
    const sessions = await this.#commitAccounts((draft) => {
      const before = draft.sessions.length;
      // Its sign-in steps under way, and the EHR links (and steps) kept under its sessions' ids.
      const email = draft.users.find((user) => user.id === userId)?.email;
      const owners = new Set([userId, ...(email === undefined ? [] : [emailOwner(email)])]);
      const sessionFlows = new Set(
        draft.sessions.filter((session) => session.userId === userId).map((session) => flowId(session.id)),
      );
      draft.authFlows = draft.authFlows.filter(
        (flow) => !(flow.owner && owners.has(flow.owner)) && !sessionFlows.has(flow.id),
      );
      draft.users = draft.users.filter((user) => user.id !== userId);
      draft.sessions = draft.sessions.filter((session) => session.userId !== userId);
      // The hospital sign-ins and second factors go with the account (docs/API.md#my-data).
      const others = <T extends { userId: string }>(records: T[] | undefined) =>
        (records ?? []).filter((record) => record.userId !== userId);
      draft.identities = others(draft.identities);
      draft.totp = others(draft.totp);
      draft.recoveryCodes = others(draft.recoveryCodes);
      draft.passkeys = others(draft.passkeys);
      draft.secondFactorFailures = others(draft.secondFactorFailures);
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
    await this.#commitAccounts((draft) => {
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
            keepOnly(clinician.calculations, old);
            clinician.index.remove(old);
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
    await this.#commitAccounts((draft) => void draft.sessions.push(session));
  }
  async findSession(id: string) {
    const session = this.#sessions.find((candidate) => candidate.id === id);
    return session && this.#withLastUse(session);
  }
  async revokeSession(id: string, revokedAt: string) {
    const session = this.#sessions.find((candidate) => candidate.id === id);
    if (!session || session.revokedAt) return;
    await this.#commitAccounts((draft) => {
      const stored = draft.sessions.find((candidate) => candidate.id === id);
      if (stored && !stored.revokedAt) endSession(stored, revokedAt);
    });
  }
  async touchSession(id: string, at: string) {
    const session = this.#sessions.find((candidate) => candidate.id === id);
    if (!session || session.revokedAt) return;
    const known = this.#lastUsed.get(id) ?? session.lastUsedAt ?? session.createdAt;
    if (at <= known) return;
    this.#lastUsed.set(id, at);
    const stored = session.lastUsedAt ?? session.createdAt;
    if (Date.parse(at) - Date.parse(stored) >= TOUCH_PERSIST_MS) await this.#commitAccounts(() => undefined);
  }
  async endOtherSessions(userId: string, keepSessionId: string, at: string) {
    const ends = (session: SessionRecord) =>
      session.userId === userId && session.id !== keepSessionId && !session.revokedAt;
    if (!this.#sessions.some(ends)) return 0;
    return this.#commitAccounts((draft) => {
      let ended = 0;
      for (const session of draft.sessions) {
        if (!ends(session)) continue;
        endSession(session, at);
        ended += 1;
      }
      return ended;
    });
  }
  async listOpenSessions(userId: string, at: string) {
    const now = Date.parse(at);
    // Kept in the order made: the oldest first.
    return this.#sessions
      .filter((session) => session.userId === userId && !session.revokedAt && Date.parse(session.expiresAt) > now)
      .map((session) => this.#withLastUse(session));
  }
  async deleteEndedSessions(endedBy: string) {
    const cutoff = Date.parse(endedBy);
    const ended = (session: SessionRecord) =>
      (session.revokedAt !== null && Date.parse(session.revokedAt) <= cutoff) ||
      Date.parse(session.expiresAt) <= cutoff;
    if (!this.#sessions.some(ended)) return 0;
    return this.#commitAccounts((draft) => {
      const before = draft.sessions.length;
      draft.sessions = draft.sessions.filter((session) => !ended(session));
      return before - draft.sessions.length;
    });
  }

  async findUserByIdentity(issuer: string, subject: string) {
    const identity = this.#accounts.data.identities.find(
      (candidate) => candidate.issuer === issuer && candidate.subject === subject,
    );
    return identity && this.findUserById(identity.userId);
  }
  async createUserWithIdentity(user: UserRecord, identity: OidcIdentityRecord) {
    const email = user.email.toLowerCase();
    const problem = (draft: AccountsFile) => {
      if (draft.identities.some((known) => known.issuer === identity.issuer && known.subject === identity.subject))
        return 'duplicate_identity' as const;
      if (draft.users.some((existing) => existing.email.toLowerCase() === email)) return 'duplicate_email' as const;
      return undefined;
    };
    const early = problem(this.#accounts.data);
    if (early) return early;
    return this.#commitAccounts((draft) => {
      const late = problem(draft);
      if (late) return late;
      draft.users.push(user);
      draft.identities.push(identity);
      return 'created' as const;
    });
  }
  async addIdentity(identity: OidcIdentityRecord) {
    const taken = (draft: AccountsFile) =>
      draft.identities.some((known) => known.issuer === identity.issuer && known.subject === identity.subject);
    if (taken(this.#accounts.data)) return 'duplicate_identity' as const;
    return this.#commitAccounts((draft) => {
      if (taken(draft)) return 'duplicate_identity' as const;
      draft.identities.push(identity);
      return 'linked' as const;
    });
  }
  async listIdentities(userId: string) {
    return this.#accounts.data.identities.filter((identity) => identity.userId === userId);
  }
  async removeIdentity(userId: string, issuer: string, subject: string) {
    const named = (identity: OidcIdentityRecord) =>
      identity.userId === userId && identity.issuer === issuer && identity.subject === subject;
    if (!this.#accounts.data.identities.some(named)) return false;
    return this.#commitAccounts((draft) => {
      const before = draft.identities.length;
      draft.identities = draft.identities.filter((identity) => !named(identity));
      return draft.identities.length < before;
    });
  }

  async findSecondFactors(userId: string) {
    const data = this.#accounts.data;
    return {
      totp: data.totp.find((record) => record.userId === userId) ?? null,
      recoveryCodes: data.recoveryCodes.filter((record) => record.userId === userId),
      passkeys: data.passkeys.filter((record) => record.userId === userId),
    };
  }
  async changeSecondFactors(change: SecondFactorChange) {
    if (!(await this.findUserById(change.userId))) return undefined;
    const { userId } = change;
    const duplicate = (draft: AccountsFile) =>
      change.addPasskey !== undefined && draft.passkeys.some((passkey) => passkey.id === change.addPasskey!.id);
    if (duplicate(this.#accounts.data)) return 'duplicate_passkey' as const;
    // One rewrite of accounts.json holds every part of the change.
    return this.#commitAccounts((draft) => {
      if (!draft.users.some((user) => user.id === userId)) return undefined;
      if (duplicate(draft)) return 'duplicate_passkey' as const;
      if (change.totp !== undefined) {
        draft.totp = draft.totp.filter((record) => record.userId !== userId);
        if (change.totp) draft.totp.push(change.totp);
      }
      if (change.removePasskeyId !== undefined)
        draft.passkeys = draft.passkeys.filter(
          (passkey) => !(passkey.userId === userId && passkey.id === change.removePasskeyId),
        );
      if (change.addPasskey) draft.passkeys.push(change.addPasskey);
      if (change.recoveryCodeHashes) {
        draft.recoveryCodes = draft.recoveryCodes.filter((record) => record.userId !== userId);
        for (const codeHash of change.recoveryCodeHashes)
          draft.recoveryCodes.push({ userId, codeHash, usedAt: null, createdAt: change.at });
      }
      let endedSessions = 0;
      for (const session of draft.sessions) {
        if (session.userId !== userId || session.revokedAt) continue;
        if (change.upgradeSession?.sessionId === session.id) session.method = change.upgradeSession.method;
        else if (change.endOtherSessions && session.id !== change.endOtherSessions.keepSessionId) {
          endSession(session, change.at);
          endedSessions += 1;
        }
      }
      return { endedSessions };
    });
  }
  async useTotpStep(userId: string, step: number) {
    const fresh = (draft: AccountsFile) => {
      const record = draft.totp.find((candidate) => candidate.userId === userId);
      return record && step > record.lastUsedStep ? record : undefined;
    };
    if (!fresh(this.#accounts.data)) return false;
    return this.#commitAccounts((draft) => {
      const record = fresh(draft);
      if (!record) return false;
      record.lastUsedStep = step;
      return true;
    });
  }
  async useRecoveryCode(userId: string, codeHash: string, at: string) {
    const unused = (draft: AccountsFile) =>
      draft.recoveryCodes.find(
        (record) => record.userId === userId && record.codeHash === codeHash && record.usedAt === null,
      );
    if (!unused(this.#accounts.data)) return false;
    return this.#commitAccounts((draft) => {
      const record = unused(draft);
      if (!record) return false;
      record.usedAt = at;
      return true;
    });
  }
  async recordPasskeyUse(userId: string, id: string, counter: number, at: string) {
    const find = (draft: AccountsFile) =>
      draft.passkeys.find((passkey) => passkey.userId === userId && passkey.id === id);
    if (!find(this.#accounts.data)) return;
    await this.#commitAccounts((draft) => {
      const passkey = find(draft);
      if (!passkey) return;
      passkey.counter = counter;
      passkey.lastUsedAt = at;
    });
  }

  async secondFactorFailures(userId: string) {
    return this.#accounts.data.secondFactorFailures.find((record) => record.userId === userId)?.failures ?? 0;
  }
  async recordSecondFactorFailure(userId: string, at: string) {
    if (!(await this.findUserById(userId))) return 0;
    return this.#commitAccounts((draft) => {
      if (!draft.users.some((user) => user.id === userId)) return 0;
      let record = draft.secondFactorFailures.find((candidate) => candidate.userId === userId);
      if (!record) {
        record = { userId, failures: 0, lastFailureAt: at };
        draft.secondFactorFailures.push(record);
      }
      record.failures += 1;
      record.lastFailureAt = at;
      return record.failures;
    });
  }
  async clearSecondFactorFailures(userId: string) {
    const counted = (draft: AccountsFile) => draft.secondFactorFailures.some((record) => record.userId === userId);
    if (!counted(this.#accounts.data)) return;
    await this.#commitAccounts((draft) => {
      draft.secondFactorFailures = draft.secondFactorFailures.filter((record) => record.userId !== userId);
    });
  }

  async createAuthFlow(flow: AuthFlowRecord) {
    await this.#commitAccounts((draft) => {
      draft.authFlows = draft.authFlows.filter((existing) => existing.id !== flow.id);
      draft.authFlows.push(flow);
    });
  }
  async takeAuthFlow(id: string, kind: string, at: string) {
    const live = (draft: AccountsFile) =>
      draft.authFlows.find((flow) => flow.id === id && flow.kind === kind && flow.expiresAt > at);
    if (!live(this.#accounts.data)) return undefined;
    return this.#commitAccounts((draft) => {
      const flow = live(draft);
      if (!flow) return undefined;
      draft.authFlows = draft.authFlows.filter((other) => other !== flow);
      return flow;
    });
  }
  async deleteExpiredAuthFlows(at: string) {
    const expired = (flow: AuthFlowRecord) => flow.expiresAt <= at;
    if (!this.#accounts.data.authFlows.some(expired)) return 0;
    return this.#commitAccounts((draft) => {
      const before = draft.authFlows.length;
      draft.authFlows = draft.authFlows.filter((flow) => !expired(flow));
      return before - draft.authFlows.length;
    });
  }

  async rewriteSecrets(rewrite: SecretsRewrite) {
    // Every rewrite first, on what the file holds (one process owns DATA_DIR: nothing changes it meanwhile), so a
    // rewrite that throws leaves the file as it was; then one rewrite of accounts.json holds them all.
    const data = this.#accounts.data;
    const totp = new Map<string, string>();
    for (const record of data.totp) {
      const secret = rewrite.totpSecret(record.userId, record.secret);
      if (secret !== undefined) totp.set(record.userId, secret);
    }
    const idTokens = new Map<string, string | null>();
    for (const session of data.sessions) {
      if (!session.oidc) continue;
      const idToken = rewrite.idToken(session, session.oidc.idToken);
      if (idToken !== undefined) idTokens.set(session.id, idToken);
    }
    const flows = new Map<string, unknown>();
    for (const flow of data.authFlows) {
      const flowData = rewrite.flowData(flow, flow.data);
      if (flowData !== undefined) flows.set(flow.id, flowData);
    }
    if (totp.size + idTokens.size + flows.size === 0) return;
    await this.#commitAccounts((draft) => {
      for (const record of draft.totp) if (totp.has(record.userId)) record.secret = totp.get(record.userId)!;
      for (const session of draft.sessions) {
        const idToken = idTokens.get(session.id);
        if (idToken === undefined || !session.oidc) continue;
        session.oidc = idToken === null ? null : { ...session.oidc, idToken };
      }
      for (const flow of draft.authFlows) if (flows.has(flow.id)) flow.data = flows.get(flow.id);
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
    const deleted = await clinician.patients.commit(
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
    // Then the Idempotency-Key answers that name the patient (they hold its name or MRN), idempotency.jsonl
    // rewritten without them; a crash before that drops them when the file is next read.
    if (deleted) await clinician.keys.forgetDeletedPatient(id);
    return deleted;
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
  async *calculationsOf(ownerId: string) {
    // A copy of the list as it is now (the records themselves are never changed in place but to unlink).
    yield* [...(this.#reader(ownerId)?.calculations ?? [])];
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
    if (this.#lastUsed.size > 0) await this.#commitAccounts(() => undefined).catch(() => undefined);
    await this.#accounts.settled();
    await Promise.all([...this.#clinicians.values()].map((clinician) => clinician.settled()));
  }
}
