import type { KeyObject } from 'node:crypto';
import type Router from '@koa/router';
import Koa, { type Middleware, type Next } from 'koa';
import compose from 'koa-compose';
import type { Logger } from 'pino';
import { authenticate } from './auth/authenticate.ts';
import { authFlows } from './auth/flows.ts';
import { DEFAULT_PROVIDER_FACTOR_RULE, type ProviderFactorRule } from './auth/provider-factors.ts';
import { authRoutes, type AuthSettings } from './auth/routes.ts';
import { isSessionEnd, securityRoutes } from './auth/security-routes.ts';
import { accountRoutes, isAccountDeletion } from './account/routes.ts';
import type { ReauthenticationCheck } from './account/reauthenticate.ts';
import type { ExportLimits } from './account/export-slots.ts';
import { createSignInLimiter, type SignInLimiter } from './auth/sign-in-limiter.ts';
import { exportRoutes, isExportUpload } from './exports/routes.ts';
import { contentEncoding } from './http/accept-encoding.ts';
import { fhirRoutes, type FhirRouteDeps } from './fhir/routes.ts';
import { jsonBodyParser } from './http/body-parser.ts';
import { jsonOnce } from './http/json-once.ts';
import { clinicianRateLimit } from './http/clinician-rate-limit.ts';
import { corsAllowList } from './http/cors.ts';
import { errorHandler } from './http/error-handler.ts';
import { negotiateLanguage } from './http/language.ts';
import { isApiPath } from './http/api-path.ts';
import { canonicalApiPath } from './http/canonical-path.ts';
import { securityHeaders } from './http/security-headers.ts';
import { createOidcClient } from './oidc/client.ts';
import { OIDC_CALLBACK_PATH, signInConfig, singleSignOnOff, singleSignOnRoutes } from './oidc/routes.ts';
import { smartOff, smartRoutes } from './smart/routes.ts';
import { staticFiles } from './http/static-files.ts';
import { siteConfigRoutes } from './site-config.ts';
import { historyRoutes } from './history/routes.ts';
import { UNMATCHED_MESSAGES } from './messages.ts';
import { operationsRoutes, type Lifecycle } from './ops/health.ts';
import { silentLogger } from './ops/logger.ts';
import { instrumentStore, type Metrics } from './ops/metrics.ts';
import { requestLog } from './ops/request-log.ts';
import { patientRoutes } from './patients/routes.ts';
import type { AuditLog } from './storage/audit-log.ts';
import type { Store } from './storage/store.ts';
import type { AppContext, AppState } from './state.ts';
import type { CustomFetch } from 'openid-client';
import { DEFAULT_SESSION_IDLE_MINUTES, type OidcConfig, type SmartConfig } from './config.ts';
import { toolRoutes } from './tools/routes.ts';

export interface AppDeps {
  store: Store;
  audit: AuditLog;
  /** The HS256 signing key (a KeyObject, see auth/jwt-secret.ts). */
  jwtKey: KeyObject;
  allowedOrigins?: readonly string[];
  /** Origins besides our own that may show the pages in a frame (FRAME_ANCESTORS); none by default. */
  frameAncestors?: readonly string[];
  /** The built site to serve at / (index.html, widget bundles, PDFs); none: every page path is a 404. */
  staticRoot?: string;
  trustProxy?: boolean;
  /** With trustProxy: how many proxies append to X-Forwarded-For (default 1). */
  trustProxyHops?: number;
  limiter?: SignInLimiter;
  /** Quick Use tool runs allowed per client address per minute (default DEFAULT_ANONYMOUS_RUNS_PER_MINUTE). */
  anonymousRunsPerMinute?: number;
  /** Signed-in requests allowed per clinician per minute (default MAX_REQUESTS_PER_CLINICIAN_PER_MINUTE). */
  requestsPerClinicianPerMinute?: number;
  now?: () => Date;
  logError?: (error: unknown) => void;
  /** One JSON line per request (ops/request-log.ts); none when not given. */
  logger?: Logger;
  /** Request, storage and process metrics; /metrics serves them when metricsToken is set. */
  metrics?: Metrics;
  metricsToken?: string;
  /** /readyz answers 503 once `stopping` is true. */
  lifecycle?: Lifecycle;
  /** HOSPITAL_NAME: answered by GET /api/config, printed on the patient counselling sheet. */
  hospitalName?: string;
  /** The FHIR export's settings (FHIR_MRN_SYSTEM; in tests also the release and the resource ids). */
  fhir?: Omit<FhirRouteDeps, 'store' | 'audit'>;
  /**
   * Sign-in: SESSION_IDLE_MINUTES, REQUIRE_MFA, OIDC_REQUIRED_AMR and OIDC_REQUIRED_ACR, OIDC_ONLY, PUBLIC_URL,
   * OIDC_* and WEBAUTHN_RP_ID (config.ts).
   */
  auth?: {
    idleMinutes?: number;
    requireMfa?: boolean;
    /** When a provider's sign-in (single sign-on, SMART) is two-factor; default DEFAULT_PROVIDER_FACTOR_RULE. */
    providerFactors?: ProviderFactorRule;
    oidcOnly?: boolean;
    publicUrl?: string;
    webauthnRpId?: string;
    oidc?: OidcConfig;
    /** The HTTP client that reaches the OpenID provider (tests: a recorded or local provider). */
    oidcFetch?: CustomFetch;
    /** SMART App Launch from an EHR (SMART_*, FHIR_WRITE_DRAFT_ORDERS); needs publicUrl. */
    smart?: SmartConfig;
  };
  /** ACCOUNT_DELETION_GRACE_DAYS (default 0: "Delete my account" erases at once). */
  accountDeletionGraceDays?: number;
  /** EXPORTS_PER_CLINICIAN and EXPORTS_PER_INSTANCE: account exports at once (account/export-slots.ts). */
  exportLimits?: ExportLimits;
  /** How "Delete my account" proves it is the clinician now (account/reauthenticate.ts; the password by default). */
  reauthenticate?: ReauthenticationCheck;
}

/**
 * The routers, each asked only for paths under its prefix (matched with its case, as the routers match:
 * http/access.ts apiRouter): the same answers as every router's routes() and allowedMethods() in turn, without
 * fourteen middleware calls and their path matching on every request (BENCHMARKS.md, "The cost of a request").
 */
function routeByPrefix(routers: Router<AppState>[]): Middleware<AppState> {
  const parts = routers.map((router) => ({
    prefix: router.opts.prefix ?? '',
    middleware: [router.routes(), router.allowedMethods()] as Middleware<AppState>[],
  }));
  return async function routeApi(ctx, next) {
    const path = ctx.path;
    const chain = parts
      .filter(({ prefix }) => path === prefix || path.startsWith(`${prefix}/`))
      .flatMap(({ middleware }) => middleware);
    const run = (index: number): Promise<unknown> =>
      index === chain.length ? next() : Promise.resolve(chain[index]!(ctx, () => run(index + 1) as ReturnType<Next>));
    await run(0);
  };
}

/** The API's routers of each app createApp made (route-access.test.ts reads every route of them). */
const API_ROUTERS = new WeakMap<Koa<AppState>, readonly Router<AppState>[]>();
export const apiRoutersOf = (app: Koa<AppState>): readonly Router<AppState>[] => API_ROUTERS.get(app) ?? [];

/** Composes the Koa app. It never listens: server.ts does, and tests drive it over real HTTP. */
export function createApp(deps: AppDeps): Koa<AppState> {
  const now = deps.now ?? (() => new Date());
  const proxy = deps.trustProxy ?? false;
  // Each trusted proxy appends the address it saw to X-Forwarded-For; entries further left come from
  // the client and can be anything. Koa keeps the last maxIpsCount entries and ctx.ip is the first
  // of those: the address the outermost trusted proxy saw (with 0 it would take the client's own).
  const app = new Koa<AppState>({ proxy, maxIpsCount: proxy ? (deps.trustProxyHops ?? 1) : 0 });
  app.silent = true; // errors are answered and logged by errorHandler
  const store = deps.metrics ? instrumentStore(deps.store, deps.metrics.storeDuration) : deps.store;
  const shared = { store, audit: deps.audit, now };
  const limiter = deps.limiter ?? createSignInLimiter();
  const auth = deps.auth ?? {};
  const settings: AuthSettings = {
    idleMinutes: auth.idleMinutes ?? DEFAULT_SESSION_IDLE_MINUTES,
    requireMfa: auth.requireMfa ?? false,
    oidcOnly: auth.oidcOnly ?? false,
    webauthn: { rpId: auth.webauthnRpId, publicUrl: auth.publicUrl, allowedOrigins: deps.allowedOrigins ?? [] },
  };
  const oidcClient =
    auth.oidc && auth.publicUrl
      ? createOidcClient({
          issuer: auth.oidc.issuer,
          clientId: auth.oidc.clientId,
          clientSecret: auth.oidc.clientSecret,
          redirectUri: `${auth.publicUrl}${OIDC_CALLBACK_PATH}`,
          scope: auth.oidc.scopes,
          allowedTenants: auth.oidc.allowedTenants,
          flows: authFlows(store, now),
          fetch: auth.oidcFetch,
        })
      : undefined;
  const authDeps = {
    ...shared,
    key: deps.jwtKey,
    limiter,
    settings,
    oidc: oidcClient && auth.publicUrl ? { client: oidcClient, publicUrl: auth.publicUrl } : undefined,
    providerFactors: auth.providerFactors ?? DEFAULT_PROVIDER_FACTOR_RULE,
  };
  // Health and metrics come before the site's files (whose 404 page answers every unknown path),
  // the body parser and authentication: the balancer and the monitoring send no session.
  const operations = operationsRoutes({
    store,
    audit: deps.audit,
    lifecycle: deps.lifecycle,
    metrics: deps.metrics,
    metricsToken: deps.metricsToken,
  });
  // SMART's launch and callback are pages (the EHR opens them), served before the site's files.
  const smart =
    auth.smart && auth.publicUrl
      ? smartRoutes({ ...authDeps, config: auth.smart, publicUrl: auth.publicUrl, mrnSystem: deps.fhir?.mrnSystem })
      : smartOff();
  const routers = [
    authRoutes(authDeps),
    smart.api,
    securityRoutes({ ...authDeps, ssoDisplayName: auth.oidc?.displayName, ssoIssuer: auth.oidc?.issuer }),
    oidcClient && auth.oidc && auth.publicUrl
      ? singleSignOnRoutes({
          ...authDeps,
          config: auth.oidc,
          trustedEmailDomains: auth.oidc.trustedEmailDomains,
          publicUrl: auth.publicUrl,
          allowedOrigins: deps.allowedOrigins ?? [],
          client: oidcClient,
        })
      : singleSignOnOff(),
    toolRoutes({ ...shared, anonymousRunsPerMinute: deps.anonymousRunsPerMinute, requireMfa: settings.requireMfa }),
    patientRoutes(shared),
    historyRoutes(shared),
    exportRoutes(shared),
    siteConfigRoutes({
      hospitalName: deps.hospitalName ?? null,
      signIn: signInConfig(oidcClient ? auth.oidc : undefined, settings.oidcOnly),
    }),
    fhirRoutes({ ...deps.fhir, store, audit: deps.audit }),
    accountRoutes({
      ...shared,
      limiter,
      deletionGraceDays: deps.accountDeletionGraceDays,
      exportLimits: deps.exportLimits,
      fhir: deps.fhir,
      reauthenticate: deps.reauthenticate,
      logError: deps.logError,
    }),
  ];

  const routeOf = (path: string, method: string) => {
    for (const router of [operations, smart.pages, ...routers]) {
      const layer = router.match(path, method).pathAndMethod.find((candidate) => candidate.methods.length > 0);
      if (layer && typeof layer.path === 'string') return layer.path;
    }
    return undefined;
  };
  app.use(requestLog({ logger: deps.logger ?? silentLogger(), metrics: deps.metrics, routeOf }));
  app.use(errorHandler(deps.logError));
  // One spelling of every API path, before anything else looks at it (http/canonical-path.ts).
  app.use(canonicalApiPath());
  // One content coding per request, chosen from Accept-Encoding's weights (or a 406 before anything
  // runs); then the API's JSON (and anything else text that is not already compressed, such as the 404
  // page) is compressed with it; static files come compressed from the build. PDFs are not recompressed.
  app.use(contentEncoding(deps.logError ?? ((error) => console.error(error))));
  app.use(jsonOnce());
  app.use(securityHeaders(deps.frameAncestors));
  app.use(corsAllowList(deps.allowedOrigins ?? []));
  // The site's own paths (health, metrics, SMART's pages, the files): never an API path, which skips them.
  const site = compose<AppContext>([
    operations.routes() as Middleware<AppState>,
    smart.pages.routes() as Middleware<AppState>,
    staticFiles(deps.staticRoot),
  ]);
  app.use(function siteOnly(ctx, next) {
    return isApiPath(ctx.path) ? next() : site(ctx, next);
  });
  app.use(negotiateLanguage());
  app.use(
    jsonBodyParser({
      leaveUnread: isExportUpload,
      deleteWithBody: (ctx) => isAccountDeletion(ctx) || isSessionEnd(ctx),
    }),
  );
  app.use(authenticate({ key: deps.jwtKey, store, now, idleMinutes: settings.idleMinutes, audit: deps.audit }));
  // What only a signed-in request is subject to: an anonymous one (Quick Use) goes past. What each route needs
  // (a session, a second factor under REQUIRE_MFA) is its own guard's to check (http/access.ts).
  const signedIn = clinicianRateLimit(deps.requestsPerClinicianPerMinute);
  app.use(function signedInOnly(ctx, next) {
    ctx.state.requireMfa = settings.requireMfa;
    return ctx.state.auth ? signedIn(ctx, next) : next();
  });
  app.use(async function unmatchedApiRequest(ctx, next) {
    await next();
    if (ctx.body != null) return;
    // No route answered: 404, or the router's 405 (with Allow) / 501 for a known path.
    const status = ctx.status;
    const message = UNMATCHED_MESSAGES[status];
    if (!message) return;
    ctx.body = { message };
    ctx.status = status; // setting a body would make it a 200
  });
  app.use(routeByPrefix(routers));
  API_ROUTERS.set(app, routers);
  return app;
}
