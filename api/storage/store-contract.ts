import { spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { byPatientName, createStore, MAX_SESSIONS_PER_ACCOUNT } from './policy.ts';
import type { CalculationRecord, ExportRecord, PatientRecord, SessionRecord, UserRecord } from './records.ts';
import type { HistoryFilter, Store, StoreAdapter } from './store.ts';

/** One storage under test: a place that adapters can be opened on, again and again. */
export interface ContractStorage {
  /** Opens an adapter over this storage; after a close, a new one over the same data. */
  open(): Promise<StoreAdapter>;
  /** How the "killed process" child opens the same storage (api/test-support/store-writer.ts). */
  writerArgs: ['embedded' | 'postgres', string];
  /** Deletes the storage; every adapter opened on it is closed first. */
  remove(): Promise<void>;
}

/** The clock the suite's Stores run on (sessions are pruned against it). */
const NOW = '2026-06-01T12:00:00.000Z';
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Timestamps that must come back as the same text: milliseconds, leap day, DST change, the epoch. */
const TIMES = [
  '2026-02-03T04:05:06.007Z',
  '2024-02-29T23:59:59.999Z',
  '2026-03-29T01:00:00.000Z',
  '1970-01-01T00:00:00.000Z',
  '2099-12-31T23:59:59.001Z',
] as const;
/** Text no store may alter: emoji, Arabic, a combining accent (not normalised), quotes, backslash. */
const ODD_TEXT = 'Zoë 🩺👩🏽‍⚕️ أحمد e\u0301 ÅNGSTRÖM "q" \'s\' \\ % _ ä\u0308 中文 𝔘';

let sequence = 0;
const nextId = (prefix: string) => `${prefix}-${randomUUID()}-${(sequence += 1)}`;

function user(fields: Partial<UserRecord> = {}): UserRecord {
  return {
    id: nextId('u'),
    email: `${randomUUID()}@hospital.example`,
    name: 'Dr A',
    license: 'LIC-1',
    passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA',
    createdAt: TIMES[0],
    ...fields,
  };
}
function session(fields: Partial<SessionRecord> = {}): SessionRecord {
  return {
    id: nextId('s'),
    userId: 'u-1',
    createdAt: '2026-06-01T00:00:00.000Z',
    expiresAt: '2026-06-01T23:00:00.000Z',
    revokedAt: null,
    lastUsedAt: '2026-06-01T00:00:00.000Z',
    device: null,
    method: 'password',
    oidc: null,
    ...fields,
  };
}
function patient(ownerId: string, fields: Partial<PatientRecord> = {}): PatientRecord {
  return {
    id: nextId('p'),
    ownerId,
    displayName: 'Patient',
    mrn: null,
    yearOfBirth: 1980,
    ageGroup: 'adult',
    weightKg: 70.5,
    notes: null,
    createdAt: TIMES[0],
    updatedAt: TIMES[0],
    ...fields,
  };
}
function calculation(ownerId: string, fields: Partial<CalculationRecord> = {}): CalculationRecord {
  return {
    id: nextId('c'),
    ownerId,
    patientId: null,
    toolType: 'dose_calculator',
    inputs: { bodyWeight: 70.5, ageGroup: 'adult', tofCount: 2 },
    result: { kind: 'dose', doseMgPerKg: 2, totalDoseMg: 141, volumeMl: 1.4, warnings: [] },
    createdAt: TIMES[0],
    ...fields,
  };
}
function exportRecord(ownerId: string, bytes: Uint8Array, fields: Partial<ExportRecord> = {}): ExportRecord {
  return {
    id: randomUUID(),
    ownerId,
    patientId: null,
    calculationId: null,
    fileName: 'dose-2026-06-01.pdf',
    sizeBytes: bytes.length,
    createdAt: TIMES[0],
    ...fields,
  };
}
/** Every byte value, then a stretch of 0x00 and of 0xFF, then `tag`: a PDF no text encoding survives. */
function pdfBytes(tag = ''): Buffer {
  const all = Buffer.from(Array.from({ length: 256 }, (_, value) => value));
  return Buffer.concat([
    Buffer.from('%PDF-1.7\n'),
    all,
    Buffer.alloc(300, 0),
    Buffer.alloc(300, 0xff),
    Buffer.from(tag),
  ]);
}
const page = (offset: number, limit: number, fields: Partial<HistoryFilter> = {}): HistoryFilter => ({
  offset,
  limit,
  ...fields,
});
const ids = (records: readonly { id: string }[]) => records.map((record) => record.id);

let writerBuild: Promise<{ dir: string; file: string }> | undefined;
/** The child process's script, built by vite (as the server is for its crash test), once per test file. */
function builtWriter() {
  writerBuild ??= (async () => {
    const cache = path.join(repoRoot, 'node_modules', '.cache');
    await mkdir(cache, { recursive: true });
    const dir = await mkdtemp(path.join(cache, 'sgx-store-writer-'));
    await build({
      configFile: false,
      root: repoRoot,
      logLevel: 'warn',
      build: {
        ssr: path.join(repoRoot, 'api/test-support/store-writer.ts'),
        outDir: dir,
        emptyOutDir: true,
        target: 'node20',
        rollupOptions: { output: { entryFileNames: 'store-writer.js', format: 'es' } },
      },
    });
    return { dir, file: path.join(dir, 'store-writer.js') };
  })();
  return writerBuild;
}

interface Acknowledged {
  patients: string[];
  calculations: string[];
  exports: Map<string, string>; // id → sha256 of the bytes
}

/**
 * Runs the writer on `storage` until it has acknowledged at least `minimum` writes (then a few ms
 * more, so the kill lands mid-write), kills it with SIGKILL and answers what it acknowledged.
 */
async function writeUntilKilled(storage: ContractStorage, ownerId: string, minimum: number): Promise<Acknowledged> {
  const { file } = await builtWriter();
  const child = spawn(process.execPath, [file, ...storage.writerArgs, ownerId], {
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const acknowledged: Acknowledged = { patients: [], calculations: [], exports: new Map() };
  let count = 0;
  let buffered = '';
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const enough = new Promise<void>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!; // a line cut by the kill was never fully acknowledged
      for (const line of lines) {
        const [word, type, id, hash] = line.split(' ');
        if (word !== 'ack' || !id) continue;
        if (type === 'patient') acknowledged.patients.push(id);
        else if (type === 'calculation') acknowledged.calculations.push(id);
        else if (type === 'export' && hash) acknowledged.exports.set(id, hash);
        count += 1;
      }
      if (count >= minimum) resolve();
    });
  });
  const timeout = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const early = await Promise.race([enough.then(() => undefined), exited]);
  if (early) {
    clearTimeout(timeout);
    throw new Error(`the writer stopped before it was killed (${JSON.stringify(early)}):\n${errors}`);
  }
  await new Promise((resolve) => setTimeout(resolve, Math.random() * 30));
  child.kill('SIGKILL');
  const { signal } = await exited;
  clearTimeout(timeout);
  expect(signal).toBe('SIGKILL');
  return acknowledged;
}

/**
 * The storage contract (store.ts), run through `createStore` (policy.ts) and, where the adapter's
 * own scoping is the point, against the adapter itself. `fresh` makes an empty storage for each test.
 */
export function describeStoreContract(name: string, fresh: () => Promise<ContractStorage>): void {
  describe(`the ${name} store`, () => {
    let storage: ContractStorage;
    let adapter: StoreAdapter;
    let store: Store;
    let opened = false;
    const openStore = async () => {
      adapter = await storage.open();
      opened = true;
      store = createStore(adapter, { now: () => new Date(NOW) });
    };
    const closeStore = async () => {
      if (opened) await adapter.close();
      opened = false;
    };
    /** Closes the adapter in use and opens a new one over the same data. */
    const reopen = async () => {
      await closeStore();
      await openStore();
    };

    beforeEach(async () => {
      storage = await fresh();
      await openStore();
    });
    afterEach(async () => {
      await closeStore();
      await storage.remove();
    });
    afterAll(async () => {
      if (writerBuild) await rm((await writerBuild).dir, { recursive: true, force: true });
      writerBuild = undefined;
    });

    it(`is of kind "${name}", answers ping and closes`, async () => {
      expect(store.kind).toBe(name);
      await expect(store.ping()).resolves.toBeUndefined();
    });

    describe('users', () => {
      it('finds a created user by id and by e-mail, every field as stored', async () => {
        const created = user({ name: ODD_TEXT, license: ODD_TEXT, createdAt: TIMES[1] });
        expect(await store.createUser(created)).toBe('created');
        expect(await store.findUserById(created.id)).toEqual(created);
        expect(await store.findUserByEmail(created.email)).toEqual(created);
        const withoutLicense = user({ license: null });
        expect(await store.createUser(withoutLicense)).toBe('created');
        expect(await store.findUserById(withoutLicense.id)).toEqual(withoutLicense);
        expect(await store.findUserById('u-nobody')).toBeUndefined();
        expect(await store.findUserByEmail('nobody@hospital.example')).toBeUndefined();
      });

      it('refuses a second account for an e-mail in any case, and keeps the first', async () => {
        const first = user({ email: 'a@b.example' });
        expect(await store.createUser(first)).toBe('created');
        const again = user({ email: 'a@b.example' });
        const otherCase = user({ email: 'A@B.example' });
        expect(await store.createUser(again)).toBe('duplicate_email');
        expect(await store.createUser(otherCase)).toBe('duplicate_email');
        expect(await store.findUserById(again.id)).toBeUndefined();
        expect(await store.findUserById(otherCase.id)).toBeUndefined();
        expect(await store.findUserByEmail('a@b.example')).toEqual(first);
        // and the other way round: an upper-case address first
        expect(await store.createUser(user({ email: 'Dr.X@Hospital.example' }))).toBe('created');
        expect(await store.createUser(user({ email: 'dr.x@hospital.example' }))).toBe('duplicate_email');
      });

      it('of ten sign-ups for one address at once, exactly one is created', async () => {
        const attempts = Array.from({ length: 10 }, (_, index) =>
          user({ email: index % 2 ? 'same@hospital.example' : 'SAME@hospital.example' }),
        );
        const answers = await Promise.all(attempts.map((attempt) => store.createUser(attempt)));
        expect(answers.filter((answer) => answer === 'created')).toHaveLength(1);
        expect(answers.filter((answer) => answer === 'duplicate_email')).toHaveLength(9);
        const winner = attempts[answers.indexOf('created')]!;
        expect(await store.findUserById(winner.id)).toEqual(winner);
      });
    });

    describe('sessions', () => {
      it('finds a session; revoking sets the time once; an unknown id is ignored', async () => {
        const created = session({ createdAt: TIMES[0], expiresAt: TIMES[4] });
        await store.createSession(created);
        expect(await store.findSession(created.id)).toEqual(created);
        await store.revokeSession(created.id, TIMES[1]);
        expect(await store.findSession(created.id)).toEqual({ ...created, revokedAt: TIMES[1] });
        await store.revokeSession(created.id, TIMES[2]); // a second sign-out keeps the first time
        expect((await store.findSession(created.id))?.revokedAt).toBe(TIMES[1]);
        await expect(store.revokeSession('s-nobody', TIMES[1])).resolves.toBeUndefined();
        expect(await store.findSession('s-nobody')).toBeUndefined();
      });

      it('deleteEndedSessions deletes those revoked or expired by the time (inclusive), keeps live ones', async () => {
        const cutoff = '2026-06-01T12:00:00.000Z';
        const ended = [
          session({ expiresAt: '2026-06-01T11:59:59.999Z' }),
          session({ expiresAt: cutoff }), // at the time counts as ended
          session({ expiresAt: '2026-06-02T00:00:00.000Z', revokedAt: '2026-06-01T08:00:00.000Z' }),
          session({ expiresAt: '2026-06-02T00:00:00.000Z', revokedAt: cutoff }),
        ];
        const live = [
          session({ expiresAt: '2026-06-01T12:00:00.001Z' }),
          session({ expiresAt: '2026-06-02T00:00:00.000Z', revokedAt: '2026-06-01T12:00:00.001Z' }),
          session({ expiresAt: '2030-01-01T00:00:00.000Z' }),
        ];
        for (const entry of [...ended, ...live]) await adapter.createSession(entry);
        expect(await adapter.deleteEndedSessions(cutoff)).toBe(4);
        for (const entry of ended) expect(await adapter.findSession(entry.id)).toBeUndefined();
        for (const entry of live) expect(await adapter.findSession(entry.id)).toEqual(entry);
        expect(await adapter.deleteEndedSessions(cutoff)).toBe(0);
        await reopen();
        for (const entry of ended) expect(await adapter.findSession(entry.id)).toBeUndefined();
        for (const entry of live) expect(await adapter.findSession(entry.id)).toEqual(entry);
      });

      it('the Store prunes ended sessions when it creates one, at most hourly', async () => {
        const expired = session({ expiresAt: '2026-06-01T11:00:00.000Z' });
        await adapter.createSession(expired);
        const fresh1 = session({ expiresAt: '2026-06-01T20:00:00.000Z' });
        await store.createSession(fresh1); // first prune, at NOW
        expect(await store.findSession(expired.id)).toBeUndefined();
        const expiredLater = session({ expiresAt: '2026-06-01T11:30:00.000Z' });
        await adapter.createSession(expiredLater);
        await store.createSession(session()); // within the hour: no prune
        expect(await store.findSession(expiredLater.id)).toEqual(expiredLater);
        expect(await store.findSession(fresh1.id)).toEqual(fresh1);
      });
      it('lists an account’s open sessions, oldest first: not revoked, not expired, not another’s', async () => {
        const at = '2026-06-01T12:00:00.000Z';
        const mine = [
          session({ userId: 'u-list', createdAt: TIMES[1], expiresAt: TIMES[4] }),
          session({ userId: 'u-list', createdAt: TIMES[0], expiresAt: '2026-06-01T12:00:00.001Z' }),
          session({ userId: 'u-list', createdAt: TIMES[2], expiresAt: TIMES[4] }),
        ];
        const notOpen = [
          session({ userId: 'u-list', expiresAt: at }), // expired at the time
          session({ userId: 'u-list', expiresAt: TIMES[4], revokedAt: TIMES[0] }),
          session({ userId: 'u-other', expiresAt: TIMES[4] }),
        ];
        for (const entry of [mine[0]!, notOpen[0]!, mine[1]!, notOpen[1]!, notOpen[2]!, mine[2]!]) {
          await adapter.createSession(entry);
        }
        // in the order made, whatever createdAt says
        expect(await store.listOpenSessions('u-list', at)).toEqual(mine);
        expect(await store.listOpenSessions('u-nobody', at)).toEqual([]);
        await reopen();
        expect(await store.listOpenSessions('u-list', at)).toEqual(mine);
      });

      it('changePassword sets the hash and ends the account’s other open sessions in one write', async () => {
        const account = user();
        const other = user();
        await store.createUser(account);
        await store.createUser(other);
        const kept = session({ userId: account.id });
        const ended = [session({ userId: account.id }), session({ userId: account.id })];
        const signedOut = session({ userId: account.id, revokedAt: '2026-06-01T01:00:00.000Z' });
        const another = session({ userId: other.id });
        for (const entry of [ended[0]!, kept, signedOut, ended[1]!, another]) await adapter.createSession(entry);
        const at = '2026-06-01T02:00:00.000Z';
        expect(await store.changePassword(account.id, '$argon2id$new', { keepSessionId: kept.id, at })).toEqual({
          endedSessions: 2,
        });
        const check = async () => {
          expect((await store.findUserById(account.id))?.passwordHash).toBe('$argon2id$new');
          expect(await store.findUserById(other.id)).toEqual(other);
          expect(await store.findSession(kept.id)).toEqual(kept);
          for (const entry of ended) expect(await store.findSession(entry.id)).toEqual({ ...entry, revokedAt: at });
          expect(await store.findSession(signedOut.id)).toEqual(signedOut); // its own sign-out time stays
          expect(await store.findSession(another.id)).toEqual(another);
        };
        await check();
        await reopen();
        await check();
        const before = await store.findSession(kept.id);
        expect(await store.changePassword('u-nobody', 'x', { keepSessionId: kept.id, at })).toBeUndefined();
        expect(await store.findSession(kept.id)).toEqual(before);
      });

      it(`the Store keeps ${MAX_SESSIONS_PER_ACCOUNT} open sessions per account, ending the oldest`, async () => {
        const made: SessionRecord[] = [];
        for (let index = 0; index < MAX_SESSIONS_PER_ACCOUNT + 2; index += 1) {
          const entry = session({ userId: 'u-bound', createdAt: `2026-06-01T0${index % 10}:00:00.000Z` });
          made.push(entry);
          await store.createSession(entry);
        }
        const someoneElse = session({ userId: 'u-else' });
        await store.createSession(someoneElse);
        const open = await store.listOpenSessions('u-bound', '2026-06-01T12:00:00.000Z');
        expect(open.map((entry) => entry.id)).toEqual(made.slice(2).map((entry) => entry.id));
        // the two oldest, each ended when the session past the bound was made
        expect((await store.findSession(made[0]!.id))?.revokedAt).toBe(made[MAX_SESSIONS_PER_ACCOUNT]!.createdAt);
        expect((await store.findSession(made[1]!.id))?.revokedAt).toBe(made[MAX_SESSIONS_PER_ACCOUNT + 1]!.createdAt);
        expect(await store.findSession(someoneElse.id)).toEqual(someoneElse);
      });
    });

    describe('session activity, identities, second factors, sign-in flows', () => {
      it('touchSession moves lastUsedAt forward only, survives a reopen, and leaves ended sessions alone', async () => {
        const open = session({ createdAt: TIMES[0], lastUsedAt: TIMES[0], expiresAt: TIMES[4] });
        const ended = session({ createdAt: TIMES[0], lastUsedAt: TIMES[0], expiresAt: TIMES[4], revokedAt: TIMES[0] });
        await store.createSession(open);
        await store.createSession(ended);
        await store.touchSession(open.id, '2026-02-03T04:06:06.007Z');
        expect((await store.findSession(open.id))?.lastUsedAt).toBe('2026-02-03T04:06:06.007Z');
        await store.touchSession(open.id, '2026-02-03T04:05:30.000Z'); // earlier: ignored
        expect((await store.findSession(open.id))?.lastUsedAt).toBe('2026-02-03T04:06:06.007Z');
        await store.touchSession(open.id, '2026-02-03T05:00:00.000Z');
        await store.touchSession(ended.id, '2026-02-03T05:00:00.000Z');
        expect((await store.listOpenSessions(open.userId, TIMES[0])).find((s) => s.id === open.id)?.lastUsedAt).toBe(
          '2026-02-03T05:00:00.000Z',
        );
        await reopen();
        expect((await store.findSession(open.id))?.lastUsedAt).toBe('2026-02-03T05:00:00.000Z');
        expect((await store.findSession(ended.id))?.lastUsedAt).toBe(TIMES[0]);
      });

      it('keeps a session’s device, method and single sign-on details', async () => {
        const sso = session({
          device: 'Edge on Windows',
          method: 'oidc',
          oidc: { issuer: 'https://idp.example/realms/staff', idToken: `eyJ.${ODD_TEXT}.sig` },
        });
        await store.createSession(sso);
        expect(await store.findSession(sso.id)).toEqual(sso);
        await reopen();
        expect(await store.findSession(sso.id)).toEqual(sso);
      });

      it('endOtherSessions ends every open session of the account but one, and no one else’s', async () => {
        const [keep, other1, other2] = [session(), session(), session()];
        const stranger = session({ userId: 'u-2' });
        for (const entry of [keep, other1, other2, stranger]) await store.createSession(entry);
        await store.revokeSession(other2.id, TIMES[1]);
        expect(await store.endOtherSessions('u-1', keep.id, TIMES[2])).toBe(1);
        expect((await store.findSession(other1.id))?.revokedAt).toBe(TIMES[2]);
        expect((await store.findSession(other2.id))?.revokedAt).toBe(TIMES[1]);
        expect((await store.findSession(keep.id))?.revokedAt).toBeNull();
        expect((await store.findSession(stranger.id))?.revokedAt).toBeNull();
      });

      it('an identity names one account: made with it, found by (issuer, subject), never taken twice', async () => {
        const issuer = 'https://login.example/tenant/v2.0';
        const made = user({ passwordHash: null });
        const identity = { issuer, subject: 'sub-1', userId: made.id, createdAt: TIMES[1] };
        expect(await store.createUserWithIdentity(made, identity)).toBe('created');
        expect(await store.findUserByIdentity(issuer, 'sub-1')).toEqual(made);
        expect(await store.findUserByIdentity(issuer, 'sub-2')).toBeUndefined();
        expect(await store.findUserByIdentity('https://other.example', 'sub-1')).toBeUndefined();
        // The same identity again: nothing written, not even the user.
        const again = user();
        expect(await store.createUserWithIdentity(again, { ...identity, userId: again.id })).toBe('duplicate_identity');
        expect(await store.findUserById(again.id)).toBeUndefined();
        // Another identity with a taken e-mail: nothing written.
        const clash = user({ email: made.email.toUpperCase() });
        const other = { issuer, subject: 'sub-3', userId: clash.id, createdAt: TIMES[1] };
        expect(await store.createUserWithIdentity(clash, other)).toBe('duplicate_email');
        expect(await store.findUserByIdentity(issuer, 'sub-3')).toBeUndefined();
        // Linking to an existing (password) account.
        const password = user();
        await store.createUser(password);
        expect(await store.addIdentity({ ...other, userId: password.id })).toBe('linked');
        expect(await store.addIdentity({ ...other, userId: made.id })).toBe('duplicate_identity');
        expect(await store.findUserByIdentity(issuer, 'sub-3')).toEqual(password);
        expect(await store.listIdentities(password.id)).toEqual([{ ...other, userId: password.id }]);
        await reopen();
        expect(await store.findUserByIdentity(issuer, 'sub-1')).toEqual(made);
        // Unlinked by its own account only.
        expect(await store.removeIdentity(made.id, issuer, 'sub-3')).toBe(false);
        expect(await store.findUserByIdentity(issuer, 'sub-3')).toEqual(password);
        expect(await store.removeIdentity(password.id, issuer, 'sub-3')).toBe(true);
        expect(await store.removeIdentity(password.id, issuer, 'sub-3')).toBe(false);
        await reopen();
        expect(await store.findUserByIdentity(issuer, 'sub-3')).toBeUndefined();
        expect(await store.listIdentities(password.id)).toEqual([]);
        expect(await store.findUserByIdentity(issuer, 'sub-1')).toEqual(made);
      });

      it('of five first sign-ins of one identity at once, exactly one account is made', async () => {
        const issuer = 'https://idp.example';
        const attempts = Array.from({ length: 5 }, () => user({ passwordHash: null }));
        const answers = await Promise.all(
          attempts.map((attempt) =>
            store.createUserWithIdentity(attempt, { issuer, subject: 'same', userId: attempt.id, createdAt: TIMES[0] }),
          ),
        );
        expect(answers.filter((answer) => answer === 'created')).toHaveLength(1);
        const winner = attempts[answers.indexOf('created')]!;
        expect(await store.findUserByIdentity(issuer, 'same')).toEqual(winner);
        for (const attempt of attempts.filter((other) => other !== winner))
          expect(await store.findUserById(attempt.id)).toBeUndefined();
      });

      it('changeSecondFactors writes a factor and codes, ends other sessions, marks this one, at once', async () => {
        const owner = user();
        await store.createUser(owner);
        const [mine, other] = [session({ userId: owner.id }), session({ userId: owner.id })];
        await store.createSession(mine);
        await store.createSession(other);
        const totp = {
          userId: owner.id,
          secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
          lastUsedStep: 41_000_000,
          createdAt: TIMES[1],
        };
        expect(
          await store.changeSecondFactors({
            userId: owner.id,
            at: TIMES[1],
            totp,
            recoveryCodeHashes: ['h1', 'h2'],
            endOtherSessions: { keepSessionId: mine.id },
            upgradeSession: { sessionId: mine.id, method: 'password+totp' },
          }),
        ).toEqual({ endedSessions: 1 });
        expect(await store.findSecondFactors(owner.id)).toEqual({
          totp,
          recoveryCodes: [
            { userId: owner.id, codeHash: 'h1', usedAt: null, createdAt: TIMES[1] },
            { userId: owner.id, codeHash: 'h2', usedAt: null, createdAt: TIMES[1] },
          ],
          passkeys: [],
        });
        expect((await store.findSession(mine.id))?.method).toBe('password+totp');
        expect((await store.findSession(other.id))?.revokedAt).toBe(TIMES[1]);
        expect(await store.changeSecondFactors({ userId: 'u-nobody', at: TIMES[1], totp })).toBeUndefined();

        const passkey = {
          id: 'cred-AbC_-1',
          userId: owner.id,
          publicKey: 'pQECAyYgASFYIA',
          counter: 0,
          transports: ['internal', 'hybrid'],
          name: ODD_TEXT,
          createdAt: TIMES[2],
          lastUsedAt: null,
        };
        expect(await store.changeSecondFactors({ userId: owner.id, at: TIMES[2], addPasskey: passkey })).toEqual({
          endedSessions: 0,
        });
        const stranger = user();
        await store.createUser(stranger);
        expect(
          await store.changeSecondFactors({
            userId: stranger.id,
            at: TIMES[2],
            addPasskey: { ...passkey, userId: stranger.id },
            recoveryCodeHashes: ['x'],
          }),
        ).toBe('duplicate_passkey');
        expect(await store.findSecondFactors(stranger.id)).toEqual({ totp: null, recoveryCodes: [], passkeys: [] });
        await store.recordPasskeyUse(owner.id, passkey.id, 0, TIMES[3]);
        await store.recordPasskeyUse(stranger.id, passkey.id, 99, TIMES[4]); // not theirs: nothing
        await reopen();
        expect((await store.findSecondFactors(owner.id)).passkeys).toEqual([{ ...passkey, lastUsedAt: TIMES[3] }]);
        await store.changeSecondFactors({
          userId: owner.id,
          at: TIMES[3],
          totp: null,
          removePasskeyId: passkey.id,
          recoveryCodeHashes: [],
        });
        expect(await store.findSecondFactors(owner.id)).toEqual({ totp: null, recoveryCodes: [], passkeys: [] });
      });

      it('accepts each TOTP time step once, and each recovery code once, also when asked at once', async () => {
        const owner = user();
        await store.createUser(owner);
        const totp = { userId: owner.id, secret: 'S', lastUsedStep: 100, createdAt: TIMES[0] };
        await store.changeSecondFactors({ userId: owner.id, at: TIMES[0], totp, recoveryCodeHashes: ['code-a'] });
        expect(await store.useTotpStep(owner.id, 100)).toBe(false); // the step of the enrolment code
        const steps = await Promise.all([101, 101, 101].map((step) => store.useTotpStep(owner.id, step)));
        expect(steps.filter(Boolean)).toHaveLength(1);
        expect(await store.useTotpStep(owner.id, 100)).toBe(false); // older than the last one
        expect(await store.useTotpStep(owner.id, 103)).toBe(true);
        expect(await store.useTotpStep('u-nobody', 200)).toBe(false);
        const uses = await Promise.all([1, 2, 3].map(() => store.useRecoveryCode(owner.id, 'code-a', TIMES[2])));
        expect(uses.filter(Boolean)).toHaveLength(1);
        expect(await store.useRecoveryCode(owner.id, 'code-b', TIMES[2])).toBe(false);
        await reopen();
        expect((await store.findSecondFactors(owner.id)).totp?.lastUsedStep).toBe(103);
        expect((await store.findSecondFactors(owner.id)).recoveryCodes[0]?.usedAt).toBe(TIMES[2]);
        expect(await store.useRecoveryCode(owner.id, 'code-a', TIMES[3])).toBe(false);
      });

      it('counts failed second factors in a row per account (at once too), clears them, erases them', async () => {
        const owner = user();
        const other = user();
        await store.createUser(owner);
        await store.createUser(other);
        expect(await store.secondFactorFailures(owner.id)).toBe(0);
        const counts = await Promise.all([1, 2, 3].map(() => store.recordSecondFactorFailure(owner.id, TIMES[0])));
        expect(counts.sort()).toEqual([1, 2, 3]);
        expect(await store.recordSecondFactorFailure(other.id, TIMES[1])).toBe(1);
        expect(await store.recordSecondFactorFailure('u-nobody', TIMES[1])).toBe(0);
        expect(await store.secondFactorFailures('u-nobody')).toBe(0);
        await reopen();
        expect(await store.secondFactorFailures(owner.id)).toBe(3);
        await store.clearSecondFactorFailures(owner.id);
        await store.clearSecondFactorFailures(owner.id); // nothing left to clear
        expect(await store.secondFactorFailures(owner.id)).toBe(0);
        expect(await store.secondFactorFailures(other.id)).toBe(1);
        await reopen();
        expect(await store.secondFactorFailures(owner.id)).toBe(0);
        expect(await store.secondFactorFailures(other.id)).toBe(1);
        expect(await store.recordSecondFactorFailure(owner.id, TIMES[2])).toBe(1); // counting again from 0
        await store.eraseAccount(other.id);
        expect(await store.secondFactorFailures(other.id)).toBe(0);
      });

      it('a sign-in flow is taken once, only as its kind and before it expires; expired ones are pruned', async () => {
        const flow = {
          id: nextId('f'),
          kind: 'oidc-signin',
          data: { nonce: 'n', returnTo: 'https://sgx.example/#x', text: ODD_TEXT },
          createdAt: '2026-06-01T11:55:00.000Z',
          expiresAt: '2026-06-01T12:05:00.000Z',
        };
        await store.createAuthFlow(flow);
        expect(await store.takeAuthFlow(flow.id, 'mfa', NOW)).toBeUndefined();
        await reopen();
        const takes = await Promise.all([1, 2, 3].map(() => store.takeAuthFlow(flow.id, 'oidc-signin', NOW)));
        expect(takes.filter(Boolean)).toEqual([flow]);
        expect(await store.takeAuthFlow(flow.id, 'oidc-signin', NOW)).toBeUndefined();
        const late = { ...flow, id: nextId('f') };
        await store.createAuthFlow(late);
        expect(await store.takeAuthFlow(late.id, 'oidc-signin', late.expiresAt)).toBeUndefined(); // at expiry: gone
        const pruned = { ...flow, id: nextId('f'), expiresAt: '2026-06-01T11:00:00.000Z' };
        const kept = { ...flow, id: nextId('f') };
        await adapter.createAuthFlow(pruned);
        await adapter.createAuthFlow(kept);
        expect(await adapter.deleteExpiredAuthFlows(NOW)).toBe(1); // pruned (late expires after NOW)
        expect(await store.takeAuthFlow(kept.id, 'oidc-signin', NOW)).toEqual(kept);
      });
    });

    describe('patients', () => {
      it('finds a patient with every field as stored; lists them by name, ignoring case and accents', async () => {
        const owner = nextId('owner');
        const full = patient(owner, {
          displayName: 'émile Z',
          mrn: 'MRN-001',
          yearOfBirth: 1931,
          ageGroup: 'adult',
          weightKg: 70.5,
          notes: 'line one\nline two',
          createdAt: TIMES[1],
          updatedAt: TIMES[2],
        });
        const sparse = patient(owner, {
          displayName: 'Zed',
          yearOfBirth: null,
          ageGroup: null,
          weightKg: null,
          notes: null,
        });
        const child = patient(owner, { displayName: 'Emile A', ageGroup: 'pediatric', weightKg: 0.1 + 0.2 });
        const alpha = patient(owner, { displayName: 'alpha', weightKg: 199.99 });
        for (const record of [full, sparse, child, alpha]) await store.createPatient(record);
        for (const record of [full, sparse, child, alpha])
          expect(await store.findPatient(owner, record.id)).toEqual(record);
        expect(await store.listPatients(owner)).toEqual([alpha, child, full, sparse]);
        expect((await store.findPatient(owner, child.id))?.weightKg).toBe(0.30000000000000004);
      });

      it('sorts equal names by id', async () => {
        const owner = nextId('owner');
        const records = ['b', 'c', 'a'].map((suffix) =>
          patient(owner, { id: `p-same-${suffix}`, displayName: 'Same' }),
        );
        for (const record of records) await store.createPatient(record);
        expect(ids(await store.listPatients(owner))).toEqual(['p-same-a', 'p-same-b', 'p-same-c']);
        expect([...(await adapter.listPatients(owner))].sort(byPatientName)).toEqual(await store.listPatients(owner));
      });

      it('updates the given fields and updatedAt only; the search follows the new name and MRN', async () => {
        const owner = nextId('owner');
        const original = patient(owner, { displayName: 'Old Name', mrn: 'OLD-1', notes: 'keep me' });
        await store.createPatient(original);
        const updated = await store.updatePatient(
          owner,
          original.id,
          { displayName: 'New Name', weightKg: 81.25 },
          TIMES[3],
        );
        const expected = { ...original, displayName: 'New Name', weightKg: 81.25, updatedAt: TIMES[3] };
        expect(updated).toEqual(expected);
        expect(await store.findPatient(owner, original.id)).toEqual(expected);
        expect(await store.listPatients(owner, 'old name')).toEqual([]);
        expect(ids(await store.listPatients(owner, 'new name'))).toEqual([original.id]);
        expect(ids(await store.listPatients(owner, 'old-1'))).toEqual([original.id]); // the MRN did not change

        const cleared = await store.updatePatient(
          owner,
          original.id,
          { mrn: null, notes: null, ageGroup: null },
          TIMES[4],
        );
        expect(cleared).toEqual({ ...expected, mrn: null, notes: null, ageGroup: null, updatedAt: TIMES[4] });
        expect(await store.listPatients(owner, 'old-1')).toEqual([]);
        const renamed = await store.updatePatient(owner, original.id, { mrn: 'NEW-9' }, TIMES[4]);
        expect(renamed?.displayName).toBe('New Name');
        expect(ids(await store.listPatients(owner, 'new-9'))).toEqual([original.id]);

        expect(await store.updatePatient(owner, 'p-nobody', { displayName: 'X' }, TIMES[4])).toBeUndefined();
        expect(await adapter.updatePatient(owner, 'p-nobody', { displayName: 'X' }, TIMES[4])).toBeUndefined();
      });

      it('keeps the EHR Patient a launch links, on create and on update, across a reopen', async () => {
        const owner = nextId('owner');
        const link = {
          fhirBase: 'https://fhir.hospital.example/api/FHIR/R4',
          patientId: 'eXk2Lm9.3',
          identifier: { system: 'urn:oid:2.16.840.1.113883.3.1234', value: 'MRN-7' },
          weight: { kg: 70.4, recordedAt: '2026-11-20T07:30:00.000Z', readAt: TIMES[2] },
        };
        const launched = patient(owner, { displayName: 'Launched', mrn: 'MRN-7', ehrPatient: link });
        const byHand = patient(owner, { displayName: 'By hand', mrn: 'MRN-8' });
        await store.createPatient(launched);
        await store.createPatient(byHand);
        expect(await store.findPatient(owner, launched.id)).toEqual(launched);
        // a patient made by hand has no link at all (not a null one): the FHIR export writes its own Patient
        expect(Object.keys((await store.findPatient(owner, byHand.id))!)).not.toContain('ehrPatient');
        // an update that does not name the link keeps it; a launch for the hand-made patient adds one
        const renamed = await store.updatePatient(owner, launched.id, { displayName: 'Renamed' }, TIMES[3]);
        expect(renamed?.ehrPatient).toEqual(link);
        // a link with neither identifier nor weight (an EHR that names no MRN system, a launch that read none)
        const other = { fhirBase: 'https://ehr.other.example/fhir', patientId: 'p-42' };
        const linked = await store.updatePatient(owner, byHand.id, { weightKg: 64, ehrPatient: other }, TIMES[3]);
        expect(linked).toEqual({ ...byHand, weightKg: 64, ehrPatient: other, updatedAt: TIMES[3] });
        await reopen();
        expect(await store.findPatient(owner, launched.id)).toEqual({
          ...launched,
          displayName: 'Renamed',
          updatedAt: TIMES[3],
        });
        expect((await store.listPatients(owner)).map((record) => record.ehrPatient)).toEqual([other, link]);
        // the weight read by a later launch replaces the link's; the identifier stays as given
        const reread = { ...link, weight: { kg: 69, recordedAt: '2026-11-28T07:00:00.000Z', readAt: TIMES[4] } };
        expect((await store.updatePatient(owner, launched.id, { ehrPatient: reread }, TIMES[4]))?.ehrPatient).toEqual(
          reread,
        );
        await reopen();
        expect((await store.findPatient(owner, launched.id))?.ehrPatient).toEqual(reread);
      });

      it('deletePatient deletes the patient and unlinks (keeps) their calculations and exports', async () => {
        const owner = nextId('owner');
        const gone = patient(owner, { displayName: 'Gone' });
        const kept = patient(owner, { displayName: 'Kept' });
        await store.createPatient(gone);
        await store.createPatient(kept);
        const goneCalc = calculation(owner, { patientId: gone.id });
        const keptCalc = calculation(owner, { patientId: kept.id });
        const freeCalc = calculation(owner);
        for (const entry of [goneCalc, keptCalc, freeCalc]) await store.saveCalculation(entry);
        const bytes = pdfBytes('gone');
        const goneExport = exportRecord(owner, bytes, { patientId: gone.id, calculationId: goneCalc.id });
        const keptExport = exportRecord(owner, bytes, { patientId: kept.id, calculationId: keptCalc.id });
        await store.saveExport(goneExport, bytes);
        await store.saveExport(keptExport, bytes);

        expect(await store.deletePatient(owner, gone.id)).toBe(true);
        expect(await store.findPatient(owner, gone.id)).toBeUndefined();
        expect(await store.listPatients(owner)).toEqual([kept]);
        expect(await store.findCalculation(owner, goneCalc.id)).toEqual({ ...goneCalc, patientId: null });
        expect(await store.findCalculation(owner, keptCalc.id)).toEqual(keptCalc);
        expect(await store.findExport(owner, goneExport.id)).toEqual({ ...goneExport, patientId: null });
        expect(await store.findExport(owner, keptExport.id)).toEqual(keptExport);
        expect(await store.readExportFile(owner, goneExport.id)).toEqual(bytes);
        expect(await store.listCalculations(owner, page(0, 10, { patientId: gone.id }))).toEqual({
          items: [],
          total: 0,
        });
        expect(await store.listExports(owner, { patientId: gone.id })).toEqual([]);
        expect((await store.listCalculations(owner, page(0, 10))).total).toBe(3);
        expect(await store.deletePatient(owner, gone.id)).toBe(false);
        expect(await adapter.deletePatient(owner, gone.id)).toBe(false);
        await reopen();
        expect(await store.findCalculation(owner, goneCalc.id)).toEqual({ ...goneCalc, patientId: null });
        expect(await store.findExport(owner, goneExport.id)).toEqual({ ...goneExport, patientId: null });
      });
    });

    describe('patient search', () => {
      const names = {
        percent: '100% Pure',
        underscore: 'under_score',
        apostrophe: "O'Brien",
        quote: 'Say "Hi"',
        backslash: 'back\\slash',
        arabic: 'أحمد علي',
        french: 'ÉLODIE Durand',
        cyrillic: 'ИВАН Петров',
        plain: 'Plain Person',
      } as const;
      let owner: string;
      let byKey: Record<keyof typeof names, PatientRecord>;
      const find = async (query: string | undefined) => ids(await store.listPatients(owner, query));
      const idsOf = (...keys: (keyof typeof names)[]) => keys.map((key) => byKey[key].id);
      const pick = (...keys: (keyof typeof names)[]) => keys.map((key) => byKey[key]).sort(byPatientName);
      beforeEach(async () => {
        owner = nextId('owner');
        byKey = Object.fromEntries(
          Object.entries(names).map(([key, displayName]) => [
            key,
            patient(owner, { displayName, mrn: key === 'plain' ? 'MRN-00042' : null }),
          ]),
        ) as typeof byKey;
        for (const record of Object.values(byKey)) await store.createPatient(record);
        // another clinician's patients with the same names are never found
        for (const displayName of Object.values(names))
          await store.createPatient(patient('someone-else', { displayName }));
      });

      it('treats %, _, quotes and backslashes as plain characters', async () => {
        expect(await find('%')).toEqual(idsOf('percent'));
        expect(await find('_')).toEqual(idsOf('underscore'));
        expect(await find('0%')).toEqual(idsOf('percent'));
        expect(await find('r_s')).toEqual(idsOf('underscore'));
        expect(await find("'")).toEqual(idsOf('apostrophe'));
        expect(await find("o'b")).toEqual(idsOf('apostrophe'));
        expect(await find('"')).toEqual(idsOf('quote'));
        expect(await find('\\')).toEqual(idsOf('backslash'));
        expect(await find('k\\s')).toEqual(idsOf('backslash'));
        expect(await find('%%')).toEqual([]);
        expect(await find('\\%')).toEqual([]);
      });

      it('finds any case of the name (as JavaScript lower-cases it), Arabic, and the MRN', async () => {
        expect(await find('أحمد')).toEqual(idsOf('arabic'));
        expect(await find('علي')).toEqual(idsOf('arabic'));
        expect(await find('élodie')).toEqual(idsOf('french'));
        expect(await find('ÉLODIE')).toEqual(idsOf('french'));
        expect(await find('Élodie DUR')).toEqual(idsOf('french'));
        expect(await find('elodie')).toEqual([]); // case, not accents
        expect(await find('иван')).toEqual(idsOf('cyrillic'));
        expect(await find('ПЕТРОВ')).toEqual(idsOf('cyrillic'));
        expect(await find('mrn-00042')).toEqual(idsOf('plain'));
        expect(await find('00042')).toEqual(idsOf('plain'));
        expect(await find('plain person')).toEqual(idsOf('plain'));
        expect(await find('nobody')).toEqual([]);
      });

      it('ignores surrounding spaces; an empty query lists all; a line break finds nothing', async () => {
        expect(await find('  durand  ')).toEqual(idsOf('french'));
        expect(await find('\tpure\n')).toEqual(idsOf('percent'));
        const all = ids(pick(...(Object.keys(names) as (keyof typeof names)[])));
        expect(await find('')).toEqual(all);
        expect(await find('   ')).toEqual(all);
        expect(await find(undefined)).toEqual(all);
        expect(await find('person\nmrn')).toEqual([]); // not across the name and the MRN
        expect(await find('plain\nperson')).toEqual([]);
        // trimmed: the names and MRNs with an "r"
        expect(await find('r\n')).toEqual(ids(pick('percent', 'underscore', 'apostrophe', 'french', 'plain')));
      });

      it('the adapter matches the needle as given (already trimmed and lower-cased)', async () => {
        const found = async (needle: string) => ids(await adapter.listPatients(owner, needle)).sort();
        expect(await found('%')).toEqual(idsOf('percent').sort());
        expect(await found('_')).toEqual(idsOf('underscore'));
        expect(await found('élodie')).toEqual(idsOf('french'));
        expect(await found('ÉLODIE')).toEqual([]); // lower-casing is the policy's job
        expect(await found('\\')).toEqual(idsOf('backslash'));
      });
    });

    describe('calculations', () => {
      it('keeps inputs and results exactly: values, key order, numbers, unicode', async () => {
        const owner = nextId('owner');
        const inputs = { zeta: 1, alpha: 70.5, bodyWeight: 0.1 + 0.2, nested: { b: [1, 'two', null, true], a: {} } };
        const result = {
          kind: 'dose',
          tiny: 5e-324,
          big: 1e21,
          negative: -0.000123,
          text: ODD_TEXT,
          list: [{ z: 1, a: 2 }],
          warnings: ['Rocuronium ≥ 2 mg/kg'],
        };
        const entry = calculation(owner, { inputs, result, createdAt: TIMES[2] });
        await store.saveCalculation(entry);
        const found = await store.findCalculation(owner, entry.id);
        expect(found).toEqual(entry);
        expect(Object.keys(found!.inputs as object)).toEqual(['zeta', 'alpha', 'bodyWeight', 'nested']);
        expect(Object.keys((found!.inputs as typeof inputs).nested)).toEqual(['b', 'a']);
        expect(Object.keys(found!.result as object)).toEqual(Object.keys(result));
        expect(JSON.stringify(found)).toBe(JSON.stringify(entry));
        const listed = await store.listCalculations(owner, page(0, 10));
        expect(JSON.stringify(listed.items)).toBe(JSON.stringify([entry]));
        expect(await store.findCalculation(owner, 'c-nobody')).toBeUndefined();
      });

      it('lists newest first in the order saved, whatever the createdAt text says', async () => {
        const owner = nextId('owner');
        const saved = [TIMES[4], TIMES[0], TIMES[3], TIMES[1]].map((createdAt) => calculation(owner, { createdAt }));
        for (const entry of saved) await store.saveCalculation(entry);
        expect(await store.listCalculations(owner, page(0, 10))).toEqual({ items: [...saved].reverse(), total: 4 });
      });

      it('pages at the edges, and filters by patient and tool together', async () => {
        const owner = nextId('owner');
        const [p1, p2] = [patient(owner), patient(owner)];
        const plan: [string | null, CalculationRecord['toolType']][] = [
          [p1.id, 'dose_calculator'],
          [p1.id, 'bradycardia_advisor'],
          [null, 'roi_calculator'],
          [p2.id, 'dose_calculator'],
          [p1.id, 'dose_calculator'],
          [p2.id, 'bradycardia_advisor'],
          [p1.id, 'dose_calculator'],
        ];
        const saved = plan.map(([patientId, toolType]) => calculation(owner, { patientId, toolType }));
        for (const entry of saved) await store.saveCalculation(entry);
        await store.saveCalculation(calculation('someone-else', { patientId: p1.id }));
        const newest = [...saved].reverse();
        const list = (filter: HistoryFilter) => store.listCalculations(owner, filter);

        expect(await list(page(0, 3))).toEqual({ items: newest.slice(0, 3), total: 7 });
        expect(await list(page(3, 3))).toEqual({ items: newest.slice(3, 6), total: 7 });
        expect(await list(page(6, 3))).toEqual({ items: newest.slice(6), total: 7 }); // the last page: one
        expect(await list(page(7, 3))).toEqual({ items: [], total: 7 }); // offset = total
        expect(await list(page(100, 3))).toEqual({ items: [], total: 7 });
        expect(await list(page(0, 1))).toEqual({ items: newest.slice(0, 1), total: 7 });
        expect(await list(page(4, 1))).toEqual({ items: newest.slice(4, 5), total: 7 });
        expect(await list(page(0, 100))).toEqual({ items: newest, total: 7 });

        const p1Doses = newest.filter((entry) => entry.patientId === p1.id && entry.toolType === 'dose_calculator');
        expect(p1Doses).toHaveLength(3);
        expect(await list(page(0, 10, { patientId: p1.id, toolType: 'dose_calculator' }))).toEqual({
          items: p1Doses,
          total: 3,
        });
        expect(await list(page(1, 1, { patientId: p1.id, toolType: 'dose_calculator' }))).toEqual({
          items: p1Doses.slice(1, 2),
          total: 3,
        });
        expect(await list(page(3, 1, { patientId: p1.id, toolType: 'dose_calculator' }))).toEqual({
          items: [],
          total: 3,
        });
        expect(await list(page(0, 10, { patientId: p2.id }))).toEqual({
          items: newest.filter((entry) => entry.patientId === p2.id),
          total: 2,
        });
        expect(await list(page(0, 10, { toolType: 'roi_calculator' }))).toEqual({ items: [saved[2]], total: 1 });
        expect(await list(page(0, 10, { patientId: p2.id, toolType: 'roi_calculator' }))).toEqual({
          items: [],
          total: 0,
        });
        expect(await list(page(0, 10, { patientId: 'p-nobody' }))).toEqual({ items: [], total: 0 });
      });
    });

    describe('exports', () => {
      it('keeps bytes exactly, and the metadata; lists newest first, by patient, only the owner’s', async () => {
        const owner = nextId('owner');
        const [p1, p2] = [patient(owner), patient(owner)];
        const big = Buffer.concat([
          pdfBytes(),
          Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7919) % 256)),
        ]);
        const files = [pdfBytes('one'), big, pdfBytes('three')];
        const records = [
          exportRecord(owner, files[0]!, { patientId: p1.id, fileName: ODD_TEXT, createdAt: TIMES[3] }),
          exportRecord(owner, files[1]!, { patientId: p2.id, calculationId: 'c-1' }),
          exportRecord(owner, files[2]!, { patientId: p1.id }),
        ];
        for (const [index, record] of records.entries()) await store.saveExport(record, files[index]!);
        // a Uint8Array view into a larger buffer stores only its own bytes
        const backing = new Uint8Array([9, 9, 0x00, 0xff, 0x25, 9]);
        const view = backing.subarray(2, 5);
        const small = exportRecord(owner, view);
        await store.saveExport(small, view);
        await store.saveExport(exportRecord('someone-else', files[0]!, { patientId: p1.id }), files[0]!);

        for (const [index, record] of records.entries()) {
          expect(await store.findExport(owner, record.id)).toEqual(record);
          const read = await store.readExportFile(owner, record.id);
          expect(Buffer.isBuffer(read)).toBe(true);
          expect(read!.equals(files[index]!)).toBe(true);
        }
        expect([...(await store.readExportFile(owner, small.id))!]).toEqual([0x00, 0xff, 0x25]);
        expect(await store.listExports(owner)).toEqual([small, records[2], records[1], records[0]]);
        expect(await store.listExports(owner, { patientId: p1.id })).toEqual([records[2], records[0]]);
        expect(await store.listExports(owner, { patientId: 'p-nobody' })).toEqual([]);
        expect(await store.findExport(owner, randomUUID())).toBeUndefined();
        expect(await store.readExportFile(owner, randomUUID())).toBeUndefined();
      });

      it('deleteExport removes the metadata and the bytes; a second delete answers false', async () => {
        const owner = nextId('owner');
        const bytes = pdfBytes('delete');
        const gone = exportRecord(owner, bytes);
        const kept = exportRecord(owner, bytes);
        await store.saveExport(gone, bytes);
        await store.saveExport(kept, bytes);
        expect(await store.deleteExport(owner, gone.id)).toBe(true);
        expect(await store.findExport(owner, gone.id)).toBeUndefined();
        expect(await store.readExportFile(owner, gone.id)).toBeUndefined();
        expect(await adapter.readExportFile(owner, gone.id)).toBeUndefined();
        expect(await store.listExports(owner)).toEqual([kept]);
        expect(await store.deleteExport(owner, gone.id)).toBe(false);
        expect(await adapter.deleteExport(owner, gone.id)).toBe(false);
        expect((await store.readExportFile(owner, kept.id))!.equals(bytes)).toBe(true);
        await reopen();
        expect(await store.readExportFile(owner, gone.id)).toBeUndefined();
        expect(await store.listExports(owner)).toEqual([kept]);
      });
    });

    it('keeps another clinician out of every call, and their attempts change nothing', async () => {
      const alice = nextId('alice');
      const bob = nextId('bob');
      const record = patient(alice, { displayName: 'Shared Name', mrn: 'MRN-A' });
      await store.createPatient(record);
      const entry = calculation(alice, { patientId: record.id, toolType: 'bradycardia_advisor' });
      await store.saveCalculation(entry);
      const bytes = pdfBytes('alice');
      const file = exportRecord(alice, bytes, { patientId: record.id, calculationId: entry.id });
      await store.saveExport(file, bytes);
      const bobsOwn = patient(bob, { displayName: 'Shared Name' });
      await store.createPatient(bobsOwn);
      const nothing = { items: [], total: 0 };

      for (const [label, target] of [
        ['store', store],
        ['adapter', adapter],
      ] as const) {
        const as = (value: unknown) => expect({ via: label, value });
        as(await target.findPatient(bob, record.id)).toEqual({ via: label, value: undefined });
        as(await target.updatePatient(bob, record.id, { displayName: 'Taken', notes: 'x' }, TIMES[4])).toEqual({
          via: label,
          value: undefined,
        });
        as(await target.deletePatient(bob, record.id)).toEqual({ via: label, value: false });
        as(ids(await target.listPatients(bob))).toEqual({ via: label, value: [bobsOwn.id] });
        as(ids(await target.listPatients(bob, 'mrn-a'))).toEqual({ via: label, value: [] });
        as(await target.findCalculation(bob, entry.id)).toEqual({ via: label, value: undefined });
        as(await target.listCalculations(bob, page(0, 10))).toEqual({ via: label, value: nothing });
        as(await target.listCalculations(bob, page(0, 10, { patientId: record.id }))).toEqual({
          via: label,
          value: nothing,
        });
        as(
          await target.listCalculations(bob, page(0, 10, { patientId: record.id, toolType: 'bradycardia_advisor' })),
        ).toEqual({ via: label, value: nothing });
        as(await target.findExport(bob, file.id)).toEqual({ via: label, value: undefined });
        as(await target.readExportFile(bob, file.id)).toEqual({ via: label, value: undefined });
        as(await target.listExports(bob, {})).toEqual({ via: label, value: [] });
        as(await target.listExports(bob, { patientId: record.id })).toEqual({ via: label, value: [] });
        as(await target.deleteExport(bob, file.id)).toEqual({ via: label, value: false });
      }

      expect(await store.findPatient(alice, record.id)).toEqual(record);
      expect(ids(await store.listPatients(alice, 'shared'))).toEqual([record.id]);
      expect(await store.findCalculation(alice, entry.id)).toEqual(entry);
      expect(await store.listCalculations(alice, page(0, 10, { patientId: record.id }))).toEqual({
        items: [entry],
        total: 1,
      });
      expect(await store.findExport(alice, file.id)).toEqual(file);
      expect((await store.readExportFile(alice, file.id))!.equals(bytes)).toBe(true);
      expect(await store.listExports(alice, { patientId: record.id })).toEqual([file]);
    });

    it('keeps every write of 20 clinicians writing at once, each clinician’s history in order', async () => {
      const clinicians = Array.from({ length: 20 }, () => nextId('busy'));
      const saved = new Map<string, CalculationRecord[]>();
      const patients = new Map<string, PatientRecord[]>();
      await Promise.all(
        clinicians.map(async (owner, index) => {
          const records = Array.from({ length: 25 }, (_, n) =>
            patient(owner, { displayName: `P ${String(n).padStart(2, '0')}` }),
          );
          patients.set(owner, records);
          // all of one clinician's patients at once, and their calculations one after another
          const creations = Promise.all(records.map((record) => store.createPatient(record)));
          const entries: CalculationRecord[] = [];
          saved.set(owner, entries);
          for (let n = 0; n < 25; n += 1) {
            const entry = calculation(owner, { toolType: n % 2 ? 'bradycardia_advisor' : 'dose_calculator' });
            entry.inputs = { clinician: index, n };
            await store.saveCalculation(entry);
            entries.push(entry);
          }
          await creations;
        }),
      );
      for (const owner of clinicians) {
        const newest = [...saved.get(owner)!].reverse();
        expect(await store.listCalculations(owner, page(0, 50))).toEqual({ items: newest, total: 25 });
        expect(await store.listCalculations(owner, page(20, 10))).toEqual({ items: newest.slice(20), total: 25 });
        expect((await store.listCalculations(owner, page(0, 50, { toolType: 'dose_calculator' }))).total).toBe(13);
        expect(ids(await store.listPatients(owner))).toEqual(ids(patients.get(owner)!));
      }
    });

    it('keeps everything across a reopen, every text and time as written', async () => {
      const owner = nextId('owner');
      const account = user({ name: ODD_TEXT, license: ODD_TEXT, createdAt: TIMES[3] });
      await store.createUser(account);
      const live = session({ userId: account.id, createdAt: TIMES[0], expiresAt: TIMES[4] });
      const revoked = session({ userId: account.id, createdAt: TIMES[2], expiresAt: TIMES[4], revokedAt: TIMES[1] });
      await store.createSession(live);
      await store.createSession(revoked);
      const records = TIMES.map((createdAt, index) =>
        patient(owner, {
          displayName: `${ODD_TEXT} ${index}`,
          mrn: ODD_TEXT,
          notes: ODD_TEXT,
          createdAt,
          updatedAt: TIMES[(index + 1) % TIMES.length],
        }),
      );
      for (const record of records) await store.createPatient(record);
      const entries = TIMES.map((createdAt) =>
        calculation(owner, { patientId: records[0]!.id, inputs: { note: ODD_TEXT }, createdAt }),
      );
      for (const entry of entries) await store.saveCalculation(entry);
      const bytes = pdfBytes(ODD_TEXT);
      const file = exportRecord(owner, bytes, { fileName: `${ODD_TEXT}.pdf`, createdAt: TIMES[2] });
      await store.saveExport(file, bytes);

      const check = async () => {
        expect(await store.findUserById(account.id)).toEqual(account);
        expect(await store.findUserByEmail(account.email)).toEqual(account);
        expect(await store.findSession(live.id)).toEqual(live);
        expect(await store.findSession(revoked.id)).toEqual(revoked);
        for (const record of records) expect(await store.findPatient(owner, record.id)).toEqual(record);
        expect(await store.listPatients(owner)).toEqual([...records].sort(byPatientName));
        expect(ids(await store.listPatients(owner, ODD_TEXT.slice(0, 20)))).toHaveLength(TIMES.length);
        expect(await store.listCalculations(owner, page(0, 10))).toEqual({ items: [...entries].reverse(), total: 5 });
        expect(await store.listExports(owner)).toEqual([file]);
        expect((await store.readExportFile(owner, file.id))!.equals(bytes)).toBe(true);
      };
      await check();
      await reopen();
      await check();
    });

    it('keeps every write it acknowledged when its process is killed (SIGKILL) mid-write', async () => {
      const owner = nextId('crash');
      // One process at a time on a storage (the embedded store's rule): close ours while the child writes.
      await closeStore();
      const first = await writeUntilKilled(storage, owner, 30);
      await openStore();
      expect(first.patients.length + first.calculations.length + first.exports.size).toBeGreaterThanOrEqual(30);
      const found = ids(await store.listPatients(owner));
      expect(first.patients.filter((id) => !found.includes(id))).toEqual([]);
      for (const id of first.calculations) expect([id, (await store.findCalculation(owner, id))?.id]).toEqual([id, id]);
      for (const [id, hash] of first.exports) {
        const bytes = await store.readExportFile(owner, id);
        expect([id, bytes && createHash('sha256').update(bytes).digest('hex')]).toEqual([id, hash]);
      }
      // and the storage still takes writes after the crash
      const after = patient(owner, { displayName: 'After the crash' });
      await store.createPatient(after);
      await reopen();
      expect(await store.findPatient(owner, after.id)).toEqual(after);
    }, 60_000);
  });
}
