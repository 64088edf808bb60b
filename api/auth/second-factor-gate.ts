import { ERROR_CODES } from '../../contracts/errors.ts';
import { PROVIDER_SECOND_FACTOR_REQUIRED_MESSAGE, SECOND_FACTOR_REQUIRED_MESSAGE } from '../messages.ts';
import type { SessionMethod } from '../storage/records.ts';
import type { AppContext } from '../state.ts';

type Refusal = { message: string; code: string };

/** A password alone: the account sets up a second factor in its profile. */
const PASSWORD_ONLY: Refusal = { message: SECOND_FACTOR_REQUIRED_MESSAGE, code: ERROR_CODES.secondFactorRequired };
/** A provider's sign-in without one: nothing to set up here, the provider's second factor is the way. */
const PROVIDER_ONE_FACTOR: Refusal = {
  message: PROVIDER_SECOND_FACTOR_REQUIRED_MESSAGE,
  code: ERROR_CODES.providerSecondFactorRequired,
};

/** Every way a session is opened, and what REQUIRE_MFA answers it: let in (null), or its refusal. */
const UNDER_REQUIRE_MFA: Readonly<Record<SessionMethod, Refusal | null>> = {
  password: PASSWORD_ONLY,
  'password+totp': null,
  'password+recovery': null,
  'password+passkey': null,
  oidc: PROVIDER_ONE_FACTOR,
  'oidc+mfa': null,
  smart: PROVIDER_ONE_FACTOR,
  'smart+mfa': null,
};

/**
 * REQUIRE_MFA (NIST SP 800-63B AAL2): a session without a second factor is refused patient data with a 403 that
 * says what to do. A password session (the account has no second factor yet) gets `code: "second_factor_required"`:
 * it may still reach its profile to set one up, and run the tools without a patient. A session of the hospital's
 * single sign-on or of a SMART launch whose ID token showed no second factor (auth/provider-factors.ts:
 * OIDC_REQUIRED_AMR, OIDC_REQUIRED_ACR) gets `code: "provider_second_factor_required"`: only the provider can add
 * one. A method this release does not know (written by a newer one) is refused as a password alone. Asked by the
 * routes' `patientData` guard (http/access.ts) and by a tool run for a patient.
 */
export function assertSecondFactor(ctx: AppContext, requireMfa: boolean): void {
  const method = ctx.state.auth?.method;
  if (!requireMfa || method === undefined) return;
  const refusal = Object.hasOwn(UNDER_REQUIRE_MFA, method) ? UNDER_REQUIRE_MFA[method] : PASSWORD_ONLY;
  if (refusal) ctx.throw(403, refusal.message, { code: refusal.code });
}
