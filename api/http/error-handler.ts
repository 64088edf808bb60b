import type { Next } from 'koa';
import { BAD_REQUEST_MESSAGE, INTERNAL_ERROR_MESSAGE } from '../messages.ts';
import type { AppContext } from '../state.ts';

interface HttpLikeError {
  status?: number;
  statusCode?: number;
  expose?: boolean;
  message?: string;
  issues?: unknown;
  /** A machine-readable reason beside the message (contracts/errors.ts), e.g. `session_idle`. */
  code?: unknown;
  /** More of the answer beside the message, for a client that acts on it (e.g. `{ code, eraseAfter }`). */
  answer?: Record<string, unknown>;
}

/**
 * The first middleware: every error becomes JSON `{ message, issues?, code? }` (and an `answer`'s fields).
 * Client errors (4xx, unless `expose: false`) show their message. A 5xx shows its own status and message only
 * when it was thrown with `expose: true`: a documented answer about another system (502 the EHR refused a
 * write, 504 it did not answer), which the server did not fail at. Anything else is a 500 whose details stay
 * in the server log.
 */
export function errorHandler(log: (error: unknown) => void = (error) => console.error(error)) {
  return async function handleErrors(ctx: AppContext, next: Next) {
    try {
      await next();
    } catch (caught) {
      const error = (caught ?? {}) as HttpLikeError;
      const status = error.status ?? error.statusCode ?? 500;
      const isClientError = status >= 400 && status < 500 && error.expose !== false;
      const isExposedUpstream = status >= 500 && status < 600 && error.expose === true && Boolean(error.message);
      const shown = isClientError || isExposedUpstream;
      if (!shown) log(caught);
      ctx.status = shown ? status : 500;
      ctx.body = shown
        ? {
            message: error.message || BAD_REQUEST_MESSAGE,
            ...(Array.isArray(error.issues) ? { issues: error.issues } : {}),
            ...(typeof error.code === 'string' && /^[a-z_]{1,40}$/.test(error.code) ? { code: error.code } : {}),
            ...(typeof error.answer === 'object' && error.answer !== null ? error.answer : {}),
          }
        : { message: INTERNAL_ERROR_MESSAGE };
      ctx.type = 'application/json';
    }
  };
}
