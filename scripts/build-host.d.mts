/** Builds the host page into `outDir` (default dist/site, emptied first) and returns it. */
export function buildHost(outDir?: string): Promise<string>;
