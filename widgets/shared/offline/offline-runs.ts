import type { ToolType } from '../../../contracts/records.ts';
import { isUnreachable, type ApiError } from '../api/api-error.ts';
import { newIdempotencyKey } from '../api/idempotency-key.ts';

// Calculations a signed-in clinician made while the API could not be reached, kept on the device until the
// server has recorded them (README "Offline and installing"). The server recomputes each one from its
// inputs when it is sent, exactly as a calculation made online: only the inputs are kept here.

/** One calculation waiting to be recorded. */
export interface OfflineRun {
  /** Local only: tells the entries apart while they wait. */
  id: string;
  toolType: ToolType;
  inputs: Record<string, unknown>;
  patientId?: string;
  /** The element's language: the history entry's texts are written in it, as for a run made online. */
  lang: 'en' | 'ar';
  /** When it was computed on the device (ms since 1970). */
  madeAt: number;
  /**
   * The Idempotency-Key of the action that made it, the one its first attempt sent (that answer may have been
   * lost after the server saved it): every replay sends it, so the server records the calculation once.
   * Runs kept by an earlier release have none; they are given one before their first replay.
   */
  idempotencyKey?: string;
}

/** At most this many wait on one device for one clinician; a further one is not kept (the clinician is told). */
export const OFFLINE_RUNS_LIMIT = 50;

/** localStorage key of a clinician's waiting calculations (per user id: a shared workstation has several). */
export const offlineRunsKey = (userId: string) => `sgx-offline-runs:${userId}`;

function read(userId: string): OfflineRun[] {
  try {
    const parsed: unknown = JSON.parse(globalThis.localStorage?.getItem(offlineRunsKey(userId)) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isRun) : [];
  } catch {
    return []; // storage blocked, or not ours
  }
}

const isRun = (value: unknown): value is OfflineRun =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as OfflineRun).id === 'string' &&
  typeof (value as OfflineRun).toolType === 'string' &&
  typeof (value as OfflineRun).inputs === 'object';

/** Writes the list (removing the key when empty); false when storage is blocked or full. */
function write(userId: string, runs: readonly OfflineRun[]): boolean {
  try {
    const storage = globalThis.localStorage;
    if (!storage) return false;
    if (runs.length === 0) storage.removeItem(offlineRunsKey(userId));
    else storage.setItem(offlineRunsKey(userId), JSON.stringify(runs));
    return true;
  } catch {
    return false;
  }
}

/** The calculations waiting for `userId`, oldest first. */
export const offlineRuns = (userId: string): OfflineRun[] => read(userId);

/**
 * Keeps a calculation for `userId`; false when it could not be kept (storage blocked or full, or
 * OFFLINE_RUNS_LIMIT reached): the caller tells the clinician it will not be saved.
 */
export function keepOfflineRun(userId: string, run: Omit<OfflineRun, 'id' | 'madeAt'>): boolean {
  const runs = read(userId);
  if (runs.length >= OFFLINE_RUNS_LIMIT) return false;
  const madeAt = Date.now();
  const id = `${madeAt.toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  return write(userId, [...runs, { ...run, idempotencyKey: run.idempotencyKey ?? newIdempotencyKey(), id, madeAt }]);
}

/** The run with its key: one is given, and kept on the device, to a run an earlier release stored without. */
function withKey(userId: string, run: OfflineRun): OfflineRun {
  if (run.idempotencyKey) return run;
  const keyed = { ...run, idempotencyKey: newIdempotencyKey() };
  write(
    userId,
    read(userId).map((other) => (other.id === run.id ? keyed : other)),
  );
  return keyed;
}

function forget(userId: string, id: string): void {
  write(
    userId,
    read(userId).filter((run) => run.id !== id),
  );
}

/** What one replay did: recorded, refused by the server (and dropped), still waiting. */
export interface ReplayResult {
  saved: number;
  refused: number;
  waiting: number;
}

/**
 * What a failed send means for the calculation. It keeps waiting on no answer (offline), a server error, a
 * session that has ended (401: sent once this clinician signs in again) or too many requests. An OK answer
 * of another shape was still accepted. Any other 4xx (a patient deleted since, inputs refused) will never
 * be accepted: the calculation is dropped and the clinician told.
 */
function outcomeOf(error: unknown): 'saved' | 'waiting' | 'refused' {
  if (isUnreachable(error)) return 'waiting';
  const { kind, status } = error as ApiError; // an answer is an ApiError
  if (kind === 'unreadable') return 'saved';
  if (status >= 500 || [401, 408, 429].includes(status)) return 'waiting';
  return 'refused';
}

type Locks = {
  request<T>(name: string, options: { ifAvailable: boolean }, run: (lock: unknown) => Promise<T>): Promise<T>;
};
const replaying = new Set<string>();

/**
 * Sends `userId`'s waiting calculations with `record`, oldest first, each removed from the device only once
 * the server has accepted it. One replay at a time per clinician, across elements, bundles and tabs (the Web
 * Locks API where there is one, else this page): a replay asked for while one runs (a second `online`
 * event, another element) does nothing and returns null, so nothing is sent twice.
 */
export async function replayOfflineRuns(
  userId: string,
  record: (run: OfflineRun) => Promise<unknown>,
): Promise<ReplayResult | null> {
  const key = offlineRunsKey(userId);
  if (replaying.has(key) || read(userId).length === 0) return null;
  replaying.add(key);
  try {
    const locks = (globalThis.navigator as { locks?: Locks } | undefined)?.locks;
    const run = () => sendAll(userId, record);
    return locks
      ? await locks.request(key, { ifAvailable: true }, (lock) => (lock ? run() : Promise.resolve(null)))
      : await run();
  } finally {
    replaying.delete(key);
  }
}

async function sendAll(userId: string, record: (run: OfflineRun) => Promise<unknown>): Promise<ReplayResult> {
  const result: ReplayResult = { saved: 0, refused: 0, waiting: 0 };
  // read again under the lock: another tab may have sent some meanwhile
  for (const run of read(userId)) {
    const outcome = await record(withKey(userId, run)).then(
      () => 'saved' as const,
      (error: unknown) => outcomeOf(error),
    );
    if (outcome === 'waiting') break;
    result[outcome] += 1;
    forget(userId, run.id);
  }
  result.waiting = read(userId).length;
  return result;
}
