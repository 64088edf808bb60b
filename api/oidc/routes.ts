import { randomUUID, type KeyObject } from 'node:crypto';
import type Router from '@koa/router';
import * as v from 'valibot';
import { strictFields } from '../../clinical/validation.ts';
import type { SiteConfig } from '../../contracts/site-config.ts';
import { authFlows, newHandle } from '../auth/flows.ts';
import { providerMultiFactor, providerSessionMethod, type ProviderFactorRule } from '../auth/provider-factors.ts';
import { openSession } from '../auth/sessions.ts';
import type { SignInLimiter } from '../auth/sign-in-limiter.ts';
import type { OidcConfig } from '../config.ts';
import { clientAddress } from '../http/client-address.ts';
import { tooManyRequests } from '../http/rate-limit.ts';
import { validate } from '../http/validate.ts';
import { ACCOUNT_DELETION_PENDING_CODE } from '../../contracts/auth.ts';
import {
  ACCOUNT_DELETION_PENDING_MESSAGE,
  RETURN_TO_INVALID_MESSAGE,
  SSO_HANDOFF_EXPIRED_MESSAGE,
  SSO_HANDOFF_OTHER_PAGE_MESSAGE,
  SSO_LINK_EXPIRED_MESSAGE,
  SSO_LINK_OTHER_BROWSER_MESSAGE,
  SSO_NOT_CONFIGURED_MESSAGE,
  SSO_START_CHALLENGE_MESSAGE,
  TOO_MANY_FROM_ADDRESS_MESSAGE,
} from '../messages.ts';
import type { AuditLog } from '../storage/audit-log.ts';
import type { Store } from '../storage/store.ts';
import type { AppContext, AppState } from '../state.ts';
import { assertNever } from '../../clinical/assert-never.ts';
import { OidcFlowError, type OidcClient } from './client.ts';
import { failurePage, OAUTH_ERROR_PATTERN, type SignOnRefusal } from './failure-page.ts';
import { claimsWithUserInfo, type NeededClaim } from './user-info.ts';
import { auditSignIn } from '../auth/sign-in-audit.ts';
import { parseHandoverChallenge, verifierMatches, type HandoverChallenge } from '../auth/handover-proof.ts';
import { auditContext } from '../audit/request-context.ts';
import { access, apiRouter } from '../http/access.ts';

/** The redirect URI the hospital's IT registers: PUBLIC_URL + this. */
export const OIDC_CALLBACK_PATH = '/api/auth/oidc/callback';
export const OIDC_START_PATH = '/api/auth/oidc/start';
/** The flows of single sign-on in the store (auth/flows.ts). */
export const SIGN_ON_FLOW = 'oidc-signin';
export const HANDOFF_FLOW = 'oidc-handoff';
export const LINK_FLOW = 'oidc-link';
/** The page exchanges its hand-over code within this (it does so as soon as it loads). */
const HANDOFF_TTL_MS = 2 * 60 * 1000;
/** A clinician whose e-mail has a password account has this long to sign in with the password once. */
export const LINK_TTL_MS = 10 * 60 * 1000;
/** What an account is made of: asked of UserInfo when the ID token lacks it (oidc/user-info.ts). */
const NEEDED_CLAIMS: readonly NeededClaim[] = ['email', 'name'];
/** The cookie that ties a flow to the browser that started it (login CSRF). */
const BINDING_COOKIE = 'sgx_oidc_binding';
/** In the page's URL fragment after the callback: the hand-over code, or the link code. */
export const HANDOFF_FRAGMENT = 'sgx-sso';
export const LINK_FRAGMENT = 'sgx-sso-link';

/**
 * What a link flow holds: the identity to link once its e-mail's account signs in with its password, what the
 * prompt names it by, and the challenge of the page that started the sign-on (auth/handover-proof.ts): the link
 * is made only with that page's verifier.
 */
export interface LinkFlowData {
  issuer: string;
  subject: string;
  email: string;
  /** The provider's name for the clinician, shown in the prompt ("Link … (name, e-mail)?"). */
  name?: string;
  /** Absent in a link flow of an earlier release: such a code is refused (it cannot be proven to be this page's). */
  handover?: HandoverChallenge;
}

/** What a sign-on flow holds: where to send the browser back, and the starting page's challenge. */
interface SignOnFlowData {
  returnTo: string;
  handover: HandoverChallenge;
}

interface HandoffData {
  userId: string;
  issuer: string;
  idToken: string;
  /** The starting page's challenge: redeemed only with its verifier (absent from an earlier release: refused). */
  handover?: HandoverChallenge;
  /**
   * The ID token showed a second factor (auth/provider-factors.ts): the session is `oidc+mfa`, else `oidc`. Absent
   * in a hand-over an earlier release made: one factor.
   */
  multiFactor?: boolean;
}

export interface SingleSignOnDeps {
  store: Store;
  audit: AuditLog;
  key: KeyObject;
  limiter: SignInLimiter;
  now: () => Date;
  config: OidcConfig;
  /** PUBLIC_URL. */
  publicUrl: string;
  /** ALLOWED_ORIGINS: pages there may start a sign-in and be sent back to. */
  allowedOrigins: readonly string[];
  client: OidcClient;
  /** OIDC_REQUIRED_AMR and OIDC_REQUIRED_ACR: when the provider's sign-in counts as two factors. */
  providerFactors: ProviderFactorRule;
  /** OIDC_TRUSTED_EMAIL_DOMAINS: lower-case domains whose e-mails link without `email_verified: true`. */
  trustedEmailDomains: readonly string[];
}

/**
 * An identity may be linked to the password account of its e-mail only when the provider vouches for the e-mail
 * (`email_verified: true`) or the e-mail's domain is one the hospital trusts its provider for
 * (OIDC_TRUSTED_EMAIL_DOMAINS, e.g. its Entra ID tenant's own domains, where `email_verified` is never sent).
 */
export function linkableEmail(email: string, emailVerified: unknown, trustedDomains: readonly string[]): boolean {
  if (emailVerified === true) return true;
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  return trustedDomains.includes(domain);
}

/** What GET /api/config says about signing in (contracts/site-config.ts). */
export function signInConfig(config: OidcConfig | undefined, oidcOnly: boolean): SiteConfig['signIn'] {
  return {
    sso: config ? { displayName: config.displayName, startPath: OIDC_START_PATH } : null,
    passwordSignIn: !oidcOnly,
  };
}

const VERIFIER_REQUIRED = 'verifier is required: the value this page made when it started the sign-in';
const handoffSchema = strictFields(
  { code: v.string('code is required'), verifier: v.string(VERIFIER_REQUIRED) },
  { code: 'code is required', verifier: VERIFIER_REQUIRED },
);

/**
 * The hospital's single sign-on (docs/API.md#single-sign-on):
 * 1. `GET /api/auth/oidc/start?returnTo=<page>&challenge=<S256 of the page's verifier>`: a flow (oidc/client.ts)
 *    tied to this browser by a cookie and to the starting page by its challenge, then a redirect to the provider.
 * 2. `GET /api/auth/oidc/callback`: the provider's answer, checked; the account is the one the identity
 *    (issuer, `sub`) names, or a new one. A password account with the same e-mail is never taken over: the
 *    browser is sent back with a link code, and the identity is linked once that clinician signs in with
 *    their password (POST /api/auth/signin with `linkCode` and the page's verifier), and only when the provider
 *    says the e-mail is verified or its domain is trusted (OIDC_TRUSTED_EMAIL_DOMAINS). The e-mail and name are
 *    the ID token's, or, where it has none, UserInfo's (OpenID Connect Core section 5.4). Any failure is a 4xx
 *    (or 503) page, naming the provider's OAuth error code when it gave one, and no session.
 * 3. The page is sent back with a one-time hand-over code in its URL fragment (never a token in a URL);
 *    `POST /api/auth/oidc/session` exchanges it, with the starting page's verifier (auth/handover-proof.ts), for
 *    the same `{ token, user }` a password sign-in answers.
 */
export function singleSignOnRoutes(deps: SingleSignOnDeps): Router<AppState> {
  const router = apiRouter('/api/auth/oidc');
  const flows = authFlows(deps.store, deps.now);
  const publicOrigin = new URL(deps.publicUrl).origin;
  const publicHost = new URL(deps.publicUrl).host;
  const secureCookie = deps.publicUrl.startsWith('https:');
  const home = `${deps.publicUrl}/`;

  /** A page of this site or of an allowed origin (never anywhere else: no open redirect). */
  const checkReturnTo = (value: unknown): string | undefined => {
    if (value === undefined) return home;
    if (typeof value !== 'string' || value.length > 2000) return undefined;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return undefined;
    }
    if (url.username || url.password) return undefined;
    return url.origin === publicOrigin || deps.allowedOrigins.includes(url.origin) ? url.href : undefined;
  };
  const returnWith = (returnTo: string, name: string, handle: string) => {
    const url = new URL(returnTo);
    url.hash = `${name}=${handle}`;
    return url.href;
  };

  /**
   * The refusal, as a page or as JSON. `providerError`, the provider's OAuth error code (the callback's `error`,
   * the token endpoint's or UserInfo's), is named on the page and as `oauthError` only when it is a bare code
   * (OAUTH_ERROR_PATTERN); the provider's `error_description` never is: free text that anyone crafting a
   * callback URL can write.
   */
  const refuse = (ctx: AppContext, refusal: SignOnRefusal, returnTo: string = home, providerError?: string) => {
    const oauthError =
      providerError !== undefined && OAUTH_ERROR_PATTERN.test(providerError) ? providerError : undefined;
    ctx.status = refusal.status;
    if (ctx.accepts('json', 'html') === 'json') {
      ctx.body = { message: refusal.message, code: refusal.code, ...(oauthError !== undefined ? { oauthError } : {}) };
      return;
    }
    ctx.type = 'html';
    ctx.body = failurePage(refusal, deps.config.displayName, returnTo, oauthError);
  };
  const audit = (ctx: AppContext, actor: string, outcome: 'success' | 'failure' | 'denied', sessionId?: string) =>
    auditSignIn(deps.audit, ctx, 'user.signin.oidc', actor, outcome, sessionId);

  router.get('/start', access.anyone, async (ctx) => {
    const rate = await deps.limiter.checkRequestRate(clientAddress(ctx));
    if (rate.limited) tooManyRequests(ctx, rate.retryAfterSeconds, TOO_MANY_FROM_ADDRESS_MESSAGE);
    const returnTo = checkReturnTo(ctx.query.returnTo);
    if (!returnTo) return ctx.throw(400, RETURN_TO_INVALID_MESSAGE);
    const handover = parseHandoverChallenge(ctx.query.challenge, ctx.query.challengeMethod);
    if (!handover) return refuse(ctx, REFUSALS.no_challenge, returnTo);
    // The binding cookie must be set on the host the provider sends the browser back to.
    if (ctx.host !== publicHost && ctx.query.hop === undefined) {
      const again = new URL(`${deps.publicUrl}${OIDC_START_PATH}`);
      again.searchParams.set('returnTo', returnTo);
      again.searchParams.set('challenge', handover.challenge);
      again.searchParams.set('challengeMethod', handover.method);
      again.searchParams.set('hop', '1');
      ctx.redirect(again.href);
      return;
    }
    const existing = ctx.cookies.get(BINDING_COOKIE);
    const binding = existing && /^[A-Za-z0-9_-]{43}$/.test(existing) ? existing : newHandle();
    let url: URL;
    try {
      const data: SignOnFlowData = { returnTo, handover };
      url = await deps.client.begin({ kind: SIGN_ON_FLOW, data, binding });
    } catch (error) {
      const detail = error instanceof OidcFlowError ? error.detail : String(error);
      ctx.state.signOnProblem = detail;
      return refuse(ctx, REFUSALS.unavailable, returnTo);
    }
    const cookie = [
      `${BINDING_COOKIE}=${binding}`,
      'Path=/api/auth/oidc',
      'Max-Age=900',
      'HttpOnly',
      'SameSite=Lax',
      ...(secureCookie ? ['Secure'] : []),
    ];
    ctx.append('Set-Cookie', cookie.join('; '));
    ctx.redirect(url.href);
  });

  router.get('/callback', access.anyone, async (ctx) => {
    const rate = await deps.limiter.checkRequestRate(clientAddress(ctx));
    if (rate.limited) tooManyRequests(ctx, rate.retryAfterSeconds, TOO_MANY_FROM_ADDRESS_MESSAGE);
    let completion;
    try {
      completion = await deps.client.complete(new URLSearchParams(ctx.querystring), {
        kind: SIGN_ON_FLOW,
        binding: ctx.cookies.get(BINDING_COOKIE),
      });
    } catch (error) {
      if (!(error instanceof OidcFlowError)) throw error;
      ctx.state.signOnProblem = error.detail;
      await audit(ctx, 'anonymous', error.failure === 'tenant_not_allowed' ? 'denied' : 'failure');
      const returnTo = checkReturnTo((error.flowData as { returnTo?: unknown } | undefined)?.returnTo) ?? home;
      return refuse(ctx, REFUSALS[error.failure], returnTo, error.oauthError);
    }
    const { returnTo, handover } = completion.data as SignOnFlowData;
    const completed = await claimsWithUserInfo(deps.client, completion, NEEDED_CLAIMS);
    if (completed.kind !== 'claims') {
      ctx.state.signOnProblem = completed.detail;
      await audit(ctx, 'anonymous', 'failure');
      switch (completed.kind) {
        case 'unavailable':
          return refuse(ctx, REFUSALS.unavailable, returnTo);
        case 'invalid':
          return refuse(ctx, REFUSALS.invalid_response, returnTo, completed.oauthError);
        case 'other_subject':
          return refuse(ctx, REFUSALS.other_subject, returnTo);
        default:
          return assertNever(completed, 'UserInfo outcome');
      }
    }
    const { claims } = completed;
    const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
    if (!/^[^\s@]+@[^\s@]+$/.test(email) || email.length > 254) {
      ctx.state.signOnProblem =
        completed.userInfo === 'read'
          ? 'neither the ID token nor UserInfo has an e-mail address'
          : 'the ID token has no e-mail address (the provider offers no UserInfo endpoint)';
      await audit(ctx, 'anonymous', 'denied');
      return refuse(ctx, REFUSALS.no_email, returnTo);
    }
    if (claims.email_verified === false) {
      ctx.state.signOnProblem = 'the provider says the e-mail address is not verified';
      await audit(ctx, 'anonymous', 'denied');
      return refuse(ctx, REFUSALS.unverified_email, returnTo);
    }
    const issuer = completion.claims.iss;
    const subject = completion.claims.sub;
    // The ID token's own amr and acr, signed by the provider: never UserInfo's (claims above may hold its answer).
    const multiFactor = providerMultiFactor(completion.claims, deps.providerFactors);
    const handoff = async (userId: string) => {
      const data: HandoffData = { userId, issuer, idToken: completion.idToken, multiFactor, handover };
      const handle = await flows.start(HANDOFF_FLOW, data, HANDOFF_TTL_MS);
      ctx.status = 303;
      ctx.redirect(returnWith(returnTo, HANDOFF_FRAGMENT, handle));
    };

    const known = await deps.store.findUserByIdentity(issuer, subject);
    if (known) return handoff(known.id);
    const user = {
      id: randomUUID(),
      email,
      name: nameOf(claims, email),
      license: null,
      passwordHash: null,
      createdAt: deps.now().toISOString(),
    };
    const created = await deps.store.createUserWithIdentity(user, {
      issuer,
      subject,
      userId: user.id,
      createdAt: user.createdAt,
    });
    if (created === 'created') {
      await deps.audit.record(
        {
          actor: user.id,
          action: 'user.signup.oidc',
          recordType: 'user',
          recordId: user.id,
          outcome: 'success',
        },
        auditContext(ctx),
      );
      return handoff(user.id);
    }
    if (created === 'duplicate_identity') {
      // The same clinician's other sign-in made the account a moment ago.
      const raced = await deps.store.findUserByIdentity(issuer, subject);
      if (raced) return handoff(raced.id);
    }
    // An account with this e-mail exists (a password account): linked only once it signs in with its password, and
    // only when the provider vouches for the e-mail (else anyone who can name an e-mail at their own provider could
    // ask the account's owner to link it).
    if (!linkableEmail(email, claims.email_verified, deps.trustedEmailDomains)) {
      ctx.state.signOnProblem = 'an account has this e-mail and the provider does not say the e-mail is verified';
      await audit(ctx, 'anonymous', 'denied');
      return refuse(ctx, REFUSALS.link_unverified_email, returnTo);
    }
    const link: LinkFlowData = { issuer, subject, email, name: nameOf(claims, email), handover };
    const handle = await flows.start(LINK_FLOW, link, LINK_TTL_MS);
    ctx.status = 303;
    ctx.redirect(returnWith(returnTo, LINK_FRAGMENT, handle));
  });

  router.post('/session', access.anyone, async (ctx) => {
    const rate = await deps.limiter.checkRequestRate(clientAddress(ctx));
    if (rate.limited) tooManyRequests(ctx, rate.retryAfterSeconds, TOO_MANY_FROM_ADDRESS_MESSAGE);
    const { code, verifier } = validate(ctx, handoffSchema, ctx.request.body, ['code', 'verifier']);
    const flow = await flows.take<HandoffData>(HANDOFF_FLOW, code);
    if (!flow) return ctx.throw(401, SSO_HANDOFF_EXPIRED_MESSAGE);
    // Taken either way: a code planted in another page, or opened in another browser, is spent and gives nothing.
    if (!verifierMatches(flow.data.handover, verifier)) {
      ctx.state.signOnProblem = 'the hand-over code was redeemed without the starting page verifier';
      await audit(ctx, 'anonymous', 'denied');
      return ctx.throw(401, SSO_HANDOFF_OTHER_PAGE_MESSAGE, { answer: { code: 'sso_other_page' } });
    }
    const user = await deps.store.findUserById(flow.data.userId);
    if (!user) return ctx.throw(401, SSO_HANDOFF_EXPIRED_MESSAGE);
    // Disabled while its deletion waits out the grace period: no session (docs/API.md#my-data).
    if (user.deletion) {
      await audit(ctx, user.id, 'denied');
      return ctx.throw(403, ACCOUNT_DELETION_PENDING_MESSAGE, {
        answer: { code: ACCOUNT_DELETION_PENDING_CODE, eraseAfter: user.deletion.eraseAfter },
      });
    }
    const method = providerSessionMethod('oidc', flow.data.multiFactor === true);
    const opened = await openSession(deps, ctx, user, method, { issuer: flow.data.issuer, idToken: flow.data.idToken });
    await audit(ctx, user.id, 'success', opened.sessionId);
    ctx.body = opened.body;
  });

  /**
   * What a link code would link, for the prompt to name it (provider, name, e-mail) before the password is asked:
   * only to the page whose verifier the code was made for. The code stays good (it is put back as it was).
   */
  router.post('/link', access.anyone, async (ctx) => {
    const rate = await deps.limiter.checkRequestRate(clientAddress(ctx));
    if (rate.limited) tooManyRequests(ctx, rate.retryAfterSeconds, TOO_MANY_FROM_ADDRESS_MESSAGE);
    const { code, verifier } = validate(ctx, handoffSchema, ctx.request.body, ['code', 'verifier']);
    const flow = await flows.take<LinkFlowData>(LINK_FLOW, code);
    if (!flow)
      return ctx.throw(400, SSO_LINK_EXPIRED_MESSAGE, {
        issues: [{ field: 'code', message: SSO_LINK_EXPIRED_MESSAGE }],
      });
    // A code shown to another page is spent: it links nothing, and names no one.
    if (!verifierMatches(flow.data.handover, verifier)) return ctx.throw(403, SSO_LINK_OTHER_BROWSER_MESSAGE);
    await flows.put(LINK_FLOW, code, flow.data, flow.expiresAt);
    ctx.body = { provider: deps.config.displayName, name: flow.data.name ?? null, email: flow.data.email };
  });

  return router;
}

/** Answered when single sign-on is not set up, for every route of it. */
export function singleSignOnOff(): Router<AppState> {
  const router = apiRouter('/api/auth/oidc');
  router.all(['/start', '/callback', '/session', '/link'], access.anyone, (ctx) =>
    ctx.throw(404, SSO_NOT_CONFIGURED_MESSAGE),
  );
  return router;
}

/** The clinician's name for "Welcome, Dr. …": `name`, else given and family names, else the e-mail. */
function nameOf(claims: Record<string, unknown>, email: string): string {
  const text = (value: unknown) => (typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : '');
  const name = text(claims.name) || [text(claims.given_name), text(claims.family_name)].filter(Boolean).join(' ');
  return (name || email).slice(0, 100);
}

/** Every way a sign-on is refused: its status, what the page says, and a code for clients. */
const REFUSALS: Record<
  | OidcFlowError['failure']
  | 'other_subject'
  | 'no_email'
  | 'unverified_email'
  | 'link_unverified_email'
  | 'no_challenge',
  SignOnRefusal
> = {
  no_challenge: {
    status: 400,
    code: 'sso_no_challenge',
    message: SSO_START_CHALLENGE_MESSAGE,
  },
  link_unverified_email: {
    status: 403,
    code: 'sso_link_unverified_email',
    message:
      "An account with your e-mail address already exists here, and the hospital's sign-in does not say that the " +
      'address is verified, so the two cannot be joined. Sign in with your password, or ask IT to verify the ' +
      'address.',
  },
  unknown_state: {
    status: 400,
    code: 'sso_expired',
    message: 'This sign-in has expired or was already used. Please start again.',
  },
  binding_mismatch: {
    status: 400,
    code: 'sso_other_browser',
    message: 'This sign-in was started in another browser or tab that has since closed. Please start again.',
  },
  provider_error: {
    status: 401,
    code: 'sso_refused',
    message: "The hospital's sign-in did not sign you in (it was cancelled or refused).",
  },
  invalid_response: {
    status: 401,
    code: 'sso_invalid',
    message: "The hospital's sign-in answer could not be verified, so you were not signed in. Please try again.",
  },
  other_subject: {
    status: 401,
    code: 'sso_invalid',
    message:
      "The hospital's sign-in answered about another person than the one who signed in, so you were not signed " +
      "in. If it happens again, tell the hospital's IT.",
  },
  tenant_not_allowed: {
    status: 403,
    code: 'sso_tenant',
    message: "Your organisation's accounts are not allowed to sign in here.",
  },
  no_email: {
    status: 403,
    code: 'sso_no_email',
    message: "The hospital's sign-in gave no e-mail address for you. Ask IT to release the email claim.",
  },
  unverified_email: {
    status: 403,
    code: 'sso_unverified_email',
    message: "Your e-mail address is not verified at the hospital's sign-in. Ask IT to verify it, then try again.",
  },
  unavailable: {
    status: 503,
    code: 'sso_unavailable',
    message: "The hospital's sign-in service could not be reached. Please try again in a minute.",
  },
};
