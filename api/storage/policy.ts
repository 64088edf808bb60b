import type { Store, StoreAdapter } from './store.ts';

/** Ended sessions (signed out or expired) are deleted at most this often: they are refused either way. */
export const SESSION_PRUNE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Open sessions one account may have at once (its browsers and devices): a new one past this ends the
 * oldest, so a leaked password used to sign in again and again cannot pile up sessions without end.
 */
export const MAX_SESSIONS_PER_ACCOUNT = 10;

/** The search rule: surrounding spaces do not count and case does not matter; an empty query lists all. */
export function searchNeedle(query: string | undefined): string | undefined {
  const needle = query?.trim().toLowerCase();
  return needle ? needle : undefined;
}

/**
 * What a patient search looks in: the lower-cased name and MRN, as JavaScript lower-cases them
 * (adapters store or compute this text rather than their own lower-casing, so every store finds
 * the same patients). A line break separates them so a needle never matches across the two.
 */
export function patientSearchText(patient: { displayName: string; mrn: string | null }): string {
  return `${patient.displayName.toLowerCase()}\n${(patient.mrn ?? '').toLowerCase()}`;
}

/**
 * One collator for every comparison: `localeCompare` with a locale and options builds one per call, which
 * made sorting a search's 2,000 answers take tens of milliseconds.
 */
const NAME_ORDER = new Intl.Collator('en', { sensitivity: 'base' });

/** Patients are listed by name, ignoring case and accents, then by id so equal names keep one order. */
export function byPatientName(a: { displayName: string; id: string }, b: { displayName: string; id: string }) {
  return NAME_ORDER.compare(a.displayName, b.displayName) || (a.id < b.id ? -1 : 1);
}

/** "Not the caller's" and "does not exist" look the same: a record of another owner is never returned. */
function owned<T extends { ownerId: string }>(ownerId: string, record: T | undefined): T | undefined {
  return record?.ownerId === ownerId ? record : undefined;
}

/**
 * The Store the routes use, over any adapter: ownership is checked again on everything an adapter
 * returns, the search query is normalised once, patients are sorted here, ended sessions are pruned
 * on a schedule rather than by each adapter, and each account's open sessions are bounded.
 */
export function createStore(adapter: StoreAdapter, options: { now?: () => Date } = {}): Store {
  const now = options.now ?? (() => new Date());
  let lastPrune = 0;
  const pruneSessions = async () => {
    const at = now().getTime();
    if (at - lastPrune < SESSION_PRUNE_INTERVAL_MS) return;
    lastPrune = at;
    await adapter.deleteEndedSessions(new Date(at).toISOString());
  };
  let lastFlowPrune = 0;
  /** Sign-in steps never finished (a closed tab) are deleted on the same schedule. */
  const pruneFlows = async () => {
    const at = now().getTime();
    if (at - lastFlowPrune < SESSION_PRUNE_INTERVAL_MS) return;
    lastFlowPrune = at;
    await adapter.deleteExpiredAuthFlows(new Date(at).toISOString());
  };
  // A claim forgets its own clinician's expired keys; those of clinicians who send none are deleted here.
  let lastKeyPrune = 0;
  const pruneIdempotencyKeys = async () => {
    const at = now().getTime();
    if (at - lastKeyPrune < SESSION_PRUNE_INTERVAL_MS) return;
    lastKeyPrune = at;
    await adapter.deleteExpiredIdempotencyKeys(new Date(at).toISOString());
  };

  return {
    kind: adapter.kind,
    createUser: (user) => adapter.createUser(user),
    findUserByEmail: (email) => adapter.findUserByEmail(email),
    findUserById: (id) => adapter.findUserById(id),

    changePassword: (userId, passwordHash, change) => adapter.changePassword(userId, passwordHash, change),
    updateProfile: (userId, changes) => adapter.updateProfile(userId, changes),
    scheduleErasure: (userId, deletion) => adapter.scheduleErasure(userId, deletion),
    cancelErasure: (userId) => adapter.cancelErasure(userId),
    eraseAccount: (userId) => adapter.eraseAccount(userId),
    listAccountsDueForErasure: (at) => adapter.listAccountsDueForErasure(at),
    removeHistoryBefore: (before) => adapter.removeHistoryBefore(before),
    listSessions: async (userId) => (await adapter.listSessions(userId)).filter((session) => session.userId === userId),

    /** Makes the session, then ends the account's oldest open ones past MAX_SESSIONS_PER_ACCOUNT. */
    async createSession(session) {
      await pruneSessions();
      await adapter.createSession(session);
      const open = await adapter.listOpenSessions(session.userId, session.createdAt);
      const excess = open.filter((other) => other.id !== session.id).length + 1 - MAX_SESSIONS_PER_ACCOUNT;
      for (const oldest of open.filter((other) => other.id !== session.id).slice(0, Math.max(0, excess))) {
        await adapter.revokeSession(oldest.id, session.createdAt);
      }
    },
    findSession: (id) => adapter.findSession(id),
    revokeSession: (id, revokedAt) => adapter.revokeSession(id, revokedAt),
    touchSession: (id, at) => adapter.touchSession(id, at),
    endOtherSessions: (userId, keepSessionId, at) => adapter.endOtherSessions(userId, keepSessionId, at),
    listOpenSessions: async (userId, at) =>
      (await adapter.listOpenSessions(userId, at)).filter((session) => session.userId === userId),

    findUserByIdentity: (issuer, subject) => adapter.findUserByIdentity(issuer, subject),
    createUserWithIdentity: (user, identity) => adapter.createUserWithIdentity(user, identity),
    addIdentity: (identity) => adapter.addIdentity(identity),
    listIdentities: async (userId) =>
      (await adapter.listIdentities(userId)).filter((identity) => identity.userId === userId),
    removeIdentity: (userId, issuer, subject) => adapter.removeIdentity(userId, issuer, subject),

    async findSecondFactors(userId) {
      const found = await adapter.findSecondFactors(userId);
      return {
        totp: found.totp?.userId === userId ? found.totp : null,
        recoveryCodes: found.recoveryCodes.filter((code) => code.userId === userId),
        passkeys: found.passkeys.filter((passkey) => passkey.userId === userId),
      };
    },
    changeSecondFactors: (change) => adapter.changeSecondFactors(change),
    useTotpStep: (userId, step) => adapter.useTotpStep(userId, step),
    useRecoveryCode: (userId, codeHash, at) => adapter.useRecoveryCode(userId, codeHash, at),
    recordPasskeyUse: (userId, id, counter, at) => adapter.recordPasskeyUse(userId, id, counter, at),
    secondFactorFailures: (userId) => adapter.secondFactorFailures(userId),
    recordSecondFactorFailure: (userId, at) => adapter.recordSecondFactorFailure(userId, at),
    clearSecondFactorFailures: (userId) => adapter.clearSecondFactorFailures(userId),

    async createAuthFlow(flow) {
      await pruneFlows();
      await adapter.createAuthFlow(flow);
    },
    takeAuthFlow: (id, kind, at) => adapter.takeAuthFlow(id, kind, at),

    createPatient: (patient, answer) => adapter.createPatient(patient, answer),
    async listPatients(ownerId, query) {
      const needle = searchNeedle(query);
      if (needle?.includes('\n')) return []; // names and MRNs are one line each
      const patients = await adapter.listPatients(ownerId, needle);
      return patients.filter((patient) => patient.ownerId === ownerId).sort(byPatientName);
    },
    findPatient: async (ownerId, id) => owned(ownerId, await adapter.findPatient(ownerId, id)),
    async updatePatient(ownerId, id, changes, updatedAt) {
      if (!owned(ownerId, await adapter.findPatient(ownerId, id))) return undefined;
      return owned(ownerId, await adapter.updatePatient(ownerId, id, changes, updatedAt));
    },
    async deletePatient(ownerId, id) {
      if (!owned(ownerId, await adapter.findPatient(ownerId, id))) return false;
      return adapter.deletePatient(ownerId, id);
    },

    saveCalculation: (entry, answer) => adapter.saveCalculation(entry, answer),
    async listCalculations(ownerId, filter) {
      const page = await adapter.listCalculations(ownerId, filter);
      return { items: page.items.filter((entry) => entry.ownerId === ownerId), total: page.total };
    },
    async listCalculationsPage(ownerId, filter) {
      const page = await adapter.listCalculationsPage(ownerId, filter);
      return { ...page, items: page.items.filter((entry) => entry.ownerId === ownerId) };
    },
    findCalculation: async (ownerId, id) => owned(ownerId, await adapter.findCalculation(ownerId, id)),
    async *calculationsOf(ownerId) {
      for await (const entry of adapter.calculationsOf(ownerId)) if (entry.ownerId === ownerId) yield entry;
    },

    saveExport: (record, bytes, answer) => adapter.saveExport(record, bytes, answer),
    async listExports(ownerId, filter = {}) {
      return (await adapter.listExports(ownerId, filter)).filter((entry) => entry.ownerId === ownerId);
    },
    findExport: async (ownerId, id) => owned(ownerId, await adapter.findExport(ownerId, id)),
    async readExportFile(ownerId, id) {
      if (!owned(ownerId, await adapter.findExport(ownerId, id))) return undefined;
      return adapter.readExportFile(ownerId, id);
    },
    async deleteExport(ownerId, id) {
      if (!owned(ownerId, await adapter.findExport(ownerId, id))) return false;
      return adapter.deleteExport(ownerId, id);
    },

    async claimIdempotencyKey(claim) {
      await pruneIdempotencyKeys();
      return adapter.claimIdempotencyKey(claim);
    },
    releaseIdempotencyKey: (ownerId, key, token) => adapter.releaseIdempotencyKey(ownerId, key, token),

    ping: () => adapter.ping(),
    close: () => adapter.close(),
  };
}
