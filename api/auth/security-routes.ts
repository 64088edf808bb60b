import type Router from '@koa/router';
import type { AccountSecurity, SessionList, SessionStatus } from '../../contracts/auth.ts';
import type { AuditAction } from '../../contracts/audit.ts';
import { clientAddress } from '../http/client-address.ts';
import { tooManyRequests } from '../http/rate-limit.ts';
import { recordIdParam } from '../http/record-id.ts';
import { validate } from '../http/validate.ts';
import {
  PASSKEY_DUPLICATE_MESSAGE,
  PASSKEY_FAILED_MESSAGE,
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
import { registrationOptions, relyingParty, verifyRegistration } from './mfa/passkeys.ts';
import { newRecoveryCodes, recoveryCodeHash, normaliseRecoveryCode } from './mfa/recovery-codes.ts';
import { newTotpSecret, qrCodePath, totpStep, totpUri } from './mfa/totp.ts';
import { verifyPassword } from './passwords.ts';
import type { AuthDeps } from './routes.ts';
import { passkeyRegisterSchema, passwordOnlySchema, removeFactorSchema, totpConfirmSchema } from './schemas.ts';
import { auditContext } from '../audit/request-context.ts';
import { access, apiRouter } from '../http/access.ts';

const TOTP_SETUP_FLOW = 'totp-setup';
const PASSKEY_SETUP_FLOW = 'passkey-setup';
/** A setup (scan the QR code and type a code; touch the authenticator) must finish within this. */
const SETUP_TTL_MS = 10 * 60 * 1000;
const SETUP_ATTEMPTS = 5;

interface TotpSetupFlow {
  userId: string;
  secret: string;
  attempts: number;
}
interface PasskeySetupFlow {
  userId: string;
  challenge: string;
  rpId: string;
  origins: string[];
}

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

  /** Ten new recovery codes when the account has no unused ones (its first second factor). */
  const firstRecoveryCodes = async (userId: string) => {
    const { recoveryCodes } = await deps.store.findSecondFactors(userId);
    return recoveryCodes.some((code) => code.usedAt === null) ? null : newRecoveryCodes();
  };
  const hashes = (codes: string[]) => codes.map((code) => recoveryCodeHash(normaliseRecoveryCode(code)!));

  /** A change of second factors that adds one: ends the other sessions, this one now has a second factor. */
  const addFactor = async (
    ctx: AppContext,
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
      upgradeSession: { sessionId, method },
    });
    if (result === undefined) return ctx.throw(401, SESSION_INVALID_MESSAGE);
    if (result === 'duplicate_passkey') return ctx.throw(409, PASSKEY_DUPLICATE_MESSAGE);
    for (const session of ended.filter((other) => other.id !== sessionId))
      await auditSessionEnd(ctx, userId, session.id, 'session.end.second_factor_added');
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
    await addFactor(
      ctx,
      {
        totp: { userId: user.id, secret: flow.data.secret, lastUsedStep: step, createdAt: deps.now().toISOString() },
        ...(recoveryCodes ? { recoveryCodeHashes: hashes(recoveryCodes) } : {}),
      },
      'password+totp',
    );
    await audit(ctx, user.id, 'mfa.totp.enable');
    ctx.body = { recoveryCodes };
  });

  router.post('/passkeys/options', access.signedIn, async (ctx) => {
    const user = await passwordAccount(ctx);
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
    await addFactor(
      ctx,
      { addPasskey: passkey, ...(recoveryCodes ? { recoveryCodeHashes: hashes(recoveryCodes) } : {}) },
      'password+passkey',
    );
    await audit(ctx, user.id, 'mfa.passkey.add');
    ctx.status = 201;
    ctx.body = {
      passkey: { id: passkey.id, name: passkey.name, createdAt: passkey.createdAt, lastUsedAt: null },
      recoveryCodes,
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
    await deps.store.revokeSession(id, at);
    await auditSessionEnd(ctx, userId, id, id === sessionId ? 'user.signout' : 'session.end.one');
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
