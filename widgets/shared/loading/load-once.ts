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
 *     const loadX = loadOnce(() => import('./x.ts'), import.meta.url);
 *
 * A failed download is said in the console, once per file (./releases.ts), and forgotten, so the next call tries
 * again (the network may be back). Browsers differ on what a second `import()` of an address that failed does:
 * some fetch it again, others keep the failure for the life of the page (their module map) and never ask the
 * network. So a retry imports the chunk as before and, should that fail while the chunk can be fetched, under a
 * fresh address (`?retry=N`, the same file), which no module map has seen
 * (docs/engineering-notes.md#chunks-fetched-again). A fresh address is spent only when the network answers for
 * it, so retries made offline leave them for when it is back; there are FRESH_ADDRESSES of them.
 *
 * The chunk's address is the one `load` imports, as built: the text of its `import("…")` (`load.toString()`, the
 * bundler's own specifier, hash included) resolved against `base`, the caller's `import.meta.url` (the module
 * that holds `load`). Without one (no `base`, or a test's loader) a retry only imports again.
 */
export function loadOnce<T>(load: () => Promise<T>, base?: string, network: ChunkNetwork = BROWSER): () => Promise<T> {
  let loading: Promise<T> | undefined;
  let failures = 0;
  let fresh = 1;
  const attempt = async (): Promise<T> => {
    if (failures === 0) return load();
    try {
      return await load();
    } catch (error) {
      const url = importedAddress(load, base);
      // a pinned page's import map lists these addresses with the chunk's integrity (scripts/build-delivery.mjs)
      if (url === undefined || fresh > FRESH_ADDRESSES) throw error;
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
 * The address `load` imports: its `import("…")` specifier (quoted any way a minifier writes it), resolved against
 * `base`; undefined when it has none (a loader that does something else, or the dev server's rewritten import).
 */
export function importedAddress(load: () => unknown, base: string | undefined): string | undefined {
  const specifier = /(?<![\w$])import\(\s*(["'`])([^"'`]+)\1\s*\)/.exec(String(load))?.[2];
  if (specifier === undefined || base === undefined) return undefined;
  try {
    return new URL(specifier, base).href;
  } catch {
    return undefined;
  }
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
