import { CHANGES_OBJECT_MESSAGE, JSON_BODY_TYPE_MESSAGE } from '../messages.ts';
import type { AppContext } from '../state.ts';

/**
 * The parsed body of a request whose fields are all optional (a PATCH). Such a schema accepts an
 * empty object, and the body parser turns a body it does not read (another type, or none) into
 * one, so without this check a form, an empty body or `[]` would be a successful change of nothing.
 */
export function jsonObjectBody(ctx: AppContext): Record<string, unknown> {
  // type-is says null when no body is announced; `Content-Length: 0` is no body either.
  const hasBody = ctx.request.is() !== null && ctx.request.length !== 0;
  // The JSON parser sets rawBody only for a body it read: a body of another type was left alone.
  if (hasBody && ctx.request.rawBody === undefined) return ctx.throw(415, JSON_BODY_TYPE_MESSAGE);
  const body: unknown = ctx.request.body;
  if (!ctx.request.rawBody?.trim() || typeof body !== 'object' || body === null || Array.isArray(body)) {
    return ctx.throw(400, CHANGES_OBJECT_MESSAGE);
  }
  return body as Record<string, unknown>;
}
