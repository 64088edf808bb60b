import { createHash, randomInt } from 'node:crypto';

/** How many recovery codes an account gets, each used once (shown once, kept as hashes). */
export const RECOVERY_CODE_COUNT = 10;
/**
 * Crockford's base32 letters (no I, L, O, U): 24 of them are 120 random bits (ASVS 5.0 6.5.2 asks for at least 112
 * of a lookup secret kept with an unsalted hash), written in six groups of four: xxxx-xxxx-xxxx-xxxx-xxxx-xxxx.
 */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const LENGTH = 24;
/**
 * The codes releases before 120-bit codes gave: 16 letters (80 bits), xxxx-xxxx-xxxx-xxxx, stored the same way.
 * They still sign in, each once, until used or replaced by new codes (docs/API.md#second-factors-and-sessions).
 */
const EARLIER_LENGTH = 16;

export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    let code = '';
    for (let index = 0; index < LENGTH; index += 1) code += ALPHABET[randomInt(ALPHABET.length)];
    return code.match(/.{4}/g)!.join('-');
  });
}

/** A code as typed: case, spaces and dashes do not matter; I, L and O read as 1, 1 and 0. */
export function normaliseRecoveryCode(code: unknown): string | undefined {
  if (typeof code !== 'string') return undefined;
  const text = code.toUpperCase().replace(/[\s-]/g, '').replace(/[IL]/g, '1').replace(/O/g, '0');
  const length = text.length === LENGTH || text.length === EARLIER_LENGTH;
  return length && [...text].every((letter) => ALPHABET.includes(letter)) ? text : undefined;
}

/** What the store keeps: the sha256 of the normalised code (120 random bits need no slow hash, nor a salt). */
export const recoveryCodeHash = (normalised: string): string =>
  createHash('sha256').update(`sgx-recovery:${normalised}`).digest('hex');
