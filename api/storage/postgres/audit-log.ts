import type { Pool } from 'pg';
import { capFields, type AuditLog } from '../audit-log.ts';

/**
 * The audit log as rows of `audit_events`, shared by every instance: append-only (this code only
 * inserts), text fields cut as in the file log, the time from `now`. Resolves once the row is committed.
 */
export function postgresAuditLog(pool: Pool, now: () => Date): AuditLog {
  return {
    async record(event) {
      const capped = capFields(event);
      await pool.query(
        `INSERT INTO audit_events (time, actor, action, record_type, record_id, outcome)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [
          now().toISOString(),
          capped.actor,
          capped.action,
          capped.recordType ?? null,
          capped.recordId ?? null,
          capped.outcome ?? null,
        ],
      );
    },
  };
}
