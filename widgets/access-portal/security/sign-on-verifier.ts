/**
 * The page's proof that it started the hospital sign-in (docs/API.md#single-sign-on; api/auth/handover-proof.ts):
 * a random verifier kept in this tab's sessionStorage, its SHA-256 (S256) sent to the server's start. The one-time
 * code the provider's round trip brings back to the page is redeemed only with it, so a code planted in this page
 * by someone else's sign-in, or opened in another browser, opens no session and links nothing. A page without Web
 * Crypto (served over plain http) sends the verifier itself (`plain`, RFC 7636 section 4.2).
 */
const KEY = 'sgx.sso.verifier.v1';

const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

export interface SignOnChallenge {
  challenge: string;
  method: 'S256' | 'plain';
}

/** A new verifier for this tab (replacing any earlier one), and the challenge to send with the start. */
export async function newSignOnChallenge(): Promise<SignOnChallenge> {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  try {
    sessionStorage.setItem(KEY, verifier);
  } catch {
    // storage refused (a sandboxed frame): the sign-in comes back to a page that cannot prove it, and says so
  }
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return { challenge: verifier, method: 'plain' };
  const digest = await subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return { challenge: base64url(new Uint8Array(digest)), method: 'S256' };
}

/** The verifier this tab made when it started the sign-in, or an empty string (the server then refuses). */
export function signOnVerifier(): string {
  try {
    return sessionStorage.getItem(KEY) ?? '';
  } catch {
    return '';
  }
}

/** Once the code was redeemed (or refused): the verifier is good for one sign-in. */
export function forgetSignOnVerifier(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // nothing was kept
  }
}
