import * as v from 'valibot';

/**
 * Every API error body: `{ message, issues?, code? }`; a 400 lists the field issues (api/http/validate.ts).
 * `code` names a reason a client acts on (ERROR_CODES), beside the message it shows.
 */
export const errorBodySchema = v.object({
  message: v.string(),
  issues: v.optional(v.array(v.object({ field: v.string(), message: v.string() })), []),
  code: v.optional(v.string()),
});

/** The reasons an error body may name in `code`. */
export const ERROR_CODES = {
  /** 401: the session ended because it was not used for the idle limit (SESSION_IDLE_MINUTES). */
  sessionIdle: 'session_idle',
  /** 403: REQUIRE_MFA, and this password session has no second factor: set one up first. */
  secondFactorRequired: 'second_factor_required',
  /**
   * 403: REQUIRE_MFA, and the hospital's sign-in or the EHR's (a SMART launch) showed no second factor
   * (OIDC_REQUIRED_AMR, OIDC_REQUIRED_ACR): sign in again with the provider's own; the profile cannot add one.
   */
  providerSecondFactorRequired: 'provider_second_factor_required',
  /**
   * 403: too many failed second factors in a row on this account (api/auth/mfa/failure-cap.ts): an authenticator
   * code or a passkey is refused; a recovery code still signs in, and clears the count.
   */
  recoveryCodeRequired: 'recovery_code_required',
  /** 403: the same, and the account has no unused recovery code left: IT must unlock it. */
  secondFactorLocked: 'second_factor_locked',
} as const;
