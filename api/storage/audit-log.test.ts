import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AUDIT_FIELD_MAX_LENGTH, fileAuditLog } from './audit-log.ts';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'sgx-audit-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));
const now = () => new Date('2026-11-22T10:00:00Z');
const linesOf = async (name: string) =>
  (await readFile(path.join(dataDir, name), 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));

describe('the audit log', () => {
  it('caps every field, whatever a caller passes', async () => {
    const audit = fileAuditLog(dataDir, now);
    const long = 'x'.repeat(15_000);
    await audit.record({ actor: long, action: long, recordType: 'patient', recordId: long, outcome: 'failure' });
    const text = await readFile(path.join(dataDir, 'audit.log'), 'utf8');
    expect(text.length).toBeLessThan(6 * AUDIT_FIELD_MAX_LENGTH);
    const [line] = await linesOf('audit.log');
    expect(line.recordId).toHaveLength(AUDIT_FIELD_MAX_LENGTH);
    expect(line.action).toHaveLength(AUDIT_FIELD_MAX_LENGTH);
    expect(line.actor).toHaveLength(AUDIT_FIELD_MAX_LENGTH);
  });

  it('rotates audit.log to audit.log.1 … at the size limit and keeps only the newest files', async () => {
    const audit = fileAuditLog(dataDir, now, { maxBytes: 1000, keepFiles: 2 });
    const ids = Array.from({ length: 200 }, (_, index) => `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`);
    // concurrent callers, as requests are: each line is written whole and in order
    await Promise.all(
      ids.map((recordId) =>
        audit.record({ actor: 'u1', action: 'patient.read', recordType: 'patient', recordId, outcome: 'failure' }),
      ),
    );
    expect((await readdir(dataDir)).sort()).toEqual(['audit.log', 'audit.log.1', 'audit.log.2']);
    for (const name of ['audit.log', 'audit.log.1', 'audit.log.2']) {
      expect((await stat(path.join(dataDir, name))).size).toBeLessThanOrEqual(1000);
      expect((await stat(path.join(dataDir, name))).mode & 0o777).toBe(0o600);
    }
    const kept = [
      ...(await linesOf('audit.log.2')),
      ...(await linesOf('audit.log.1')),
      ...(await linesOf('audit.log')),
    ].map((line) => line.recordId);
    expect(kept.length).toBeGreaterThan(10);
    expect(kept).toEqual(ids.slice(-kept.length)); // the newest lines, in order, none lost between the kept files
  });

  it('continues from the size an existing audit.log already has', async () => {
    await fileAuditLog(dataDir, now, { maxBytes: 1000, keepFiles: 1 }).record({ actor: 'u1', action: 'x'.repeat(100) });
    const reopened = fileAuditLog(dataDir, now, { maxBytes: 1000, keepFiles: 1 });
    for (let index = 0; index < 10; index += 1) await reopened.record({ actor: 'u1', action: 'x'.repeat(100) });
    expect((await readdir(dataDir)).sort()).toEqual(['audit.log', 'audit.log.1']);
    expect((await stat(path.join(dataDir, 'audit.log.1'))).size).toBeLessThanOrEqual(1000);
  });
});
