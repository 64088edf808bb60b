import { randomUUID, type KeyObject } from 'node:crypto';
import type Router from '@koa/router';
import { ACCOUNT_DELETION_PENDING_CODE, type SecondFactorMethod } from '../../contracts/auth.ts';
import { ERROR_CODES } from '../../contracts/errors.ts';
import type { AuditAction } from '../../contracts/audit.ts';
import type { AuditLog } from '../storage/audit-log.ts';
import type { SessionMethod, UserRecord } from '../storage/records.ts';
import type { Store } from '../storage/store.ts';
import type { AppContext, AppState } from '../state.ts';
import { clientAddress } from '../http/client-address.ts';
import { tooManyRequests } from '../http/rate-limit.ts';
import { validate } from '../http/validate.ts';
import {
  ACCOUNT_DELETION_PENDING_MESSAGE,
  COMMON_NEW_PASSWORD_MESSAGE,
  COMMON_PASSWORD_MESSAGE,
  CURRENT_PASSWORD_WRONG_MESSAGE,
  DUPLICATE_EMAIL_MESSAGE,
  INVALID_CREDENTIALS_MESSAGE,
  NEW_PASSWORD_UNCHANGED_MESSAGE,
  PASSKEY_FAILED_MESSAGE,
  PASSKEY_NONE_MESSAGE,
  PASSWORD_SIGN_IN_OFF_MESSAGE,
  RECOVERY_CODE_WRONG_MESSAGE,
  SECOND_FACTOR_EXPIRED_MESSAGE,
  SESSION_INVALID_MESSAGE,
  SIGN_UP_OFF_MESSAGE,
  signInLockedMessage,
  SSO_LINK_EXPIRED_MESSAGE,
  SSO_LINK_OTHER_ACCOUNT_MESSAGE,
  SSO_LINK_OTHER_BROWSER_MESSAGE,
  TOO_MANY_FROM_ADDRESS_MESSAGE,
  TOTP_CODE_WRONG_MESSAGE,
} from '../messages.ts';
import type { OidcClient } from '../oidc/client.ts';
import { LINK_FLOW, type LinkFlowData } from '../oidc/routes.ts';
import { verifierMatches } from './handover-proof.ts';
import { requireAuth } from './authenticate.ts';
import { authFlows } from './flows.ts';
import { dropEhrLink } from '../smart/routes.ts';
import { authenticationOptions, relyingParty, verifyAuthentication, type WebAuthnSettings } from './mfa/passkeys.ts';
import { refuseCapped, secondFactorCap } from './mfa/failure-cap.ts';
import { normaliseRecoveryCode, recoveryCodeHash } from './mfa/recovery-codes.ts';
import { totpStep } from './mfa/totp.ts';
import { isCommonPassword } from './common-passwords.ts';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './passwords.ts';
import { publicUser } from './public-user.ts';
import {
  mfaTokenSchema,
  PASSWORD_CHANGE_FIELD_ORDER,
  passwordChangeSchema,
  secondFactorSchema,
  SIGNIN_FIELD_ORDER,
  SIGNUP_FIELD_ORDER,
  signinSchema,
  signupSchema,
} from './schemas.ts';
import { openSession } from './sessions.ts';
import type { SignInLimiter } from './sign-in-limiter.ts';
import { auditContext } from '../audit/request-context.ts';
import { access, apiRouter } from '../http/access.ts';

export { publicUser } from './public-user.ts';

/** The sign-in settings: REQUIRE_MFA, OIDC_ONLY, SESSION_IDLE_MINUTES and where passkeys belong. */
export interface AuthSettings {
  idleMinutes: number;
  requireMfa: boolean;
  oidcOnly: boolean;
  webauthn: WebAuthnSettings;
}

export interface AuthDeps {
  store: Store;
  audit: AuditLog;
  key: KeyObject;
  limiter: SignInLimiter;
  now: () => Date;
  settings: AuthSettings;
  /** The hospital's single sign-on, when set up: sign-out also ends its session. */
  oidc?: { client: OidcClient; publicUrl: string };
}

/**
 * A second factor awaited after a correct password: who, what to link after, tries so far, a passkey challenge, and
 * whether the sign-in keeps an account whose deletion is pending ("Keep my account": done only once the second
 * factor succeeds, so that the password alone cannot undo a deletion the clinician asked for).
 */
interface SecondFactorFlow {
  userId: string;
  link: LinkFlowData | null;
  attempts: number;
  challenge: { value: string; rpId: string; origins: string[] } | null;
  /** Absent in a flow an earlier release started (within its 5 minutes): false. */
  cancelDeletion?: boolean;
}
export const SECOND_FACTOR_FLOW = 'mfa';
/** The second factor must follow the password within this. */
const SECOND_FACTOR_TTL_MS = 5 * 60 * 1000;
/** Wrong codes one password sign-in may try before the password is asked for again. */
const SECOND_FACTOR_ATTEMPTS = 5;

const SESSION_METHOD: Record<SecondFactorMethod, SessionMethod> = {
  totp: 'password+totp',
  passkey: 'password+passkey',
  recovery_code: 'password+recovery',
};

/** The second factors an account has, as sign-in offers them. */
export function methodsOf(factors: Awaited<ReturnType<Store['findSecondFactors']>>): SecondFactorMethod[] {
  const methods: SecondFactorMethod[] = [];
  if (factors.totp) methods.push('totp');
  if (factors.passkeys.length > 0) methods.push('passkey');
  if (methods.length > 0 && factors.recoveryCodes.some((code) => code.usedAt === null)) methods.push('recovery_code');
  return methods;
}

export function authRoutes(deps: AuthDeps): Router<AppState> {
  const router = apiRouter('/api/auth');
  const flows = authFlows(deps.store, deps.now);

  const limitRate = async (ctx: AppContext) => {
    const rate = await deps.limiter.checkRequestRate(clientAddress(ctx));
    if (rate.limited) tooManyRequests(ctx, rate.retryAfterSeconds, TOO_MANY_FROM_ADDRESS_MESSAGE);
  };

  /** Links the identity single sign-on handed over, once its account proved itself; true when linked now. */
  const linkIdentity = async (ctx: AppContext, user: UserRecord, link: LinkFlowData | null) => {
    if (!link) return false;
    const linked = await deps.store.addIdentity({
      issuer: link.issuer,
      subject: link.subject,
      userId: user.id,
      createdAt: deps.now().toISOString(),
    });
    await deps.audit.record(
      {
        actor: user.id,
        action: 'user.link.oidc',
        recordType: 'user',
        recordId: user.id,
        outcome: linked === 'linked' ? 'success' : 'failure',
      },
      auditContext(ctx),
    );
    return linked === 'linked';
  };

  /** "Keep my account": the pending deletion cancelled, once the account has proved itself (every factor). */
  const keepAccount = async (ctx: AppContext, user: UserRecord) => {
    await deps.store.cancelErasure(user.id);
    await deps.audit.record(
      {
        actor: user.id,
        action: 'account.deletion_cancel',
        recordType: 'user',
        recordId: user.id,
        outcome: 'success',
      },
      auditContext(ctx),
    );
  };

  router.post('/signup', access.anyone, async (ctx) => {
    await limitRate(ctx);
    if (deps.settings.oidcOnly) return ctx.throw(403, SIGN_UP_OFF_MESSAGE);
    const input = validate(ctx, signupSchema, ctx.request.body, SIGNUP_FIELD_ORDER);
    if (await isCommonPassword(input.password))
      return ctx.throw(400, COMMON_PASSWORD_MESSAGE, {
        issues: [{ field: 'password', message: COMMON_PASSWORD_MESSAGE }],
      });
    const user: UserRecord = {
      id: randomUUID(),
      email: input.email,
      name: input.name,
      license: input.license ?? null,
      passwordHash: await hashPassword(input.password),
      createdAt: deps.now().toISOString(),
    };
    if ((await deps.store.createUser(user)) === 'duplicate_email') ctx.throw(409, DUPLICATE_EMAIL_MESSAGE);
    await deps.audit.record(
      {
        actor: user.id,
        action: 'user.signup',
        recordType: 'user',
        recordId: user.id,
        outcome: 'success',
      },
      auditContext(ctx),
    );
    ctx.status = 201;
    ctx.body = (await openSession(deps, ctx, user, 'password')).body;
  });

  /**
   * The password, first. An account with a second factor gets no session yet: a token for the second step
   * and the methods it can use. Failures of either step count toward the same lock-out (per account and per
   * address); only a completed sign-in clears the account's count.
   */
  router.post('/signin', access.anyone, async (ctx) => {
    await limitRate(ctx);
    const address = clientAddress(ctx);
    const input = validate(ctx, signinSchema, ctx.request.body, SIGNIN_FIELD_ORDER);
    // With OIDC_ONLY, a password proves only that an account is the one to link the hospital sign-in to.
    if (deps.settings.oidcOnly && !input.linkCode) return ctx.throw(403, PASSWORD_SIGN_IN_OFF_MESSAGE);
    const lock = await deps.limiter.checkSignIn(input.email, address);
    if (lock.limited) {
      await deps.audit.record({ actor: 'anonymous', action: 'user.signin', outcome: 'denied' }, auditContext(ctx));
      tooManyRequests(ctx, lock.retryAfterSeconds, signInLockedMessage(lock.retryAfterSeconds));
    }
    const user = await deps.store.findUserByEmail(input.email);
    const valid = user?.passwordHash
      ? await verifyPassword(user.passwordHash, input.password)
      : await verifyAgainstDummy(input.password);
    if (!user || !valid) {
      await deps.limiter.recordFailure(input.email, address);
      await deps.audit.record(
        { actor: user?.id ?? 'anonymous', action: 'user.signin', outcome: 'failure' },
        auditContext(ctx),
      );
      return ctx.throw(401, INVALID_CREDENTIALS_MESSAGE);
    }
    // Disabled while its deletion waits out the grace period (docs/API.md#my-data): signing in offers to cancel it,
    // and only with cancelDeletion, once the sign-in completes (after the second factor, if any), is it kept.
    if (user.deletion && !input.cancelDeletion) {
      await deps.audit.record(
        {
          actor: user.id,
          action: 'user.signin',
          recordType: 'user',
          recordId: user.id,
          outcome: 'denied',
        },
        auditContext(ctx),
      );
      return ctx.throw(403, ACCOUNT_DELETION_PENDING_MESSAGE, {
        answer: { code: ACCOUNT_DELETION_PENDING_CODE, eraseAfter: user.deletion.eraseAfter },
      });
    }
    let link: LinkFlowData | null = null;
    if (input.linkCode) {
      const taken = await flows.take<LinkFlowData>(LINK_FLOW, input.linkCode);
      if (!taken)
        return ctx.throw(400, SSO_LINK_EXPIRED_MESSAGE, {
          issues: [{ field: 'linkCode', message: SSO_LINK_EXPIRED_MESSAGE }],
        });
      // Only on the page that started the sign-on: a link code opened in another browser links nothing.
      if (!verifierMatches(taken.data.handover, input.linkVerifier))
        return ctx.throw(403, SSO_LINK_OTHER_BROWSER_MESSAGE);
      if (taken.data.email.toLowerCase() !== user.email.toLowerCase())
        return ctx.throw(403, SSO_LINK_OTHER_ACCOUNT_MESSAGE);
      link = taken.data;
    }
    const factors = await deps.store.findSecondFactors(user.id);
    let methods = methodsOf(factors);
    if (methods.length > 0) {
      // Past the cap of failed second factors in a row, only a recovery code (failure-cap.ts).
      const cap = await secondFactorCap(deps.store, user.id, factors.recoveryCodes);
      if (cap === ERROR_CODES.secondFactorLocked) {
        await deps.audit.record(
          { actor: user.id, action: 'user.signin.password', recordType: 'user', recordId: user.id, outcome: 'denied' },
          auditContext(ctx),
        );
        refuseCapped(ctx, cap);
      }
      if (cap === ERROR_CODES.recoveryCodeRequired) methods = ['recovery_code'];
      const flow: SecondFactorFlow = {
        userId: user.id,
        link,
        attempts: 0,
        challenge: null,
        cancelDeletion: Boolean(user.deletion),
      };
      const mfaToken = await flows.start(SECOND_FACTOR_FLOW, flow, SECOND_FACTOR_TTL_MS);
      await deps.audit.record(
        {
          actor: user.id,
          action: 'user.signin.password',
          recordType: 'user',
          recordId: user.id,
          outcome: 'success',
        },
        auditContext(ctx),
      );
      ctx.body = { secondFactor: { mfaToken, methods } };
      return;
    }
    if (user.deletion) await keepAccount(ctx, user);
    await deps.limiter.recordSuccess(input.email);
    const linked = await linkIdentity(ctx, user, link);
    const opened = await openSession(deps, ctx, user, 'password');
    await deps.audit.record(
      {
        actor: user.id,
        action: 'user.signin',
        recordType: 'user',
        recordId: user.id,
        outcome: 'success',
      },
      auditContext(ctx),
    );
    ctx.body = link ? { ...opened.body, linked } : opened.body;
  });

  /** A passkey challenge for the second step: the account's passkeys, user verification required. */
  router.post('/signin/passkey-options', access.anyone, async (ctx) => {
    await limitRate(ctx);
    const { mfaToken } = validate(ctx, mfaTokenSchema, ctx.request.body, ['mfaToken']);
    const flow = await flows.take<SecondFactorFlow>(SECOND_FACTOR_FLOW, mfaToken);
    if (!flow) return ctx.throw(401, SECOND_FACTOR_EXPIRED_MESSAGE);
    const { passkeys, recoveryCodes } = await deps.store.findSecondFactors(flow.data.userId);
    const cap = await secondFactorCap(deps.store, flow.data.userId, recoveryCodes);
    const { rpId, origins } = relyingParty(ctx, deps.settings.webauthn);
    const options = passkeys.length > 0 && cap === 'open' ? await authenticationOptions(passkeys, rpId) : undefined;
    const challenge = options ? { value: options.challenge, rpId, origins } : null;
    await flows.put(SECOND_FACTOR_FLOW, mfaToken, { ...flow.data, challenge }, flow.expiresAt);
    if (cap !== 'open') refuseCapped(ctx, cap);
    if (!options) return ctx.throw(400, PASSKEY_NONE_MESSAGE);
    ctx.body = { options };
  });

  /** The second step: an authenticator app's code, a recovery code (once) or a passkey; then the session. */
  router.post('/signin/second-factor', access.anyone, async (ctx) => {
    await limitRate(ctx);
    const address = clientAddress(ctx);
    const input = validate(ctx, secondFactorSchema, ctx.request.body, ['mfaToken', 'method', 'code', 'credential']);
    const flow = await flows.take<SecondFactorFlow>(SECOND_FACTOR_FLOW, input.mfaToken);
    const user = flow && (await deps.store.findUserById(flow.data.userId));
    if (!flow || !user) return ctx.throw(401, SECOND_FACTOR_EXPIRED_MESSAGE);
    const action = `user.signin.${input.method}` satisfies AuditAction;
    // Its deletion asked for since the password step (which refuses a pending account without cancelDeletion).
    if (user.deletion && !flow.data.cancelDeletion) {
      await deps.audit.record({ actor: user.id, action, outcome: 'denied' }, auditContext(ctx));
      return ctx.throw(403, ACCOUNT_DELETION_PENDING_MESSAGE, {
        answer: { code: ACCOUNT_DELETION_PENDING_CODE, eraseAfter: user.deletion.eraseAfter },
      });
    }
    const lock = await deps.limiter.checkSignIn(user.email, address);
    if (lock.limited) {
      await deps.audit.record({ actor: user.id, action, outcome: 'denied' }, auditContext(ctx));
      tooManyRequests(ctx, lock.retryAfterSeconds, signInLockedMessage(lock.retryAfterSeconds));
    }
    const at = deps.now();
    const factors = await deps.store.findSecondFactors(user.id);
    if (input.method !== 'recovery_code') {
      const cap = await secondFactorCap(deps.store, user.id, factors.recoveryCodes);
      if (cap !== 'open') {
        // Refused unchecked (no guess is spent); the step goes on with a recovery code.
        await flows.put(SECOND_FACTOR_FLOW, input.mfaToken, { ...flow.data, challenge: null }, flow.expiresAt);
        await deps.audit.record(
          { actor: user.id, action, recordType: 'user', recordId: user.id, outcome: 'denied' },
          auditContext(ctx),
        );
        refuseCapped(ctx, cap);
      }
    }
    let passed = false;
    let failure = TOTP_CODE_WRONG_MESSAGE;
    let recoveryCodesLeft: number | undefined;
    if (input.method === 'totp') {
      const step = factors.totp && input.code ? await totpStep(factors.totp.secret, input.code, at) : undefined;
      // The store accepts each time step once: the same code again (or an older one) is a failure.
      passed = step !== undefined && (await deps.store.useTotpStep(user.id, step));
    } else if (input.method === 'recovery_code') {
      failure = RECOVERY_CODE_WRONG_MESSAGE;
      const code = normaliseRecoveryCode(input.code);
      passed =
        code !== undefined && (await deps.store.useRecoveryCode(user.id, recoveryCodeHash(code), at.toISOString()));
      if (passed) {
        const left = factors.recoveryCodes.filter((entry) => entry.usedAt === null).length - 1;
        await deps.audit.record(
          {
            actor: user.id,
            action: 'mfa.recovery_code.use',
            recordType: 'user',
            recordId: user.id,
            outcome: 'success',
          },
          auditContext(ctx),
        );
        recoveryCodesLeft = Math.max(0, left);
      }
    } else {
      failure = PASSKEY_FAILED_MESSAGE;
      const challenge = flow.data.challenge;
      const verified =
        challenge && input.credential
          ? await verifyAuthentication(input.credential, factors.passkeys, {
              challenge: challenge.value,
              rpId: challenge.rpId,
              origins: challenge.origins,
            })
          : undefined;
      if (verified) {
        await deps.store.recordPasskeyUse(user.id, verified.passkey.id, verified.counter, at.toISOString());
        passed = true;
      }
    }
    if (!passed) {
      await deps.limiter.recordFailure(user.email, address);
      await deps.store.recordSecondFactorFailure(user.id, at.toISOString());
      await deps.audit.record(
        { actor: user.id, action, recordType: 'user', recordId: user.id, outcome: 'failure' },
        auditContext(ctx),
      );
      const attempts = flow.data.attempts + 1;
      // A passkey challenge is used once; another try asks for a new one.
      if (attempts < SECOND_FACTOR_ATTEMPTS)
        await flows.put(
          SECOND_FACTOR_FLOW,
          input.mfaToken,
          { ...flow.data, attempts, challenge: null },
          flow.expiresAt,
        );
      if (input.method === 'passkey') return ctx.throw(401, failure);
      return ctx.throw(401, failure, { issues: [{ field: 'code', message: failure }] });
    }
    await deps.store.clearSecondFactorFailures(user.id);
    if (user.deletion) await keepAccount(ctx, user); // cancelDeletion, carried from the password step
    await deps.limiter.recordSuccess(user.email);
    const linked = await linkIdentity(ctx, user, flow.data.link);
    const opened = await openSession(deps, ctx, user, SESSION_METHOD[input.method]);
    await deps.audit.record(
      {
        actor: user.id,
        action,
        recordType: 'session',
        recordId: opened.sessionId,
        outcome: 'success',
      },
      auditContext(ctx),
    );
    ctx.body = {
      ...opened.body,
      ...(flow.data.link ? { linked } : {}),
      ...(recoveryCodesLeft !== undefined ? { recoveryCodesLeft } : {}),
    };
  });

  router.get('/me', access.signedIn, async (ctx) => {
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
  router.post('/password', access.signedIn, async (ctx) => {
    const { userId, sessionId } = requireAuth(ctx);
    const address = clientAddress(ctx);
    const rate = await deps.limiter.checkRequestRate(address);
    if (rate.limited) tooManyRequests(ctx, rate.retryAfterSeconds, TOO_MANY_FROM_ADDRESS_MESSAGE);
    const input = validate(ctx, passwordChangeSchema, ctx.request.body, PASSWORD_CHANGE_FIELD_ORDER);
    const user = await deps.store.findUserById(userId);
    if (!user) return ctx.throw(401, SESSION_INVALID_MESSAGE);
    const audit = (outcome: 'success' | 'failure' | 'denied') =>
      deps.audit.record(
        {
          actor: userId,
          action: 'user.password_change',
          recordType: 'user',
          recordId: userId,
          outcome,
        },
        auditContext(ctx),
      );
    const lock = await deps.limiter.checkSignIn(user.email, address);
    if (lock.limited) {
      await audit('denied');
      tooManyRequests(ctx, lock.retryAfterSeconds, signInLockedMessage(lock.retryAfterSeconds));
    }
    // An account made by single sign-on has no password to change (nor to check): the same 400.
    if (!user.passwordHash || !(await verifyPassword(user.passwordHash, input.currentPassword))) {
      await deps.limiter.recordFailure(user.email, address);
      await audit('failure');
      const issues = [{ field: 'currentPassword', message: CURRENT_PASSWORD_WRONG_MESSAGE }];
      return ctx.throw(400, CURRENT_PASSWORD_WRONG_MESSAGE, { issues });
    }
    if (input.newPassword === input.currentPassword) {
      const issues = [{ field: 'newPassword', message: NEW_PASSWORD_UNCHANGED_MESSAGE }];
      return ctx.throw(400, NEW_PASSWORD_UNCHANGED_MESSAGE, { issues });
    }
    if (await isCommonPassword(input.newPassword)) {
      const issues = [{ field: 'newPassword', message: COMMON_NEW_PASSWORD_MESSAGE }];
      return ctx.throw(400, COMMON_NEW_PASSWORD_MESSAGE, { issues });
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

  /**
   * Ends the session on the server. A session opened by single sign-on, when the provider offers an
   * end_session_endpoint, answers 200 with where to send the browser to end the provider's session too.
   */
  router.post('/signout', access.signedIn, async (ctx) => {
    const { userId, sessionId } = requireAuth(ctx);
    const session = ctx.state.session;
    await deps.store.revokeSession(sessionId, deps.now().toISOString());
    // A session opened from the EHR: its access token goes with it (api/smart/routes.ts).
    await dropEhrLink(flows, sessionId);
    await deps.audit.record(
      {
        actor: userId,
        action: 'user.signout',
        recordType: 'session',
        recordId: sessionId,
        outcome: 'success',
      },
      auditContext(ctx),
    );
    const oidc = session?.oidc;
    const endSessionUrl =
      oidc && deps.oidc
        ? await deps.oidc.client.endSessionUrl(oidc.idToken, `${deps.oidc.publicUrl}/`).catch(() => undefined)
        : undefined;
    if (endSessionUrl) ctx.body = { endSessionUrl };
    else ctx.status = 204;
  });

  return router;
}
