import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from './app.ts';
import { loadJwtKey } from './auth/jwt-secret.ts';
import { ConfigError, loadConfig } from './config.ts';
import { fileAuditLog } from './storage/audit-log.ts';
import { lockDataDir } from './storage/data-dir-lock.ts';
import { openLowdbStore } from './storage/lowdb-store.ts';
import { StorageError } from './storage/storage-error.ts';

/**
 * `npm start`: reads the config once, takes DATA_DIR (lock, database, secret, audit log) and listens.
 * Files written here are readable by this user only (umask 0o077; lowdb replaces the file on each
 * write, so a chmod would not last).
 */
async function main() {
  process.umask(0o077);
  const config = loadConfig(process.env);
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const releaseLock = lockDataDir(config.dataDir);
  process.on('exit', releaseLock);
  const store = await openLowdbStore(config.dataDir);
  const app = createApp({
    store,
    audit: fileAuditLog(config.dataDir, () => new Date(), { maxBytes: config.auditLogMaxBytes, keepFiles: config.auditLogFiles }),
    jwtKey: await loadJwtKey(config.dataDir, config.jwtSecret),
    allowedOrigins: config.allowedOrigins,
    staticRoot: siteRoot(),
    trustProxy: config.trustProxy,
    trustProxyHops: config.trustProxyHops,
  });
  const server = createServer(app.callback());
  server.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    console.log(`Listening on http://localhost:${port} (data in ${config.dataDir})`);
  });
  const stop = () => {
    server.close(() => {
      void store.close().finally(() => process.exit(0));
    });
    server.closeIdleConnections();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/** The built site: dist/site beside this file's package (the server runs from dist/server). */
function siteRoot(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return path.resolve(here, '..', 'site');
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof StorageError) {
    console.error(`Cannot start: ${error.message}`);
  } else {
    console.error('Cannot start:', error);
  }
  process.exit(1);
});
