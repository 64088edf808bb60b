/**
 * A code chunk downloaded once and shared by every caller:
 *
 *     import xUrl from './x.ts?chunk-url';
 *     const loadX = loadOnce(() => import('./x.ts'), xUrl);
 *
 * A failed download is forgotten, so the next call tries again (the network may be back). Browsers differ on
 * what a second `import()` of an address that failed does: some fetch it again, others keep the failure for
 * the life of the page (their module map) and never ask the network. So a retry imports the chunk as before
 * and, should that fail, under a fresh address (`?retry=N`, the same file), which no module map has seen
 * (docs/engineering-notes.md#chunks-fetched-again). `url` is the chunk's built address (scripts/chunk-url.mjs);
 * without one (the dev server, tests) a retry only imports again. `importAt` is `import()` (tests pass their own).
 */
export function loadOnce<T>(
  load: () => Promise<T>,
  url?: string,
  importAt: (address: string) => Promise<unknown> = (address) => import(/* @vite-ignore */ address),
): () => Promise<T> {
  let loading: Promise<T> | undefined;
  let failures = 0;
  const attempt = async (): Promise<T> => {
    if (failures === 0 || url === undefined) return load();
    try {
      return await load();
    } catch {
      return (await importAt(freshAddress(url, failures))) as T;
    }
  };
  return () =>
    (loading ??= attempt().catch((error: unknown) => {
      loading = undefined;
      failures += 1;
      throw error;
    }));
}

/** The chunk's address with `retry=N` added to its query: another module-map entry for the same file. */
export function freshAddress(url: string, retry: number): string {
  return `${url}${url.includes('?') ? '&' : '?'}retry=${retry}`;
}
