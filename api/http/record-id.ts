import type { AppContext } from '../state.ts';

/** Every record id is made by crypto.randomUUID(): lower-case, version 4, a fixed 36 characters. */
const RECORD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Whether `id` is of the form every record id has (an id of another form names no record: not looked up). */
export const isRecordId = (id: string): boolean => RECORD_ID.test(id);

/**
 * The record id from a URL, or a 404 with the route's usual "not found" message. A malformed id (any
 * length, any text) names no record, so it is refused before it is looked up or written to the audit
 * log: only ids of our own form ever reach the log.
 */
export function recordIdParam(ctx: AppContext, id: string | undefined, notFoundMessage: string): string {
  return id !== undefined && RECORD_ID.test(id) ? id : ctx.throw(404, notFoundMessage);
}
