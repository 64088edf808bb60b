import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import type { Store } from '../storage/store.ts';

/** Request durations in seconds: from a cached static file (~1 ms) to a slow PDF upload. */
const REQUEST_SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const STORE_SECONDS_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];

/** What /metrics shows, in its own registry (one per app, so tests can run several apps). */
export interface Metrics {
  registry: Registry;
  requestDuration: Histogram<'method' | 'route' | 'status'>;
  requests: Counter<'method' | 'route' | 'status'>;
  storeDuration: Histogram<'operation' | 'outcome'>;
  signInFailures: Counter;
  limiterRefusals: Counter<'route'>;
  connectionRefusals: Counter<'reason'>;
}

export function createMetrics(options: { processMetrics?: boolean } = {}): Metrics {
  const registry = new Registry();
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry });
  return {
    registry,
    requestDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer a request, by route pattern and status',
      labelNames: ['method', 'route', 'status'],
      buckets: REQUEST_SECONDS_BUCKETS,
      registers: [registry],
    }),
    requests: new Counter({
      name: 'http_requests_total',
      help: 'Requests answered, by route pattern and status',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    }),
    storeDuration: new Histogram({
      name: 'store_operation_duration_seconds',
      help: 'Time of a storage operation, by operation and outcome',
      labelNames: ['operation', 'outcome'],
      buckets: STORE_SECONDS_BUCKETS,
      registers: [registry],
    }),
    signInFailures: new Counter({
      name: 'sign_in_failures_total',
      help: 'Sign-ins refused for a wrong e-mail or password',
      registers: [registry],
    }),
    limiterRefusals: new Counter({
      name: 'rate_limit_refusals_total',
      help: 'Requests refused with 429 by a rate limit, by route pattern',
      labelNames: ['route'],
      registers: [registry],
    }),
    connectionRefusals: new Counter({
      name: 'connections_refused_total',
      help:
        'Connections closed by a connection limit: reason "address" (MAX_CONNECTIONS_PER_ADDRESS), "total" ' +
        '(MAX_CONNECTIONS), "slow_body" (REQUEST_BODY_MIN_BYTES_PER_SECOND), "no_request" or "timeout"',
      labelNames: ['reason'],
      registers: [registry],
    }),
  };
}

/** The same Store, timing every call into store_operation_duration_seconds. */
/** Store calls answered as an async iterable, a page at a time. */
const STREAMED_OPERATIONS: ReadonlySet<string> = new Set(['calculationsOf'] satisfies (keyof Store)[]);

export function instrumentStore(store: Store, histogram: Metrics['storeDuration']): Store {
  const timed = { ...store } as Record<string, unknown>;
  for (const [operation, value] of Object.entries(store)) {
    // A read that yields as it goes (the account export's history) is not one call to time: left as it is.
    if (typeof value !== 'function' || STREAMED_OPERATIONS.has(operation)) continue;
    timed[operation] = async (...args: unknown[]) => {
      const stop = histogram.startTimer({ operation });
      try {
        // Looked up at call time, so a store method replaced later (a test's fault) is the one timed.
        const method = (store as unknown as Record<string, (...parameters: unknown[]) => Promise<unknown>>)[operation]!;
        const result = await method.apply(store, args);
        stop({ outcome: 'success' });
        return result;
      } catch (error) {
        stop({ outcome: 'error' });
        throw error;
      }
    };
  }
  return timed as unknown as Store;
}
