import { createContext, useCallback, useContext, useState, type Dispatch, type SetStateAction } from 'react';

/**
 * What an element keeps across a detach and re-attach. Vue's <KeepAlive>, tab panels and routers
 * take an element out of the document and put it back later; the element then unmounts its React
 * tree (so nothing it subscribed to keeps it alive) and mounts a new one on return. The typed values
 * and the result live here, in a bag owned by the element itself, and are gone with it.
 */
export type WidgetStateBag = Map<string, unknown>;

const bags = new WeakMap<object, WidgetStateBag>();

export function stateBagFor(owner: object): WidgetStateBag {
  let bag = bags.get(owner);
  if (!bag) {
    bag = new Map();
    bags.set(owner, bag);
  }
  return bag;
}

/** Provided by WidgetRoot: the element's bag, or one per mount outside an element (tests, stories). */
export const WidgetStateContext = createContext<WidgetStateBag | null>(null);

/**
 * `useState` whose value outlives an unmount of the element's tree. `key` names the value within the
 * element: each component that keeps state this way uses its own prefix.
 *
 * The bag is written when the setter is called, not in an effect: effects run after the next paint,
 * and a tree unmounted before then never runs them, so an element detached just after a keystroke
 * lost the last value (measured in Chromium, e2e/element-lifecycle.e2e.ts). A functional update is
 * applied to the bag's value, the latest one set, as React applies queued updates in order.
 */
export function useWidgetState<T>(key: string, initial: T | (() => T)): [T, Dispatch<SetStateAction<T>>] {
  const bag = useContext(WidgetStateContext);
  const [value, setValue] = useState<T>(() => {
    if (bag?.has(key)) return bag.get(key) as T;
    const first = typeof initial === 'function' ? (initial as () => T)() : initial;
    bag?.set(key, first);
    return first;
  });
  const set = useCallback<Dispatch<SetStateAction<T>>>(
    (next) => {
      if (!bag) return setValue(next);
      const current = bag.get(key) as T;
      const updated = typeof next === 'function' ? (next as (previous: T) => T)(current) : next;
      bag.set(key, updated);
      setValue(() => updated);
    },
    [bag, key],
  );
  return [value, set];
}

/**
 * React's "adjust state when a prop changes", remembered across a detach: when `value` differs from
 * the one seen at the last render, returns `{ previous }` once (the caller adjusts its state during
 * that render); otherwise null. On the first render the value counts as seen.
 */
export function useChanged<T>(
  key: string,
  value: T,
  same: (a: T, b: T) => boolean = Object.is,
): { previous: T } | null {
  const [seen, setSeen] = useWidgetState(key, value);
  if (same(seen, value)) return null;
  setSeen(value);
  return { previous: seen };
}

/** Two records with the same keys and values (compared with Object.is). */
export function shallowEqual<T extends object>(a: T, b: T): boolean {
  const keys = Object.keys(a) as (keyof T)[];
  return keys.length === Object.keys(b).length && keys.every((key) => Object.is(a[key], b[key]));
}
