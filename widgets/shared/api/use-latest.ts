import { useEffect, useRef, type DependencyList } from 'react';

export interface LatestHandlers<T> {
  onResult: (value: T) => void;
  onError: (error: unknown) => void;
  /** Wait this long before loading (search as you type); a change meanwhile restarts the wait. */
  delayMs?: number;
}

/**
 * Loads whenever `deps` change and passes on only the newest load's outcome: an answer that
 * arrives after the inputs changed again, or after unmount, is dropped (it would overwrite a newer one).
 */
export function useLatest<T>(load: () => Promise<T>, deps: DependencyList, handlers: LatestHandlers<T>): void {
  const latest = useRef({ load, ...handlers });
  latest.current = { load, ...handlers };
  useEffect(() => {
    let current = true;
    const run = () => {
      latest.current.load().then(
        (value) => current && latest.current.onResult(value),
        (error: unknown) => current && latest.current.onError(error),
      );
    };
    const delayMs = latest.current.delayMs;
    const timer = delayMs ? setTimeout(run, delayMs) : undefined;
    if (!delayMs) run();
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, deps);
}
