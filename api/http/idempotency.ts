import { createHash, randomUUID } from 'node:crypto';
import type { Next } from 'koa';
import {
  IDEMPOTENCY_KEY_INVALID_MESSAGE,
  IDEMPOTENCY_KEY_IN_USE_MESSAGE,
  IDEMPOTENCY_KEY_REUSED_MESSAGE,
} from '../messages.ts';
import type { IdempotentAnswer, Store } from '../storage/store.ts';
import type { AppContext } from '../state.ts';

/**
 * Idempotent creation (IETF draft httpapi-idempotency-key-header; docs/API.md#idempotent-writes): a signed-in
 * POST that creates a record may carry `Idempotency-Key`. The same key from the same clinician within
 * IDEMPOTENCY_KEY_TTL_MS answers the first answer again (status and body, so the same record id) and
 * creates nothing; with another request (another body, another route) it is a 422; while the first still
 * runs, a 409. The key and its answer live in the store, so every instance answers alike; the answer is
 * written with the record, all or nothing. An answer other than 2xx keeps nothing: the key may be sent again.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** How long a key is remembered from its first use. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * How long a request may hold its key unanswered before another may take it over (its instance died): twice
 * the longest a request may take to arrive (server.ts REQUEST_TIMEOUT_MS).
 */
export const IDEMPOTENCY_KEY_LOCK_MS = 60_000;
/** Keys kept per clinician: past this, the oldest answered ones are forgotten (600 a minute is the rate limit). */
export const IDEMPOTENCY_KEYS_PER_CLINICIAN = 1_000;
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/**
 * The key as sent: a Structured Field string (`"…"`, RFC 8941, as the draft says) or, as many clients send
 * it, a bare token; 1 to 255 visible ASCII characters. Undefined when it is neither.
 */
export function parseIdempotencyKey(header: string): string | undefined {
  const text = header.trim();
  let key: string;
  if (text.startsWith('"')) {
    const match = /^"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"$/.exec(text);
    if (!match) return undefined;
    key = match[1]!.replace(/\\(["\\])/g, '$1');
  } else {
    if (!/^[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]+$/.test(text)) return undefined;
    key = text;
  }
  return key.length >= 1 && key.length <= IDEMPOTENCY_KEY_MAX_LENGTH && key.trim() === key ? key : undefined;
}

/** JSON with every object's keys sorted: the same body however a client orders its fields. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, field]) => field !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, field]) => `${JSON.stringify(name)}:${canonicalJson(field)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export const sha256 = (...parts: (string | Uint8Array)[]) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\n');
  return hash.digest('hex');
};

/** A JSON request's fingerprint: its route and its parsed body (the language asked for is not part of it). */
export const jsonFingerprint = (route: string) => (ctx: AppContext) =>
  sha256(route, canonicalJson(ctx.request.body ?? null));

interface Held {
  ownerId: string;
  key: string;
  token: string;
  expiresAt: string;
  answered: boolean;
}
const held = new WeakMap<AppContext, Held>();

/**
 * Middleware before a creating route's handler. Without the header, or anonymous, it changes nothing. Else
 * it claims the key, or answers at once: the first answer again, 409 or 422. The handler passes
 * `idempotentAnswer(ctx, status, body)` to the store's write, then `markAnswered(ctx)`; a key the handler
 * did not answer (an error, a refusal) is given up when it ends.
 */
export function idempotentCreate(deps: {
  store: Store;
  now: () => Date;
  fingerprint: (ctx: AppContext) => string | Promise<string>;
}) {
  return async function idempotency(ctx: AppContext, next: Next) {
    const header = ctx.get(IDEMPOTENCY_KEY_HEADER);
    const auth = ctx.state.auth;
    if (!header || !auth) return next();
    const key = parseIdempotencyKey(header);
    if (key === undefined) return ctx.throw(400, IDEMPOTENCY_KEY_INVALID_MESSAGE);
    const fingerprint = await deps.fingerprint(ctx);
    const at = deps.now().getTime();
    const token = randomUUID();
    const expiresAt = new Date(at + IDEMPOTENCY_KEY_TTL_MS).toISOString();
    const claim = await deps.store.claimIdempotencyKey({
      ownerId: auth.userId,
      key,
      fingerprint,
      token,
      at: new Date(at).toISOString(),
      expiresAt,
      lockedUntil: new Date(at + IDEMPOTENCY_KEY_LOCK_MS).toISOString(),
      maxKeys: IDEMPOTENCY_KEYS_PER_CLINICIAN,
    });
    if (claim.kind !== 'claimed' && !claim.sameRequest) return ctx.throw(422, IDEMPOTENCY_KEY_REUSED_MESSAGE);
    if (claim.kind === 'in_progress') {
      ctx.set('Retry-After', '1');
      return ctx.throw(409, IDEMPOTENCY_KEY_IN_USE_MESSAGE);
    }
    if (claim.kind === 'answered') {
      ctx.status = claim.status;
      ctx.body = claim.body;
      return;
    }
    const state: Held = { ownerId: auth.userId, key, token, expiresAt, answered: false };
    held.set(ctx, state);
    try {
      await next();
    } finally {
      if (!state.answered) await deps.store.releaseIdempotencyKey(state.ownerId, key, token);
    }
  };
}

/** What the store writes with the record for this request's key, or undefined when it has none. */
export function idempotentAnswer(ctx: AppContext, status: number, body: unknown): IdempotentAnswer | undefined {
  const state = held.get(ctx);
  return state && { key: state.key, token: state.token, status, body, expiresAt: state.expiresAt };
}

/** The store wrote the record and the key's answer: the key is kept (even if the request fails after). */
export function markAnswered(ctx: AppContext) {
  const state = held.get(ctx);
  if (state) state.answered = true;
}
