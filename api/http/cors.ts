import cors from '@koa/cors';
import type { Context } from 'koa';

/**
 * CORS for the origins listed in ALLOWED_ORIGINS only. @koa/cors with `credentials: true` echoes
 * any origin unless given a function (docs/engineering-notes.md#cross-origin-api-calls), so the function checks the
 * list;
 * an origin not listed gets no CORS headers at all. Mounted before authentication so preflights
 * and 401s carry the headers a listed origin needs to read them.
 */
export function corsAllowList(allowedOrigins: readonly string[]) {
  const allowed = new Set(allowedOrigins);
  return cors({
    origin: (ctx: Context) => {
      const origin = ctx.get('Origin');
      return allowed.has(origin) ? origin : '';
    },
    credentials: true,
    allowMethods: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'],
    allowHeaders: ['Content-Type', 'Authorization', 'Idempotency-Key'],
    exposeHeaders: ['Retry-After', 'Content-Disposition'],
    maxAge: 600,
  });
}
