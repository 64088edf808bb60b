export const RELEASE_VERSION: string;
export const COMPRESSIBLE: RegExp;
export function sri(bytes: Uint8Array): string;
export interface EmbedManifest {
  version: string;
  elements: Record<string, { url: string; integrity: string; chunks: Record<string, string> }>;
  chunks: Record<string, string>;
}
export function versionWidgets(widgetsDir: string, entries: readonly string[], version?: string): EmbedManifest;
export function precompress(dir: string): void;
/** How many fresh addresses (`?retry=N`) of each chunk embed.json lists (widgets/shared/load-once.ts tries as many). */
export const FRESH_ADDRESSES: number;
