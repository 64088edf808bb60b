import type { EmbedManifest } from './build-delivery.mjs';
export const README: string;
export const PRODUCT_ORIGIN_PLACEHOLDER: string;
export const README_PINNED_ELEMENT: string;
/** The import map pinning everything `tag` may run: its bundle and each chunk, at `origin`. */
export function pinnedImportMap(
  embed: EmbedManifest,
  tag: string,
  origin?: string,
): { integrity: Record<string, string> };
/** The pinned snippet for `tag`: the import map, the element, its module script with integrity. */
export function pinnedSnippet(embed: EmbedManifest, tag?: string, origin?: string): string;
/** The snippet README.md shows between its pinned-embed markers. */
export function readmePinnedSnippet(readme?: string): string;
/** README.md's text with `snippet` between its pinned-embed markers. */
export function withPinnedSnippet(readme: string, snippet: string): string;
