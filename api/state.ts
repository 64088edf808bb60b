import type { ParameterizedContext } from 'koa';
import type { Lang } from '../clinical/index.ts';
import type { SessionMethod, SessionRecord } from './storage/records.ts';

/** Per-request state; `auth` is set by `authenticate` when a valid, unrevoked token came with the request. */
export interface AppState {
  auth?: { userId: string; sessionId: string; method: SessionMethod };
  /** Set by `authenticate` while it checks a session: how the session was opened. */
  sessionMethod?: SessionMethod;
  /** Why a single sign-on was refused (oidc/routes.ts), or what of a launch failed, for the request's log line. */
  signOnProblem?: string;
  /** REQUIRE_MFA, for the routes' guards (http/access.ts): set before any route runs. */
  requireMfa?: boolean;
  /** Set by `authenticate`: the session the request's token names, once checked. */
  session?: SessionRecord;
  /** Set by `authenticate` when the session it checked had passed the idle limit (and was ended). */
  sessionIdle?: boolean;
  /** The verified token claims, set by koa-jwt. */
  jwt?: unknown;
  /** The request's id, the server's own (ops/request-log.ts): answered as X-Request-Id, in its log and audit lines. */
  requestId?: string;
  /** Set when the answer is a file of the site (its log and metrics route is `static`). */
  servedFile?: boolean;
  /** The language of the answer's clinical texts and validation messages (http/language.ts); API requests only. */
  lang?: Lang;
  /** The client refused an uncompressed body (Accept-Encoding identity;q=0): compress whatever is sent. */
  identityRefused?: boolean;
}
export type AppContext = ParameterizedContext<AppState>;
