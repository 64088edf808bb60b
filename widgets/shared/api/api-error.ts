import type { FieldIssue } from '../../../clinical/index.ts';

/**
 * A failed call (docs/product.md §7). `message` is "STATUS: BODY_TEXT" (or "STATUS: STATUS_TEXT" when the body
 * is empty); `humanMessage` is what a screen shows (the server's `message` when there is one);
 * `issues` are the field errors of a 400. `kind` tells an HTTP error from a network failure and from
 * an OK answer whose body does not have the agreed shape.
 */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly humanMessage: string,
    readonly issues: readonly FieldIssue[] = [],
    readonly kind: 'http' | 'network' | 'unreadable' = 'http',
    /** The body's `code`, a reason to act on (contracts/errors.ts ERROR_CODES), when it names one. */
    readonly code?: string,
    /** The error body as parsed, for a caller that acts on more than the message (e.g. its `code`). */
    readonly body?: unknown,
  ) {
    super(message);
  }
}

/** What a screen shows for any failure; `fallback` is the screen's own words when the server gave none. */
export function userMessage(error: unknown, fallback?: string): string {
  if (!(error instanceof ApiError)) return fallback ?? String(error);
  if (error.kind === 'unreadable' && fallback) return fallback;
  return error.humanMessage || fallback || error.message;
}

/**
 * A failure that means "no answer from the API" (offline, unreachable): the request got none, or some code
 * the call needed could not be downloaded (anything that is not an ApiError). An HTTP error or an answer of
 * another shape is an answer.
 */
export const isUnreachable = (error: unknown): boolean => !(error instanceof ApiError) || error.kind === 'network';
