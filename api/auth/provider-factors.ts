import type { SessionMethod } from '../storage/records.ts';

/**
 * When a provider's sign-in counts as two factors: the hospital's single sign-on, or the EHR's of a SMART launch.
 * Its ID token may say how it authenticated the clinician (OpenID Connect Core section 2): `amr`, the methods
 * used (RFC 8176: `pwd`, `otp`, `hwk`, `mfa`, …), and `acr`, the level reached, in the provider's own names
 * (Keycloak's levels, a URI). The session is two-factor only when `amr` holds one of OIDC_REQUIRED_AMR or `acr`
 * is one of OIDC_REQUIRED_ACR, compared exactly (both are case-sensitive). A provider that sends neither, or
 * sends them malformed (`amr` not an array of strings, `acr` not a string), counts as one factor: ASVS 6.8.4's
 * fallback assumes the minimum strength.
 */
export interface ProviderFactorRule {
  /** OIDC_REQUIRED_AMR: any one of these among the ID token's `amr` values qualifies. */
  readonly amr: readonly string[];
  /** OIDC_REQUIRED_ACR: an ID token's `acr` equal to one of these qualifies. */
  readonly acr: readonly string[];
}

/**
 * OIDC_REQUIRED_AMR and OIDC_REQUIRED_ACR when unset: RFC 8176's `mfa`, which Entra ID and Okta add to `amr`
 * after a second factor; no `acr` level, since their names are each provider's own.
 */
export const DEFAULT_PROVIDER_FACTOR_RULE: ProviderFactorRule = Object.freeze({
  amr: Object.freeze(['mfa']),
  acr: Object.freeze([]),
});

/** An ID token's claims, verified but not otherwise trusted: any JSON may be in `amr` and `acr`. */
export type IdTokenClaims = Readonly<Record<string, unknown>>;

export function providerMultiFactor(claims: IdTokenClaims, rule: ProviderFactorRule): boolean {
  const { amr, acr } = claims;
  const byAmr = Array.isArray(amr) && amr.some((value) => typeof value === 'string' && rule.amr.includes(value));
  const byAcr = typeof acr === 'string' && rule.acr.includes(acr);
  return byAmr || byAcr;
}

/** The method of a session a provider opened: `oidc` (single sign-on) or `smart`, with `+mfa` when it qualified. */
export const providerSessionMethod = (provider: 'oidc' | 'smart', multiFactor: boolean): SessionMethod =>
  multiFactor ? `${provider}+mfa` : provider;

/** The sessions a provider opened, with a second factor or without (account/reauthenticate.ts). */
export const PROVIDER_SESSION_METHODS: ReadonlySet<SessionMethod> = new Set(['oidc', 'oidc+mfa', 'smart', 'smart+mfa']);
