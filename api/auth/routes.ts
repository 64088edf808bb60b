import { randomUUID, type KeyObject } from 'node:crypto';
import Router from '@koa/router';
import type { User } from '../../contracts/auth.ts';
import type { AuditLog } from '../storage/audit-log.ts';
import type { UserRecord } from '../storage/records.ts';
import type { Store } from '../storage/store.ts';
import type { AppContext, AppState } from '../state.ts';
import { clientAddress } from '../http/client-address.ts';
import { tooManyRequests } from '../http/rate-limit.ts';
import { validate } from '../http/validate.ts';
import { ACCOUNT_DELETION_PENDING_CODE } from '../../contracts/auth.ts';
import {
  ACCOUNT_DELETION_PENDING_MESSAGE,
  CURRENT_PASSWORD_WRONG_MESSAGE,
  DUPLICATE_EMAIL_MESSAGE,
  INVALID_CREDENTIALS_MESSAGE,
  NEW_PASSWORD_UNCHANGED_MESSAGE,
  SESSION_INVALID_MESSAGE,
  signInLockedMessage,
  TOO_MANY_FROM_ADDRESS_MESSAGE,
} from '../messages.ts';
import { requireAuth } from './authenticate.ts';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './passwords.ts';
import {
  PASSWORD_CHANGE_FIELD_ORDER,
  passwordChangeSchema,
  SIGNIN_FIELD_ORDER,
  SIGNUP_FIELD_ORDER,
  signinSchema,
  signupSchema,
} from './schemas.ts';
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
    const rate = await deps.limiter.checkRequestRate(clientAddress(ctx));
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
    const address = clientAddress(ctx);
    const rate = await deps.limiter.checkRequestRate(address);
    if (rate.limited) tooManyRequests(ctx, rate.retryAfterSeconds, TOO_MANY_FROM_ADDRESS_MESSAGE);
    const input = validate(ctx, signinSchema, ctx.request.body, SIGNIN_FIELD_ORDER);
    const lock = await deps.limiter.checkSignIn(input.email, address);
    if (lock.limited) {
      await deps.audit.record({ actor: 'anonymous', action: 'user.signin', outcome: 'denied' });
      tooManyRequests(ctx, lock.retryAfterSeconds, signInLockedMessage(lock.retryAfterSeconds));
    }
    const user = await deps.store.findUserByEmail(input.email);
    const valid = user
      ? await verifyPassword(user.passwordHash, input.password)
      : await verifyAgainstDummy(input.password);
    if (!user || !valid) {
      await deps.limiter.recordFailure(input.email, address);
      await deps.audit.record({ actor: user?.id ?? 'anonymous', action: 'user.signin', outcome: 'failure' });
      return ctx.throw(401, INVALID_CREDENTIALS_MESSAGE);
    }
    await deps.limiter.recordSuccess(input.email);
    if (user.deletion) {
      // Disabled while its deletion waits out the grace period (docs/API.md#my-data): signing in offers to
      // cancel it, and only with cancelDeletion does the account come back into use.
      if (!input.cancelDeletion) {
        await deps.audit.record({
          actor: user.id,
          action: 'user.signin',
          recordType: 'user',
          recordId: user.id,
          outcome: 'denied',
        });
        return ctx.throw(403, ACCOUNT_DELETION_PENDING_MESSAGE, {
          answer: { code: ACCOUNT_DELETION_PENDING_CODE, eraseAfter: user.deletion.eraseAfter },
        });
      }
      await deps.store.cancelErasure(user.id);
      await deps.audit.record({
        actor: user.id,
        action: 'account.deletion_cancel',
        recordType: 'user',
        recordId: user.id,
        outcome: 'success',
      });
    }
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

  /**
   * A new password, after a leak or on a schedule: the caller's current one must be given, and a wrong
   * one counts as a failed sign-in of the account and the address (so the same lock-out stops a
   * guesser holding a stolen session). The new hash and the end of every other session of the account
   * are one write, so on every instance sharing the store those sessions are refused from the next
   * request; the session making the change goes on.
   */
  router.post('/password', async (ctx) => {
    const { userId, sessionId } = requireAuth(ctx);
    const address = clientAddress(ctx);
    const rate = await deps.limiter.checkRequestRate(address);
    if (rate.limited) tooManyRequests(ctx, rate.retryAfterSeconds, TOO_MANY_FROM_ADDRESS_MESSAGE);
    const input = validate(ctx, passwordChangeSchema, ctx.request.body, PASSWORD_CHANGE_FIELD_ORDER);
    const user = await deps.store.findUserById(userId);
    if (!user) return ctx.throw(401, SESSION_INVALID_MESSAGE);
    const audit = (outcome: 'success' | 'failure' | 'denied') =>
      deps.audit.record({
        actor: userId,
        action: 'user.password_change',
        recordType: 'user',
        recordId: userId,
        outcome,
      });
    const lock = await deps.limiter.checkSignIn(user.email, address);
    if (lock.limited) {
      await audit('denied');
      tooManyRequests(ctx, lock.retryAfterSeconds, signInLockedMessage(lock.retryAfterSeconds));
    }
    if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
      await deps.limiter.recordFailure(user.email, address);
      await audit('failure');
      const issues = [{ field: 'currentPassword', message: CURRENT_PASSWORD_WRONG_MESSAGE }];
      return ctx.throw(400, CURRENT_PASSWORD_WRONG_MESSAGE, { issues });
    }
    if (input.newPassword === input.currentPassword) {
      const issues = [{ field: 'newPassword', message: NEW_PASSWORD_UNCHANGED_MESSAGE }];
      return ctx.throw(400, NEW_PASSWORD_UNCHANGED_MESSAGE, { issues });
    }
    const changed = await deps.store.changePassword(userId, await hashPassword(input.newPassword), {
      keepSessionId: sessionId,
      at: deps.now().toISOString(),
    });
    if (!changed) return ctx.throw(401, SESSION_INVALID_MESSAGE);
    await deps.limiter.recordSuccess(user.email);
    await audit('success');
    ctx.status = 204;
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
