import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Pool } from 'pg';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { createTestDatabase } from '../test-support/postgres-cluster.ts';
import { DATA_KEY_FILE_NAME, loadFileKeyring, loadPostgresKeyring } from './data-key.ts';
import { openLowdbStore } from './lowdb-store.ts';
import { openPostgresStore } from './postgres/postgres-store.ts';
import type { AuthFlowRecord, SessionRecord, TotpRecord, UserRecord } from './records.ts';
import {
  dataKeyring,
  isSealed,
  open,
  seal,
  sealedAdapter,
  sealedKeyId,
  sealStoredSecrets,
  type DataKeyring,
} from './sealed-values.ts';
import { StorageError } from './storage-error.ts';
import type { StoreAdapter } from './store.ts';

// Issue 44 item 6 (security review L1): authenticator-app secrets, ID tokens and sign-in steps (an EHR link's
// access token) are kept encrypted with the data key, on both stores; what an earlier release kept in clear is
// read, and encrypted by the pass at start.

const NOW = '2026-06-01T12:00:00.000Z';
const SEED = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const ID_TOKEN = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJrYy0xIn0.c2lnbmF0dXJlLW9mLXRoZS1wcm92aWRlcg';
const ACCESS_TOKEN = 'ehr-access-token-6d1f0c2a9b8e';
const key = () => randomBytes(32);

describe('sealed values', () => {
  const keyring = dataKeyring([key()]);

  it('seal and open: AES-256-GCM, a new nonce each time, named by version and key id', () => {
    const one = seal(keyring, 'totp-secret:u-1', SEED);
    const two = seal(keyring, 'totp-secret:u-1', SEED);
    expect(one).toMatch(new RegExp(`^sealed:v1:${keyring.current.id}:[A-Za-z0-9_-]+$`));
    expect(one).not.toBe(two);
    expect(one).not.toContain(SEED);
    expect(sealedKeyId(one)).toBe(keyring.current.id);
    expect(open(keyring, 'totp-secret:u-1', one, 'it')).toBe(SEED);
    expect(open(keyring, 'totp-secret:u-1', two, 'it')).toBe(SEED);
    expect(isSealed(one)).toBe(true);
    expect(isSealed(SEED)).toBe(false);
    expect(isSealed({ nonce: 'n' })).toBe(false);
  });

  it('a value moved to another record, changed, of another key or a later version does not open', () => {
    const value = seal(keyring, 'totp-secret:u-1', SEED);
    expect(() => open(keyring, 'totp-secret:u-2', value, 'The secret of u-2')).toThrow(
      new StorageError(
        `The secret of u-2 cannot be decrypted with data key ${keyring.current.id}: it was changed or damaged in ` +
          'the store. Restore it from a backup.',
      ),
    );
    const body = Buffer.from(value.split(':')[3]!, 'base64url');
    body[body.length - 20]! ^= 1;
    const changed = `sealed:v1:${keyring.current.id}:${body.toString('base64url')}`;
    expect(() => open(keyring, 'totp-secret:u-1', changed, 'It')).toThrow(/cannot be decrypted/);
    const other = dataKeyring([key()]);
    expect(() => open(other, 'totp-secret:u-1', value, 'The secret of u-1')).toThrow(
      new StorageError(
        `The secret of u-1 is encrypted with data key ${keyring.current.id}, which this server does not have (its ` +
          `DATA_KEY is key ${other.current.id}). Start it with the DATA_KEY the value was written with; to change ` +
          'keys, give the new key first and the old one after it, comma-separated (DATA_KEY=new,old).',
      ),
    );
    expect(() => open(keyring, 'c', 'sealed:v2:00:abc', 'It')).toThrow(/written by a later release/);
  });

  it('a keyring reads values of each of its keys and seals with the first (rotation)', () => {
    const [older, newer] = [key(), key()];
    const before = seal(dataKeyring([older]), 'c', 'text');
    const rotated = dataKeyring([newer, older]);
    expect(open(rotated, 'c', before, 'it')).toBe('text');
    expect(sealedKeyId(seal(rotated, 'c', 'text'))).toBe(rotated.current.id);
    expect(rotated.current.id).not.toBe(sealedKeyId(before));
  });
});

interface Subject {
  adapter: StoreAdapter;
  /** Every byte the store keeps, as text (the files of DATA_DIR, or every row of the tables). */
  stored(): Promise<string>;
  keyring(keys: Buffer[]): Promise<DataKeyring>;
  reopen(): Promise<void>;
  remove(): Promise<void>;
}

async function embedded(): Promise<Subject> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'sgx-sealed-'));
  const subject: Subject = {
    adapter: await openLowdbStore(dataDir),
    async stored() {
      const names = (await readdir(dataDir, { recursive: true })).filter((name) => name !== DATA_KEY_FILE_NAME);
      const files = await Promise.all(names.map((name) => readFile(path.join(dataDir, name), 'utf8').catch(() => '')));
      return files.join('\n');
    },
    keyring: async (keys) => (await loadFileKeyring(dataDir, keys)).keyring,
    async reopen() {
      await subject.adapter.close();
      subject.adapter = await openLowdbStore(dataDir);
    },
    async remove() {
      await subject.adapter.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return subject;
}

async function postgres(): Promise<Subject> {
  const database = await createTestDatabase(inject('postgresBaseUrl'));
  let opened = await openPostgresStore(database.url);
  const pool = (): Pool => opened.pool;
  const subject: Subject = {
    adapter: opened.adapter,
    async stored() {
      const tables = ['users', 'sessions', 'totp_factors', 'auth_flows'];
      const rows = await Promise.all(tables.map(async (table) => (await pool().query(`SELECT * FROM ${table}`)).rows));
      return JSON.stringify(rows);
    },
    keyring: async (keys) => (await loadPostgresKeyring(pool(), keys)).keyring,
    async reopen() {
      await subject.adapter.close();
      opened = await openPostgresStore(database.url);
      subject.adapter = opened.adapter;
    },
    async remove() {
      await subject.adapter.close();
      await database.drop();
    },
  };
  return subject;
}

const user = (id: string): UserRecord => ({
  id,
  email: `${id}@hospital.example`,
  name: 'Dr A',
  license: null,
  passwordHash: null,
  createdAt: NOW,
});
const totp = (userId: string): TotpRecord => ({ userId, secret: SEED, lastUsedStep: 0, createdAt: NOW });
const session = (id: string, fields: Partial<SessionRecord> = {}): SessionRecord => ({
  id,
  userId: 'u-1',
  createdAt: NOW,
  expiresAt: '2026-06-02T00:00:00.000Z',
  revokedAt: null,
  lastUsedAt: NOW,
  device: null,
  method: 'oidc',
  oidc: { issuer: 'https://idp.example', idToken: ID_TOKEN },
  ...fields,
});
const flow = (id: string): AuthFlowRecord => ({
  id,
  kind: 'smart-ehr-link',
  data: { accessToken: ACCESS_TOKEN, banner: { name: 'Amal' } },
  createdAt: NOW,
  expiresAt: '2026-06-02T00:00:00.000Z',
});

describe.each([
  ['embedded', embedded],
  ['postgres', postgres],
] as const)('secrets at rest on the %s store', (_name, make) => {
  let subject: Subject;
  beforeEach(async () => {
    subject = await make();
    await subject.adapter.createUser(user('u-1'));
  });
  afterEach(() => subject.remove());

  it('are stored sealed and read back open', async () => {
    const keyring = await subject.keyring([key()]);
    const sealed = sealedAdapter(subject.adapter, keyring);
    expect(await sealed.changeSecondFactors({ userId: 'u-1', at: NOW, totp: totp('u-1') })).toEqual({
      endedSessions: 0,
    });
    await sealed.createSession(session('s-1'));
    await sealed.createAuthFlow(flow('f-1'));
    const text = await subject.stored();
    for (const secret of [SEED, ID_TOKEN, ACCESS_TOKEN, 'Amal']) expect(text).not.toContain(secret);
    expect(text).toContain(`sealed:v1:${keyring.current.id}:`);

    await subject.reopen();
    const again = sealedAdapter(subject.adapter, keyring);
    expect((await again.findSecondFactors('u-1')).totp).toEqual(totp('u-1'));
    expect(await again.findSession('s-1')).toEqual(session('s-1'));
    expect(await again.listSessions('u-1')).toEqual([session('s-1')]);
    expect(await again.listOpenSessions('u-1', NOW)).toEqual([session('s-1')]);
    expect(await again.takeAuthFlow('f-1', 'smart-ehr-link', NOW)).toEqual(flow('f-1'));
    // without the key's help, the adapter itself holds only sealed text
    expect((await subject.adapter.findSecondFactors('u-1')).totp?.secret).toMatch(/^sealed:v1:/);
  });

  it('an ended session keeps no ID token, however it ended', async () => {
    const sealed = sealedAdapter(subject.adapter, await subject.keyring([key()]));
    const ids = ['s-revoked', 's-other-1', 's-kept', 's-other-2'];
    for (const id of ids) await sealed.createSession(session(id));
    await sealed.revokeSession('s-revoked', NOW);
    expect(await sealed.endOtherSessions('u-1', 's-kept', NOW)).toBe(2);
    expect((await sealed.findSession('s-kept'))?.oidc).toEqual(session('s-kept').oidc);
    for (const id of ids.filter((one) => one !== 's-kept')) expect((await sealed.findSession(id))?.oidc).toBeNull();
    await sealed.createSession(session('s-2'));
    await sealed.changePassword('u-1', 'hash', { keepSessionId: 's-kept', at: NOW });
    await sealed.createSession(session('s-3'));
    await sealed.changeSecondFactors({ userId: 'u-1', at: NOW, endOtherSessions: { keepSessionId: 's-kept' } });
    await sealed.scheduleErasure('u-1', { requestedAt: NOW, eraseAfter: NOW });
    for (const id of ['s-2', 's-3', 's-kept']) {
      const ended = await sealed.findSession(id);
      expect([id, ended?.revokedAt, ended?.oidc]).toEqual([id, NOW, null]);
    }
    expect(await subject.stored()).not.toMatch(/sealed:v1:[0-9a-f]{16}:/); // no ID token left, sealed or not
  });

  it('what an earlier release kept in clear is read, and sealed by the pass at start', async () => {
    // written in clear, as an earlier release did
    await subject.adapter.changeSecondFactors({ userId: 'u-1', at: NOW, totp: totp('u-1') });
    await subject.adapter.createSession(session('s-open'));
    await subject.adapter.createSession(session('s-expired', { expiresAt: NOW }));
    await subject.adapter.createAuthFlow(flow('f-1'));
    const keyring = await subject.keyring([key()]);
    const sealed = sealedAdapter(subject.adapter, keyring);
    expect((await sealed.findSecondFactors('u-1')).totp).toEqual(totp('u-1'));
    expect(await sealed.findSession('s-open')).toEqual(session('s-open'));

    expect(await sealStoredSecrets(subject.adapter, keyring, NOW)).toEqual({ sealed: 3, resealed: 0, dropped: 1 });
    const text = await subject.stored();
    for (const secret of [SEED, ID_TOKEN, ACCESS_TOKEN, 'Amal']) expect(text).not.toContain(secret);
    expect((await sealed.findSecondFactors('u-1')).totp).toEqual(totp('u-1'));
    expect(await sealed.findSession('s-open')).toEqual(session('s-open'));
    expect((await sealed.findSession('s-expired'))?.oidc).toBeNull();
    expect(await sealed.takeAuthFlow('f-1', 'smart-ehr-link', NOW)).toEqual(flow('f-1'));
    // a second start has nothing to do
    expect(await sealStoredSecrets(subject.adapter, keyring, NOW)).toEqual({ sealed: 0, resealed: 0, dropped: 0 });
  });

  it('a new first key re-encrypts everything at start; a missing key stops it, changing nothing', async () => {
    const [older, newer] = [key(), key()];
    const before = sealedAdapter(subject.adapter, dataKeyring([older]));
    await before.changeSecondFactors({ userId: 'u-1', at: NOW, totp: totp('u-1') });
    await before.createSession(session('s-1'));
    await before.createAuthFlow(flow('f-1'));
    const stored = await subject.stored();

    const stranger = dataKeyring([newer]);
    await expect(sealStoredSecrets(subject.adapter, stranger, NOW)).rejects.toThrow(
      /is encrypted with data key [0-9a-f]{16}, which this server does not have/,
    );
    expect(await subject.stored()).toBe(stored);

    const rotated = dataKeyring([newer, older]);
    expect(await sealStoredSecrets(subject.adapter, rotated, NOW)).toEqual({ sealed: 0, resealed: 3, dropped: 0 });
    const after = sealedAdapter(subject.adapter, stranger); // the old key is no longer needed
    expect((await after.findSecondFactors('u-1')).totp).toEqual(totp('u-1'));
    expect(await after.findSession('s-1')).toEqual(session('s-1'));
    expect(await after.takeAuthFlow('f-1', 'smart-ehr-link', NOW)).toEqual(flow('f-1'));
  });
});

describe('the generated development key', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'sgx-data-key-'));
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  it('is made once into DATA_DIR (0600) and kept; with DATA_KEY it is read, never made', async () => {
    const configured = key();
    const withKey = await loadFileKeyring(dataDir, [configured]);
    expect(withKey.source).toBe('DATA_KEY');
    expect([...withKey.keyring.byId.keys()]).toEqual([withKey.keyring.current.id]);
    expect(await readdir(dataDir)).toEqual([]);

    const first = await loadFileKeyring(dataDir, []);
    expect(first.source).toBe('generated');
    expect(await readdir(dataDir)).toEqual([DATA_KEY_FILE_NAME]);
    expect((await stat(path.join(dataDir, DATA_KEY_FILE_NAME))).mode & 0o777).toBe(0o600);
    expect((await loadFileKeyring(dataDir, [])).keyring.current.id).toBe(first.keyring.current.id);

    // DATA_KEY set later: it seals, and what the generated key sealed is still read
    const later = await loadFileKeyring(dataDir, [configured]);
    expect(later.keyring.current.id).toBe(withKey.keyring.current.id);
    expect([...later.keyring.byId.keys()]).toEqual([withKey.keyring.current.id, first.keyring.current.id]);
  });

  it('a damaged key file stops start-up and is left as it is', async () => {
    const file = path.join(dataDir, DATA_KEY_FILE_NAME);
    await writeFile(file, 'not a key\n');
    await expect(loadFileKeyring(dataDir, [])).rejects.toThrow(
      new StorageError(
        `The data key file ${file} is empty or damaged (it must hold 32 random bytes, base64-encoded). It has not ` +
          'been changed. Restore it from a backup of DATA_DIR: without it the authenticator apps set up cannot be ' +
          'read.',
      ),
    );
    expect(await readFile(file, 'utf8')).toBe('not a key\n');
  });
});
