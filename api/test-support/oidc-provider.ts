import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

/**
 * The hospital's OpenID provider in tests: oidc-provider (panva, certified), a Koa app of its own, on
 * 127.0.0.1, with one confidential client, PKCE required, and its development interactions: a login form
 * that takes any login name (the account id) and any password, then a consent page. The accounts' claims
 * come from ACCOUNTS by login name; an unknown login is a clinician named after it, e-mail verified.
 *
 * By default it follows OpenID Connect Core section 5.4 as oidc-provider and Okta do out of the box
 * (`conformIdTokenClaims: true`): the claims asked for by scope (`profile`, `email`) are only in the UserInfo
 * answer, the ID token has `sub`. `claimsIn: 'id_token'` puts them in the ID token too, as Entra ID and
 * Keycloak do.
 *
 * Its ID tokens carry no `amr` or `acr` unless `authentication` says how every login was authenticated: then its
 * development login reports that (`login: { accountId, amr, acr }`, as a provider's own login page reports a second
 * factor) and the ID token carries it, signed like every other claim.
 */
export const OIDC_CLIENT_ID = 'sgx-portal';
export const OIDC_CLIENT_SECRET = 'a-client-secret-of-the-hospital-provider-0123456789';
/** oidc-provider's UserInfo route (its default `routes.userinfo`). */
const USERINFO_PATH = '/me';

export interface TestAccountClaims {
  name?: string;
  email?: string;
  email_verified?: boolean;
}

export const ACCOUNTS: Record<string, TestAccountClaims> = {
  'amal.haddad': { name: 'Amal Haddad', email: 'amal.haddad@hospital.example', email_verified: true },
  'unverified.nurse': { name: 'Unverified Nurse', email: 'unverified@hospital.example', email_verified: false },
  'no.email': { name: 'No Email' },
  // A provider that sends no email_verified at all (Entra ID never does).
  'silent.provider': { name: 'Silent Provider', email: 'silent.provider@hospital.example' },
};

export function claimsOf(login: string): TestAccountClaims {
  return (
    ACCOUNTS[login] ?? {
      name: login.replace(/[._-]+/g, ' ').replace(/\b\w/g, (letter) => letter.toUpperCase()),
      email: `${login}@hospital.example`,
      email_verified: true,
    }
  );
}

export interface TestProviderOptions {
  /** Where the profile and e-mail claims go: UserInfo only (section 5.4, the default), or the ID token too. */
  claimsIn?: 'userinfo' | 'id_token';
  /**
   * What the UserInfo endpoint does: answers (the default); answers with another `sub` than the ID token's
   * (`other_subject`); closes the connection without an answer (`drops`); answers 503 (`fails`); or is not
   * offered at all, no `userinfo_endpoint` in the metadata (`absent`: oidc-provider then puts the claims in
   * the ID token, whatever `claimsIn` says).
   */
  userInfo?: 'answers' | 'other_subject' | 'drops' | 'fails' | 'absent';
  /** The scopes the client is registered for (e.g. "openid profile": asking for `email` is `invalid_scope`). */
  allowedScopes?: string;
  /**
   * How the provider authenticated each login, in its ID tokens: `amr` (RFC 8176, e.g. `['pwd', 'mfa']` after a
   * second factor, as Entra ID and Okta send) and `acr` (its own level names, as Keycloak's). Unset: neither claim.
   */
  authentication?: LoginAuthentication;
  /** Claims the UserInfo answer adds to the account's (e.g. `amr`, which only a signed ID token may vouch for). */
  userInfoExtra?: Record<string, unknown>;
}

/** How a provider authenticated a login, as its ID token says: `amr` (RFC 8176) and `acr`. */
export interface LoginAuthentication {
  amr?: string[];
  acr?: string;
}

/**
 * oidc-provider's `interactionResult` (public API, not in oidc-provider-module.d.ts): what its interactions hand
 * over, the development login `{ login: { accountId } }`; `amr` and `acr` of `login` become the ID token's.
 */
interface InteractionResults {
  interactionResult(
    req: IncomingMessage,
    res: ServerResponse,
    result: { login?: { accountId: string } & LoginAuthentication; [key: string]: unknown },
    options?: { mergeWithLastSubmission?: boolean },
  ): Promise<string>;
}

/**
 * The claims the `openid` scope releases beside `sub` for `authentication` (its `claims` setting): `amr` and `acr`,
 * each only when it is set, so a provider without them issues the ID tokens it did before.
 */
export const loginAuthenticationClaims = (authentication: LoginAuthentication | undefined): string[] => [
  ...(authentication?.amr ? ['amr'] : []),
  ...(authentication?.acr !== undefined ? ['acr'] : []),
];

/**
 * Makes an oidc-provider's development login (which takes any password and reports only the account) report
 * `authentication` for every login too, as a provider's own login page does after a second factor: its ID tokens
 * then carry it, signed, once `loginAuthenticationClaims` releases it. For the hospital's provider here and an EHR's
 * authorization server (smart-ehr.ts).
 */
export function reportLoginAuthentication(provider: Provider, authentication: LoginAuthentication): void {
  const results = provider as Provider & InteractionResults;
  const handOver = results.interactionResult.bind(provider);
  results.interactionResult = (req, res, result, ...rest) =>
    handOver(req, res, result.login ? { ...result, login: { ...result.login, ...authentication } } : result, ...rest);
}

export interface TestProvider {
  issuer: string;
  /** Creates the provider, now that the app's redirect URI is known. */
  start(options: { redirectUri: string; postLogoutRedirectUri: string; codeTtlSeconds?: number }): Promise<void>;
  provider(): Provider;
  /** How many requests reached the UserInfo endpoint, whatever it answered. */
  userInfoRequests(): number;
  close(): Promise<void>;
}

/** Listens first (the issuer names the port), then serves the provider once `start` made it. */
export async function reserveTestProvider(options: TestProviderOptions = {}): Promise<TestProvider> {
  const { claimsIn = 'userinfo', userInfo = 'answers', allowedScopes, authentication, userInfoExtra } = options;
  let handler: ((request: IncomingMessage, response: ServerResponse) => void) | undefined;
  let made: Provider | undefined;
  let userInfoRequests = 0;
  const server: Server = createServer((request, response) => {
    if (new URL(request.url ?? '/', 'http://provider').pathname === USERINFO_PATH) {
      userInfoRequests += 1;
      if (userInfo === 'drops') return void request.socket.destroy();
      if (userInfo === 'fails') return void response.writeHead(503).end();
    }
    if (handler) handler(request, response);
    else response.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    async start({ redirectUri, postLogoutRedirectUri, codeTtlSeconds = 60 }) {
      const { privateKey } = await generateKeyPair('RS256', { extractable: true });
      made = new Provider(issuer, {
        jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: 'test-provider-key', use: 'sig', alg: 'RS256' }] },
        clients: [
          {
            client_id: OIDC_CLIENT_ID,
            client_secret: OIDC_CLIENT_SECRET,
            redirect_uris: [redirectUri],
            post_logout_redirect_uris: [postLogoutRedirectUri],
            grant_types: ['authorization_code'],
            response_types: ['code'],
            token_endpoint_auth_method: 'client_secret_basic',
            ...(allowedScopes ? { scope: allowedScopes } : {}),
          },
        ],
        pkce: { required: () => true },
        conformIdTokenClaims: claimsIn === 'userinfo',
        claims: {
          openid: ['sub', ...loginAuthenticationClaims(authentication)],
          profile: ['name'],
          email: ['email', 'email_verified'],
        },
        findAccount: (_ctx, id) => ({
          accountId: id,
          claims: () => ({ sub: id, ...claimsOf(id) }),
        }),
        features: {
          devInteractions: { enabled: true },
          rpInitiatedLogout: { enabled: true },
          userinfo: { enabled: userInfo !== 'absent' },
        },
        ttl: {
          AuthorizationCode: codeTtlSeconds,
          Interaction: 600,
          Session: 3600,
          Grant: 3600,
          AccessToken: 600,
          IdToken: 600,
        },
        cookies: { keys: ['test-cookie-key-0123456789abcdef'] },
      });
      if (authentication) reportLoginAuthentication(made, authentication);
      if (userInfo === 'other_subject' || userInfoExtra)
        made.use(async (ctx, next) => {
          await next();
          // What a mixed-up or malicious provider might answer: the same claims about someone else, or claims
          // beside them that only a signed ID token may vouch for.
          const other = userInfo === 'other_subject' ? { sub: 'someone.else' } : {};
          if (ctx.path === USERINFO_PATH && ctx.status === 200 && typeof ctx.body === 'object' && ctx.body)
            ctx.body = { ...ctx.body, ...userInfoExtra, ...other };
        });
      handler = made.callback();
    },
    provider() {
      if (!made) throw new Error('the test provider was not started');
      return made;
    },
    userInfoRequests: () => userInfoRequests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
