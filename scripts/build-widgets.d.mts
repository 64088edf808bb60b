export const WIDGET_ENTRIES: string[];
export const BASELINE_ENTRY: string;
/** Builds the widget bundles (default: every element and the all-in-one) into `outDir` (default dist/site/widgets) and returns it. */
export function buildWidgets(outDir?: string, entries?: string[], runtime?: 'preact' | 'react'): Promise<string>;
export const PURE_MODULES: RegExp;
export function measure(dir: string): { file: string; bytes: number; gzip: number; brotli: number }[];
export { initialGzipBytes, moduleGraph, staticImportGraph } from './module-graph.mjs';
