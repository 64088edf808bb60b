import type { Next } from 'koa';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { TOO_MANY_REQUESTS_MESSAGE } from '../messages.ts';
import type { AppContext } from '../state.ts';
import { consumePoint, tooManyRequests } from './rate-limit.ts';

/**
 * Signed-in requests to the account routes read or write patient data and write an audit line, so
 * one account must not be able to send them without end (a script with a stolen or its own token
 * filling the disk). 600 a minute is ten a second, far above what a clinician's screen sends (search
 * as you type, a history page, a calculation), and each clinician has their own count.
 */
export const MAX_REQUESTS_PER_CLINICIAN_PER_MINUTE = 600;

/**
 * Mounted after authenticate: counts requests that carry a valid session, by clinician. Quick Use is
 * not counted here, and neither is /api/auth/ (it has its own limits per address and account; `me`
 * reads no patient data and logs nothing, and a signed-out session cannot sign out again).
 */
export function clinicianRateLimit(requestsPerMinute = MAX_REQUESTS_PER_CLINICIAN_PER_MINUTE) {
  const limiter = new RateLimiterMemory({ keyPrefix: 'clinician', points: requestsPerMinute, duration: 60 });
  return async function limitClinicianRequests(ctx: AppContext, next: Next) {
    const auth = ctx.state.auth;
    if (auth && !ctx.path.startsWith('/api/auth/')) {
      const rate = await consumePoint(limiter, auth.userId);
      if (rate.limited) tooManyRequests(ctx, rate.retryAfterSeconds, TOO_MANY_REQUESTS_MESSAGE);
    }
    await next();
  };
}
