import { randomUUID, type KeyObject } from 'node:crypto';
import Router from '@koa/router';
import type { User } from '../../contracts/auth.ts';
import type { AuditLog } from '../storage/audit-log.ts';
import type { UserRecord } from '../storage/records.ts';
import type { Store } from '../storage/store.ts';
import type { AppContext, AppState } from '../state.ts';
import { tooManyRequests } from '../http/rate-limit.ts';
import { validate } from '../http/validate.ts';
import {
  DUPLICATE_EMAIL_MESSAGE,
  INVALID_CREDENTIALS_MESSAGE,
  SESSION_INVALID_MESSAGE,
  signInLockedMessage,
  TOO_MANY_FROM_ADDRESS_MESSAGE,
} from '../messages.ts';
import { requireAuth } from './authenticate.ts';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './passwords.ts';
import { SIGNIN_FIELD_ORDER, SIGNUP_FIELD_ORDER, signinSchema, signupSchema } from './schemas.ts';
import type { SignInLimiter } from './sign-in-limiter.ts';
import { signSessionToken, TOKEN_TTL_SECONDS } from './tokens.ts';

/** The user as the API shows it: never the password hash. */
export function publicUser(user: UserRecord): User {
  return { id: user.id, email: user.email, name: user.name, license: user.license };
}

interface AuthDeps {
  store: Store;
  audit: AuditLog;
  key: KeyObject;
  limiter: SignInLimiter;
  now: () => Date;
}

export function authRoutes(deps: AuthDeps): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/auth' });

  const openSession = async (ctx: AppContext, user: UserRecord) => {
    const issuedAt = deps.now();
    const session = {
      id: randomUUID(),
      userId: user.id,
      createdAt: issuedAt.toISOString(),
      expiresAt: new Date(issuedAt.getTime() + TOKEN_TTL_SECONDS * 1000).toISOString(),
      revokedAt: null,
    };
    await deps.store.createSession(session);
    return {
      token: signSessionToken(deps.key, { userId: user.id, sessionId: session.id }, issuedAt),
      user: publicUser(user),
    };
  };

  router.post('/signup', async (ctx) => {
    const rate = await deps.limiter.checkRequestRate(ctx.ip);
    if (rate.limited) tooManyRequests(ctx, rate.retryAfterSeconds, TOO_MANY_FROM_ADDRESS_MESSAGE);
    const input = validate(ctx, signupSchema, ctx.request.body, SIGNUP_FIELD_ORDER);
    const user: UserRecord = {
      id: randomUUID(),
      email: input.email,
      name: input.name,
      license: input.license ?? null,
      passwordHash: await hashPassword(input.password),
      createdAt: deps.now().toISOString(),
    };
    if ((await deps.store.createUser(user)) === 'duplicate_email') ctx.throw(409, DUPLICATE_EMAIL_MESSAGE);
    await deps.audit.record({
      actor: user.id,
      action: 'user.signup',
      recordType: 'user',
      recordId: user.id,
      outcome: 'success',
    });
    ctx.status = 201;
    ctx.body = await openSession(ctx, user);
  });

  router.post('/signin', async (ctx) => {
    const rate = await deps.limiter.checkRequestRate(ctx.ip);
    if (rate.limited) tooManyRequests(ctx, rate.retryAfterSeconds, TOO_MANY_FROM_ADDRESS_MESSAGE);
    const input = validate(ctx, signinSchema, ctx.request.body, SIGNIN_FIELD_ORDER);
    const lock = await deps.limiter.checkSignIn(input.email, ctx.ip);
    if (lock.limited) {
      await deps.audit.record({ actor: 'anonymous', action: 'user.signin', outcome: 'denied' });
      tooManyRequests(ctx, lock.retryAfterSeconds, signInLockedMessage(lock.retryAfterSeconds));
    }
    const user = await deps.store.findUserByEmail(input.email);
    const valid = user
      ? await verifyPassword(user.passwordHash, input.password)
      : await verifyAgainstDummy(input.password);
    if (!user || !valid) {
      await deps.limiter.recordFailure(input.email, ctx.ip);
      await deps.audit.record({ actor: user?.id ?? 'anonymous', action: 'user.signin', outcome: 'failure' });
      return ctx.throw(401, INVALID_CREDENTIALS_MESSAGE);
    }
    await deps.limiter.recordSuccess(input.email);
    const body = await openSession(ctx, user);
    await deps.audit.record({
      actor: user.id,
      action: 'user.signin',
      recordType: 'user',
      recordId: user.id,
      outcome: 'success',
    });
    ctx.body = body;
  });

  router.get('/me', async (ctx) => {
    const { userId } = requireAuth(ctx);
    const user = await deps.store.findUserById(userId);
    if (!user) return ctx.throw(401, SESSION_INVALID_MESSAGE);
    ctx.body = publicUser(user);
  });

  router.post('/signout', async (ctx) => {
    const { userId, sessionId } = requireAuth(ctx);
    await deps.store.revokeSession(sessionId, deps.now().toISOString());
    await deps.audit.record({
      actor: userId,
      action: 'user.signout',
      recordType: 'session',
      recordId: sessionId,
      outcome: 'success',
    });
    ctx.status = 204;
  });

  return router;
}
