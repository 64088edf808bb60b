import type { Next } from 'koa';
import type { AppContext } from '../state.ts';

/**
 * Turns a JSON answer (an object or array body) into its text once, on the way out. Left as an object, Koa
 * stringifies it for `ctx.length` (which compression and Koa itself ask for) and again to send it: two or
 * three JSON.stringify calls per answer, a tenth of a tool run's CPU. The Content-Type Koa set for the
 * object (application/json) stays.
 */
export function jsonOnce() {
  return async function serializeJson(ctx: AppContext, next: Next) {
    await next();
    const body: unknown = ctx.body;
    if (body === null || typeof body !== 'object' || Buffer.isBuffer(body) || ArrayBuffer.isView(body)) return;
    if (typeof (body as { pipe?: unknown }).pipe === 'function' || body instanceof Blob) return;
    if (!Array.isArray(body) && Object.getPrototypeOf(body) !== Object.prototype) return;
    const status = ctx.status;
    ctx.body = JSON.stringify(body);
    ctx.status = status; // setting a body must not change the status (a 201, a 4xx)
  };
}
