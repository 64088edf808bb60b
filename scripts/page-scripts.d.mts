import type { Browser } from 'playwright-core';

export interface FetchedScript {
  url: string;
  path: string;
  encoding: string | null;
  /** The body as received (the context asks for gzip only). */
  transferBytes: number;
  /** gzip -9 of the script's bytes. */
  gzipBytes: number;
}
/** Every script a page fetches before any interaction, from Chromium's network log. */
export function scriptsBeforeInteraction(
  browser: Browser,
  url: string,
  options?: {
    viewport?: { width: number; height: number };
    html?: string;
    ready?: string;
    initScript?: string;
    quietMs?: number;
  },
): Promise<{ scripts: FetchedScript[]; requests: string[]; gzipBytes: number }>;
/** `lang`: the page's `<html lang>` (English by default). */
export function blankElementPage(scriptUrl: string, tag: string, lang?: 'en' | 'ar'): string;
export function elementRendered(tag: string): string;
