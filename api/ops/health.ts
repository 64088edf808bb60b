import { timingSafeEqual } from 'node:crypto';
import Router from '@koa/router';
import type { AuditLog } from '../storage/audit-log.ts';
import type { Store } from '../storage/store.ts';
import type { AppState } from '../state.ts';
import type { Metrics } from './metrics.ts';

/** /readyz answers 503 when the store has not answered within this long. */
export const READY_TIMEOUT_MS = 1_000;

/** Whether the process has begun to stop (set by server.ts on SIGTERM). */
export interface Lifecycle {
  readonly stopping: boolean;
}

/** Resolves with how it went: the store's ping within `timeoutMs`, its failure, or the time running out. */
async function pingWithin(store: Store, timeoutMs: number): Promise<'ok' | 'error' | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    return await Promise.race([store.ping().then(() => 'ok' as const), timeout]);
  } catch {
    return 'error';
  } finally {
    clearTimeout(timer);
  }
}

const tokensMatch = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * For the load balancer and the monitoring: /healthz (the process serves), /readyz (it can do its
 * work: the store answers, and it is not stopping) and /metrics (Prometheus text, only with
 * METRICS_TOKEN as a bearer token; without METRICS_TOKEN it does not exist). None needs a session.
 */
export function operationsRoutes(deps: {
  store: Store;
  /** Its tampering (lines found changed outside the server) is said in /readyz's detail, not its status. */
  audit?: Pick<AuditLog, 'tampering'>;
  lifecycle?: Lifecycle;
  metrics?: Metrics;
  metricsToken?: string;
}): Router<AppState> {
  const router = new Router<AppState>();
  router.use(async (ctx, next) => {
    ctx.set('Cache-Control', 'no-store');
    await next();
  });
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    if (deps.lifecycle?.stopping) {
      ctx.status = 503;
      ctx.body = { status: 'unavailable', reason: 'shutting down' };
      return;
    }
    const ping = await pingWithin(deps.store, READY_TIMEOUT_MS);
    if (ping === 'ok') {
      // Tampering with the audit trail is for the monitoring to see and a person to investigate: the instance can
      // still serve, so the status stays ready.
      const tampering = await deps.audit?.tampering().catch(() => undefined);
      ctx.body = tampering ? { status: 'ready', audit: `tampering found: ${tampering}` } : { status: 'ready' };
      return;
    }
    ctx.status = 503;
    ctx.body = {
      status: 'unavailable',
      reason: ping === 'timeout' ? `storage did not answer within ${READY_TIMEOUT_MS} ms` : 'storage is not answering',
    };
  });
  if (deps.metrics && deps.metricsToken) {
    const { registry } = deps.metrics;
    const token = deps.metricsToken;
    router.get('/metrics', async (ctx) => {
      // As the API reads its bearer tokens (RFC 7235: the scheme in any case), and nothing after the token.
      const given = /^bearer +(\S+)$/i.exec(ctx.get('Authorization').trim())?.[1];
      if (!given || !tokensMatch(given, token)) {
        ctx.set('WWW-Authenticate', 'Bearer');
        ctx.throw(401, 'Metrics need the METRICS_TOKEN as a bearer token');
      }
      ctx.type = registry.contentType;
      ctx.body = await registry.metrics();
    });
  }
  return router;
}
