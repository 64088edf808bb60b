import type { ServerMetadata } from 'openid-client';
import { isLoopbackHost } from '../config.ts';
import { EhrRedirectError, errorAnswerSummary, isRedirectRefusal } from './ehr-http.ts';

/**
 * An EHR's SMART configuration (SMART App Launch v2.2, Conformance): `{iss}/.well-known/smart-configuration`,
 * read as the authorization server's metadata for openid-client. Refused unless it offers what this app
 * needs: the authorization and token endpoints, PKCE S256 (mandatory in v2.2), and OpenID Connect (an
 * `issuer` and a `jwks_uri`, for the ID token that names the clinician by `fhirUser`). A redirect is not followed,
 * and the error says the status, never the EHR's text (ehr-http.ts).
 */
export class SmartDiscoveryError extends Error {
  override name = 'SmartDiscoveryError';
}

const secureUrl = (value: unknown): value is string => {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
  } catch {
    return false;
  }
};

export async function discoverSmartConfiguration(iss: string, fetcher: typeof fetch = fetch): Promise<ServerMetadata> {
  const url = `${iss}/.well-known/smart-configuration`;
  let response: Response;
  try {
    response = await fetcher(url, {
      headers: { Accept: 'application/json' },
      signal: AbortSignal.timeout(10_000),
      redirect: 'error',
    });
  } catch (error) {
    if (error instanceof EhrRedirectError || isRedirectRefusal(error))
      throw new SmartDiscoveryError(`${url}: ${new EhrRedirectError().message}`);
    throw new SmartDiscoveryError(`${url} could not be fetched: ${(error as Error).message}`);
  }
  if (!response.ok)
    throw new SmartDiscoveryError(`${url} answered ${response.status} (${await errorAnswerSummary(response)})`);
  let body: Record<string, unknown>;
  try {
    body = (await response.json()) as Record<string, unknown>;
  } catch {
    throw new SmartDiscoveryError(`${url} is not JSON`);
  }
  for (const field of ['authorization_endpoint', 'token_endpoint', 'issuer', 'jwks_uri'] as const)
    if (!secureUrl(body[field])) throw new SmartDiscoveryError(`${url} has no https ${field}`);
  const methods = body.code_challenge_methods_supported;
  if (!Array.isArray(methods) || !methods.includes('S256'))
    throw new SmartDiscoveryError(`${url} does not list S256 in code_challenge_methods_supported`);
  return {
    ...(body as Partial<ServerMetadata>),
    issuer: body.issuer as string,
    authorization_endpoint: body.authorization_endpoint as string,
    token_endpoint: body.token_endpoint as string,
    jwks_uri: body.jwks_uri as string,
  };
}
