// The public surface of api/.
export { createApp, type AppDeps } from './app.ts';
export { loadConfig, ConfigError, type ServerConfig } from './config.ts';
export { openLowdbStore } from './storage/lowdb-store.ts';
export { createStore } from './storage/policy.ts';
export type { Store } from './storage/store.ts';
export { fileAuditLog, type AuditLog, type AuditEvent } from './storage/audit-log.ts';
export { lockDataDir } from './storage/data-dir-lock.ts';
export { loadJwtKey } from './auth/jwt-secret.ts';
