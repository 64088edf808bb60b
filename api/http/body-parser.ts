import { bodyParser } from '@koa/bodyparser';
import type { Next } from 'koa';
import {
  bodyTooLargeMessage,
  JSON_BODY_TYPE_MESSAGE,
  MALFORMED_JSON_MESSAGE,
  UNSTORABLE_TEXT_MESSAGE,
} from '../messages.ts';
import type { AppContext } from '../state.ts';
import { holdsUnstorableText } from './storable-text.ts';

export const JSON_BODY_LIMIT = '64kb';

/**
 * JSON bodies only, small, parsed strictly; parser failures, and text no store can keep as sent
 * (storable-text.ts), become clear 4xx answers. A body of any
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
      if (status === 413) (ctx as AppContext).throw(413, bodyTooLargeMessage(JSON_BODY_LIMIT));
      if (status === 415) (ctx as AppContext).throw(415, JSON_BODY_TYPE_MESSAGE);
      (ctx as AppContext).throw(400, MALFORMED_JSON_MESSAGE);
    },
  });
  return async function parseJsonBody(ctx: AppContext, next: Next) {
    if (options.leaveUnread?.(ctx)) return next();
    return parse(ctx, () => {
      if (holdsUnstorableText(ctx.request.body)) ctx.throw(400, UNSTORABLE_TEXT_MESSAGE);
      return next();
    });
  };
}
