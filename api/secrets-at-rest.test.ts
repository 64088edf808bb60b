import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { CustomFetch } from 'openid-client';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MRN_SYSTEM } from './fhir/fhir-fixtures.test-support.ts';
import { createBackup } from './storage/backup/backup.ts';
import { findPgTool } from './storage/backup/postgres-backup.ts';
import { DATA_KEY_FILE_NAME } from './storage/data-key.ts';
import {
  OIDC_CLIENT_ID,
  OIDC_CLIENT_SECRET,
  reserveTestProvider,
  type TestProvider,
} from './test-support/oidc-provider.ts';
import {
  EHR_PATIENT_ID,
  SMART_CLIENT_ID,
  SMART_CLIENT_SECRET,
  startSmartEhr,
  type SmartEhr,
} from './test-support/smart-ehr.ts';
import { doseWithNotes, launched } from './test-support/smart-pair.ts';
import { signOn, ssoSettings } from './test-support/sso-flow.ts';
import { startTestApi, type TestApi } from './test-support/test-api.ts';

// Issue 44 item 6, security review L1: a dump of the PostgreSQL database, a copy of DATA_DIR and a backup hold no
// authenticator-app secret, EHR access token or ID token in clear, once a clinician has set up an authenticator app,
// been launched from the EHR (and sent a document there) and signed in with the hospital's provider. DATA_KEY is
// set, as NODE_ENV=production requires. On each store (the node-postgres project runs it again on PostgreSQL).

const DATA_KEY = randomBytes(32);
let idp: TestProvider;
let ehr: SmartEhr;
let api: TestApi;
/** The ID tokens the provider's token endpoint answered the app, as the app's own HTTP client saw them. */
const idTokens: string[] = [];
let work: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'sgx-at-rest-'));
  idp = await reserveTestProvider();
  const allowedIssuers: string[] = [];
  const recording: CustomFetch = async (url, options) => {
    const response = await fetch(url, options as RequestInit);
    if (new URL(url).pathname.endsWith('/token') && response.ok) {
      const body = (await response.clone().json()) as { id_token?: string };
      if (body.id_token) idTokens.push(body.id_token);
    }
    return response;
  };
  api = await startTestApi(
    (url) => {
      const sso = ssoSettings(idp.issuer, { clientId: OIDC_CLIENT_ID, clientSecret: OIDC_CLIENT_SECRET })(url);
      return {
        ...sso,
        auth: {
          ...sso.auth,
          oidcFetch: recording,
          smart: {
            clientId: SMART_CLIENT_ID,
            clientSecret: SMART_CLIENT_SECRET,
            privateKeyPem: undefined,
            allowedIssuers, // filled in once the EHR listens
            writeDraftOrders: false,
          },
        },
        fhir: { mrnSystem: MRN_SYSTEM },
      };
    },
    { dataKeys: [DATA_KEY] },
  );
  await idp.start({ redirectUri: `${api.url}/api/auth/oidc/callback`, postLogoutRedirectUri: `${api.url}/` });
  ehr = await startSmartEhr({ redirectUri: `${api.url}/smart/callback` });
  allowedIssuers.push(ehr.fhirBase);
}, 60_000);
afterAll(async () => {
  await api?.close();
  await idp?.close();
  await ehr?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** Every file of DATA_DIR, the audit log included, as bytes. */
async function dataDirCopy(): Promise<Buffer> {
  const names = await readdir(api.dataDir, { recursive: true, withFileTypes: true });
  const files = names.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
  return Buffer.concat(await Promise.all(files.map((file) => readFile(file))));
}

/** pg_dump of the whole database, as SQL text. */
async function postgresDump(): Promise<Buffer> {
  const tool = await findPgTool('pg_dump');
  const dump = spawnSync(tool.path, ['--format=plain', '--no-password', `--dbname=${api.databaseUrl}`], {
    maxBuffer: 256 * 1024 * 1024,
  });
  expect(dump.stderr.toString()).toBe('');
  expect(dump.status).toBe(0);
  return dump.stdout;
}

/** `npm run backup` of the store, unpacked: the tar of DATA_DIR's files, or pg_dump's custom format as SQL. */
async function backupContents(name: string): Promise<Buffer> {
  const file = path.join(work, `${name}.backup`);
  await createBackup({ dataDir: api.dataDir, databaseUrl: api.databaseUrl, dataKeys: [DATA_KEY] }, file, () => {});
  if (api.storeKind === 'embedded') return gunzipSync(await readFile(file));
  const restore = await findPgTool('pg_restore');
  const sql = spawnSync(restore.path, ['--file=-', file], { maxBuffer: 256 * 1024 * 1024 });
  expect(sql.status).toBe(0);
  return sql.stdout;
}

const codeAt = (secret: string) => generate({ secret, epoch: Math.floor(Date.now() / 1000) });

describe('secrets at rest (DATA_KEY set)', () => {
  it('no TOTP seed, EHR access token or ID token in a dump, a copy of DATA_DIR or a backup', async () => {
    // An authenticator app set up, then used to sign in (the stored secret is read back and works).
    const account = await api.signUp();
    const setup = await api.request('POST', '/api/auth/totp/setup', {
      token: account.token,
      body: { password: account.password },
    });
    expect(setup.status).toBe(200);
    const seed = setup.body.secret as string;
    expect(seed).toMatch(/^[A-Z2-7]{32}$/);
    const confirmed = await api.request('POST', '/api/auth/totp/confirm', {
      token: account.token,
      body: { setupToken: setup.body.setupToken, code: await codeAt(seed) },
    });
    expect(confirmed.status).toBe(200);
    const password = await api.request('POST', '/api/auth/signin', {
      body: { email: account.email, password: account.password },
    });
    expect(password.status).toBe(200);
    // a code of the next step: the one confirming the setup used this step's
    const next = await generate({ secret: seed, epoch: Math.floor(Date.now() / 1000) + 30 });
    const second = await api.request('POST', '/api/auth/signin/second-factor', {
      body: { mfaToken: password.body.secondFactor.mfaToken, method: 'totp', code: next },
    });
    expect(second.status).toBe(200);

    // A launch from the EHR, and a document sent there with the access token the app keeps for the session.
    const opened = await launched({ api, ehr, close: async () => {} }, ehr, { patient: EHR_PATIENT_ID });
    const dose = await doseWithNotes(api, opened.token, opened.ehr.patient.id);
    expect((await dose.upload()).status).toBe(201);
    const sent = await api.request('POST', '/api/smart/send', {
      token: opened.token,
      body: { calculationId: dose.id },
    });
    expect(sent.status).toBe(200);
    const accessToken =
      /^Bearer (\S+)$/.exec(ehr.created.at(-1)!.authorization)?.[1] ?? ehr.created.at(-1)!.authorization;
    expect(accessToken.length).toBeGreaterThanOrEqual(20);
    expect((await api.request('GET', '/api/smart/context', { token: opened.token })).status).toBe(200);

    // A sign-in with the hospital's provider: its ID token is kept (encrypted) for the provider's sign-out.
    const sso = await signOn(api);
    expect(idTokens).toHaveLength(1);
    const idToken = idTokens[0]!;
    expect(idToken).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const [, idPayload, idSignature] = idToken.split('.') as [string, string, string];

    const secrets = { seed, accessToken, idToken, idPayload, idSignature };
    const inClear = (bytes: Buffer) =>
      Object.entries(secrets)
        .filter(([, secret]) => bytes.includes(secret))
        .map(([name]) => name);
    const stored = api.storeKind === 'embedded' ? await dataDirCopy() : await postgresDump();
    expect(inClear(stored)).toEqual([]);
    expect(stored.includes('sealed:v1:')).toBe(true);
    expect(inClear(await backupContents('before-sign-out'))).toEqual([]);
    expect(inClear(Buffer.from(api.serverLog.join('\n')))).toEqual([]);
    // and the key is held outside the store
    if (api.storeKind === 'embedded') expect(existsSync(path.join(api.dataDir, DATA_KEY_FILE_NAME))).toBe(false);
    else expect(await api.sql("SELECT key FROM app_settings WHERE key = 'data_key'")).toEqual([]);
    expect(stored.includes(DATA_KEY.toString('base64'))).toBe(false);

    // What the store keeps is what the app was given: it opens with the key and serves the provider's sign-out.
    expect((await api.store.findSecondFactors(account.user.id)).totp?.secret).toBe(seed);
    const signOut = await api.request('POST', '/api/auth/signout', { token: sso.token });
    expect(signOut.status).toBe(200);
    expect(new URL(signOut.body.endSessionUrl).searchParams.get('id_token_hint')).toBe(idToken);
    // ...and once signed out, the ID token is no longer kept at all
    const sessions = await api.store.listSessions(sso.user.id);
    expect(sessions.map((session) => [session.revokedAt !== null, session.oidc])).toEqual([[true, null]]);
  }, 120_000);
});
