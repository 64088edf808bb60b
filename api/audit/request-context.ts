import { clientAddressForAudit } from '../http/client-address.ts';
import type { AppContext } from '../state.ts';

/** What every audit line written while a request is served carries besides its event. */
export interface AuditRequestContext {
  requestId?: string;
  /** The client's address as the rate limits count it (api/http/client-address.ts). */
  address?: string;
}

/**
 * The request's id (ops/request-log.ts: the server's own, answered as X-Request-Id; never the caller's) and the
 * client's address, for the audit lines the request writes: every `audit.record` names where its line came from,
 * this for a request and null for the jobs and commands (no request). Passed by hand rather than found through an
 * AsyncLocalStorage: on Node 20 that storage hooks every promise the server makes, which was 8% of a Quick
 * Use run's CPU (BENCHMARKS.md, "The cost of a request").
 */
export function auditContext(ctx: AppContext): AuditRequestContext {
  return { requestId: ctx.state.requestId, address: clientAddressForAudit(ctx) };
}
