import { reportChunkFailure } from './releases.ts';

/** How a retry reaches the network; tests pass their own. */
export interface ChunkNetwork {
  /** `import()` of an address. */
  importAt: (address: string) => Promise<unknown>;
  /** Whether the address can be fetched now (so importing it would not fail on the network). */
  reachable: (address: string) => Promise<boolean>;
}

const BROWSER: ChunkNetwork = {
  importAt: (address) => import(/* @vite-ignore */ address),
  reachable: (address) =>
    fetch(address).then(
      (response) => response.ok,
      () => false,
    ),
};

/**
 * A code chunk downloaded once and shared by every caller:
 *
 *     import xUrl from './x.ts?chunk-url';
 *     const loadX = loadOnce(() => import('./x.ts'), xUrl);
 *
 * A failed download is said in the console, once per file (./releases.ts), and forgotten, so the next call tries
 * again (the network may be back). Browsers differ on what a second `import()` of an address that failed does:
 * some fetch it again, others keep the failure for the life of the page (their module map) and never ask the
 * network. So a retry imports the chunk as before and, should that fail while the chunk can be fetched, under a
 * fresh address (`?retry=N`, the same file), which no module map has seen (docs/engineering-notes.md#chunks-
 * fetched-again). A fresh address is spent only when the network answers for it, so retries made offline leave
 * them for when it is back; there are FRESH_ADDRESSES of them. `url` is the chunk's built address
 * (scripts/chunk-url.mjs); without one (the dev server, tests) a retry only imports again.
 */
export function loadOnce<T>(load: () => Promise<T>, url?: string, network: ChunkNetwork = BROWSER): () => Promise<T> {
  let loading: Promise<T> | undefined;
  let failures = 0;
  let fresh = 1;
  const attempt = async (): Promise<T> => {
    if (failures === 0 || url === undefined) return load();
    try {
      return await load();
    } catch (error) {
      // a pinned page's import map lists these addresses with the chunk's integrity (scripts/build-delivery.mjs)
      if (fresh > FRESH_ADDRESSES) throw error;
      const address = freshAddress(url, fresh);
      if (!(await network.reachable(address))) throw error;
      fresh += 1;
      return (await network.importAt(address)) as T;
    }
  };
  return () =>
    (loading ??= attempt().catch((error: unknown) => {
      loading = undefined;
      failures += 1;
      reportChunkFailure(error);
      throw error;
    }));
}

/**
 * How many fresh addresses a chunk is tried under, at most (`?retry=1`, `?retry=2`): a pinned page's import map
 * gives each the chunk's integrity (widgets/embed.json), so a retry is checked as the first load was.
 */
export const FRESH_ADDRESSES = 2;

/** The chunk's address with `retry=N` added to its query: another module-map entry for the same file. */
export function freshAddress(url: string, retry: number): string {
  return `${url}${url.includes('?') ? '&' : '?'}retry=${retry}`;
}
