import type { KeyObject } from 'node:crypto';
import type { Next } from 'koa';
import koaJwt from 'koa-jwt';
import { ERROR_CODES } from '../../contracts/errors.ts';
import { SESSION_INVALID_MESSAGE, sessionIdleMessage, SIGN_IN_REQUIRED_MESSAGE } from '../messages.ts';
import type { AuditLog } from '../storage/audit-log.ts';
import type { SessionMethod } from '../storage/records.ts';
import type { Store } from '../storage/store.ts';
import type { AppContext } from '../state.ts';
import { isIdle, shouldTouch } from './session-activity.ts';
import { TOKEN_ALGORITHM, TOKEN_AUDIENCE, TOKEN_ISSUER } from './tokens.ts';
import { auditContext } from '../audit/request-context.ts';

/**
 * The one request that does not count as use of its session: the browser asking when its session will end
 * (`GET /api/auth/session`), so that asking never keeps an unattended session alive.
 */
export const SESSION_STATUS_PATH = '/api/auth/session';

interface TokenClaims {
  sid: string;
  sub: string;
}
const isTokenClaims = (value: unknown): value is TokenClaims =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as TokenClaims).sid === 'string' &&
  typeof (value as TokenClaims).sub === 'string';

/**
 * Requests without an Authorization header go on anonymously (Quick Use). A request with one must
 * carry a valid HS256 token of ours whose session is still open: koa-jwt checks the signature,
 * algorithm, expiry, issuer and audience, and `isRevoked` checks the session on every request: not
 * ended, not past its 12 hours, and used within the idle limit (`idleMinutes`). A session found idle is
 * ended there and then (an audit line `session.idle_timeout`) and the answer is a 401 saying so, with
 * `code: "session_idle"`. A request that passes is recorded as the session's last use, at most about once a
 * minute (auth/session-activity.ts).
 */
export function authenticate(deps: {
  key: KeyObject;
  store: Store;
  now: () => Date;
  idleMinutes: number;
  audit: AuditLog;
}) {
  const idleMs = deps.idleMinutes * 60_000;
  // jsonwebtoken reads `clockTimestamp`; koa-jwt's types do not list the options it passes through.
  const options: koaJwt.Options & { readonly clockTimestamp: number } = {
    secret: deps.key as unknown as string, // koa-jwt's types say string; jsonwebtoken takes a KeyObject
    algorithms: [TOKEN_ALGORITHM],
    issuer: TOKEN_ISSUER,
    audience: TOKEN_AUDIENCE,
    key: 'jwt',
    // Expiry is judged by the app's clock, the one that issued the token and dates the sessions
    // (koa-jwt hands these options to jsonwebtoken on every request, so the getter runs each time).
    get clockTimestamp() {
      return Math.floor(deps.now().getTime() / 1000);
    },
    isRevoked: async (ctx, claims) => {
      if (!isTokenClaims(claims)) return true;
      try {
        const session = await deps.store.findSession(claims.sid);
        if (!session || session.revokedAt || session.userId !== claims.sub) return true;
        const at = deps.now();
        if (Date.parse(session.expiresAt) <= at.getTime()) return true;
        if (isIdle(session.lastUsedAt, at, idleMs)) {
          await deps.store.revokeSession(session.id, at.toISOString());
          await deps.audit.record(
            {
              actor: session.userId,
              action: 'session.idle_timeout',
              recordType: 'session',
              recordId: session.id,
              outcome: 'success',
            },
            auditContext(ctx),
          );
          (ctx as AppContext).state.sessionIdle = true;
          return true;
        }
        // An account erased, or disabled while its deletion waits out the grace period, has no session.
        const user = await deps.store.findUserById(claims.sub);
        if (!user || user.deletion) return true;
        (ctx as AppContext).state.sessionMethod = session.method;
        (ctx as AppContext).state.session = session;
        const probe = ctx.method === 'GET' && ctx.path === SESSION_STATUS_PATH;
        if (!probe && shouldTouch(session.lastUsedAt, at, idleMs))
          await deps.store.touchSession(session.id, at.toISOString());
        return false;
      } catch (error) {
        throw new SessionCheckFailed(error);
      }
    },
  };
  const verifyToken = koaJwt(options);

  return async function authenticateRequest(ctx: AppContext, next: Next) {
    if (!ctx.get('Authorization')) return next();
    try {
      await verifyToken(ctx, async () => {
        const claims = ctx.state.jwt as TokenClaims;
        ctx.state.auth = {
          userId: claims.sub,
          sessionId: claims.sid,
          method: ctx.state.sessionMethod ?? 'password',
        };
        await next();
      });
    } catch (error) {
      const original = (error as { originalError?: unknown }).originalError;
      if (original instanceof SessionCheckFailed) throw original.cause; // a storage failure is a 500, not a sign-out
      if (isJwtRejection(error) && ctx.state.sessionIdle)
        ctx.throw(401, sessionIdleMessage(deps.idleMinutes), { code: ERROR_CODES.sessionIdle });
      if (isJwtRejection(error)) ctx.throw(401, SESSION_INVALID_MESSAGE);
      throw error;
    }
  };
}

/** Storage failed while checking a session: koa-jwt would report it as a bad token. */
class SessionCheckFailed extends Error {
  constructor(cause: unknown) {
    super('Session check failed', { cause });
  }
}

/** koa-jwt's own 401s carry the verification error as `originalError`, or come from its header parser. */
function isJwtRejection(error: unknown): boolean {
  const candidate = error as { status?: number; originalError?: unknown; message?: string };
  return (
    candidate?.status === 401 &&
    (candidate.originalError !== undefined || /Authorization header/.test(candidate.message ?? ''))
  );
}

/** The caller's identity, or a 401 for anonymous requests to account routes. */
export function requireAuth(ctx: AppContext): { userId: string; sessionId: string; method: SessionMethod } {
  return ctx.state.auth ?? ctx.throw(401, SIGN_IN_REQUIRED_MESSAGE);
}
