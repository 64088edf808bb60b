import { generateSecret, generateURI, verify } from 'otplib';
import { encode } from 'uqr';

/**
 * Authenticator apps (RFC 6238 TOTP, as Google and Microsoft Authenticator take it: SHA-1, 6 digits, 30 s),
 * with otplib. A code is accepted for the current time step or the one before or after (a phone's clock a
 * little off); replay is refused by the store, which accepts each step once (StoreAdapter.useTotpStep): the
 * same code twice, or an older one after a newer one, is refused.
 */
export const TOTP_PERIOD_SECONDS = 30;
const TOLERANCE_SECONDS = TOTP_PERIOD_SECONDS;
/** The name authenticator apps list the account under, before the clinician's e-mail. */
export const TOTP_ISSUER = 'HCP Portal';

/** A new shared secret: 20 random bytes (160 bits, RFC 4226's recommendation), base32. */
export const newTotpSecret = (): string => generateSecret({ length: 20 });

/** The otpauth:// URI an authenticator app scans. */
export const totpUri = (secret: string, email: string): string =>
  generateURI({ issuer: TOTP_ISSUER, label: email, secret });

/** A code as typed: six digits, spaces allowed ("123 456"). */
export const normaliseTotpCode = (code: unknown): string | undefined => {
  if (typeof code !== 'string') return undefined;
  const digits = code.replace(/[\s-]/g, '');
  return /^\d{6}$/.test(digits) ? digits : undefined;
};

/** The time step the code belongs to (its replay key), or undefined when it is not a valid code now. */
export async function totpStep(secret: string, code: string, at: Date): Promise<number | undefined> {
  const token = normaliseTotpCode(code);
  if (!token) return undefined;
  const result = await verify({
    secret,
    token,
    epoch: Math.floor(at.getTime() / 1000),
    epochTolerance: TOLERANCE_SECONDS,
  });
  return result.valid && 'timeStep' in result ? result.timeStep : undefined;
}

/**
 * The QR code of the otpauth:// URI as one SVG path (`d`, in a `size` × `size` box of modules, the quiet
 * zone included): the profile draws it as an inline <svg>, so no image request and no CSP img-src is needed.
 */
export function qrCodePath(text: string): { size: number; path: string } {
  const { data, size } = encode(text, { ecc: 'M', border: 2 });
  let path = '';
  data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) path += `M${x} ${y}h1v1h-1z`;
    }),
  );
  return { size, path };
}
