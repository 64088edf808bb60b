import { clientAddress } from '../http/client-address.ts';
import { tooManyRequests } from '../http/rate-limit.ts';
import { CONFIRM_PASSWORD_REQUIRED_MESSAGE, CONFIRM_PASSWORD_WRONG_MESSAGE, signInLockedMessage } from '../messages.ts';
import type { SignInLimiter } from '../auth/sign-in-limiter.ts';
import { verifyPassword } from '../auth/passwords.ts';
import type { UserRecord } from '../storage/records.ts';
import type { AppContext } from '../state.ts';

/** What "Delete my account" sends to prove it is the clinician at the keyboard now. */
export interface ReauthenticationProof {
  /** The account's password (password accounts). */
  password?: string;
}

export type ReauthenticationResult =
  | { ok: true }
  /** Refused: the answer's status, message and the field it is about (the caller answers it). */
  | { ok: false; status: 400 | 401; message: string; field?: string };

/**
 * The seam every action that needs "the clinician, again, now" goes through (deleting the account): it
 * decides from the account how it signs in. A password account must give its password; a wrong one
 * counts as a failed sign-in of the account and the address (as a password change does), and a lock-out
 * answers 429 before the password is checked. An account that signs in another way (single sign-on)
 * is checked by its own method here: `methods` takes it by name, e.g. a fresh single sign-on proven
 * by the identity provider.
 */
export type ReauthenticationCheck = (
  ctx: AppContext,
  user: UserRecord,
  proof: ReauthenticationProof,
) => Promise<ReauthenticationResult>;

export function reauthenticate(deps: { limiter: SignInLimiter }): ReauthenticationCheck {
  return async (ctx, user, proof) => {
    if (!proof.password)
      return { ok: false, status: 400, message: CONFIRM_PASSWORD_REQUIRED_MESSAGE, field: 'password' };
    const address = clientAddress(ctx);
    const lock = await deps.limiter.checkSignIn(user.email, address);
    if (lock.limited) tooManyRequests(ctx, lock.retryAfterSeconds, signInLockedMessage(lock.retryAfterSeconds));
    if (!(await verifyPassword(user.passwordHash, proof.password))) {
      await deps.limiter.recordFailure(user.email, address);
      return { ok: false, status: 400, message: CONFIRM_PASSWORD_WRONG_MESSAGE, field: 'password' };
    }
    return { ok: true };
  };
}
