import { createContext, useContext, useEffect, useState, type Dispatch, type SetStateAction } from 'react';

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
 */
export function useWidgetState<T>(key: string, initial: T | (() => T)): [T, Dispatch<SetStateAction<T>>] {
  const bag = useContext(WidgetStateContext);
  const [value, setValue] = useState<T>(() => {
    if (bag?.has(key)) return bag.get(key) as T;
    return typeof initial === 'function' ? (initial as () => T)() : initial;
  });
  useEffect(() => {
    bag?.set(key, value);
  }, [bag, key, value]);
  return [value, setValue];
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
