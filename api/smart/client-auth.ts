import * as client from 'openid-client';
import type { SmartClientAuthMethod } from '../config.ts';

/**
 * How the app proves itself at an EHR's token endpoint (SMART App Launch v2.2, docs/API.md#smart-app-launch):
 * SMART_CLIENT_AUTH, else chosen from the EHR's `token_endpoint_auth_methods_supported` for what is configured.
 *
 * - `client_secret_basic` sends the client id and secret as they are (`Basic base64(id:secret)`), as SMART's own
 *   worked example (`B64Encode("my-app:my-app-secret-123")`) and its reference launcher expect; only what cannot
 *   travel raw is percent-encoded: a `:` (it separates the two) and non-ASCII characters. openid-client form-encodes
 *   every character but letters and digits (RFC 6749 section 2.3.1), so `sgx-smart` went as `sgx%2Dsmart`, which an EHR
 *   comparing raw values refuses. An EHR that form-decodes reads the raw value back unchanged, except `+` and `%`:
 *   with such a secret there, choose `client_secret_post`.
 * - `client_secret_post` sends them in the form body (form-encoded, which every server decodes).
 * - `private_key_jwt` per SMART's client-confidential-asymmetric profile: the header has `typ: "JWT"` and the
 *   key's `kid`; the assertion's `aud` is the token endpoint's URL (not the issuer, openid-client's default), with
 *   a unique `jti` and an `exp` a minute ahead (at most five minutes, the profile's limit).
 * - `none`: a public client, PKCE alone.
 */

/** Seconds an assertion is good for (SMART: no more than five minutes). */
export const ASSERTION_LIFETIME_SECONDS = 60;

export interface SmartCredentials {
  /** SMART_CLIENT_SECRET */
  secret?: string;
  /** SMART_PRIVATE_KEY, as WebCrypto signs with it, and the `kid` of its public JWK (/smart/jwks.json). */
  key?: { cryptoKey: CryptoKey; kid: string };
  /** SMART_CLIENT_AUTH: the method the EHR registered; unset, chosen as below. */
  method?: SmartClientAuthMethod;
}

/**
 * The method used with an EHR: SMART_CLIENT_AUTH when set, else by what is configured: a private key signs, a
 * secret goes by Basic unless the EHR lists only `client_secret_post` (no list means Basic, RFC 8414), nothing
 * makes a public client.
 */
export function chooseClientAuth(
  credentials: Pick<SmartCredentials, 'secret' | 'key' | 'method'>,
  supported: unknown,
): SmartClientAuthMethod {
  if (credentials.method) return credentials.method;
  if (credentials.key) return 'private_key_jwt';
  if (!credentials.secret) return 'none';
  const listed = Array.isArray(supported) ? supported.filter((item) => typeof item === 'string') : [];
  return listed.length > 0 && !listed.includes('client_secret_basic') && listed.includes('client_secret_post')
    ? 'client_secret_post'
    : 'client_secret_basic';
}

/** A client id or secret as Basic carries it: raw, with only `:` and non-ASCII characters percent-encoded. */
export function basicCredential(value: string): string {
  return value.replace(/:|[^\x00-\x7f]/gu, (character) => encodeURIComponent(character));
}

/** The Authorization header of `client_secret_basic`. */
export function basicAuthorization(clientId: string, secret: string): string {
  return `Basic ${Buffer.from(`${basicCredential(clientId)}:${basicCredential(secret)}`, 'utf8').toString('base64')}`;
}

/** openid-client's ClientAuth for an EHR: the method is decided per request, from the EHR's metadata. */
export function smartClientAuth(credentials: SmartCredentials): client.ClientAuth {
  return (as, metadata, body, headers) => {
    const method = chooseClientAuth(credentials, as.token_endpoint_auth_methods_supported);
    const clientId = metadata.client_id;
    switch (method) {
      case 'client_secret_basic':
        headers.set('authorization', basicAuthorization(clientId, requireSecret(credentials)));
        return;
      case 'client_secret_post':
        body.set('client_id', clientId);
        body.set('client_secret', requireSecret(credentials));
        return;
      case 'none':
        body.set('client_id', clientId);
        return;
      case 'private_key_jwt': {
        const key = credentials.key;
        if (!key) throw new Error('SMART_CLIENT_AUTH is private_key_jwt but SMART_PRIVATE_KEY is not set');
        const tokenEndpoint = as.token_endpoint;
        if (!tokenEndpoint) throw new Error('the EHR names no token_endpoint');
        const sign = client.PrivateKeyJwt(
          { key: key.cryptoKey, kid: key.kid },
          {
            [client.modifyAssertion]: (header, payload) => {
              header.typ = 'JWT';
              payload.aud = tokenEndpoint;
              payload.exp =
                (typeof payload.iat === 'number' ? payload.iat : Math.floor(Date.now() / 1000)) +
                ASSERTION_LIFETIME_SECONDS;
            },
          },
        );
        // openid-client's ClientAuth signs asynchronously; the caller awaits it.
        return sign(as, metadata, body, headers) as unknown as void;
      }
    }
  };
}

function requireSecret(credentials: SmartCredentials): string {
  if (!credentials.secret) throw new Error('SMART_CLIENT_AUTH needs a client secret: SMART_CLIENT_SECRET is not set');
  return credentials.secret;
}
