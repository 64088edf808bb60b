import { Low } from 'lowdb';
import { DurableJsonFile } from './durable-fs.ts';

interface PendingChange<T> {
  change: (draft: T) => unknown;
  applied: ((answer: unknown) => void) | undefined;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * One small JSON file held in memory by lowdb (`Low.data` is always what the file holds) and changed
 * only through `commit`: changes queue, and each round applies every queued change to a copy, writes
 * the copy once through the durable adapter (group commit), and only then makes it the data. So one
 * write is in flight per file, readers never see a change before it is on disk, and a failed write
 * changes nothing (its changes are refused together). A change that throws is refused alone.
 */
export class JsonDocument<T> {
  readonly #low: Low<T>;
  #queue: PendingChange<T>[] = [];
  #running: Promise<void> | undefined;

  constructor(adapter: DurableJsonFile<T>, data: T) {
    this.#low = new Low(adapter, data);
  }

  get file(): string {
    return (this.#low.adapter as DurableJsonFile<T>).file;
  }

  /** The data as on disk. Read it; never change it (change it through `commit`). */
  get data(): T {
    return this.#low.data;
  }

  /**
   * Resolves with the change's answer once the file holds it; `applied` runs first, in commit order
   * (for what other memory follows from the change). A change that throws must throw before it
   * changes the draft.
   */
  commit<R>(change: (draft: T) => R, applied?: (answer: R) => void): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.#queue.push({
        change,
        applied: applied as ((answer: unknown) => void) | undefined,
        resolve: resolve as (value: unknown) => void,
        reject,
      });
      this.#running ??= this.#drain();
    });
  }

  /** Resolves once nothing is queued or being written. */
  async settled(): Promise<void> {
    while (this.#running) await this.#running;
  }

  async #drain(): Promise<void> {
    while (this.#queue.length > 0) {
      const batch = this.#queue;
      this.#queue = [];
      const draft = structuredClone(this.#low.data);
      const applied: { pending: PendingChange<T>; answer: unknown }[] = [];
      for (const pending of batch) {
        try {
          applied.push({ pending, answer: pending.change(draft) });
        } catch (error) {
          pending.reject(error);
        }
      }
      if (applied.length === 0) continue;
      try {
        await this.#low.adapter.write(draft);
      } catch (error) {
        for (const { pending } of applied) pending.reject(error);
        continue;
      }
      this.#low.data = draft;
      for (const { pending, answer } of applied) {
        pending.applied?.(answer);
        pending.resolve(answer);
      }
    }
    this.#running = undefined;
  }
}
