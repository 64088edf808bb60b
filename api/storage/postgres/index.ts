// The PostgreSQL storage: the StoreAdapter, its pool's other users (audit log, shared secret, the
// rate limiter's table) and the migrations.
export {
  openPostgresStore,
  describeTarget,
  PING_TIMEOUT_MS,
  type PostgresStore,
  type PostgresStoreOptions,
  PATIENT_INSERT_COLUMNS,
  patientValues,
} from './postgres-store.ts';
export { chainHead, postgresAuditLog, withChainLock } from './audit-log.ts';
export { loadOrCreateSharedSecret, JWT_SECRET_SETTING } from './shared-secret.ts';
export { MIGRATIONS, runMigrations, type Migration, type MigrationOptions } from './migrations.ts';
export { auditRoleCheck, serverRoles } from './audit-role.ts';

/**
 * rate-limiter-flexible's table, made by migration 1 (logged since migration 2): pass
 * `{ storeClient: pool, tableName: RATE_LIMIT_TABLE, tableCreated: true }` to RateLimiterPostgres.
 */
export const RATE_LIMIT_TABLE = 'rate_limits';
