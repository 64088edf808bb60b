import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import type { AppContext } from '../state.ts';

export type LimitCheck = { limited: false } | { limited: true; retryAfterSeconds: number };

/** Whole seconds until the next point is free: at least 1, so a refused client never retries at once. */
export const retryAfterSeconds = (msBeforeNext: number): number => Math.max(1, Math.ceil(msBeforeNext / 1000));

/** Spends one of `key`'s points; when none is left, says how long until one is. */
export async function consumePoint(limiter: RateLimiterAbstract, key: string): Promise<LimitCheck> {
  try {
    await limiter.consume(key);
    return { limited: false };
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    return { limited: true, retryAfterSeconds: retryAfterSeconds(rejection.msBeforeNext) };
  }
}

/** Every rate limit's answer: 429 with Retry-After (seconds) and the limit's message. */
export function tooManyRequests(ctx: AppContext, seconds: number, message: string): never {
  ctx.set('Retry-After', String(seconds));
  return ctx.throw(429, message);
}
