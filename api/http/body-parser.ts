import { bodyParser } from '@koa/bodyparser';
import type { Next } from 'koa';
import {
  bodyTooLargeMessage,
  JSON_BODY_MAX_DEPTH,
  JSON_BODY_TYPE_MESSAGE,
  JSON_TOO_DEEP_MESSAGE,
  MALFORMED_JSON_MESSAGE,
  UNSTORABLE_TEXT_MESSAGE,
} from '../messages.ts';
import type { AppContext } from '../state.ts';
import { holdsUnstorableText } from './storable-text.ts';

export const JSON_BODY_LIMIT = '64kb';

/** The methods whose body the parser reads (@koa/bodyparser's default). */
const METHODS_WITH_A_BODY = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Whether JSON text nests arrays and objects more than `maxDepth` deep: one pass over the text, with no
 * recursion, so a body of 30,000 `[` costs a loop, not a stack. Brackets inside strings do not count.
 */
export function nestsDeeperThan(json: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < json.length; index += 1) {
    const code = json.charCodeAt(index);
    if (inString) {
      if (code === 0x5c)
        index += 1; // a backslash: the next character is escaped
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x5b || code === 0x7b) {
      depth += 1;
      if (depth > maxDepth) return true;
    } else if (code === 0x5d || code === 0x7d) {
      depth -= 1;
    }
  }
  return false;
}

/**
 * JSON bodies only, small, parsed strictly; parser failures, and text no store can keep as sent
 * (storable-text.ts), become clear 4xx answers. A POST, PUT or PATCH whose body is of another type
 * (text/plain, a form) answers 415, like the PDF upload's wrong type; a request without a body goes on.
 * Nesting deeper than JSON_BODY_MAX_DEPTH is a 400 before anything walks the parsed value. Any body of
 * a request `leaveUnread` names is not read here (the PDF upload, POST /api/exports, reads its own
 * stream with its own limit and type check).
 */
export function jsonBodyParser(
  options: {
    leaveUnread?: (ctx: AppContext) => boolean;
    /** A DELETE whose body is read as a POST's is (DELETE /api/account carries the password). */
    deleteWithBody?: (ctx: AppContext) => boolean;
  } = {},
) {
  const parse = bodyParser({
    enableTypes: ['json'],
    parsedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'],
    jsonLimit: JSON_BODY_LIMIT,
    jsonStrict: true,
    onError(error, ctx) {
      const status = (error as { status?: number }).status;
      if (status === 413) (ctx as AppContext).throw(413, bodyTooLargeMessage(JSON_BODY_LIMIT));
      if (status === 415) (ctx as AppContext).throw(415, JSON_BODY_TYPE_MESSAGE);
      (ctx as AppContext).throw(400, MALFORMED_JSON_MESSAGE);
    },
  });
  return async function parseJsonBody(ctx: AppContext, next: Next) {
    if (options.leaveUnread?.(ctx)) return next();
    const deleteWithBody = ctx.method === 'DELETE' && Boolean(options.deleteWithBody?.(ctx));
    if (ctx.method === 'DELETE' && !deleteWithBody) return next();
    return parse(ctx, () => {
      // type-is says null when no body is announced; `Content-Length: 0` is no body either. The JSON
      // parser sets rawBody only for a body it read: one of another type was left alone.
      const hasBody = ctx.request.is() !== null && ctx.request.length !== 0;
      const unread = ctx.request.rawBody === undefined;
      if ((METHODS_WITH_A_BODY.has(ctx.method) || deleteWithBody) && hasBody && unread)
        ctx.throw(415, JSON_BODY_TYPE_MESSAGE);
      if (!unread && nestsDeeperThan(ctx.request.rawBody, JSON_BODY_MAX_DEPTH)) ctx.throw(400, JSON_TOO_DEEP_MESSAGE);
      if (holdsUnstorableText(ctx.request.body)) ctx.throw(400, UNSTORABLE_TEXT_MESSAGE);
      return next();
    });
  };
}
