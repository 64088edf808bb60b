import { createHash } from 'node:crypto';
import * as client from 'openid-client';
import type { AuthFlows } from '../auth/flows.ts';
import { isLoopbackHost } from '../config.ts';

/**
 * An OpenID Connect relying party for one provider (issuer + client), with openid-client v6: the
 * authorization code flow with PKCE (S256), `state` and `nonce`, each flow kept on the server (auth/flows.ts)
 * so that any instance can finish it and it is used once, within FLOW_TTL_MS. Nothing here knows about
 * accounts: the hospital's single sign-on (oidc/routes.ts) is one user of it; an EHR's authorization server
 * (SMART App Launch: `extraParams` `launch` and `aud`, the launch context in `tokens`) or a fresh
 * re-authentication (`maxAge: 0`, `prompt: 'login'`) are others.
 *
 * What it checks, beside the provider's own checks of the code and the verifier: the authorization
 * response's `state` (by finding its flow), `iss` when the provider sends it (RFC 9207), and the ID token's
 * signature (the provider's JWKS, fetched and cached by openid-client), `iss`, `aud`, `azp`, `nonce`, `exp`
 * and `iat` with CLOCK_TOLERANCE_SECONDS of leeway, and `auth_time` against `maxAge`. An Entra ID multi-tenant issuer
 * (`https://login.microsoftonline.com/{tenantid}/v2.0`) is accepted only for the tenants `allowedTenants`
 * lists: openid-client checks `iss` against the template filled with the token's `tid`, this checks the `tid`.
 */
export const FLOW_TTL_MS = 10 * 60 * 1000;
export const CLOCK_TOLERANCE_SECONDS = 30;

export interface OidcClientOptions {
  issuer: string;
  clientId: string;
  /** None: a public client, which proves itself by PKCE alone. */
  clientSecret?: string;
  redirectUri: string;
  scope: string;
  flows: AuthFlows;
  /** Entra ID tenant ids (`tid`) accepted; a multi-tenant issuer with none is refused. */
  allowedTenants?: readonly string[];
  /** The HTTP client for the provider (tests give a recorded or local provider); the global fetch by default. */
  fetch?: client.CustomFetch;
  /**
   * The provider's metadata found some other way than `{issuer}/.well-known/openid-configuration` (an EHR's
   * `.well-known/smart-configuration`, api/smart/discovery.ts); `issuer` is then a name for the log only.
   */
  metadata?: () => Promise<client.ServerMetadata>;
  /** How the client proves itself at the token endpoint, instead of the secret (e.g. private_key_jwt). */
  clientAuth?: client.ClientAuth;
}

export interface BeginOptions {
  /** The flow's kind (its namespace in the store): complete() takes only flows of the kind it names. */
  kind: string;
  /** Kept with the flow and answered by complete(): where to go after, what the flow is for. */
  data: unknown;
  /** A secret of the browser that started the flow (a cookie): complete() must be given the same. */
  binding?: string;
  /** Seconds: the provider must have authenticated the user this recently (`max_age`; 0 asks for a fresh sign-in). */
  maxAge?: number;
  prompt?: string;
  scope?: string;
  /** More authorization request parameters (e.g. SMART's `launch` and `aud`). */
  extraParams?: Record<string, string>;
}

export type OidcFailure =
  'unknown_state' | 'binding_mismatch' | 'provider_error' | 'invalid_response' | 'tenant_not_allowed' | 'unavailable';

export class OidcFlowError extends Error {
  override name = 'OidcFlowError';
  constructor(
    readonly failure: OidcFailure,
    /** For the server log: what the provider or the check said (never a token). */
    readonly detail: string,
    /** The flow's data when the flow was found (where to send the browser back). */
    readonly flowData?: unknown,
    /**
     * The OAuth error code the provider answered (`error` at the callback or from the token endpoint), when it
     * is one (OAUTH_ERROR_CODE); never its `error_description`, which is free text from outside.
     */
    readonly oauthError?: string,
  ) {
    super(`${failure}: ${detail}`);
  }
}

export interface Completion {
  data: unknown;
  tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers;
  /** The ID token's verified claims. */
  claims: client.IDToken;
  idToken: string;
}

/** A flow taken from the store by takeFlow (its data is the `data` begin() was given). */
export interface TakenFlow {
  readonly state: string;
  readonly stored: StoredFlow;
}

/**
 * Takes the flow the callback's `state` names, before knowing which client finishes it (an EHR launch: the
 * flow's data names the EHR, and so the client); undefined when there is none (expired, used or unknown).
 */
export async function takeFlow(flows: AuthFlows, kind: string, query: URLSearchParams): Promise<TakenFlow | undefined> {
  const state = query.get('state');
  const flow = state ? await flows.take<StoredFlow>(kind, state) : undefined;
  return flow && state ? { state, stored: flow.data } : undefined;
}

interface StoredFlow {
  nonce: string;
  codeVerifier: string;
  maxAge: number | null;
  bindingHash: string | null;
  data: unknown;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

/** An Entra ID issuer shared by every tenant: its metadata names `{tenantid}` in place of one. */
const isMultiTenant = (issuer: string) => issuer.includes('{tenantid}');

export interface OidcClient {
  readonly issuer: string;
  /** The provider's metadata, discovered once (a failed discovery is tried again on the next call). */
  configuration(): Promise<client.Configuration>;
  /** Starts a flow: answers the provider's authorization URL to send the browser to. */
  begin(options: BeginOptions): Promise<URL>;
  /**
   * Finishes the flow the callback URL's `state` names (taking it, unless `taken` is that flow already, as
   * takeFlow answered it), or throws OidcFlowError.
   */
  complete(
    callbackQuery: URLSearchParams,
    options: { kind: string; binding?: string; taken?: TakenFlow },
  ): Promise<Completion>;
  /** Where to send the browser to end the provider's session too, when it offers end_session_endpoint. */
  endSessionUrl(idTokenHint: string, postLogoutRedirectUri: string): Promise<string | undefined>;
}

export function createOidcClient(options: OidcClientOptions): OidcClient {
  const issuerUrl = new URL(options.issuer);
  const insecure = issuerUrl.protocol === 'http:' && isLoopbackHost(issuerUrl.hostname);
  const allowedTenants = new Set(options.allowedTenants ?? []);
  let discovered: Promise<client.Configuration> | undefined;

  const configuration = () => {
    discovered ??= (async () => {
      const metadata: Partial<client.ClientMetadata> = {
        client_secret: options.clientSecret,
        [client.clockTolerance]: CLOCK_TOLERANCE_SECONDS,
      };
      const auth =
        options.clientAuth ?? (options.clientSecret ? client.ClientSecretBasic(options.clientSecret) : client.None());
      if (options.metadata) {
        const server = await options.metadata();
        const config = new client.Configuration(server, options.clientId, metadata, auth);
        if (options.fetch) config[client.customFetch] = options.fetch;
        config.timeout = 10;
        client.enableNonRepudiationChecks(config);
        if (insecure) client.allowInsecureRequests(config);
        return config;
      }
      const config = await client.discovery(issuerUrl, options.clientId, metadata, auth, {
        ...(options.fetch ? { [client.customFetch]: options.fetch } : {}),
        // The ID token's signature is checked against the provider's JWKS too, not only TLS to its token
        // endpoint (which OpenID Connect Core 3.1.3.7 allows): a proxy or a wrong DNS answer cannot forge one.
        execute: [client.enableNonRepudiationChecks, ...(insecure ? [client.allowInsecureRequests] : [])],
        timeout: 10,
      });
      if (isMultiTenant(config.serverMetadata().issuer) && allowedTenants.size === 0)
        throw new OidcFlowError(
          'unavailable',
          `${options.issuer} is a multi-tenant issuer: OIDC_ALLOWED_TENANTS must list the tenants allowed`,
        );
      return config;
    })();
    discovered.catch(() => (discovered = undefined));
    return discovered;
  };
  const configured = async () => {
    try {
      return await configuration();
    } catch (error) {
      if (error instanceof OidcFlowError) throw error;
      throw new OidcFlowError('unavailable', `discovery of ${options.issuer} failed: ${(error as Error).message}`);
    }
  };

  return {
    issuer: options.issuer,
    configuration,

    async begin(begin) {
      const config = await configured();
      const codeVerifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const parameters: Record<string, string> = {
        redirect_uri: options.redirectUri,
        scope: begin.scope ?? options.scope,
        response_type: 'code',
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
        ...(begin.maxAge !== undefined ? { max_age: String(begin.maxAge) } : {}),
        ...(begin.prompt ? { prompt: begin.prompt } : {}),
        ...begin.extraParams,
      };
      const flow: StoredFlow = {
        nonce,
        codeVerifier,
        maxAge: begin.maxAge ?? null,
        bindingHash: begin.binding ? sha256(begin.binding) : null,
        data: begin.data,
      };
      await options.flows.start(begin.kind, flow, FLOW_TTL_MS, state);
      return client.buildAuthorizationUrl(config, parameters);
    },

    async complete(query, { kind, binding, taken }) {
      // Taken first, whatever follows: a state is good for one answer of the provider, right or wrong.
      const flow = taken ?? (await takeFlow(options.flows, kind, query));
      if (!flow || flow.state !== query.get('state'))
        throw new OidcFlowError('unknown_state', 'no sign-in under way has this state (expired or used)');
      const { state, stored } = flow;
      if (stored.bindingHash && (!binding || sha256(binding) !== stored.bindingHash))
        throw new OidcFlowError('binding_mismatch', 'the flow was started in another browser', stored.data);
      if (query.has('error'))
        throw new OidcFlowError(
          'provider_error',
          `${query.get('error')}: ${query.get('error_description') ?? ''}`.slice(0, 300),
          stored.data,
          oauthErrorCode(query.get('error')),
        );
      const config = await configured().catch((error: OidcFlowError) => {
        throw new OidcFlowError(error.failure, error.detail, stored.data);
      });
      const callbackUrl = new URL(options.redirectUri);
      callbackUrl.search = query.toString();
      let tokens: Completion['tokens'];
      try {
        tokens = await client.authorizationCodeGrant(config, callbackUrl, {
          pkceCodeVerifier: stored.codeVerifier,
          expectedState: state,
          expectedNonce: stored.nonce,
          idTokenExpected: true,
          ...(stored.maxAge !== null ? { maxAge: stored.maxAge } : {}),
        });
      } catch (error) {
        throw new OidcFlowError(
          'invalid_response',
          describeError(error),
          stored.data,
          // A 401 to Basic credentials carries its code in the WWW-Authenticate challenge (RFC 6749 section 5.2)
          oauthErrorCode(
            error instanceof client.WWWAuthenticateChallengeError
              ? error.cause[0]?.parameters.error
              : (error as { error?: unknown }).error,
          ),
        );
      }
      const claims = tokens.claims();
      if (!claims || !tokens.id_token)
        throw new OidcFlowError('invalid_response', 'the token response has no ID token', stored.data);
      const tenant = typeof claims.tid === 'string' ? claims.tid.toLowerCase() : undefined;
      const tenantRule = allowedTenants.size > 0 || isMultiTenant(config.serverMetadata().issuer);
      if (tenantRule && (!tenant || !allowedTenants.has(tenant)))
        throw new OidcFlowError(
          'tenant_not_allowed',
          `tenant ${tenant ?? '(none)'} is not in OIDC_ALLOWED_TENANTS`,
          stored.data,
        );
      return { data: stored.data, tokens, claims, idToken: tokens.id_token };
    },

    async endSessionUrl(idTokenHint, postLogoutRedirectUri) {
      const config = await configured().catch(() => undefined);
      if (!config?.serverMetadata().end_session_endpoint) return undefined;
      return client.buildEndSessionUrl(config, {
        id_token_hint: idTokenHint,
        post_logout_redirect_uri: postLogoutRedirectUri,
      }).href;
    },
  };
}

/** What an OAuth error code looks like (RFC 6749 section 4.1.2.1: ASCII, no quote or backslash); kept short. */
export const OAUTH_ERROR_CODE = /^[A-Za-z0-9_.-]{1,64}$/;

/** The provider's OAuth error code, when it is one; else undefined (never the text around it). */
export function oauthErrorCode(value: unknown): string | undefined {
  return typeof value === 'string' && OAUTH_ERROR_CODE.test(value) ? value : undefined;
}

/** One line for the server log: openid-client's message and code, and the provider's error if it sent one. */
function describeError(error: unknown): string {
  const {
    message,
    code,
    error: oauthError,
    error_description: description,
  } = error as {
    message?: string;
    code?: string;
    error?: string;
    error_description?: string;
  };
  return [code, message, oauthError && `${oauthError}: ${description ?? ''}`].filter(Boolean).join(' · ').slice(0, 300);
}
