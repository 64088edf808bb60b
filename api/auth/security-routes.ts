import { createHash } from 'node:crypto';
import type Router from '@koa/router';
import type { AccountSecurity, SessionList, SessionStatus } from '../../contracts/auth.ts';
import type { AuditAction } from '../../contracts/audit.ts';
import { clientAddress } from '../http/client-address.ts';
import { tooManyRequests } from '../http/rate-limit.ts';
import { recordIdParam } from '../http/record-id.ts';
import { validate } from '../http/validate.ts';
import {
  CONFIRM_PASSWORD_REQUIRED_MESSAGE,
  CONFIRM_SECOND_FACTOR_MESSAGE,
  IDENTITY_NOT_FOUND_MESSAGE,
  IDENTITY_ONLY_WAY_IN_MESSAGE,
  PASSKEY_DUPLICATE_MESSAGE,
  PASSKEY_FAILED_MESSAGE,
  PASSKEY_NONE_MESSAGE,
  RECOVERY_CODE_WRONG_MESSAGE,
  PASSWORD_WRONG_MESSAGE,
  SECOND_FACTORS_NEED_PASSWORD_MESSAGE,
  SESSION_INVALID_MESSAGE,
  SESSION_NOT_FOUND_MESSAGE,
  SETUP_EXPIRED_MESSAGE,
  signInLockedMessage,
  TOO_MANY_FROM_ADDRESS_MESSAGE,
  TOTP_ALREADY_ON_MESSAGE,
  TOTP_CODE_WRONG_MESSAGE,
} from '../messages.ts';
import type { SecondFactorChange, SessionMethod, UserRecord } from '../storage/records.ts';
import type { AppContext, AppState } from '../state.ts';
import { requireAuth } from './authenticate.ts';
import { authFlows } from './flows.ts';
import {
  authenticationOptions,
  registrationOptions,
  relyingParty,
  verifyAuthentication,
  verifyRegistration,
} from './mfa/passkeys.ts';
import { refuseCapped, secondFactorCap } from './mfa/failure-cap.ts';
import { newRecoveryCodes, recoveryCodeHash, normaliseRecoveryCode } from './mfa/recovery-codes.ts';
import { newTotpSecret, qrCodePath, totpStep, totpUri } from './mfa/totp.ts';
import { verifyPassword } from './passwords.ts';
import type { AuthDeps } from './routes.ts';
import {
  passkeyRegisterSchema,
  passwordOnlySchema,
  removeFactorSchema,
  STEP_UP_FIELD_ORDER,
  stepUpSchema,
  totpConfirmSchema,
} from './schemas.ts';
import { openSession } from './sessions.ts';
import { reauthenticate } from '../account/reauthenticate.ts';
import { auditContext } from '../audit/request-context.ts';
import { access, apiRouter } from '../http/access.ts';

const TOTP_SETUP_FLOW = 'totp-setup';
/** A passkey challenge for proving the clinician again, kept under the session's id. */
const STEP_UP_FLOW = 'step-up-passkey';
const PASSKEY_SETUP_FLOW = 'passkey-setup';
/** A setup (scan the QR code and type a code; touch the authenticator) must finish within this. */
const SETUP_TTL_MS = 10 * 60 * 1000;
const SETUP_ATTEMPTS = 5;

interface TotpSetupFlow {
  userId: string;
  secret: string;
  attempts: number;
}
interface StepUpChallenge {
  challenge: string;
  rpId: string;
  origins: string[];
}
interface PasskeySetupFlow {
  userId: string;
  challenge: string;
  rpId: string;
  origins: string[];
}

/**
 * DELETE /api/auth/sessions/:id carries the password when it ends another session, DELETE /api/auth/identities/:id
 * always (the body parser reads it).
 */
export const isSessionEnd = (ctx: { method: string; path: string }) =>
  ctx.method === 'DELETE' && /^\/api\/auth\/(sessions|identities)\/[^/]+$/.test(ctx.path);

/** What the profile names a linked identity by: its issuer and subject, hashed (never the subject itself). */
export const identityId = (issuer: string, subject: string) =>
  createHash('sha256').update(`${issuer}\n${subject}`).digest('base64url');

/** Display names of the hospital sign-ins this server knows (its own OIDC_ISSUER). */
export interface SecurityRouteDeps extends AuthDeps {
  ssoDisplayName?: string;
  ssoIssuer?: string;
}

/**
 * The profile's sign-in section (docs/API.md#second-factors-and-sessions): second factors for an account
 * with a password (an authenticator app with its QR code, passkeys, ten recovery codes shown once), the
 * session's own status (when it ends; asking does not count as use), and the account's open sessions with
 * "sign out of all other sessions". Each change of a second factor and each session ended is an audit line.
 * Setting up a second factor ends the account's other sessions (opened without it) and marks this one as
 * having it; removing one asks for the password again.
 */
export function securityRoutes(deps: SecurityRouteDeps): Router<AppState> {
  const router = apiRouter('/api/auth');
  const flows = authFlows(deps.store, deps.now);
  const idleMs = deps.settings.idleMinutes * 60_000;

  const audit = (
    ctx: AppContext,
    userId: string,
    action: AuditAction,
    outcome: 'success' | 'failure' | 'denied' = 'success',
  ) => deps.audit.record({ actor: userId, action, recordType: 'user', recordId: userId, outcome }, auditContext(ctx));

  /** The signed-in account, which must have a password (second factors are for password accounts). */
  const passwordAccount = async (ctx: AppContext): Promise<UserRecord> => {
    const { userId } = requireAuth(ctx);
    const user = await deps.store.findUserById(userId);
    if (!user) return ctx.throw(401, SESSION_INVALID_MESSAGE);
    if (!user.passwordHash) return ctx.throw(409, SECOND_FACTORS_NEED_PASSWORD_MESSAGE);
    return user;
  };

  const accountOf = async (ctx: AppContext): Promise<UserRecord> => {
    const user = await deps.store.findUserById(requireAuth(ctx).userId);
    return user ?? ctx.throw(401, SESSION_INVALID_MESSAGE);
  };

  /** The password again, for removing a factor or making new recovery codes: failures count as failed sign-ins. */
  const checkPassword = async (ctx: AppContext, user: UserRecord, password: string, action: AuditAction) => {
    const address = clientAddress(ctx);
    const rate = await deps.limiter.checkRequestRate(address);
    if (rate.limited) tooManyRequests(ctx, rate.retryAfterSeconds, TOO_MANY_FROM_ADDRESS_MESSAGE);
    const lock = await deps.limiter.checkSignIn(user.email, address);
    if (lock.limited) {
      await audit(ctx, user.id, action, 'denied');
      tooManyRequests(ctx, lock.retryAfterSeconds, signInLockedMessage(lock.retryAfterSeconds));
    }
    if (!(await verifyPassword(user.passwordHash!, password))) {
      await deps.limiter.recordFailure(user.email, address);
      await audit(ctx, user.id, action, 'failure');
      ctx.throw(400, PASSWORD_WRONG_MESSAGE, { issues: [{ field: 'password', message: PASSWORD_WRONG_MESSAGE }] });
    }
  };

  const reauth = reauthenticate({ limiter: deps.limiter, now: deps.now });
  /**
   * The clinician again, now, before a change to how the account signs in (ASVS 5.0 7.5.1 and 7.5.2): a token
   * that was copied cannot add a factor of the thief's or sign the clinician's own devices out. A password account
   * gives its password (failures count as failed sign-ins), and when it has a second factor, one of them too: a
   * current authenticator code (each time step once), an unused recovery code (then used up), or a passkey's
   * answer to the challenge of POST /step-up/passkey-options. An account without a password (single sign-on): a
   * sign-on of the last minutes (account/reauthenticate.ts).
   */
  const proveAgain = async (ctx: AppContext, user: UserRecord, action: AuditAction) => {
    const proof = validate(ctx, stepUpSchema, ctx.request.body ?? {}, STEP_UP_FIELD_ORDER);
    if (!user.passwordHash) {
      const result = await reauth(ctx, user, {});
      if (!result.ok) return ctx.throw(result.status, result.message);
      return;
    }
    if (!proof.password)
      return ctx.throw(400, CONFIRM_PASSWORD_REQUIRED_MESSAGE, {
        issues: [{ field: 'password', message: CONFIRM_PASSWORD_REQUIRED_MESSAGE }],
      });
    await checkPassword(ctx, user, proof.password, action);
    const factors = await deps.store.findSecondFactors(user.id);
    if (!factors.totp && factors.passkeys.length === 0) return;
    // Past the cap of failed second factors in a row, only a recovery code (mfa/failure-cap.ts), as at sign-in.
    if (proof.factor !== 'recovery_code') {
      const cap = await secondFactorCap(deps.store, user.id, factors.recoveryCodes);
      if (cap !== 'open') {
        await audit(ctx, user.id, action, 'denied');
        refuseCapped(ctx, cap);
      }
    }
    const at = deps.now();
    const { sessionId } = requireAuth(ctx);
    let passed = false;
    if (proof.factor === 'totp' && factors.totp && proof.code) {
      const step = await totpStep(factors.totp.secret, proof.code, at);
      passed = step !== undefined && (await deps.store.useTotpStep(user.id, step));
    } else if (proof.factor === 'recovery_code') {
      const code = normaliseRecoveryCode(proof.code);
      passed =
        code !== undefined && (await deps.store.useRecoveryCode(user.id, recoveryCodeHash(code), at.toISOString()));
      if (passed) await audit(ctx, user.id, 'mfa.recovery_code.use');
    } else if (proof.factor === 'passkey' && proof.credential) {
      // The challenge is good for one answer, right or wrong.
      const challenge = await flows.take<StepUpChallenge>(STEP_UP_FLOW, sessionId);
      const verified =
        challenge &&
        (await verifyAuthentication(proof.credential, factors.passkeys, {
          challenge: challenge.data.challenge,
          rpId: challenge.data.rpId,
          origins: challenge.data.origins,
        }));
      if (verified) {
        await deps.store.recordPasskeyUse(user.id, verified.passkey.id, verified.counter, at.toISOString());
        passed = true;
      }
    }
    if (passed) return deps.store.clearSecondFactorFailures(user.id);
    await deps.limiter.recordFailure(user.email, clientAddress(ctx));
    if (proof.factor) await deps.store.recordSecondFactorFailure(user.id, at.toISOString());
    await audit(ctx, user.id, action, 'failure');
    const message = !proof.factor
      ? CONFIRM_SECOND_FACTOR_MESSAGE
      : proof.factor === 'passkey'
        ? PASSKEY_FAILED_MESSAGE
        : proof.factor === 'recovery_code'
          ? RECOVERY_CODE_WRONG_MESSAGE
          : TOTP_CODE_WRONG_MESSAGE;
    return ctx.throw(400, message, { issues: [{ field: 'code', message }] });
  };

  /** Ten new recovery codes when the account has no unused ones (its first second factor). */
  const firstRecoveryCodes = async (userId: string) => {
    const { recoveryCodes } = await deps.store.findSecondFactors(userId);
    return recoveryCodes.some((code) => code.usedAt === null) ? null : newRecoveryCodes();
  };
  const hashes = (codes: string[]) => codes.map((code) => recoveryCodeHash(normaliseRecoveryCode(code)!));

  /**
   * A change of second factors that adds one: ends every session of the account, this one too, and opens a new
   * one with the second factor (ASVS 5.0 7.2.4: a new token once the account's authentication changes); answers
   * it, `{ token, user }`, for the page to keep instead of the old token.
   */
  const addFactor = async (
    ctx: AppContext,
    user: UserRecord,
    change: Omit<SecondFactorChange, 'userId' | 'at' | 'endOtherSessions' | 'upgradeSession'>,
    method: SessionMethod,
  ) => {
    const { userId, sessionId } = requireAuth(ctx);
    const at = deps.now().toISOString();
    const ended = await deps.store.listOpenSessions(userId, at);
    const result = await deps.store.changeSecondFactors({
      ...change,
      userId,
      at,
      endOtherSessions: { keepSessionId: sessionId },
    });
    if (result === undefined) return ctx.throw(401, SESSION_INVALID_MESSAGE);
    if (result === 'duplicate_passkey') return ctx.throw(409, PASSKEY_DUPLICATE_MESSAGE);
    const renewed = await openSession(deps, ctx, user, method);
    await deps.store.revokeSession(sessionId, at);
    for (const session of ended) await auditSessionEnd(ctx, userId, session.id, 'session.end.second_factor_added');
    return renewed.body;
  };
  const auditSessionEnd = (ctx: AppContext, userId: string, sessionId: string, action: AuditAction) =>
    deps.audit.record(
      { actor: userId, action, recordType: 'session', recordId: sessionId, outcome: 'success' },
      auditContext(ctx),
    );

  router.get('/security', access.signedIn, async (ctx) => {
    const { userId, method } = requireAuth(ctx);
    const user = await deps.store.findUserById(userId);
    if (!user) return ctx.throw(401, SESSION_INVALID_MESSAGE);
    const factors = await deps.store.findSecondFactors(userId);
    const identities = await deps.store.listIdentities(userId);
    const body: AccountSecurity = {
      hasPassword: user.passwordHash !== null,
      requireMfa: deps.settings.requireMfa,
      secondFactorNeeded: deps.settings.requireMfa && method === 'password',
      totp: factors.totp ? { createdAt: factors.totp.createdAt } : null,
      passkeys: factors.passkeys.map(({ id, name, createdAt, lastUsedAt }) => ({ id, name, createdAt, lastUsedAt })),
      recoveryCodesLeft: factors.recoveryCodes.filter((code) => code.usedAt === null).length,
      identities: identities.map((identity) => ({
        id: identityId(identity.issuer, identity.subject),
        issuer: identity.issuer,
        displayName: deps.ssoDisplayName && sameProvider(identity.issuer, deps.ssoIssuer) ? deps.ssoDisplayName : null,
        linkedAt: identity.createdAt,
      })),
    };
    ctx.body = body;
  });

  router.post('/totp/setup', access.signedIn, async (ctx) => {
    const user = await passwordAccount(ctx);
    const { totp } = await deps.store.findSecondFactors(user.id);
    if (totp) return ctx.throw(409, TOTP_ALREADY_ON_MESSAGE);
    await proveAgain(ctx, user, 'mfa.totp.enable');
    const secret = newTotpSecret();
    const flow: TotpSetupFlow = { userId: user.id, secret, attempts: 0 };
    const setupToken = await flows.start(TOTP_SETUP_FLOW, flow, SETUP_TTL_MS);
    const uri = totpUri(secret, user.email);
    ctx.body = { setupToken, secret, uri, qr: qrCodePath(uri) };
  });

  /** The first code from the app proves it holds the secret: then the app is the account's second factor. */
  router.post('/totp/confirm', access.signedIn, async (ctx) => {
    const user = await passwordAccount(ctx);
    const input = validate(ctx, totpConfirmSchema, ctx.request.body, ['setupToken', 'code']);
    const flow = await flows.take<TotpSetupFlow>(TOTP_SETUP_FLOW, input.setupToken);
    if (!flow || flow.data.userId !== user.id)
      return ctx.throw(400, SETUP_EXPIRED_MESSAGE, {
        issues: [{ field: 'setupToken', message: SETUP_EXPIRED_MESSAGE }],
      });
    const step = await totpStep(flow.data.secret, input.code, deps.now());
    if (step === undefined) {
      const attempts = flow.data.attempts + 1;
      if (attempts < SETUP_ATTEMPTS)
        await flows.put(TOTP_SETUP_FLOW, input.setupToken, { ...flow.data, attempts }, flow.expiresAt);
      return ctx.throw(400, TOTP_CODE_WRONG_MESSAGE, { issues: [{ field: 'code', message: TOTP_CODE_WRONG_MESSAGE }] });
    }
    const recoveryCodes = await firstRecoveryCodes(user.id);
    const session = await addFactor(
      ctx,
      user,
      {
        totp: { userId: user.id, secret: flow.data.secret, lastUsedStep: step, createdAt: deps.now().toISOString() },
        ...(recoveryCodes ? { recoveryCodeHashes: hashes(recoveryCodes) } : {}),
      },
      'password+totp',
    );
    await audit(ctx, user.id, 'mfa.totp.enable');
    ctx.body = { recoveryCodes, ...session };
  });

  /** A passkey challenge for proving the clinician again (proveAgain): the account's passkeys, for this session. */
  router.post('/step-up/passkey-options', access.signedIn, async (ctx) => {
    const user = await passwordAccount(ctx);
    const { sessionId } = requireAuth(ctx);
    const { passkeys } = await deps.store.findSecondFactors(user.id);
    if (passkeys.length === 0) return ctx.throw(400, PASSKEY_NONE_MESSAGE);
    const { rpId, origins } = relyingParty(ctx, deps.settings.webauthn);
    const options = await authenticationOptions(passkeys, rpId);
    await flows.take(STEP_UP_FLOW, sessionId); // one challenge a session at a time
    await flows.start(STEP_UP_FLOW, { challenge: options.challenge, rpId, origins }, SETUP_TTL_MS, sessionId);
    ctx.body = { options };
  });

  router.post('/passkeys/options', access.signedIn, async (ctx) => {
    const user = await passwordAccount(ctx);
    await proveAgain(ctx, user, 'mfa.passkey.add');
    const { passkeys } = await deps.store.findSecondFactors(user.id);
    const { rpId, origins } = relyingParty(ctx, deps.settings.webauthn);
    const options = await registrationOptions(user, passkeys, rpId);
    const flow: PasskeySetupFlow = { userId: user.id, challenge: options.challenge, rpId, origins };
    const setupToken = await flows.start(PASSKEY_SETUP_FLOW, flow, SETUP_TTL_MS);
    ctx.body = { setupToken, options };
  });

  router.post('/passkeys', access.signedIn, async (ctx) => {
    const user = await passwordAccount(ctx);
    const input = validate(ctx, passkeyRegisterSchema, ctx.request.body, ['setupToken', 'credential', 'name']);
    const flow = await flows.take<PasskeySetupFlow>(PASSKEY_SETUP_FLOW, input.setupToken);
    if (!flow || flow.data.userId !== user.id) return ctx.throw(400, SETUP_EXPIRED_MESSAGE);
    const verified = await verifyRegistration(input.credential, {
      challenge: flow.data.challenge,
      rpId: flow.data.rpId,
      origins: flow.data.origins,
    });
    if (!verified) {
      await audit(ctx, user.id, 'mfa.passkey.add', 'failure');
      return ctx.throw(400, PASSKEY_FAILED_MESSAGE);
    }
    const { passkeys } = await deps.store.findSecondFactors(user.id);
    const passkey = {
      ...verified,
      userId: user.id,
      name: input.name || `Passkey ${passkeys.length + 1}`,
      createdAt: deps.now().toISOString(),
      lastUsedAt: null,
    };
    const recoveryCodes = await firstRecoveryCodes(user.id);
    const session = await addFactor(
      ctx,
      user,
      { addPasskey: passkey, ...(recoveryCodes ? { recoveryCodeHashes: hashes(recoveryCodes) } : {}) },
      'password+passkey',
    );
    await audit(ctx, user.id, 'mfa.passkey.add');
    ctx.status = 201;
    ctx.body = {
      passkey: { id: passkey.id, name: passkey.name, createdAt: passkey.createdAt, lastUsedAt: null },
      recoveryCodes,
      ...session,
    };
  });

  /** Removes the authenticator app or a passkey (the password again); the last one takes the recovery codes too. */
  router.post('/second-factors/remove', access.signedIn, async (ctx) => {
    const user = await passwordAccount(ctx);
    const { sessionId } = requireAuth(ctx);
    const input = validate(ctx, removeFactorSchema, ctx.request.body, ['password', 'factor', 'passkeyId']);
    const action = input.factor === 'totp' ? 'mfa.totp.remove' : 'mfa.passkey.remove';
    await checkPassword(ctx, user, input.password, action);
    const factors = await deps.store.findSecondFactors(user.id);
    const left =
      (input.factor === 'totp' ? 0 : factors.totp ? 1 : 0) +
      factors.passkeys.filter((passkey) => input.factor === 'totp' || passkey.id !== input.passkeyId).length;
    const exists =
      input.factor === 'totp'
        ? factors.totp !== null
        : factors.passkeys.some((passkey) => passkey.id === input.passkeyId);
    if (!exists) return ctx.throw(404, 'Second factor not found');
    await deps.store.changeSecondFactors({
      userId: user.id,
      at: deps.now().toISOString(),
      ...(input.factor === 'totp' ? { totp: null } : { removePasskeyId: input.passkeyId }),
      // With none left, the recovery codes go too, and this session no longer has a second factor.
      ...(left === 0 ? { recoveryCodeHashes: [], upgradeSession: { sessionId, method: 'password' as const } } : {}),
    });
    await audit(ctx, user.id, action);
    ctx.status = 204;
  });

  /** Ten new recovery codes (the password again); the old ones stop working. */
  router.post('/recovery-codes', access.signedIn, async (ctx) => {
    const user = await passwordAccount(ctx);
    const input = validate(ctx, passwordOnlySchema, ctx.request.body, ['password']);
    await checkPassword(ctx, user, input.password, 'mfa.recovery_codes.renew');
    const factors = await deps.store.findSecondFactors(user.id);
    if (!factors.totp && factors.passkeys.length === 0)
      return ctx.throw(409, 'Set up an authenticator app or a passkey first: recovery codes stand in for them');
    const recoveryCodes = newRecoveryCodes();
    await deps.store.changeSecondFactors({
      userId: user.id,
      at: deps.now().toISOString(),
      recoveryCodeHashes: hashes(recoveryCodes),
    });
    await audit(ctx, user.id, 'mfa.recovery_codes.renew');
    ctx.body = { recoveryCodes };
  });

  /** When this session ends: asking does not count as use (auth/authenticate.ts SESSION_STATUS_PATH). */
  router.get('/session', access.signedIn, async (ctx) => {
    requireAuth(ctx);
    const session = ctx.state.session!;
    const now = deps.now().getTime();
    const idleEnds = Date.parse(session.lastUsedAt) + idleMs;
    const body: SessionStatus = {
      expiresAt: session.expiresAt,
      idleExpiresAt: new Date(idleEnds).toISOString(),
      idleMinutes: deps.settings.idleMinutes,
      idleRemainingSeconds: Math.max(0, Math.floor((idleEnds - now) / 1000)),
    };
    ctx.body = body;
  });

  router.get('/sessions', access.signedIn, async (ctx) => {
    const { userId, sessionId } = requireAuth(ctx);
    const now = deps.now();
    const open = await deps.store.listOpenSessions(userId, now.toISOString());
    const body: SessionList = {
      sessions: open
        .filter((session) => now.getTime() - Date.parse(session.lastUsedAt) <= idleMs)
        .sort((a, b) => b.lastUsedAt.localeCompare(a.lastUsedAt) || b.createdAt.localeCompare(a.createdAt))
        .map((session) => ({
          id: session.id,
          device: session.device,
          method: session.method,
          createdAt: session.createdAt,
          // The current request is a use, whether or not it was recorded yet (at most once a minute).
          lastUsedAt: session.id === sessionId ? now.toISOString() : session.lastUsedAt,
          current: session.id === sessionId,
        })),
    };
    ctx.body = body;
  });

  /** "Sign out of all other sessions": ended at once, for every instance sharing the store. */
  router.post('/sessions/end-others', access.signedIn, async (ctx) => {
    const { userId, sessionId } = requireAuth(ctx);
    await proveAgain(ctx, await accountOf(ctx), 'session.end.others');
    const at = deps.now().toISOString();
    const others = (await deps.store.listOpenSessions(userId, at)).filter((session) => session.id !== sessionId);
    const ended = await deps.store.endOtherSessions(userId, sessionId, at);
    for (const session of others) await auditSessionEnd(ctx, userId, session.id, 'session.end.others');
    ctx.body = { ended };
  });

  router.delete('/sessions/:id', access.signedIn, async (ctx) => {
    const { userId, sessionId } = requireAuth(ctx);
    const id = recordIdParam(ctx, ctx.params.id, SESSION_NOT_FOUND_MESSAGE);
    const at = deps.now().toISOString();
    const session = await deps.store.findSession(id);
    if (!session || session.userId !== userId || session.revokedAt || session.expiresAt <= at)
      return ctx.throw(404, SESSION_NOT_FOUND_MESSAGE);
    // Ending this very session is signing out; ending another is a change the clinician confirms.
    if (id !== sessionId) await proveAgain(ctx, await accountOf(ctx), 'session.end.one');
    await deps.store.revokeSession(id, at);
    await auditSessionEnd(ctx, userId, id, id === sessionId ? 'user.signout' : 'session.end.one');
    ctx.status = 204;
  });

  /**
   * Unlinks a hospital sign-in (or an EHR's) from the account, the clinician proven again (proveAgain: the password
   * and a second factor, or a recent sign-on). The account's last way in is kept: an account without a password
   * keeps its one identity. Its sessions stay open; the identity no longer reaches the account.
   */
  router.delete('/identities/:id', access.signedIn, async (ctx) => {
    const user = await accountOf(ctx);
    const identities = await deps.store.listIdentities(user.id);
    const identity = identities.find((known) => identityId(known.issuer, known.subject) === ctx.params.id);
    if (!identity) return ctx.throw(404, IDENTITY_NOT_FOUND_MESSAGE);
    if (!user.passwordHash && identities.length === 1) return ctx.throw(409, IDENTITY_ONLY_WAY_IN_MESSAGE);
    await proveAgain(ctx, user, 'user.unlink.oidc');
    if (!(await deps.store.removeIdentity(user.id, identity.issuer, identity.subject)))
      return ctx.throw(404, IDENTITY_NOT_FOUND_MESSAGE);
    await audit(ctx, user.id, 'user.unlink.oidc');
    ctx.status = 204;
  });

  return router;
}

/** An identity's issuer is the configured one's (for Entra multi-tenant: the template with a tenant filled in). */
function sameProvider(issuer: string, configured: string | undefined): boolean {
  if (!configured) return false;
  if (issuer === configured) return true;
  const pattern = /^https:\/\/login\.microsoftonline\.com\/[^/]+\/v2\.0$/;
  return pattern.test(issuer) && /^https:\/\/login\.microsoftonline\.com\//.test(configured);
}
