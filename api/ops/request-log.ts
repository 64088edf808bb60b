import { randomUUID } from 'node:crypto';
import type { Next } from 'koa';
import type { Logger } from 'pino';
import type { AppContext } from '../state.ts';
import type { Metrics } from './metrics.ts';

/** An incoming X-Request-Id is logged (as `callerRequestId`) when it is this short and plain. */
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
 * The outermost middleware: gives each request an id of the server's own (a new UUID, whatever the caller sent:
 * the audit trail names requests by it, audit/request-context.ts), answers it as X-Request-Id, and once the answer
 * is sent writes one JSON log line (id, method, route pattern, status, duration) and the request metrics. The
 * caller's own X-Request-Id, when it is plain text, is logged apart as `callerRequestId` (a proxy's id, to find the
 * line by), never as the request's id: a caller cannot make its requests carry another's id.
 */
export function requestLog(deps: { logger: Logger; metrics?: Metrics; routeOf?: RouteOf }) {
  // prom-client hashes a labels object on every call: the children of each method, route and status are
  // made once and kept (a few dozen: routes are patterns, never the URL).
  const children = new Map<string, { count: () => void; observe: (seconds: number) => void }>();
  const metricsOf = (metrics: Metrics, method: string, route: string, status: string) => {
    const key = `${method} ${route} ${status}`;
    let child = children.get(key);
    if (!child) {
      const counter = metrics.requests.labels(method, route, status);
      const histogram = metrics.requestDuration.labels(method, route, status);
      child = { count: () => counter.inc(), observe: (seconds) => histogram.observe(seconds) };
      children.set(key, child);
    }
    return child;
  };
  return async function logRequest(ctx: AppContext, next: Next) {
    const started = process.hrtime.bigint();
    const incoming = ctx.get(REQUEST_ID_HEADER);
    const callerRequestId = REQUEST_ID_PATTERN.test(incoming) ? incoming : undefined;
    const requestId = randomUUID();
    ctx.state.requestId = requestId;
    ctx.set(REQUEST_ID_HEADER, requestId);
    try {
      await next();
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = routeLabel(ctx, deps.routeOf);
      const status = ctx.status;
      if (deps.metrics) {
        const child = metricsOf(deps.metrics, ctx.method, route, String(status));
        child.count();
        child.observe(seconds);
      }
      if (status === 429) deps.metrics?.limiterRefusals.inc({ route });
      if (status === 401 && route === '/api/auth/signin') deps.metrics?.signInFailures.inc();
      deps.logger.info(
        {
          requestId,
          ...(callerRequestId ? { callerRequestId } : {}),
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
