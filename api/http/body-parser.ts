import { bodyParser } from '@koa/bodyparser';
import type { Next } from 'koa';
import type { AppContext } from '../state.ts';

export const JSON_BODY_LIMIT = '64kb';
export const BODY_TOO_LARGE_MESSAGE = `Request body is too large (the limit is ${JSON_BODY_LIMIT.replace('kb', ' KB')})`;
export const MALFORMED_JSON_MESSAGE = 'The request body is not valid JSON';

/**
 * JSON bodies only, small, parsed strictly; parser failures become clear 4xx answers. A body of any
 * other type is not read here, and neither is any body of a request `leaveUnread` names (the PDF
 * upload, POST /api/exports, reads its own stream with its own limit and type check).
 */
export function jsonBodyParser(options: { leaveUnread?: (ctx: AppContext) => boolean } = {}) {
  const parse = bodyParser({
    enableTypes: ['json'],
    jsonLimit: JSON_BODY_LIMIT,
    jsonStrict: true,
    onError(error, ctx) {
      const status = (error as { status?: number }).status;
      if (status === 413) (ctx as AppContext).throw(413, BODY_TOO_LARGE_MESSAGE);
      if (status === 415) (ctx as AppContext).throw(415, 'Send the body as application/json');
      (ctx as AppContext).throw(400, MALFORMED_JSON_MESSAGE);
    },
  });
  return async function parseJsonBody(ctx: AppContext, next: Next) {
    if (options.leaveUnread?.(ctx)) return next();
    return parse(ctx, next);
  };
}
