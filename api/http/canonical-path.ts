import type { Next } from 'koa';
import { UNMATCHED_MESSAGES } from '../messages.ts';
import type { AppContext } from '../state.ts';
import { isApiPath } from './api-path.ts';

/** A percent-encoded character that never needs encoding (RFC 3986 section 2.3): a letter, a digit, - . _ ~ */
const ENCODED_UNRESERVED = /%(?:[46][1-9A-F]|[57][0-9A]|3[0-9]|2D|2E|5F|7E)/i;

/**
 * The API's paths have one spelling: the one its routes are written in. Any other (a trailing or doubled slash,
 * a percent-encoded letter, `/API/…`) is answered 404 here, before anything else sees it, so that nothing past
 * this point (the routers, the guards of http/access.ts, the rate limits, the log's route) can be reached by a
 * second spelling of a path. The routers match case exactly (http/access.ts apiRouter).
 */
export function isCanonicalApiPath(path: string): boolean {
  if (!path.startsWith('/api')) return false;
  if (path !== '/api' && !path.startsWith('/api/')) return false;
  return !path.endsWith('/') && !path.includes('//') && !ENCODED_UNRESERVED.test(path);
}

export function canonicalApiPath() {
  return async function refuseOtherSpellings(ctx: AppContext, next: Next) {
    if (isApiPath(ctx.path) && !isCanonicalApiPath(ctx.path)) {
      ctx.status = 404;
      ctx.body = { message: UNMATCHED_MESSAGES[404] };
      ctx.set('Cache-Control', 'no-store');
      return;
    }
    await next();
  };
}
