/**
 * Builds api/server.ts, api/migrate.ts, api/migrate-data.ts, api/backup.ts and api/restore.ts into `outDir`
 * (default dist/server) as server.js, migrate.js, migrate-data.js, backup.js and restore.js, and returns
 * the path of server.js.
 */
export function buildServer(outDir?: string): Promise<string>;
