import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import type { AuthFlowRecord, SessionRecord, TotpRecord } from './records.ts';
import type { SecretsRewrite, StoreAdapter } from './store.ts';
import { StorageError } from './storage-error.ts';

/**
 * Secrets at rest, encrypted with the data key (DATA_KEY, or one generated for development: data-key.ts): an
 * authenticator app's shared secret, a single sign-on session's ID token (kept for the provider's sign-out) and the
 * data of every sign-in step under way (an EHR link's access token and patient banner, a hand-over's ID token, an
 * authenticator app being set up, PKCE verifiers). The routes never see a sealed value: `sealedAdapter` seals on
 * the way into an adapter and opens on the way out, and `sealStoredSecrets` seals, at start, what an earlier release
 * wrote in clear.
 *
 * A sealed value is text: `sealed:v1:<key id>:<base64url(nonce ‖ ciphertext ‖ tag)>`, AES-256-GCM with a random
 * 96-bit nonce per value. The key id (the first 8 bytes of an HMAC of a fixed text under the key) names the key
 * that sealed it, so that a keyring of several keys can read values of each while sealing with the first (key
 * rotation), and a value of a key the server lacks is named as such rather than read as garbage. The additional
 * authenticated data binds a value to its version, key id, field and record: a value copied onto another
 * account's row does not open.
 */
export const DATA_KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const PREFIX = 'sealed:';
const VERSION = 'v1';
const SEALED = /^sealed:v1:([0-9a-f]{16}):([A-Za-z0-9_-]+)$/;

export interface DataKey {
  /** 16 hex digits naming the key (never the key itself). */
  readonly id: string;
  readonly bytes: Buffer;
}

/** The keys a server reads with; `current` (the first) seals. */
export interface DataKeyring {
  readonly current: DataKey;
  readonly byId: ReadonlyMap<string, DataKey>;
}

export const dataKeyId = (bytes: Buffer): string =>
  createHmac('sha256', bytes).update('sgx-reversal data key id').digest('hex').slice(0, 16);

/** A keyring of the keys given, the first sealing; the same key twice counts once. */
export function dataKeyring(keys: readonly Buffer[]): DataKeyring {
  if (keys.length === 0) throw new Error('a keyring needs at least one key');
  const byId = new Map<string, DataKey>();
  for (const bytes of keys) {
    if (bytes.length !== DATA_KEY_BYTES) throw new Error(`a data key is ${DATA_KEY_BYTES} bytes`);
    const id = dataKeyId(bytes);
    if (!byId.has(id)) byId.set(id, { id, bytes });
  }
  return { current: byId.get(dataKeyId(keys[0]!))!, byId };
}

/** Whether a stored value is sealed (any version): a value of an earlier release is not. */
export const isSealed = (value: unknown): value is string => typeof value === 'string' && value.startsWith(PREFIX);

/** The id of the key that sealed the value, or undefined when it is not a sealed value of this version. */
export const sealedKeyId = (value: string): string | undefined => SEALED.exec(value)?.[1];

const aad = (keyId: string, context: string) => Buffer.from(`${VERSION}:${keyId}:${context}`, 'utf8');

/** `plaintext` sealed with the keyring's current key for `context` (the field and the record it belongs to). */
export function seal(keyring: DataKeyring, context: string, plaintext: string): string {
  const key = keyring.current;
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key.bytes, nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad(key.id, context));
  const body = Buffer.concat([nonce, cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `${PREFIX}${VERSION}:${key.id}:${body.toString('base64url')}`;
}

/**
 * The plaintext of a sealed value. A value of a key the keyring lacks, of a later version, or that does not open
 * (changed, damaged, or moved to another record) is a StorageError naming `what`, never the value.
 */
export function open(keyring: DataKeyring, context: string, value: string, what: string): string {
  const match = SEALED.exec(value);
  if (!match) {
    throw new StorageError(
      `${what} is encrypted in a form this server cannot read (${value.slice(0, 12)}…): it was written by a later ` +
        'release. Run that release, or restore a backup made before it.',
    );
  }
  const [, keyId, text] = match as unknown as [string, string, string];
  const key = keyring.byId.get(keyId);
  if (!key) {
    throw new StorageError(
      `${what} is encrypted with data key ${keyId}, which this server does not have (its DATA_KEY is key ` +
        `${keyring.current.id}). Start it with the DATA_KEY the value was written with; to change keys, give the ` +
        'new key first and the old one after it, comma-separated (DATA_KEY=new,old).',
    );
  }
  const body = Buffer.from(text, 'base64url');
  try {
    if (body.length < NONCE_BYTES + TAG_BYTES) throw new Error('too short');
    const decipher = createDecipheriv('aes-256-gcm', key.bytes, body.subarray(0, NONCE_BYTES), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(aad(keyId, context));
    decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
    return Buffer.concat([
      decipher.update(body.subarray(NONCE_BYTES, body.length - TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
  } catch {
    throw new StorageError(
      `${what} cannot be decrypted with data key ${keyId}: it was changed or damaged in the store. ` +
        'Restore it from a backup.',
    );
  }
}

// The fields, each with the context its values are sealed for.
const totpContext = (userId: string) => `totp-secret:${userId}`;
const idTokenContext = (sessionId: string) => `session-id-token:${sessionId}`;
const flowContext = (flow: Pick<AuthFlowRecord, 'id' | 'kind'>) => `auth-flow:${flow.kind}:${flow.id}`;
const totpWhat = (userId: string) => `The authenticator app's secret of account ${userId}`;
const idTokenWhat = (sessionId: string) => `The ID token of session ${sessionId}`;
const flowWhat = (flow: Pick<AuthFlowRecord, 'id' | 'kind'>) => `The sign-in step ${flow.kind} ${flow.id}`;

function openTotp(keyring: DataKeyring, totp: TotpRecord): TotpRecord {
  if (!isSealed(totp.secret)) return totp; // written in clear by an earlier release: sealed at the next start
  return { ...totp, secret: open(keyring, totpContext(totp.userId), totp.secret, totpWhat(totp.userId)) };
}

function openSession<T extends SessionRecord | undefined>(keyring: DataKeyring, session: T): T {
  if (!session?.oidc || !isSealed(session.oidc.idToken)) return session;
  const idToken = open(keyring, idTokenContext(session.id), session.oidc.idToken, idTokenWhat(session.id));
  return { ...session, oidc: { ...session.oidc, idToken } };
}

function openFlow(keyring: DataKeyring, flow: AuthFlowRecord | undefined): AuthFlowRecord | undefined {
  if (!flow || !isSealed(flow.data)) return flow;
  return { ...flow, data: JSON.parse(open(keyring, flowContext(flow), flow.data, flowWhat(flow))) as unknown };
}

/**
 * The adapter with its secrets sealed at rest: what the routes store goes in sealed, what they read comes out
 * open. Every other call goes to the adapter unchanged.
 */
export function sealedAdapter(adapter: StoreAdapter, keyring: DataKeyring): StoreAdapter {
  const overrides: Partial<StoreAdapter> = {
    async createSession(session) {
      const oidc = session.oidc && {
        ...session.oidc,
        idToken: seal(keyring, idTokenContext(session.id), session.oidc.idToken),
      };
      await adapter.createSession({ ...session, oidc });
    },
    findSession: async (id) => openSession(keyring, await adapter.findSession(id)),
    listSessions: async (userId) => (await adapter.listSessions(userId)).map((one) => openSession(keyring, one)),
    listOpenSessions: async (userId, at) =>
      (await adapter.listOpenSessions(userId, at)).map((one) => openSession(keyring, one)),
    async findSecondFactors(userId) {
      const found = await adapter.findSecondFactors(userId);
      return { ...found, totp: found.totp && openTotp(keyring, found.totp) };
    },
    changeSecondFactors(change) {
      const totp = change.totp && {
        ...change.totp,
        secret: seal(keyring, totpContext(change.userId), change.totp.secret),
      };
      return adapter.changeSecondFactors(change.totp ? { ...change, totp } : change);
    },
    async createAuthFlow(flow) {
      await adapter.createAuthFlow({ ...flow, data: seal(keyring, flowContext(flow), JSON.stringify(flow.data)) });
    },
    takeAuthFlow: async (id, kind, at) => openFlow(keyring, await adapter.takeAuthFlow(id, kind, at)),
  };
  return new Proxy(adapter, {
    get(target, property) {
      if (Object.hasOwn(overrides, property)) return overrides[property as keyof StoreAdapter];
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** What the start-up pass did (counts of values). */
export interface SealingReport {
  /** Written in clear by an earlier release, now sealed. */
  sealed: number;
  /** Sealed with another key of the keyring, now sealed with the current one. */
  resealed: number;
  /** ID tokens of sessions that had ended, dropped. */
  dropped: number;
}

/**
 * At start, before any request: every secret the adapter holds sealed with the current key. Values of an earlier
 * release (in clear) are sealed, values of an older key of the keyring sealed again, and the ID tokens of sessions
 * already ended dropped (a signed-out session needs none). A value that does not open stops start-up before
 * anything is written (the adapter calls every rewrite first).
 */
export async function sealStoredSecrets(adapter: StoreAdapter, keyring: DataKeyring, at: string) {
  const report: SealingReport = { sealed: 0, resealed: 0, dropped: 0 };
  /** The value sealed with the current key, or undefined when it is already. */
  const reseal = (value: string, context: string, what: string): string | undefined => {
    if (!isSealed(value)) {
      report.sealed += 1;
      return seal(keyring, context, value);
    }
    const plaintext = open(keyring, context, value, what); // checks it opens, whichever key
    if (sealedKeyId(value) === keyring.current.id) return undefined;
    report.resealed += 1;
    return seal(keyring, context, plaintext);
  };
  const rewrite: SecretsRewrite = {
    totpSecret: (userId, stored) => reseal(stored, totpContext(userId), totpWhat(userId)),
    idToken(session, stored) {
      if (session.revokedAt !== null || Date.parse(session.expiresAt) <= Date.parse(at)) {
        report.dropped += 1;
        return null;
      }
      return reseal(stored, idTokenContext(session.id), idTokenWhat(session.id));
    },
    flowData(flow, stored) {
      if (isSealed(stored)) return reseal(stored, flowContext(flow), flowWhat(flow));
      report.sealed += 1;
      return seal(keyring, flowContext(flow), JSON.stringify(stored));
    },
  };
  await adapter.rewriteSecrets(rewrite);
  return report;
}
