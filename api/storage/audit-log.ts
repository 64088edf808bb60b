import { appendFile } from 'node:fs/promises';
import path from 'node:path';

export const AUDIT_FILE_NAME = 'audit.log';

/**
 * Who did what to which record, and when: never a patient value, a password or a token.
 * `actor` is a user id (or "anonymous"); `recordId` names the record acted on.
 */
export interface AuditEvent {
  actor: string;
  action: string;
  recordType?: 'user' | 'session' | 'patient' | 'calculation' | 'export';
  recordId?: string;
  outcome?: 'success' | 'failure' | 'denied';
}

export interface AuditLog {
  record(event: AuditEvent): Promise<void>;
}

/** Append-only JSON lines in DATA_DIR/audit.log. Resolves once the line is appended. */
export function fileAuditLog(dataDir: string, now: () => Date): AuditLog {
  const file = path.join(dataDir, AUDIT_FILE_NAME);
  return {
    async record(event) {
      await appendFile(file, `${JSON.stringify({ time: now().toISOString(), ...event })}\n`, { mode: 0o600 });
    },
  };
}
