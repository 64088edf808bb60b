import * as client from 'openid-client';
import type { Completion, OidcClient } from './client.ts';

/**
 * Each claim a sign-in may need, as the claims that carry it: `shownBy` says whether a source has it, and
 * `carried` is taken whole from that one source, so an ID token's `email` is never paired with UserInfo's
 * `email_verified`, nor the reverse.
 */
const NEEDED_CLAIMS = {
  email: { shownBy: ['email'], carried: ['email', 'email_verified'] },
  name: { shownBy: ['name', 'given_name', 'family_name'], carried: ['name', 'given_name', 'family_name'] },
} as const satisfies Record<string, { shownBy: readonly string[]; carried: readonly string[] }>;
export type NeededClaim = keyof typeof NEEDED_CLAIMS;

/**
 * What the sign-in goes on with: the claims (the ID token's, completed from UserInfo when it was read), or
 * why UserInfo could not complete them. `detail` is for the server log, never a token or a `sub`; `oauthError`
 * is the bare error code of a UserInfo challenge (`invalid_token`, `insufficient_scope`).
 */
export type UserInfoOutcome =
  | {
      kind: 'claims';
      claims: Record<string, unknown>;
      /** not_needed: the ID token had all; no_endpoint: the provider offers no UserInfo; read: it was asked. */
      userInfo: 'not_needed' | 'no_endpoint' | 'read';
      fromUserInfo: readonly NeededClaim[];
    }
  | { kind: 'unavailable'; detail: string }
  | { kind: 'invalid'; detail: string; oauthError?: string }
  | { kind: 'other_subject'; detail: string };

const shows = (claims: Record<string, unknown>, needed: NeededClaim) =>
  NEEDED_CLAIMS[needed].shownBy.some((name) => {
    const value = claims[name];
    return typeof value === 'string' && value.trim() !== '';
  });

/**
 * The ID token's claims, with what it lacks of `needed` read from the provider's UserInfo endpoint with the
 * access token. OpenID Connect Core section 5.4 lets a provider put the claims asked for by scope (`profile`,
 * `email`) only in UserInfo when it issues an access token (Okta's and oidc-provider's default); Entra ID and
 * Keycloak put them in the ID token too, and then no request is made. The ID token's values win; UserInfo
 * fills only what is missing; its `sub` must be the ID token's (openid-client checks it: section 5.3.2, a token
 * substitution). A provider without `userinfo_endpoint` leaves the ID token's claims as they are.
 */
export async function claimsWithUserInfo(
  oidcClient: OidcClient,
  completion: Completion,
  needed: readonly NeededClaim[],
): Promise<UserInfoOutcome> {
  const idToken: Record<string, unknown> = completion.claims;
  const missing = needed.filter((claim) => !shows(idToken, claim));
  if (missing.length === 0) return { kind: 'claims', claims: idToken, userInfo: 'not_needed', fromUserInfo: [] };
  let answer: Record<string, unknown>;
  try {
    // Discovered already: complete() used the same configuration.
    const config = await oidcClient.configuration();
    const accessToken = completion.tokens.access_token;
    if (!config.serverMetadata().userinfo_endpoint || !accessToken)
      return { kind: 'claims', claims: idToken, userInfo: 'no_endpoint', fromUserInfo: [] };
    answer = await client.fetchUserInfo(config, accessToken, completion.claims.sub);
  } catch (error) {
    return failureOf(error);
  }
  const claims = { ...idToken };
  const fromUserInfo = missing.filter((claim) => shows(answer, claim));
  for (const claim of fromUserInfo)
    for (const name of NEEDED_CLAIMS[claim].carried) {
      delete claims[name];
      if (answer[name] !== undefined) claims[name] = answer[name];
    }
  return { kind: 'claims', claims, userInfo: 'read', fromUserInfo };
}

/**
 * Why UserInfo gave nothing: `unavailable` when it could not be reached, timed out or answered 5xx (try again
 * later); `other_subject` when it answered for another `sub`; `invalid` for any other answer (a 4xx, a
 * challenge such as `invalid_token`, no JSON, no `sub`).
 */
function failureOf(error: unknown): Exclude<UserInfoOutcome, { kind: 'claims' }> {
  const message = error instanceof Error ? error.message : String(error);
  // undici's "fetch failed" (refused, reset, DNS) is a TypeError without a code; openid-client's own
  // argument checks have one (ERR_INVALID_ARG_TYPE).
  if (error instanceof TypeError && !('code' in error))
    return { kind: 'unavailable', detail: `UserInfo could not be reached: ${message}` };
  if (error instanceof client.WWWAuthenticateChallengeError) {
    const code = error.cause[0]?.parameters.error;
    return {
      kind: 'invalid',
      detail: `UserInfo answered ${error.status} with a challenge${code ? ` (${code})` : ''}`,
      ...(code ? { oauthError: code } : {}),
    };
  }
  if (error instanceof client.ClientError) {
    if (error.code === 'OAUTH_TIMEOUT' || error.code === 'OAUTH_ABORT')
      return { kind: 'unavailable', detail: `UserInfo did not answer in time: ${message}` };
    const { cause } = error;
    if (error.code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' && cause instanceof Response)
      return cause.status >= 500
        ? { kind: 'unavailable', detail: `UserInfo answered ${cause.status}` }
        : { kind: 'invalid', detail: `UserInfo answered ${cause.status}` };
    if (error.code === 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED')
      return { kind: 'other_subject', detail: "UserInfo answered for another sub than the ID token's" };
    return { kind: 'invalid', detail: `UserInfo: ${error.code ?? ''} ${message}`.slice(0, 300) };
  }
  return { kind: 'invalid', detail: `UserInfo: ${message}`.slice(0, 300) };
}
