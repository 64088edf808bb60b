export const WIDGET_ENTRIES: string[];
export const BASELINE_ENTRY: string;
/** Builds the widget bundles (default: every element and the all-in-one) into `outDir` (default dist/site/widgets) and returns it. */
export function buildWidgets(outDir?: string, entries?: string[], runtime?: 'preact' | 'react'): Promise<string>;
/** The folder of widgets/ holding the React build (react/). */
export const REACT_WIDGETS_DIR: string;
/** The default build in `outDir` (default dist/site/widgets) and the React build in its react/ folder. */
export function buildReleaseWidgets(outDir?: string): Promise<string>;
export const PURE_MODULES: RegExp;
export function measure(dir: string): { file: string; bytes: number; gzip: number; brotli: number }[];
export { initialGzipBytes, moduleGraph, staticImportGraph } from './module-graph.mjs';
