import { isRecordId } from '../storage/records.ts';
import type { AppContext } from '../state.ts';

/**
 * The record id from a URL, or a 404 with the route's usual "not found" message. A malformed id (any
 * length, any text) names no record, so it is refused before it is looked up or written to the audit
 * log: only ids of our own form, a fixed 36 characters, ever reach the log.
 */
export function recordIdParam(ctx: AppContext, id: string | undefined, notFoundMessage: string): string {
  return id !== undefined && isRecordId(id) ? id : ctx.throw(404, notFoundMessage);
}
