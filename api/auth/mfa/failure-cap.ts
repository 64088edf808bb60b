import { ERROR_CODES } from '../../../contracts/errors.ts';
import { RECOVERY_CODE_REQUIRED_MESSAGE, SECOND_FACTOR_LOCKED_MESSAGE } from '../../messages.ts';
import type { RecoveryCodeRecord } from '../../storage/records.ts';
import type { Store } from '../../storage/store.ts';
import type { AppContext } from '../../state.ts';

/**
 * NIST SP 800-63B 5.2.2: no more than 100 failed attempts in a row on one account. Each wrong authenticator code,
 * passkey or recovery code (at sign-in, or confirming the clinician again) counts, in the store, so that every
 * instance counts the same ones and a restart forgets none; any second factor that succeeds clears the count. Past
 * it an authenticator code or a passkey is refused unchecked, and only a recovery code (120 random bits: not to be
 * guessed) signs in. The 10-per-15-minutes lock-out (sign-in-limiter.ts) alone would let a holder of the password
 * guess about 960 codes a day for ever.
 */
export const MAX_SECOND_FACTOR_FAILURES = 100;

const { recoveryCodeRequired, secondFactorLocked } = ERROR_CODES;
/** What the account may still use: everything; only a recovery code; nothing (no recovery code is left). */
export type SecondFactorCap = 'open' | typeof recoveryCodeRequired | typeof secondFactorLocked;

export async function secondFactorCap(
  store: Store,
  userId: string,
  recoveryCodes: readonly RecoveryCodeRecord[],
): Promise<SecondFactorCap> {
  if ((await store.secondFactorFailures(userId)) < MAX_SECOND_FACTOR_FAILURES) return 'open';
  return recoveryCodes.some((code) => code.usedAt === null) ? recoveryCodeRequired : secondFactorLocked;
}

/** The 403 of a capped account, with its `code`. */
export function refuseCapped(ctx: AppContext, cap: Exclude<SecondFactorCap, 'open'>): never {
  const message = cap === recoveryCodeRequired ? RECOVERY_CODE_REQUIRED_MESSAGE : SECOND_FACTOR_LOCKED_MESSAGE;
  return ctx.throw(403, message, { answer: { code: cap } });
}
