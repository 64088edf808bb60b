import { ERROR_CODES } from '../../contracts/errors.ts';
import { SECOND_FACTOR_REQUIRED_MESSAGE } from '../messages.ts';
import type { AppContext } from '../state.ts';

/**
 * REQUIRE_MFA (NIST SP 800-63B AAL2): a session opened with a password alone (no second factor: the account has
 * none yet) is refused patient data with a 403 that says what to do, `code: "second_factor_required"`. It may
 * still reach its profile to set one up, and run the tools without a patient. Single sign-on sessions pass:
 * the hospital's provider applies its own second factor. Asked by the routes' `patientData` guard
 * (http/access.ts) and by a tool run for a patient.
 */
export function assertSecondFactor(ctx: AppContext, requireMfa: boolean): void {
  if (requireMfa && ctx.state.auth?.method === 'password')
    ctx.throw(403, SECOND_FACTOR_REQUIRED_MESSAGE, { code: ERROR_CODES.secondFactorRequired });
}
