import { randomUUID } from 'node:crypto';
import type { Next } from 'koa';
import type { Logger } from 'pino';
import type { AppContext } from '../state.ts';
import type { Metrics } from './metrics.ts';

/** An incoming X-Request-Id is kept when it is this short and plain (it goes into logs and headers). */
const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;
export const REQUEST_ID_HEADER = 'X-Request-Id';

/**
 * The route pattern a request matched (`/api/patients/:id`), never the URL it named: paths hold
 * record ids and queries hold search text (patient names). Files of the site are `static`; a path
 * nothing answered is `unmatched`.
 */
export function routeLabel(ctx: AppContext, routeOf?: RouteOf): string {
  const matched = (ctx as AppContext & { _matchedRoute?: string | RegExp })._matchedRoute;
  if (typeof matched === 'string') return matched;
  if (ctx.state.servedFile) return 'static';
  // Answered before routing (a rate limit, a bad token): the route it was for.
  return routeOf?.(ctx.path, ctx.method) ?? 'unmatched';
}

/** The pattern of the route that answers this path and method, if any. */
export type RouteOf = (path: string, method: string) => string | undefined;

/**
 * The outermost middleware: gives each request an id (the caller's X-Request-Id when it is plain
 * text, else a new one), echoes it in the response, and once the answer is sent writes one JSON log
 * line (id, method, route pattern, status, duration) and the request metrics.
 */
export function requestLog(deps: { logger: Logger; metrics?: Metrics; routeOf?: RouteOf }) {
  return async function logRequest(ctx: AppContext, next: Next) {
    const started = process.hrtime.bigint();
    const incoming = ctx.get(REQUEST_ID_HEADER);
    const requestId = REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set(REQUEST_ID_HEADER, requestId);
    try {
      await next();
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = routeLabel(ctx, deps.routeOf);
      const status = ctx.status;
      const labels = { method: ctx.method, route, status: String(status) };
      deps.metrics?.requests.inc(labels);
      deps.metrics?.requestDuration.observe(labels, seconds);
      if (status === 429) deps.metrics?.limiterRefusals.inc({ route });
      if (status === 401 && route === '/api/auth/signin') deps.metrics?.signInFailures.inc();
      deps.logger.info(
        {
          requestId,
          method: ctx.method,
          route,
          status,
          durationMs: Math.round(seconds * 1e4) / 10,
          // Why a single sign-on was refused (what the provider or a check said; never a token).
          ...(ctx.state.signOnProblem ? { signOnProblem: ctx.state.signOnProblem } : {}),
        },
        'request',
      );
    }
  };
}
