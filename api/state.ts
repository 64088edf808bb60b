import type { ParameterizedContext } from 'koa';
import type { Lang } from '../clinical/index.ts';

/** Per-request state; `auth` is set by `authenticate` when a valid, unrevoked token came with the request. */
export interface AppState {
  auth?: { userId: string; sessionId: string };
  /** The verified token claims, set by koa-jwt. */
  jwt?: unknown;
  /** The request's id (ops/request-log.ts), echoed as X-Request-Id and in its log line. */
  requestId?: string;
  /** Set when the answer is a file of the site (its log and metrics route is `static`). */
  servedFile?: boolean;
  /** The language of the answer's clinical texts and validation messages (http/language.ts); API requests only. */
  lang?: Lang;
  /** The client refused an uncompressed body (Accept-Encoding identity;q=0): compress whatever is sent. */
  identityRefused?: boolean;
}
export type AppContext = ParameterizedContext<AppState>;
