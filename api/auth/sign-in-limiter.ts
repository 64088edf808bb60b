import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import {
  type IRateLimiterOptions,
  RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterPostgres,
} from 'rate-limiter-flexible';
import { consumePoint, retryAfterSeconds, type LimitCheck } from '../http/rate-limit.ts';

// docs/engineering-notes.md#auth: ~10 failures per account in 15 min → 429 for a while. Per address the
// limit is coarser (a hospital shares one address), and successful sign-ups and sign-ins are never
// limited below 60 a minute per address.
export const MAX_FAILURES_PER_ACCOUNT = 10;
export const MAX_FAILURES_PER_ADDRESS = 50;
export const FAILURE_WINDOW_SECONDS = 15 * 60;
export const MAX_AUTH_REQUESTS_PER_ADDRESS_PER_MINUTE = 300;
/**
 * An address past MAX_FAILURES_PER_ADDRESS is slowed, never locked out (a whole hospital behind one NAT must not
 * be locked out by one clinician's typos, or by anyone): its sign-in attempts go one at a time, each after waiting
 * this long; one that would wait longer than SLOW_DOWN_MAX_WAIT_MS (a flood) is a 429 for those seconds instead.
 */
export const SLOW_DOWN_SPACING_MS = 2000;
export const SLOW_DOWN_MAX_WAIT_MS = 20_000;

export interface SignInLimiter {
  /**
   * Before the password (or a second factor): a 429 answer while the account is locked out; for an address past
   * its failure limit, resolves once it is this attempt's turn (a 429 answer when that would take too long).
   */
  checkSignIn(email: string, address: string): Promise<LimitCheck>;
  recordFailure(email: string, address: string): Promise<void>;
  recordSuccess(email: string): Promise<void>;
  /** Counts one sign-up or sign-in request from an address. */
  checkRequestRate(address: string): Promise<LimitCheck>;
}

export interface SignInLimiterOptions extends Partial<
  Record<'perAccount' | 'perAddress' | 'requestsPerMinute', number>
> {
  /** How an address past its failure limit is slowed (default SLOW_DOWN_SPACING_MS and SLOW_DOWN_MAX_WAIT_MS). */
  slowDown?: { spacingMs: number; maxWaitMs: number };
  /**
   * Counts kept in PostgreSQL (the table `tableName`, made by a migration), so that every instance
   * sharing the database counts the same failures. Without it, counts are this process's own.
   */
  postgres?: { pool: Pool; tableName: string };
}

/**
 * A limiter over the shared table, or in memory. If the database does not answer, the shared one
 * falls back to counting in this process (its insurance limiter) rather than letting everyone in
 * or locking everyone out.
 */
function limiterFor(options: IRateLimiterOptions, postgres: SignInLimiterOptions['postgres']): RateLimiterAbstract {
  if (!postgres) return new RateLimiterMemory(options);
  return new RateLimiterPostgres({
    ...options,
    storeClient: postgres.pool,
    storeType: 'pool',
    tableName: postgres.tableName,
    tableCreated: true,
    clearExpiredByTimeout: true,
    insuranceLimiter: new RateLimiterMemory(options),
  });
}

/**
 * The per-account count is kept under the e-mail's SHA-256, never the e-mail: the counts' table
 * (rate_limits) then holds no one's address, not even of an account deleted since or of an e-mail
 * someone merely typed (docs/API.md#my-data: nothing of a deleted account outside the audit trail).
 */
const accountKey = (email: string) => createHash('sha256').update(email.trim().toLowerCase(), 'utf8').digest('hex');

export function createSignInLimiter(options: SignInLimiterOptions = {}): SignInLimiter {
  const make = (limits: IRateLimiterOptions) => limiterFor(limits, options.postgres);
  const perAccount = make({
    keyPrefix: 'account',
    points: options.perAccount ?? MAX_FAILURES_PER_ACCOUNT,
    duration: FAILURE_WINDOW_SECONDS,
  });
  const perAddress = make({
    keyPrefix: 'address',
    points: options.perAddress ?? MAX_FAILURES_PER_ADDRESS,
    duration: FAILURE_WINDOW_SECONDS,
  });
  const requests = make({
    keyPrefix: 'requests',
    points: options.requestsPerMinute ?? MAX_AUTH_REQUESTS_PER_ADDRESS_PER_MINUTE,
    duration: 60,
  });

  const exhausted = async (limiter: RateLimiterAbstract, key: string): Promise<LimitCheck> => {
    const state = await limiter.get(key);
    if (state && state.consumedPoints >= limiter.points)
      return { limited: true, retryAfterSeconds: retryAfterSeconds(state.msBeforeNext) };
    return { limited: false };
  };

  // The turns of slowed addresses, in this process: when each address's next attempt may go (ms since the epoch).
  const { spacingMs, maxWaitMs } = options.slowDown ?? {
    spacingMs: SLOW_DOWN_SPACING_MS,
    maxWaitMs: SLOW_DOWN_MAX_WAIT_MS,
  };
  const turns = new Map<string, number>();
  const waitTurn = async (address: string): Promise<LimitCheck> => {
    const now = Date.now();
    if (turns.size > 10_000) for (const [key, at] of turns) if (at <= now) turns.delete(key);
    const at = Math.max(now, turns.get(address) ?? 0) + spacingMs;
    if (at - now > maxWaitMs) return { limited: true, retryAfterSeconds: retryAfterSeconds(at - now - maxWaitMs) };
    turns.set(address, at);
    await new Promise((resolve) => setTimeout(resolve, at - now));
    return { limited: false };
  };

  return {
    async checkSignIn(email, address) {
      const account = await exhausted(perAccount, accountKey(email));
      if (account.limited) return account;
      return (await exhausted(perAddress, address)).limited ? waitTurn(address) : { limited: false };
    },
    async recordFailure(email, address) {
      await consumePoint(perAccount, accountKey(email));
      await consumePoint(perAddress, address);
    },
    async recordSuccess(email) {
      await perAccount.delete(accountKey(email));
    },
    checkRequestRate: (address) => consumePoint(requests, address),
  };
}
