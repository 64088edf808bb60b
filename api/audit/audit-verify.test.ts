import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { createTestDatabase } from '../test-support/postgres-cluster.ts';
import {
  builtServer,
  runBuiltCommand,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from '../test-support/server-process.ts';
import { rowFields } from '../storage/postgres/audit-log.ts';
import { auditKeyring, chainLine, type AuditKey } from './chain.ts';

// Issue 45's Done-when, from outside: the built server writes the trail with AUDIT_KEY and its anchors to
// AUDIT_ANCHOR_FILE; the built `npm run audit-verify` (and `backup`, `restore`) judge it after someone who holds the
// store (a superuser, a copy of DATA_DIR) cut it, rewrote a line or added one, and after a restore.
vi.setConfig({ testTimeout: 90_000 });

const AUDIT_KEY = randomBytes(32).toString('base64');
const OTHER_KEY = auditKeyring([randomBytes(32)]).signing!;
let commands: Record<'server' | 'verify' | 'backup' | 'restore', string>;
let work: string;
const servers: ServerProcess[] = [];
const cleanups: (() => Promise<unknown>)[] = [];
beforeAll(async () => {
  const server = await builtServer();
  const beside = (name: string) => path.join(path.dirname(server), name);
  commands = { server, verify: beside('audit-verify.js'), backup: beside('backup.js'), restore: beside('restore.js') };
  work = await mkdtemp(path.join(tmpdir(), 'sgx-audit-verify-'));
}, 120_000);
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => stopServerProcess(server, 'SIGKILL')));
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** One store as the tests see it: its environment, and what a holder of it can do to the trail's lines. */
interface Store {
  env: Record<string, string>;
  /** The trail's lines, oldest first, as fields (the key line included). */
  lines(): Promise<Record<string, unknown>[]>;
  /** What audit-verify names the line of number `seq` by. */
  where(seq: number): Promise<string>;
  deleteNewest(count: number): Promise<void>;
  /** Replaces the line of number `seq` by `line` (its text in a file, its fields in a row; its hash as given). */
  rewrite(seq: number, line: { text: string; line: Record<string, unknown> }): Promise<void>;
  /** Adds a line without a hash at the end, as an INSERT or an append by hand would. */
  addUnhashed(): Promise<void>;
}

async function embeddedStore(): Promise<Store> {
  const dataDir = await mkdtemp(path.join(work, 'data-'));
  const file = path.join(dataDir, 'audit.log');
  const texts = async () => (await readFile(file, 'utf8')).trim().split('\n');
  const save = (lines: string[]) => writeFile(file, `${lines.join('\n')}\n`);
  return {
    env: { DATA_DIR: dataDir },
    lines: async () => (await texts()).map((text) => JSON.parse(text) as Record<string, unknown>),
    where: async (seq) => `audit.log line ${seq}`,
    deleteNewest: async (count) => save((await texts()).slice(0, -count)),
    rewrite: async (seq, line) => {
      const lines = await texts();
      lines[seq - 1] = line.text;
      await save(lines);
    },
    addUnhashed: async () => {
      const line = { time: new Date().toISOString(), actor: 'u-0', action: 'user.signin', outcome: 'success' };
      await save([...(await texts()), JSON.stringify(line)]);
    },
  };
}

async function postgresStore(): Promise<Store> {
  const created = await createTestDatabase(inject('postgresBaseUrl'));
  cleanups.push(() => created.drop());
  // The test cluster's role is a superuser: what a DBA holds.
  const query = async (text: string, values: unknown[] = []) => {
    const client = new pg.Client({ connectionString: created.url });
    await client.connect();
    try {
      return (await client.query(text, values)).rows as Record<string, unknown>[];
    } finally {
      await client.end();
    }
  };
  const columns = 'id, seq, time, actor, action, record_type, record_id, outcome, request_id, address, detail';
  return {
    env: { DATABASE_URL: created.url },
    lines: async () =>
      (await query(`SELECT ${columns}, prev_hash, hash FROM audit_events ORDER BY id`)).map((row) => ({
        ...rowFields(row),
        id: row.id,
      })),
    where: async (seq) =>
      `audit_events row id ${(await query('SELECT id FROM audit_events WHERE seq = $1', [seq]))[0]!.id}`,
    deleteNewest: async (count) => {
      await query(`DELETE FROM audit_events WHERE id IN (SELECT id FROM audit_events ORDER BY id DESC LIMIT ${count})`);
    },
    rewrite: async (seq, { line }) => {
      await query('UPDATE audit_events SET record_id = $1, hash = $2 WHERE seq = $3', [line.recordId, line.hash, seq]);
    },
    addUnhashed: async () => {
      await query(
        "INSERT INTO audit_events (time, actor, action, outcome) VALUES (now(), 'u-0', 'user.signin', 'success')",
      );
    },
  };
}

const STORES = [
  ['the embedded store', embeddedStore],
  ['PostgreSQL', postgresStore],
] as const;

/** The server on `store` with AUDIT_KEY and an anchor after every write, until stopped (which anchors the rest). */
async function serve(store: Store, anchorFile: string) {
  const server = await startServerProcess(commands.server, store.env.DATA_DIR ?? (await mkdtemp(`${work}/unused-`)), {
    ...store.env,
    AUDIT_KEY,
    AUDIT_ANCHOR_FILE: anchorFile,
    AUDIT_ANCHOR_EVERY: '1,60',
    SHUTDOWN_DRAIN_MS: '0',
  });
  servers.push(server);
  const call = async (method: string, url: string, body?: unknown, token?: string) => {
    const response = await fetch(server.url + url, {
      method,
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json().catch(() => undefined)) as any };
  };
  return {
    server,
    call,
    /** A clinician who signs up and adds `count` patients: 1 + count audit lines. */
    async work(count: number) {
      const signup = await call('POST', '/api/auth/signup', {
        email: `c-${randomBytes(4).toString('hex')}@hospital.example`,
        password: 'correct horse battery',
        name: 'Dr Test',
        license: 'SCFHS-12345',
        agreeTerms: true,
      });
      expect(signup.status).toBe(201);
      for (let index = 0; index < count; index += 1) {
        const made = await call('POST', '/api/patients', { displayName: `P-${index}` }, signup.body.token);
        expect(made.status).toBe(201);
      }
    },
    async stop() {
      servers.splice(servers.indexOf(server), 1);
      await stopServerProcess(server);
    },
  };
}

/** A new anchor file's path, in the test's folder. */
const anchorFile = () => path.join(work, `anchors-${randomBytes(4).toString('hex')}.jsonl`);

/** A store whose trail the server wrote (a sign-up and `count` patients, anchored), the server stopped. */
async function written(open: () => Promise<Store>, count: number) {
  const store = await open();
  const anchors = anchorFile();
  const api = await serve(store, anchors);
  await api.work(count);
  await api.stop();
  return { store, anchors, api };
}

const verify = (store: Store, ...args: string[]) => runBuiltCommand(commands.verify, args, { ...store.env, AUDIT_KEY });

describe.each(STORES)('npm run audit-verify, built, on %s with anchors on', (_name, open) => {
  it('finds the newest 5 lines deleted by whoever holds the store: exit 1, naming the cut', async () => {
    const { store, anchors, api } = await written(open, 9); // the key line, the sign-up, 9 patients: 11 lines
    const whole = await verify(store, '--anchors', anchors);
    expect(whole.stderr).toBe('');
    expect(whole.code).toBe(0);
    expect(whole.stdout).toMatch(/^Audit trail intact, 11 lines \(.+\); 11 keyed \(key [0-9a-f]{16}\)\.\n/);
    expect(whole.stdout).toMatch(new RegExp(`Audit trail matches its \\d+ anchors in ${anchors}, .+ at line 11\\.`));
    // The same anchors as the server logged them (what a SIEM keeps) will do.
    const serverLog = `${anchors}.server.log`;
    await writeFile(serverLog, api.server.output());
    const fromLog = await verify(store, '--anchors', serverLog);
    expect(fromLog.code).toBe(0);
    expect(fromLog.stdout).toMatch(
      new RegExp(`Audit trail matches its \\d+ anchors in ${serverLog}, .+ at line 11\\.`),
    );

    const where = await store.where(6);
    await store.deleteNewest(5);
    const cut = await verify(store, '--anchors', anchors);
    expect(cut.code).toBe(1);
    expect(cut.stderr).toContain(`the trail was cut: it ends at line 6 (${where}`);
    expect(cut.stderr).toContain('says line 11 had been written: lines 7 to 11 or more were removed');
    expect((await verify(store, '--anchors', serverLog)).stderr).toContain('the trail was cut: it ends at line 6');
    // Without the anchors the chain alone cannot tell, and says so.
    const alone = await verify(store);
    expect(alone.code).toBe(0);
    expect(alone.stdout).toContain('No anchors given (--anchors FILE or AUDIT_ANCHOR_FILE)');
  });

  it('finds a line rewritten with its hash by plain SHA-256, or as an HMAC under a wrong key', async () => {
    const { store, anchors } = await written(open, 6);
    const original = (await store.lines())[3]!; // line 4, a patient's creation
    expect(original).toMatchObject({ seq: 4, action: 'patient.create' });
    const { id: _id, hash: _hash, prev, ...fields } = original;
    const changed = { ...fields, recordId: 'p-someone-else' } as Parameters<typeof chainLine>[0];
    const where = await store.where(4);
    for (const key of [undefined, OTHER_KEY] as (AuditKey | undefined)[]) {
      const rewritten = chainLine(changed, prev as string, key);
      await store.rewrite(4, { text: rewritten.text, line: { ...rewritten.line } });
      const found = await verify(store, '--anchors', anchors);
      expect(found.code).toBe(1);
      expect(found.stderr).toMatch(
        new RegExp(`^audit-verify: Audit trail BROKEN at ${where} \\(line 4 of the trail\\)`),
      );
      expect(found.stderr).toContain('The 3 lines before it are intact.');
    }
  });

  it('finds a line added without a hash; the server does not chain it, and /readyz says so', async () => {
    const { store, anchors } = await written(open, 2);
    await store.addUnhashed();
    const api = await serve(store, anchors);
    await api.work(1);
    const ready = await api.call('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.status).toBe('ready');
    expect(ready.body.audit).toMatch(/^tampering found: .*(no hash|without a hash).*not chained/);
    await api.stop();
    const lines = await store.lines();
    const forged = lines.findIndex((line) => line.hash === undefined || line.hash === null);
    expect(forged).toBe(4);
    expect(lines[5]!.prev).toBe(lines[3]!.hash); // the next line links over it, to the last chained line
    const found = await verify(store, '--anchors', anchors);
    expect(found.code).toBe(1);
    const where = lines[4]!.id !== undefined ? `audit_events row id ${lines[4]!.id}` : 'audit.log line 5';
    expect(found.stderr).toContain(`Audit trail BROKEN at ${where} (line 5 of the trail)`);
  });

  it('after npm run restore, the trail verifies against the anchors up to the backup, and says so', async () => {
    const store = await open();
    const anchors = anchorFile();
    const api = await serve(store, anchors);
    await api.work(3); // 5 lines
    const backupFile = path.join(work, `backup-${randomBytes(4).toString('hex')}`);
    const made = await runBuiltCommand(commands.backup, ['--out', backupFile], { ...store.env, AUDIT_KEY });
    expect(made.code).toBe(0);
    expect(made.stdout).toContain('AUDIT_KEY is not in the backup');
    await api.work(2); // 3 more lines, anchored, that the restore takes away
    await api.stop();

    const restored = await runBuiltCommand(commands.restore, ['--from', backupFile, '--force'], {
      ...store.env,
      AUDIT_KEY,
      AUDIT_ANCHOR_FILE: anchors,
    });
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.stdout).toMatch(
      /The restored audit trail verifies \(5 lines, the last of (\S+)\); line 6 says it was restored/,
    );
    const after = await verify(store, '--anchors', anchors);
    expect(after.stderr).toBe('');
    expect(after.code).toBe(0);
    expect(after.stdout).toMatch(
      new RegExp(
        'Restored from a backup: \\d+ anchors? name lines written after the backup of \\S+ and lost by the ' +
          'restore of \\S+ \\(up to line 8\\); the restored trail matches every anchor up to the backup\\.',
      ),
    );
    // The server goes on after the restore line; the next anchors check as before.
    const again = await serve(store, anchors);
    await again.work(1);
    await again.stop();
    const later = await verify(store, '--anchors', anchors);
    expect(later.code).toBe(0);
    expect(later.stdout).toMatch(/at line 8\.( Restored|$)/m);
    // A restore line removed (as a restore by hand would leave it) makes the shorter trail a cut again.
    await store.deleteNewest(3);
    const byHand = await verify(store, '--anchors', anchors);
    expect(byHand.code).toBe(1);
    expect(byHand.stderr).toContain('the trail was cut: it ends at line 5');
  });
});
