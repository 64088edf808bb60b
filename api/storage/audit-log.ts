import { appendFile, rename, stat } from 'node:fs/promises';
import path from 'node:path';

export const AUDIT_FILE_NAME = 'audit.log';
/** Longer text in any field is cut: the log's size must not be up to the caller. */
export const AUDIT_FIELD_MAX_LENGTH = 128;
/** audit.log is renamed to audit.log.1 (and older ones shifted up) once it would pass this size. */
export const AUDIT_LOG_DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
/** Rotated files kept (audit.log.1 … audit.log.N); the oldest beyond them is dropped. */
export const AUDIT_LOG_DEFAULT_KEEP_FILES = 5;

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

export interface AuditLogLimits {
  maxBytes?: number;
  keepFiles?: number;
}

/**
 * Append-only JSON lines in DATA_DIR/audit.log, at most `maxBytes` a file and `keepFiles` rotated
 * files, so the disk use is bounded whatever clients send. Lines are written one at a time, in
 * order (rotation must not interleave with an append). Resolves once the line is appended.
 */
export function fileAuditLog(dataDir: string, now: () => Date, limits: AuditLogLimits = {}): AuditLog {
  const file = path.join(dataDir, AUDIT_FILE_NAME);
  const maxBytes = limits.maxBytes ?? AUDIT_LOG_DEFAULT_MAX_BYTES;
  const keepFiles = limits.keepFiles ?? AUDIT_LOG_DEFAULT_KEEP_FILES;
  let size: number | undefined; // of audit.log; read from disk before the first append
  let queue: Promise<unknown> = Promise.resolve();

  const rotate = async () => {
    // audit.log.N-1 → audit.log.N … audit.log → audit.log.1; a rename over audit.log.N drops the oldest.
    for (let index = keepFiles - 1; index >= 1; index -= 1)
      await renameIfPresent(`${file}.${index}`, `${file}.${index + 1}`);
    await renameIfPresent(file, `${file}.1`);
    size = 0;
  };
  const append = async (line: string) => {
    size ??= await stat(file).then(
      (found) => found.size,
      () => 0,
    );
    const bytes = Buffer.byteLength(line);
    if (size > 0 && size + bytes > maxBytes) await rotate();
    await appendFile(file, line, { mode: 0o600 });
    size += bytes;
  };

  return {
    record(event) {
      const line = `${JSON.stringify({ time: now().toISOString(), ...capFields(event) })}\n`;
      const written = queue.then(() => append(line));
      queue = written.catch(() => {
        size = undefined; // a failed append or rename: read the size again next time
      });
      return written;
    },
  };
}

/** The event with every text field cut to AUDIT_FIELD_MAX_LENGTH (every audit log stores it so). */
export function capFields(event: AuditEvent): AuditEvent {
  const capped: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(event))
    capped[key] = typeof value === 'string' ? value.slice(0, AUDIT_FIELD_MAX_LENGTH) : value;
  return capped as unknown as AuditEvent;
}

async function renameIfPresent(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
