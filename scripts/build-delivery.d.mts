export const RELEASE_VERSION: string;
export const COMPRESSIBLE: RegExp;
export function sri(bytes: Uint8Array): string;
/** One build's listing: each element's bundle and what it may load later, and every chunk of the build. */
export interface EmbedBuild {
  elements: Record<string, { url: string; integrity: string; chunks: Record<string, string> }>;
  chunks: Record<string, string>;
}
/** widgets/embed.json: the default build, and the React build (widgets/<version>/react/) when it was built. */
export interface EmbedManifest extends EmbedBuild {
  version: string;
  react?: EmbedBuild;
}
export function versionWidgets(widgetsDir: string, entries: readonly string[], version?: string): EmbedManifest;
export function precompress(dir: string): void;
/** How many fresh addresses (`?retry=N`) of each chunk embed.json lists (widgets/shared/loading/load-once.ts tries as many). */
export const FRESH_ADDRESSES: number;
