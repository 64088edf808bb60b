import { reportChunkFailure } from './releases.ts';

/**
 * A download made once and shared by every caller (a code chunk: `loadOnce(() => import('./x.ts'))`). A
 * failed one is said in the console (once per file) and forgotten, so the next call tries again: the
 * network may be back.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      reportChunkFailure(error);
      throw error;
    }));
}
