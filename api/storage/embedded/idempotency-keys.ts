import { open } from 'node:fs/promises';
import path from 'node:path';
import type { IdempotencyClaim, IdempotencyClaimResult, IdempotentAnswer } from '../store.ts';
import { StorageError } from '../storage-error.ts';
import { FILE_MODE, fsyncDir, writeFileDurably } from './durable-fs.ts';
import { readLog } from './append-log.ts';

/** One clinician's answered keys: `clinicians/<id>/idempotency.jsonl`, a line per answer. */
export const IDEMPOTENCY_FILE_NAME = 'idempotency.jsonl';

/** A line of idempotency.jsonl: a key's answer and the record it created. */
interface AnswerLine {
  key: string;
  fingerprint: string;
  status: number;
  body: unknown;
  /** ISO times. */
  createdAt: string;
  expiresAt: string;
  recordId: string;
}

interface KeyState {
  fingerprint: string;
  createdAt: number;
  expiresAt: number;
  /** While the request runs: its token and until when it holds the key. */
  running?: { token: string; lockedUntil: number };
  answer?: { status: number; body: unknown };
}

/**
 * A clinician's Idempotency-Keys on the embedded store. One server holds DATA_DIR (its lock), so a key
 * held by a running request lives in memory only (a crash ends the request, and the hold with it); an
 * answer is appended to idempotency.jsonl, and fsynced, *before* the record it answers for, so a crash
 * between the two leaves a line whose record is missing: such a line is dropped when the file is read (the
 * record was never acknowledged, and the key was never answered). The file is read on the clinician's
 * first keyed request, and rewritten without expired and forgotten keys once it holds twice what is live.
 * Deleting a patient forgets the answers that name it (forgetDeletedPatient: they hold its name or MRN) and rewrites
 * the file; a line naming a deleted patient that a crash left there is dropped when the file is read.
 */
export class IdempotencyKeys {
  readonly file: string;
  readonly #recordExists: (recordId: string) => boolean;
  /** The clinician's deleted patients: an answer that names one is not kept. */
  readonly #deletedPatients: ReadonlySet<string>;
  /** The file holds lines of deleted patients that were dropped when it was read: rewrite it. */
  #holdsDropped = false;
  /** In the order first used: the oldest first. */
  readonly #keys = new Map<string, KeyState>();
  /** What the file should hold: each live answered key's line. */
  readonly #lines = new Map<string, string>();
  #linesInFile = 0;
  #fileExists = false;
  #loading: Promise<void> | undefined;
  /** Writes, one at a time in order. */
  #writes: Promise<void> = Promise.resolve();

  constructor(
    dir: string,
    recordExists: (recordId: string) => boolean,
    deletedPatients: ReadonlySet<string> = new Set(),
  ) {
    this.file = path.join(dir, IDEMPOTENCY_FILE_NAME);
    this.#recordExists = recordExists;
    this.#deletedPatients = deletedPatients;
  }

  /** Whether the answer's line names a deleted patient: its record, or any string of its body, is one's id. */
  #namesDeleted(answer: AnswerLine): boolean {
    if (this.#deletedPatients.size === 0) return false;
    if (this.#deletedPatients.has(answer.recordId)) return true;
    const names = (value: unknown): boolean =>
      typeof value === 'string'
        ? this.#deletedPatients.has(value)
        : value !== null && typeof value === 'object' && Object.values(value).some(names);
    return names(answer.body);
  }

  #load(): Promise<void> {
    this.#loading ??= (async () => {
      const { lines, exists } = await readLog(this.file);
      this.#fileExists = exists;
      this.#linesInFile = lines.length;
      for (const line of lines) {
        const answer = line as AnswerLine;
        if (typeof answer?.key !== 'string') continue;
        // A deleted patient's name stays nowhere: the file is rewritten without the line (a crash cut short the
        // rewrite of forgetDeletedPatient).
        if (this.#namesDeleted(answer)) {
          this.#holdsDropped = true;
          continue;
        }
        if (!this.#recordExists(answer.recordId)) continue;
        this.#keys.delete(answer.key);
        this.#keys.set(answer.key, {
          fingerprint: answer.fingerprint,
          createdAt: Date.parse(answer.createdAt),
          expiresAt: Date.parse(answer.expiresAt),
          answer: { status: answer.status, body: answer.body },
        });
        this.#lines.set(answer.key, JSON.stringify(answer));
      }
      if (this.#holdsDropped) void this.#queue(() => this.#rewrite()).catch(() => {});
    })();
    this.#loading.catch(() => (this.#loading = undefined)); // read again next time
    return this.#loading;
  }

  #forget(key: string) {
    this.#keys.delete(key);
    this.#lines.delete(key);
  }

  #prune(at: number, maxKeys: number) {
    for (const [key, state] of this.#keys) if (state.expiresAt <= at) this.#forget(key);
    let excess = this.#keys.size - (maxKeys - 1);
    for (const [key, state] of this.#keys) {
      if (excess <= 0) break;
      if (state.answer) {
        this.#forget(key);
        excess -= 1;
      }
    }
  }

  async claim(claim: IdempotencyClaim): Promise<IdempotencyClaimResult> {
    await this.#load();
    const at = Date.parse(claim.at);
    this.#prune(at, claim.maxKeys);
    const state = this.#keys.get(claim.key);
    if (state && !(state.running && state.running.lockedUntil <= at)) {
      const sameRequest = state.fingerprint === claim.fingerprint;
      if (state.answer) return { kind: 'answered', sameRequest, ...state.answer };
      return { kind: 'in_progress', sameRequest };
    }
    this.#forget(claim.key);
    this.#keys.set(claim.key, {
      fingerprint: claim.fingerprint,
      createdAt: at,
      expiresAt: Date.parse(claim.expiresAt),
      running: { token: claim.token, lockedUntil: Date.parse(claim.lockedUntil) },
    });
    return { kind: 'claimed' };
  }

  release(key: string, token: string) {
    const state = this.#keys.get(key);
    if (state?.running?.token === token && !state.answer) this.#keys.delete(key);
  }

  /**
   * Writes the answer of the request holding `answer.key` (durable when it resolves), before its record is
   * written; `answered()` then makes it the key's answer.
   */
  async write(answer: IdempotentAnswer, recordId: string): Promise<{ answered: () => void }> {
    await this.#load();
    const state = this.#keys.get(answer.key);
    if (!state?.running || state.running.token !== answer.token) {
      throw new StorageError('The request no longer holds its idempotency key');
    }
    const line: AnswerLine = {
      key: answer.key,
      fingerprint: state.fingerprint,
      status: answer.status,
      body: answer.body,
      createdAt: new Date(state.createdAt).toISOString(),
      expiresAt: new Date(state.expiresAt).toISOString(),
      recordId,
    };
    const text = JSON.stringify(line);
    await this.#queue(async () => {
      await this.#append(`${text}\n`);
      this.#lines.set(answer.key, text); // in the queue: a rewrite after this line keeps it
      this.#linesInFile += 1;
    });
    if (this.#linesInFile > 2 * this.#lines.size + 64) void this.#queue(() => this.#rewrite()).catch(() => {});
    return {
      answered: () => {
        if (state.running?.token !== answer.token) return;
        state.running = undefined;
        state.answer = { status: answer.status, body: answer.body };
      },
    };
  }

  /**
   * Forgets every answer that names the patient, deleted now (it is in the deleted set): its record's, and those
   * of calculations and exports for it. The file is rewritten without them, durable when this resolves.
   */
  async forgetDeletedPatient(patientId: string): Promise<void> {
    await this.#load();
    let forgotten = 0;
    for (const [key, text] of [...this.#lines]) {
      const answer = JSON.parse(text) as AnswerLine;
      if (answer.recordId !== patientId && !this.#namesDeleted(answer)) continue;
      this.#forget(key);
      forgotten += 1;
    }
    if (forgotten > 0 || this.#holdsDropped) await this.#queue(() => this.#rewrite());
  }

  /** Forgets keys expired at `at`; answers how many. */
  deleteExpired(at: number): number {
    let deleted = 0;
    for (const [key, state] of this.#keys) {
      if (state.expiresAt > at) continue;
      this.#forget(key);
      deleted += 1;
    }
    return deleted;
  }

  #queue(write: () => Promise<void>): Promise<void> {
    const done = this.#writes.then(write);
    this.#writes = done.catch(() => {});
    return done;
  }

  async #append(text: string) {
    const handle = await open(this.file, 'a', FILE_MODE);
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (!this.#fileExists) await fsyncDir(path.dirname(this.file));
    this.#fileExists = true;
  }

  /** The file again, with the live answers only (a temporary file renamed over it). */
  async #rewrite() {
    const lines = [...this.#lines.values()];
    await writeFileDurably(this.file, lines.map((line) => `${line}\n`).join(''));
    this.#fileExists = true;
    this.#linesInFile = lines.length;
    this.#holdsDropped = false;
  }

  /** Resolves once every write under way is on disk. */
  settled(): Promise<void> {
    return this.#writes;
  }
}
