/** Builds api/server.ts into `outDir` (default dist/server) and returns the path of server.js. */
export function buildServer(outDir?: string): Promise<string>;
