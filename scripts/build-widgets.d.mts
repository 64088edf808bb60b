export const WIDGET_ENTRIES: string[];
/** Builds every widget bundle into `outDir` (default dist/site/widgets) and returns it. */
export function buildWidgets(outDir?: string): Promise<string>;
export function measure(dir: string): { file: string; bytes: number; gzip: number; brotli: number }[];
