import { clientAddress } from '../http/client-address.ts';
import { tooManyRequests } from '../http/rate-limit.ts';
import {
  CONFIRM_BY_HOSPITAL_SIGN_IN_MESSAGE,
  CONFIRM_PASSWORD_REQUIRED_MESSAGE,
  CONFIRM_PASSWORD_WRONG_MESSAGE,
  signInLockedMessage,
} from '../messages.ts';
import { PROVIDER_SESSION_METHODS } from '../auth/provider-factors.ts';
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
  | { ok: false; status: 400 | 401 | 403; message: string; field?: string };

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

/** How recent a hospital sign-in must be to stand for "the clinician, again, now". */
export const REAUTHENTICATION_FRESH_MINUTES = 10;

export function reauthenticate(deps: { limiter: SignInLimiter; now?: () => Date }): ReauthenticationCheck {
  return async (ctx, user, proof) => {
    if (user.passwordHash === null) {
      // An account the hospital's sign-in (or an EHR's launch) made has no password: the provider proved the
      // clinician when this session was opened, with a second factor or without, and that counts only while it is
      // recent.
      const session = ctx.state.session;
      const at = (deps.now ?? (() => new Date()))().getTime();
      const fresh =
        session !== undefined &&
        PROVIDER_SESSION_METHODS.has(session.method) &&
        at - Date.parse(session.createdAt) <= REAUTHENTICATION_FRESH_MINUTES * 60_000;
      return fresh ? { ok: true } : { ok: false, status: 403, message: CONFIRM_BY_HOSPITAL_SIGN_IN_MESSAGE };
    }
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
