import { createHash, randomBytes } from 'node:crypto';
import type { Store } from '../storage/store.ts';

/** A new secret handle for a flow: 32 random bytes, base64url (what the browser or the provider carries). */
export const newHandle = () => randomBytes(32).toString('base64url');

/** The id a flow is stored under: the handle's sha256, so the stored rows alone cannot finish a flow. */
export const flowId = (handle: string) => createHash('sha256').update(handle).digest('base64url');

/** A flow's handle as a request may send it: base64url text of a sane length (else never looked up). */
export const isHandle = (value: unknown): value is string =>
  typeof value === 'string' && /^[A-Za-z0-9_-]{16,128}$/.test(value);

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
    await store.createAuthFlow({ id: flowId(handle), kind, data, createdAt: now().toISOString(), expiresAt });
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
