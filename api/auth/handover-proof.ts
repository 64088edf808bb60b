import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * A one-time code handed to a page (the `#sgx-sso=` hand-over, the `#sgx-sso-link=` link code) is redeemed only
 * with a verifier the page that started the sign-on holds, as PKCE binds an authorization code (RFC 7636): the
 * page makes a random verifier, keeps it in its own sessionStorage, and sends its challenge to
 * `GET /api/auth/oidc/start`; the code is then good only with the verifier. A code planted in another page (login
 * CSRF), or stolen from a URL and opened in another browser, gives nothing. `S256` is the challenge the page sends
 * where the browser has Web Crypto (every secure context); `plain` (the verifier itself) only where it has not (a
 * page served over plain http on an intranet), as RFC 7636 section 4.2 allows.
 */
export interface HandoverChallenge {
  challenge: string;
  method: 'S256' | 'plain';
}

/** A verifier as the pages make it: 43 to 128 characters of base64url (RFC 7636 section 4.1). */
export const VERIFIER_PATTERN = /^[A-Za-z0-9_-]{43,128}$/;

/** The challenge and its method as `GET /api/auth/oidc/start` takes them, or undefined when malformed or absent. */
export function parseHandoverChallenge(challenge: unknown, method: unknown): HandoverChallenge | undefined {
  const chosen = method === undefined ? 'S256' : method;
  if (chosen !== 'S256' && chosen !== 'plain') return undefined;
  if (typeof challenge !== 'string') return undefined;
  if (chosen === 'S256' ? !/^[A-Za-z0-9_-]{43}$/.test(challenge) : !VERIFIER_PATTERN.test(challenge)) return undefined;
  return { challenge, method: chosen };
}

/** The verifier is the one the challenge was made from (compared in constant time). */
export function verifierMatches(expected: HandoverChallenge | undefined, verifier: unknown): boolean {
  if (!expected || typeof verifier !== 'string' || !VERIFIER_PATTERN.test(verifier)) return false;
  const made = expected.method === 'S256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
  const a = Buffer.from(made);
  const b = Buffer.from(expected.challenge);
  return a.length === b.length && timingSafeEqual(a, b);
}
