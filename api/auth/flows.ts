import { createHash, randomBytes } from 'node:crypto';
import type { Store } from '../storage/store.ts';

/** A new secret handle for a flow: 32 random bytes, base64url (what the browser or the provider carries). */
export const newHandle = () => randomBytes(32).toString('base64url');

/** The id a flow is stored under: the handle's sha256, so the stored rows alone cannot finish a flow. */
export const flowId = (handle: string) => createHash('sha256').update(handle).digest('base64url');

/** A flow's handle as a request may send it: base64url text of a sane length (else never looked up). */
export const isHandle = (value: unknown): value is string =>
  typeof value === 'string' && /^[A-Za-z0-9_-]{16,128}$/.test(value);

/** A flow's owner (records.ts AuthFlowRecord `owner`) when all it names of an account is its e-mail. */
export const emailOwner = (email: string) =>
  `email:${createHash('sha256').update(email.trim().toLowerCase()).digest('base64url')}`;

/**
 * The account a flow's data is for, kept beside the data (which the store may hold encrypted) so that erasing the
 * account can find it: the `userId` it names, else `emailOwner` of the `email` it names (a provider identity
 * waiting to be linked to the account with that e-mail), else none. A flow kept under a session's id (the EHR link)
 * is found by that id.
 */
export function flowOwner(data: unknown): string | null {
  const fields = (data ?? {}) as { userId?: unknown; email?: unknown };
  if (typeof fields.userId === 'string' && fields.userId) return fields.userId;
  if (typeof fields.email === 'string' && fields.email) return emailOwner(fields.email);
  return null;
}

/**
 * Sign-in steps under way, kept in the store (records.ts AuthFlowRecord): any instance sharing it can
 * finish a flow another one started, and each is taken once. The browser (or the provider, for an OpenID
 * Connect `state`) holds the handle; the store holds its hash, the step's data and when it expires.
 */
export interface AuthFlows {
  /** Stores `data` under `handle` (a new one when not given) until `ttlMs` from now; answers the handle. */
  start(kind: string, data: unknown, ttlMs: number, handle?: string): Promise<string>;
  /** Stores `data` again under the handle, keeping an expiry already set (a second try of a step). */
  put(kind: string, handle: string, data: unknown, expiresAt: string): Promise<void>;
  /** Takes the flow away and answers its data and expiry, if it exists, is of `kind` and is still live. */
  take<T>(kind: string, handle: unknown): Promise<{ data: T; expiresAt: string } | undefined>;
}

export function authFlows(store: Store, now: () => Date): AuthFlows {
  const put = async (kind: string, handle: string, data: unknown, expiresAt: string) => {
    const owner = flowOwner(data);
    await store.createAuthFlow({ id: flowId(handle), kind, data, owner, createdAt: now().toISOString(), expiresAt });
  };
  return {
    async start(kind, data, ttlMs, handle = newHandle()) {
      await put(kind, handle, data, new Date(now().getTime() + ttlMs).toISOString());
      return handle;
    },
    put,
    async take<T>(kind: string, handle: unknown) {
      if (!isHandle(handle)) return undefined;
      const flow = await store.takeAuthFlow(flowId(handle), kind, now().toISOString());
      return flow && { data: flow.data as T, expiresAt: flow.expiresAt };
    },
  };
}
