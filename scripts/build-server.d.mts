/**
 * Builds api/server.ts and api/migrate-data.ts into `outDir` (default dist/server) as server.js and
 * migrate-data.js, and returns the path of server.js.
 */
export function buildServer(outDir?: string): Promise<string>;
