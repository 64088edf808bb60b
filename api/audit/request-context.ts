import { AsyncLocalStorage } from 'node:async_hooks';
import type { Next } from 'koa';
import { clientAddress } from '../http/client-address.ts';
import type { AppContext } from '../state.ts';

/** What every audit line written while a request is served carries besides its event. */
export interface AuditRequestContext {
  requestId?: string;
  /** The client's address as the rate limits count it (api/http/client-address.ts). */
  address?: string;
}

const storage = new AsyncLocalStorage<AuditRequestContext>();

/** The context of the request being served, if any (the maintenance job and the commands have none). */
export function currentAuditContext(): AuditRequestContext | undefined {
  return storage.getStore();
}

/**
 * Runs the rest of the request inside its audit context, so that a route's `audit.record({ … })` is
 * stamped with the request id (ops/request-log.ts, the X-Request-Id answered) and the client address
 * without every call passing them: a new kind of audit line gets them too.
 */
export function auditRequestContext() {
  return function withAuditContext(ctx: AppContext, next: Next) {
    return storage.run({ requestId: ctx.state.requestId, address: clientAddress(ctx) }, next);
  };
}
