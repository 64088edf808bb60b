import { createHash, randomBytes } from 'node:crypto';
import { appendFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileAuditLog, type AuditEvent } from '../storage/audit-log.ts';
import { anchoredLines, anchorSink, checkAnchors, readAnchors } from './anchors.ts';
import { auditKeyring, chainLine, type AuditKeyring } from './chain.ts';
import { pruneFileTrail, verifyFileTrail } from './trail.ts';

// The keyed chain and its checkpoints outside the store (issue 45's Done-when, on the embedded store): a cut tail, a
// line rewritten with plain SHA-256 or under another key, a row without a hash, a summary moved or signed with the
// store's key.
let dataDir: string;
let anchorFile: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'sgx-anchor-'));
  anchorFile = path.join(await mkdtemp(path.join(tmpdir(), 'sgx-anchor-sink-')), 'anchors.jsonl');
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
  await rm(path.dirname(anchorFile), { recursive: true, force: true });
});
const KEY = randomBytes(32);
const keyring = auditKeyring([KEY]);
const read = (recordId: string): AuditEvent => ({
  actor: 'u1',
  action: 'patient.read',
  recordType: 'patient',
  recordId,
  outcome: 'success',
});
const auditFile = () => path.join(dataDir, 'audit.log');

async function trail(count: number, options: { ring?: AuditKeyring; at?: () => Date } = {}) {
  const ring = options.ring ?? keyring;
  const anchors = anchorSink({
    key: ring.signing!,
    file: anchorFile,
    every: { lines: 1, seconds: 60 },
    log: () => {},
    onError: (error) => {
      throw error;
    },
  });
  const audit = fileAuditLog(dataDir, options.at ?? (() => new Date('2026-12-01T10:00:00Z')), {
    keyring: ring,
    anchors,
  });
  for (let index = 0; index < count; index += 1) await audit.record(read(`r-${index}`), null);
  await anchors.close();
  return audit;
}

async function verify(ring: AuditKeyring = keyring) {
  const { anchors } = await readAnchors(anchorFile);
  const result = await verifyFileTrail(dataDir, { keyring: ring, watch: anchoredLines(anchors) });
  return { result, anchors: checkAnchors(result, anchors, ring) };
}

describe('the keyed chain against its anchors', () => {
  it('verifies a whole trail, every anchor matched', async () => {
    await trail(12);
    const { result, anchors } = await verify();
    expect(result.broken).toBeUndefined();
    expect(result).toMatchObject({ lines: 13, seq: 13, storedKey: 0 });
    expect(anchors.problem).toBeUndefined();
    expect(anchors.checked).toBe(12);
    expect(anchors.latest?.lines).toBe(13);
  });

  it('finds the newest 5 lines cut off the end, naming where the trail ends and what was anchored', async () => {
    await trail(12);
    const lines = (await readFile(auditFile(), 'utf8')).trim().split('\n');
    await writeFile(auditFile(), `${lines.slice(0, -5).join('\n')}\n`);
    const { result, anchors } = await verify();
    expect(result.broken).toBeUndefined(); // the chain alone cannot tell
    expect(anchors.problem).toContain('the trail was cut: it ends at line 8 (audit.log line 8');
    expect(anchors.problem).toContain('says line 13 had been written: lines 9 to 13');
  });

  it('finds a line rewritten with its hash recomputed by plain SHA-256, or as an HMAC under a wrong key', async () => {
    await trail(6);
    const original = await readFile(auditFile(), 'utf8');
    const lines = original.trim().split('\n');
    const target = JSON.parse(lines[3]!);
    const { prev, hash: _hash, ...fields } = target;
    const changed = { ...fields, recordId: 'someone-else' };
    const body = chainLine(changed, prev, undefined).text.replace(/,"hash":"[0-9a-f]{64}"}$/, '}');
    const sha = createHash('sha256').update(body).digest('hex');
    lines[3] = `${body.slice(0, -1)},"hash":"${sha}"}`;
    await writeFile(auditFile(), `${lines.join('\n')}\n`);
    expect((await verify()).result.broken).toMatchObject({
      where: 'audit.log line 4',
      problem: expect.stringContaining('is not the HMAC-SHA-256 under the trail'),
    });
    const wrong = auditKeyring([randomBytes(32)]).signing!;
    lines[3] = chainLine(changed, prev, wrong).text;
    await writeFile(auditFile(), `${lines.join('\n')}\n`);
    expect((await verify()).result.broken?.where).toBe('audit.log line 4');
  });

  it('does not chain a line added without a hash, and says so; verify finds it', async () => {
    const audit = await trail(3);
    await appendFile(auditFile(), '{"time":"2026-12-01T10:00:01.000Z","actor":"u2","action":"user.signin"}\n');
    await audit.record(read('after'), null);
    expect(await audit.tampering()).toMatch(/1 line\(s\) without a hash after the last chained line/);
    const lines = (await readFile(auditFile(), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.at(-1).prev).toBe(lines.at(-3).hash); // linked over the forged line
    expect(lines.at(-1).seq).toBe(5);
    expect((await verify()).result.broken).toMatchObject({
      where: 'audit.log line 5',
      problem: expect.stringContaining('without a hash after the chain began'),
    });
  });

  it('refuses a summary moved into the middle of the trail, and one signed with a key kept in the store', async () => {
    const DAY = 24 * 60 * 60 * 1000;
    const today = new Date('2027-06-01T00:00:00Z');
    for (const days of [500, 450, 10, 5]) await trail(1, { at: () => new Date(today.getTime() - days * DAY) });
    await pruneFileTrail(dataDir, { retentionDays: 400, now: today, keyring });
    expect((await verify()).result.broken).toBeUndefined();
    const lines = (await readFile(auditFile(), 'utf8')).trim().split('\n');
    expect(JSON.parse(lines[0]!).action).toBe('audit.prune');
    await writeFile(auditFile(), `${[lines[0], lines[1], lines[0], ...lines.slice(2)].join('\n')}\n`);
    expect((await verify()).result.broken).toMatchObject({
      where: 'audit.log line 3',
      problem: expect.stringContaining('a summary of pruned lines stands only as the first line of the trail'),
    });

    // the same trail pruned with the development key of the store, then checked with AUDIT_KEY set
    await rm(dataDir, { recursive: true, force: true });
    await mkdir(dataDir);
    await rm(anchorFile, { force: true });
    const stored = randomBytes(48);
    const storeOnly = auditKeyring([], stored);
    for (const days of [500, 450, 10]) {
      await trail(1, { ring: storeOnly, at: () => new Date(today.getTime() - days * DAY) });
    }
    await pruneFileTrail(dataDir, { retentionDays: 400, now: today, keyring: storeOnly });
    expect((await verifyFileTrail(dataDir, { keyring: storeOnly })).broken).toBeUndefined();
    expect((await verifyFileTrail(dataDir, { keyring: auditKeyring([KEY], stored) })).broken?.problem).toContain(
      'signed with a key kept in the store, not AUDIT_KEY',
    );
  });

  it('rotates the key: a key line names the new key; verify needs both keys, and says which it used', async () => {
    await trail(3); // under KEY: its key line and 3 lines
    const next = randomBytes(32);
    const rotated = auditKeyring([next, KEY]);
    await trail(2, { ring: rotated });
    const lines = (await readFile(auditFile(), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => line.action)).toEqual([
      'audit.key',
      'patient.read',
      'patient.read',
      'patient.read',
      'audit.key',
      'patient.read',
      'patient.read',
    ]);
    expect(lines[4].detail).toEqual({ keyId: rotated.signing!.id, previous: keyring.signing!.id });
    const both = await verify(rotated);
    expect(both.result.broken).toBeUndefined();
    expect(both.result.keys).toEqual([keyring.signing!.id, rotated.signing!.id]);
    expect(both.anchors.problem).toBeUndefined();
    expect(both.anchors.checked).toBe(5);
    // With the new key alone, the old span cannot be checked: the first line already fails.
    const newOnly = await verifyFileTrail(dataDir, { keyring: auditKeyring([next]) });
    expect(newOnly.broken?.where).toBe('audit.log line 1');
    // and the old key alone stops at the rotation.
    const oldOnly = await verifyFileTrail(dataDir, { keyring });
    expect(oldOnly.broken?.where).toBe('audit.log line 5');
  });
});
