import type { KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';

export const TOKEN_TTL_SECONDS = 12 * 60 * 60;
export const TOKEN_ISSUER = 'sgx-api';
export const TOKEN_AUDIENCE = 'sgx-clients';
export const TOKEN_ALGORITHM = 'HS256';

/** A token names its session (`sid`), so signing out can end it on the server. */
export function signSessionToken(
  key: KeyObject,
  claims: { userId: string; sessionId: string },
  issuedAt: Date,
): string {
  const iat = Math.floor(issuedAt.getTime() / 1000);
  return jwt.sign({ sid: claims.sessionId, iat, exp: iat + TOKEN_TTL_SECONDS }, key, {
    algorithm: TOKEN_ALGORITHM,
    issuer: TOKEN_ISSUER,
    audience: TOKEN_AUDIENCE,
    subject: claims.userId,
  });
}
