import { createHmac } from 'node:crypto';
import { appendFile, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeResult, GENESIS_HASH } from '../audit/chain.ts';
import { pruneFileTrail, verifyFileTrail } from '../audit/trail.ts';
import { AUDIT_FIELD_MAX_LENGTH, fileAuditLog, type AuditEvent } from './audit-log.ts';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'sgx-audit-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));
const now = () => new Date('2026-11-22T10:00:00Z');
const textOf = (name: string) => readFile(path.join(dataDir, name), 'utf8');
const linesOf = async (name: string) =>
  (await textOf(name))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
/** The HMAC under the development key the writer made in DATA_DIR (no AUDIT_KEY in these tests). */
const hmacOf = async (text: string) =>
  createHmac('sha256', Buffer.from((await textOf('audit-key')).trim(), 'base64'))
    .update(text)
    .digest('hex');
/** The events' lines: without the key line the writer puts first (chain.ts). */
const eventsOf = async (name: string) => (await linesOf(name)).filter((line) => line.action !== 'audit.key');
const read = (recordId: string): AuditEvent => ({
  actor: 'u1',
  action: 'patient.read',
  recordType: 'patient',
  recordId,
  outcome: 'success',
});
const ids = (count: number) =>
  Array.from({ length: count }, (_, index) => `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`);

describe('the audit log', () => {
  it('caps every field, whatever a caller passes', async () => {
    const audit = fileAuditLog(dataDir, now);
    const long = 'x'.repeat(15_000);
    await audit.record(
      {
        actor: long,
        action: long as never,
        recordType: 'patient',
        recordId: long,
        outcome: 'failure',
      },
      null,
    );
    const text = (await textOf('audit.log')).trim().split('\n').at(-1)!;
    expect(text.length).toBeLessThan(6 * AUDIT_FIELD_MAX_LENGTH);
    const [line] = await eventsOf('audit.log');
    expect(line.recordId).toHaveLength(AUDIT_FIELD_MAX_LENGTH);
    expect(line.action).toHaveLength(AUDIT_FIELD_MAX_LENGTH);
    expect(line.actor).toHaveLength(AUDIT_FIELD_MAX_LENGTH);
  });

  it('chains each line to the one before: hash is the HMAC of the line without it, prev the one before', async () => {
    const audit = fileAuditLog(dataDir, now);
    await audit.record(read('a'), null);
    await audit.record(read('b'), null);
    const [keyText, first, second] = (await textOf('audit.log')).trim().split('\n');
    const keyLine = JSON.parse(keyText!);
    expect(keyLine).toMatchObject({ action: 'audit.key', seq: 1, prev: GENESIS_HASH });
    const firstLine = JSON.parse(first!);
    expect(firstLine.prev).toBe(keyLine.hash);
    expect(firstLine.seq).toBe(2);
    // the hash covers the text up to prev: the line without its last field
    expect(firstLine.hash).toBe(await hmacOf(`${first!.slice(0, first!.indexOf(',"hash":'))}}`));
    expect(JSON.parse(second!).prev).toBe(firstLine.hash);
    expect(Object.keys(firstLine)).toEqual([
      'time',
      'actor',
      'action',
      'recordType',
      'recordId',
      'outcome',
      'seq',
      'prev',
      'hash',
    ]);
    expect(describeResult(await verifyFileTrail(dataDir), 'DATA_DIR')).toMatch(/^Audit trail intact, 3 lines/);
  });

  it('rotates audit.log to audit.log.1 … at the size limit, deletes none; the chain runs across files', async () => {
    const audit = fileAuditLog(dataDir, now, { maxBytes: 1000 });
    const all = ids(200);
    // concurrent callers, as requests are: each line is written whole and in order
    await Promise.all(all.map((recordId) => audit.record(read(recordId), null)));
    const names = (await readdir(dataDir)).filter((name) => name.startsWith('audit.log')).sort();
    expect(names.length).toBeGreaterThan(20);
    for (const name of names) {
      expect((await stat(path.join(dataDir, name))).size).toBeLessThanOrEqual(1000);
      expect((await stat(path.join(dataDir, name))).mode & 0o777).toBe(0o600);
    }
    const oldestFirst = names
      .filter((name) => name !== 'audit.log')
      .sort((a, b) => Number(b.slice(10)) - Number(a.slice(10)));
    const lines = [];
    for (const name of [...oldestFirst, 'audit.log']) lines.push(...(await eventsOf(name)));
    expect(lines.map((line) => line.recordId)).toEqual(all); // every line, in order, none lost
    // the first line of each file links to the last line of the file before
    const second = (await linesOf(oldestFirst.at(-1)!))[0];
    const lastOfOlder = (await linesOf(oldestFirst.at(-2)!)).at(-1);
    expect(second.prev).toBe(lastOfOlder.hash);
    const result = await verifyFileTrail(dataDir);
    expect(result.broken).toBeUndefined();
    expect(describeResult(result, 'DATA_DIR')).toMatch(/^Audit trail intact, 201 lines/);
  });

  it('continues the size and the chain of an existing audit.log after a restart', async () => {
    await fileAuditLog(dataDir, now, { maxBytes: 1000 }).record(read('first'), null);
    const reopened = fileAuditLog(dataDir, now, { maxBytes: 1000 });
    for (let index = 0; index < 10; index += 1) await reopened.record(read(`again-${index}`), null);
    const names = (await readdir(dataDir)).filter((name) => name.startsWith('audit.log')).sort();
    expect(names.slice(0, 2)).toEqual(['audit.log', 'audit.log.1']);
    for (const name of names) expect((await stat(path.join(dataDir, name))).size).toBeLessThanOrEqual(1000);
    expect((await verifyFileTrail(dataDir)).lines).toBe(12); // the key line, then the 11 events
    expect((await verifyFileTrail(dataDir)).broken).toBeUndefined();
  });

  it('cuts off an unfinished last line a crash left, then goes on from the line before it', async () => {
    const audit = fileAuditLog(dataDir, now);
    await audit.record(read('a'), null);
    await appendFile(path.join(dataDir, 'audit.log'), '{"time":"2026-11-22T10:00:00.000Z","act');
    expect((await verifyFileTrail(dataDir)).tornTail).toBe(39);
    await fileAuditLog(dataDir, now).record(read('b'), null);
    expect((await eventsOf('audit.log')).map((line) => line.recordId)).toEqual(['a', 'b']);
    expect((await verifyFileTrail(dataDir)).broken).toBeUndefined();
  });
});

describe('npm run audit-verify on the files', () => {
  async function trailOf(count: number, maxBytes = 100_000) {
    const audit = fileAuditLog(dataDir, now, { maxBytes });
    for (const recordId of ids(count)) await audit.record(read(recordId), null);
  }

  it('names the line whose byte was changed', async () => {
    await trailOf(5);
    const text = await textOf('audit.log');
    const lines = text.split('\n');
    lines[2] = lines[2]!.replace('"actor":"u1"', '"actor":"u2"'); // one byte of the third line
    await writeFile(path.join(dataDir, 'audit.log'), lines.join('\n'));
    const result = await verifyFileTrail(dataDir);
    expect(result.broken).toEqual({ where: 'audit.log line 3', index: 3, problem: expect.stringContaining('changed') });
    expect(describeResult(result, 'DATA_DIR')).toBe(
      'Audit trail BROKEN at audit.log line 3 (line 3 of the trail): its hash is not the HMAC-SHA-256 under the ' +
        `trail's key (id ${result.keys[0]}): the line was changed, or written by someone without the key (a plain ` +
        'SHA-256 or another key). The 2 lines before it are intact.',
    );
  });

  it('finds a line removed, one added and a changed last line, also in a rotated file', async () => {
    await trailOf(40, 1200);
    const rotated = (await readdir(dataDir)).filter((name) => name !== 'audit.log').sort();
    expect(rotated.length).toBeGreaterThan(2);
    const target = rotated[1]!;
    const original = await textOf(target);
    const lines = original.trim().split('\n');

    await writeFile(path.join(dataDir, target), `${[lines[0], ...lines.slice(2)].join('\n')}\n`);
    expect((await verifyFileTrail(dataDir)).broken).toMatchObject({
      where: `${target} line 2`,
      problem: expect.stringContaining('lines before it were removed or added'),
    });

    await writeFile(path.join(dataDir, target), `${[lines[0], lines[0], ...lines.slice(1)].join('\n')}\n`);
    expect((await verifyFileTrail(dataDir)).broken?.where).toBe(`${target} line 2`);

    await writeFile(path.join(dataDir, target), original);
    const last = (await textOf('audit.log')).trim().split('\n');
    last[last.length - 1] = last.at(-1)!.replace('success', 'failure');
    await writeFile(path.join(dataDir, 'audit.log'), `${last.join('\n')}\n`);
    expect((await verifyFileTrail(dataDir)).broken?.where).toBe(`audit.log line ${last.length}`);
  });

  it('accepts lines an earlier release wrote before the chain began, but only before it', async () => {
    const legacy = '{"time":"2025-01-01T00:00:00.000Z","actor":"u0","action":"user.signin","outcome":"success"}\n';
    await writeFile(path.join(dataDir, 'audit.log'), legacy.repeat(3));
    await trailOf(2);
    const result = await verifyFileTrail(dataDir);
    expect(result).toMatchObject({ lines: 6, legacy: 3, seq: 6 });
    expect(result.broken).toBeUndefined();
    await appendFile(path.join(dataDir, 'audit.log'), legacy);
    expect((await verifyFileTrail(dataDir)).broken?.where).toBe('audit.log line 7');
  });
});

describe('npm run audit-prune on the files', () => {
  const DAY = 24 * 60 * 60 * 1000;
  async function lineAt(iso: string, recordId: string, maxBytes = 1100) {
    await fileAuditLog(dataDir, () => new Date(iso), { maxBytes }).record(read(recordId), null);
  }

  it('removes only lines older than the retention period, writes a signed summary; the chain verifies', async () => {
    const today = new Date('2027-06-01T00:00:00Z');
    for (let day = 500; day >= 0; day -= 25) {
      await lineAt(new Date(today.getTime() - day * DAY).toISOString(), `day-${day}`);
    }
    const before = await verifyFileTrail(dataDir);
    expect(before.lines).toBe(22); // the key line (as old as the first line), then 21 events
    const filesBefore = (await readdir(dataDir)).length;
    expect(filesBefore).toBeGreaterThan(3);

    const outcome = await pruneFileTrail(dataDir, { retentionDays: 400, now: today });
    // the key line and 500, 475, 450, 425 days old go; 400 days old is not older than the period and stays
    expect(outcome.count).toBe(5);
    expect(outcome.summary?.detail).toMatchObject({ count: 5, before: '2026-04-27T00:00:00.000Z' });
    expect(outcome.summary?.seq).toBe(5);
    const after = await verifyFileTrail(dataDir);
    expect(after.broken).toBeUndefined();
    expect(after).toMatchObject({ lines: 18, summaries: 1, pruned: 5, seq: 22 });
    const names = (await readdir(dataDir)).filter((name) => name.startsWith('audit.log'));
    const kept: string[] = [];
    for (const name of names.sort((a, b) => Number(b.slice(10) || 0) - Number(a.slice(10) || 0)))
      kept.push(...(await linesOf(name)).map((line) => line.recordId ?? line.action));
    expect(kept).toEqual(['audit.prune', ...Array.from({ length: 17 }, (_, index) => `day-${400 - index * 25}`)]);
    expect(describeResult(after, 'DATA_DIR')).toContain('5 older lines pruned under 1 signed summary');

    // a second prune a year later covers the first summary too
    const later = new Date(today.getTime() + 200 * DAY);
    expect((await pruneFileTrail(dataDir, { retentionDays: 400, now: later })).count).toBe(5 + 8);
    expect((await verifyFileTrail(dataDir)).broken).toBeUndefined();
    // nothing younger than the period is ever removed
    expect((await pruneFileTrail(dataDir, { retentionDays: 400, now: later })).count).toBe(0);
  });

  it('a forged summary (no key, or another key) does not verify', async () => {
    const today = new Date('2027-06-01T00:00:00Z');
    await lineAt('2025-01-01T00:00:00.000Z', 'old');
    await lineAt('2027-05-01T00:00:00.000Z', 'new');
    await pruneFileTrail(dataDir, { retentionDays: 400, now: today });
    expect((await verifyFileTrail(dataDir)).broken).toBeUndefined();
    await writeFile(path.join(dataDir, 'audit-key'), `${Buffer.alloc(48, 7).toString('base64')}\n`);
    expect((await verifyFileTrail(dataDir)).broken?.problem).toContain('is not among the keys given');
    await rm(path.join(dataDir, 'audit-key'));
    expect((await verifyFileTrail(dataDir)).broken?.problem).toContain('is not among the keys given');
  });

  it('refuses to prune a broken trail', async () => {
    await lineAt('2025-01-01T00:00:00.000Z', 'a');
    await lineAt('2025-01-02T00:00:00.000Z', 'b');
    const text = await textOf('audit.log');
    await writeFile(path.join(dataDir, 'audit.log'), text.replace('"b"', '"c"'));
    await expect(pruneFileTrail(dataDir, { retentionDays: 400, now: new Date('2027-06-01') })).rejects.toThrow(
      /Nothing was pruned: the audit trail is broken at audit.log line 3/,
    );
  });
});
