import type { CalculationRecord, ToolType } from '../records.ts';
import type { HistoryPage, HistoryPageFilter } from '../store.ts';

/**
 * One clinician's history in memory, as lists by tool and by patient beside the whole, each in the order
 * saved, with each entry's place in that order (its line in history.jsonl, counted from 1): the cursor of
 * a page. A page is a binary search and a slice, and its total a length, whatever the history's size.
 */
export class HistoryIndex {
  readonly #seq = new WeakMap<CalculationRecord, number>();
  #next = 1;
  readonly #all: CalculationRecord[] = [];
  readonly #byTool = new Map<ToolType, CalculationRecord[]>();
  readonly #byPatient = new Map<string, CalculationRecord[]>();

  constructor(entries: readonly CalculationRecord[]) {
    for (const entry of entries) this.add(entry);
  }

  add(entry: CalculationRecord) {
    this.#seq.set(entry, this.#next);
    this.#next += 1;
    this.#all.push(entry);
    listIn(this.#byTool, entry.toolType).push(entry);
    if (entry.patientId !== null) listIn(this.#byPatient, entry.patientId).push(entry);
  }

  /** The patient was deleted: their entries read as unlinked (patientId null) from now on. */
  unlinkPatient(patientId: string) {
    this.#byPatient.delete(patientId);
  }

  /** Entries removed (a retention rule): gone from every list; the others keep their places (and cursors). */
  remove(ids: ReadonlySet<string>) {
    for (const list of [this.#all, ...this.#byTool.values(), ...this.#byPatient.values()]) keepOnly(list, ids);
  }

  page(filter: HistoryPageFilter): HistoryPage {
    let list: readonly CalculationRecord[];
    if (filter.patientId !== undefined) {
      const ofPatient = this.#byPatient.get(filter.patientId) ?? [];
      list =
        filter.toolType === undefined ? ofPatient : ofPatient.filter((entry) => entry.toolType === filter.toolType);
    } else {
      list = filter.toolType === undefined ? this.#all : (this.#byTool.get(filter.toolType) ?? []);
    }
    // Newest first: the page ends (exclusive) at the cursor's place, or `offset` from the newest.
    const end =
      filter.after !== undefined
        ? this.#firstAtOrAfter(list, Number(filter.after))
        : Math.max(0, list.length - (filter.offset ?? 0));
    const start = Math.max(0, end - filter.limit);
    const items = list.slice(start, end).reverse();
    return {
      items,
      total: list.length,
      nextCursor: start > 0 ? String(this.#seq.get(items.at(-1)!)) : null,
    };
  }

  /** The index of the first entry whose place is `seq` or later (the list is in the order saved). */
  #firstAtOrAfter(list: readonly CalculationRecord[], seq: number): number {
    let low = 0;
    let high = list.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.#seq.get(list[middle]!)! < seq) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

function listIn<K>(map: Map<K, CalculationRecord[]>, key: K): CalculationRecord[] {
  let list = map.get(key);
  if (!list) {
    list = [];
    map.set(key, list);
  }
  return list;
}

/** Removes the entries of `ids` from `list` in place (no spread: a history may hold a million entries). */
export function keepOnly(list: CalculationRecord[], ids: ReadonlySet<string>) {
  let kept = 0;
  for (const entry of list) if (!ids.has(entry.id)) list[kept++] = entry;
  list.length = kept;
}
