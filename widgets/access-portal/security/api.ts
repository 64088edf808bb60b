import * as v from 'valibot';
import {
  accountSecuritySchema,
  authResponseSchema,
  recoveryCodesSchema,
  secondFactorAddedSchema,
  sessionListSchema,
  totpSetupSchema,
  type SecondFactorMethod,
  type StepUpProof,
} from '../../../contracts/auth.ts';
import { siteConfigSchema, type SiteConfig } from '../../../contracts/site-config.ts';
import { apiRequest, apiSend } from '../../shared/api/api-client.ts';
import { sessionToken } from '../../shared/session/session-state.ts';
import { signOnVerifier, type SignOnChallenge } from './sign-on-verifier.ts';

// The calls of single sign-on, the second factor and the profile's sign-in section (docs/API.md#auth).

const signInOptions = new Map<string, Promise<SiteConfig['signIn']>>();
/** How this server signs clinicians in (GET /api/config): asked once per page and api-base. */
export function loadSignInOptions(apiBase: string | undefined): Promise<SiteConfig['signIn']> {
  const key = apiBase ?? '';
  let options = signInOptions.get(key);
  if (!options) {
    options = apiRequest(apiBase, '/api/config', siteConfigSchema, { token: null }).then((config) => config.signIn);
    options.catch(() => signInOptions.delete(key)); // asked again next time
    signInOptions.set(key, options);
  }
  return options;
}

/**
 * Where the sign-in button sends the browser: the server's start, coming back to this very page, with the
 * challenge of the verifier this tab keeps (sign-on-verifier.ts).
 */
export function signOnUrl(
  apiBase: string | undefined,
  startPath: string,
  returnTo: string,
  { challenge, method }: SignOnChallenge,
): string {
  const base = (apiBase ?? '').trim().replace(/\/+$/, '');
  const query = new URLSearchParams({
    returnTo,
    challenge,
    ...(method === 'plain' ? { challengeMethod: method } : {}),
  });
  return `${base}${startPath}?${query}`;
}

/** The hand-over after the provider: the one-time code of the page's URL, with this tab's verifier. */
export const exchangeSignOn = (apiBase: string | undefined, code: string) =>
  apiRequest(apiBase, '/api/auth/oidc/session', authResponseSchema, {
    method: 'POST',
    body: { code, verifier: signOnVerifier() },
    token: null,
  });

const linkDetailsSchema = v.object({ provider: v.string(), name: v.nullable(v.string()), email: v.string() });
export type LinkDetails = v.InferOutput<typeof linkDetailsSchema>;
/** What a link code would link (the provider, the name and e-mail it gave), for the prompt to name it. */
export const linkDetails = (apiBase: string | undefined, code: string) =>
  apiRequest(apiBase, '/api/auth/oidc/link', linkDetailsSchema, {
    method: 'POST',
    body: { code, verifier: signOnVerifier() },
    token: null,
  });

/** Unlinks a hospital sign-in from the account, with the proof StepUpCheck gathered. */
export const unlinkIdentity = (apiBase: string, id: string, proof: StepUpProof | null) =>
  apiSend(apiBase, `/api/auth/identities/${encodeURIComponent(id)}`, {
    method: 'DELETE',
    body: proof ?? {},
    token: sessionToken(),
  });

const passkeyOptionsSchema = v.object({ options: v.record(v.string(), v.unknown()) });

export const passkeySignInOptions = (apiBase: string | undefined, mfaToken: string) =>
  apiRequest(apiBase, '/api/auth/signin/passkey-options', passkeyOptionsSchema, {
    method: 'POST',
    body: { mfaToken },
    token: null,
  });

/** The second step of a password sign-in; answers the session, and how many recovery codes are left after one. */
export async function secondFactor(
  apiBase: string | undefined,
  body: { mfaToken: string; method: SecondFactorMethod; code?: string; credential?: unknown },
) {
  return apiRequest(apiBase, '/api/auth/signin/second-factor', authResponseSchema, {
    method: 'POST',
    body,
    token: null,
  });
}

export const loadSecurity = (apiBase: string) =>
  apiRequest(apiBase, '/api/auth/security', accountSecuritySchema, { token: sessionToken() });

/** A passkey challenge for proving the clinician again (StepUpCheck). */
export const stepUpPasskeyOptions = (apiBase: string) =>
  apiRequest(apiBase, '/api/auth/step-up/passkey-options', passkeyOptionsSchema, {
    method: 'POST',
    token: sessionToken(),
  });

export const startTotpSetup = (apiBase: string, proof: StepUpProof) =>
  apiRequest(apiBase, '/api/auth/totp/setup', totpSetupSchema, { method: 'POST', body: proof, token: sessionToken() });

export const confirmTotp = (apiBase: string, setupToken: string, code: string) =>
  apiRequest(apiBase, '/api/auth/totp/confirm', secondFactorAddedSchema, {
    method: 'POST',
    body: { setupToken, code },
    token: sessionToken(),
  });

const passkeySetupSchema = v.object({ setupToken: v.string(), options: v.record(v.string(), v.unknown()) });
export const passkeyRegistrationOptions = (apiBase: string, proof: StepUpProof) =>
  apiRequest(apiBase, '/api/auth/passkeys/options', passkeySetupSchema, {
    method: 'POST',
    body: proof,
    token: sessionToken(),
  });

export const registerPasskey = (apiBase: string, body: { setupToken: string; credential: unknown; name?: string }) =>
  apiRequest(apiBase, '/api/auth/passkeys', secondFactorAddedSchema, { method: 'POST', body, token: sessionToken() });

export const removeSecondFactor = (
  apiBase: string,
  body: { password: string; factor: 'totp' | 'passkey'; passkeyId?: string },
) => apiSend(apiBase, '/api/auth/second-factors/remove', { method: 'POST', body, token: sessionToken() });

export const renewRecoveryCodes = (apiBase: string, password: string) =>
  apiRequest(apiBase, '/api/auth/recovery-codes', recoveryCodesSchema, {
    method: 'POST',
    body: { password },
    token: sessionToken(),
  });

export const listSessions = (apiBase: string) =>
  apiRequest(apiBase, '/api/auth/sessions', sessionListSchema, { token: sessionToken() });

/** "Sign out of all other sessions", proven again (a password account) or by a recent hospital sign-in (none). */
export const endOtherSessions = (apiBase: string, proof: StepUpProof | null) =>
  apiRequest(apiBase, '/api/auth/sessions/end-others', v.object({ ended: v.number() }), {
    method: 'POST',
    ...(proof ? { body: proof } : {}),
    token: sessionToken(),
  });
