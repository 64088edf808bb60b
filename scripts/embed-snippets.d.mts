import type { EmbedBuild, EmbedManifest } from './build-delivery.mjs';
/** Which build of embed.json: the default one (Preact) or the React build (widgets/<version>/react/). */
export type EmbedRuntime = 'default' | 'react';
/** embed.json's listing of one build. */
export function embedBuild(embed: EmbedManifest, runtime?: EmbedRuntime): EmbedBuild;
export const README: string;
export const PRODUCT_ORIGIN_PLACEHOLDER: string;
export const README_PINNED_ELEMENT: string;
/** The import map pinning everything `tag` may run: its bundle and each chunk, at `origin`. */
export function pinnedImportMap(
  embed: EmbedManifest,
  tag: string,
  origin?: string,
  runtime?: EmbedRuntime,
): { integrity: Record<string, string> };
/** The pinned snippet for `tag`: the import map, the element, its module script with integrity. */
export function pinnedSnippet(embed: EmbedManifest, tag?: string, origin?: string, runtime?: EmbedRuntime): string;
/** The snippet README.md shows between its pinned-embed markers. */
export function readmePinnedSnippet(readme?: string): string;
/** README.md's text with `snippet` between its pinned-embed markers. */
export function withPinnedSnippet(readme: string, snippet: string): string;
