/**
 * Every message the API itself answers with (`{ "message": "…" }`), in one place, so routes and
 * middleware import their messages from here and never from each other. This module imports nothing.
 * The texts are part of the API (docs/API.md lists them, tests and the widgets compare them): change
 * none of them by accident. Field-level validation messages live beside their schemas.
 */

// Any route
export const INVALID_INPUT_MESSAGE = 'Invalid input';
export const BAD_REQUEST_MESSAGE = 'Bad request';
export const INTERNAL_ERROR_MESSAGE = 'Something went wrong on the server. Please try again.';
/** No route answered a path under /api/: 404, or the router's 405 / 501 for a known path. */
export const UNMATCHED_MESSAGES: Readonly<Record<number, string>> = {
  404: 'Not found',
  405: 'Method not allowed',
  501: 'Not implemented',
};

// Request bodies
export const MALFORMED_JSON_MESSAGE = 'The request body is not valid JSON';
export const UNSTORABLE_TEXT_MESSAGE =
  'The request holds a character that cannot be stored (U+0000 or half of a surrogate pair)';
export const JSON_BODY_TYPE_MESSAGE = 'Send the body as application/json';
export const CHANGES_OBJECT_MESSAGE = 'Send the changes as a JSON object, such as {"weightKg": 70}';
/** How deeply objects and arrays may nest in a JSON body (no body of this API needs more than 3). */
export const JSON_BODY_MAX_DEPTH = 32;
export const JSON_TOO_DEEP_MESSAGE =
  'The request body nests objects and arrays too deeply ' + `(at most ${JSON_BODY_MAX_DEPTH} levels)`;
/** `limit` as the body parser takes it, e.g. `64kb` → "… (the limit is 64 KB)". */
export const bodyTooLargeMessage = (limit: string) =>
  `Request body is too large (the limit is ${limit.replace('kb', ' KB')})`;

// Content coding (Accept-Encoding)
export const NO_ACCEPTABLE_ENCODING_MESSAGE =
  'Accept-Encoding refuses every coding this server can send (br, gzip, deflate or identity)';

// Sessions and sign-in
export const SESSION_INVALID_MESSAGE = 'Your session has ended or is not valid. Please sign in again.';
export const SIGN_IN_REQUIRED_MESSAGE = 'Please sign in to use this feature.';
export const INVALID_CREDENTIALS_MESSAGE = 'Invalid e-mail or password';
export const DUPLICATE_EMAIL_MESSAGE = 'An account with this e-mail already exists. Sign in instead.';
/** POST /api/auth/password: field issues of `currentPassword` and `newPassword`. */
export const CURRENT_PASSWORD_WRONG_MESSAGE = 'The current password is not correct';
export const NEW_PASSWORD_UNCHANGED_MESSAGE = 'The new password must be different from the current one';
/** A new password on the list of common and leaked ones (api/auth/common-passwords.ts): sign-up's `password`. */
export const COMMON_PASSWORD_MESSAGE =
  'Password is too common: it is on lists of leaked passwords, so it is easy to guess. Choose another.';
/** The same for POST /api/auth/password's `newPassword`. */
export const COMMON_NEW_PASSWORD_MESSAGE =
  'New password is too common: it is on lists of leaked passwords, so it is easy to guess. Choose another.';

// The account's own data (docs/API.md#my-data)
/** DELETE /api/account: the issue on `password`. */
export const CONFIRM_PASSWORD_REQUIRED_MESSAGE = 'Enter your password to confirm';
/** The same words as a second factor's removal (PASSWORD_WRONG_MESSAGE, below), translated with the sign-in code. */
export const CONFIRM_PASSWORD_WRONG_MESSAGE = 'The password is not correct';
/**
 * DELETE /api/account of an account with no password (made by the hospital sign-in) from a session that
 * is not a hospital sign-in of the last REAUTHENTICATION_FRESH_MINUTES (api/account/reauthenticate.ts).
 */
export const CONFIRM_BY_HOSPITAL_SIGN_IN_MESSAGE =
  'Sign out, sign in again with your hospital account, then delete the account within 10 minutes';
/** POST /api/auth/signin of an account waiting out its deletion's grace period (403; contracts/auth.ts). */
export const ACCOUNT_DELETION_PENDING_MESSAGE =
  'This account is scheduled for deletion. Sign in with "Keep my account" to cancel the deletion.';

// Rate limits (all answered with 429 and Retry-After)
export const TOO_MANY_FROM_ADDRESS_MESSAGE = 'Too many requests from this address. Please wait a minute and try again.';
export const TOO_MANY_REQUESTS_MESSAGE = 'Too many requests. Please wait a minute and try again.';
/** The lock-out of one e-mail (or address) after too many failed sign-ins, in whole minutes rounded up. */
export const signInLockedMessage = (retryAfterSeconds: number) =>
  `Too many failed sign-in attempts. Try again in ${Math.ceil(retryAfterSeconds / 60)} minutes.`;

// Records (each also for an id in the path that is not one of ours in form)
export const PATIENT_NOT_FOUND_MESSAGE = 'Patient not found';
export const HISTORY_ENTRY_NOT_FOUND_MESSAGE = 'History entry not found';
export const EXPORT_NOT_FOUND_MESSAGE = 'Export not found';
export const searchTooLongMessage = (maxLength: number) => `Search text must be at most ${maxLength} characters`;

// Exports (the PDF upload)
export const EXPORT_TOO_LARGE_MESSAGE = 'The PDF is too large (the limit is 2 MB)';
export const EXPORT_WRONG_TYPE_MESSAGE = 'Send the PDF as application/pdf';
export const NOT_A_PDF_MESSAGE = 'The file is not a PDF';

// Idempotency-Key (POST /api/tools/run, /api/patients, /api/exports)
export const IDEMPOTENCY_KEY_INVALID_MESSAGE =
  'Idempotency-Key must be a quoted string of 1 to 255 visible ASCII characters, such as "8e03978e-40d5"';
export const IDEMPOTENCY_KEY_IN_USE_MESSAGE =
  'A request with this Idempotency-Key is still being processed. Try again in a moment.';
export const IDEMPOTENCY_KEY_REUSED_MESSAGE =
  'This Idempotency-Key was already used for a different request. Send a new key for a new request.';

// FHIR export (GET /api/history/:id/fhir)
export const FHIR_NOT_CLINICAL_MESSAGE =
  'An ROI calculation holds no patient data, so it has no FHIR export. Export it as a PDF instead.';

// Sessions that end when idle (SESSION_IDLE_MINUTES), and the sessions list
/** 401 with `code: "session_idle"`: the session was not used for the idle limit, in whole minutes. */
export const sessionIdleMessage = (minutes: number) =>
  `You were signed out after ${minutes} minutes without activity. Please sign in again.`;
export const SESSION_NOT_FOUND_MESSAGE = 'Session not found';

// Single sign-on (OIDC_*) and OIDC_ONLY
export const PASSWORD_SIGN_IN_OFF_MESSAGE =
  'Sign-in with an e-mail and password is turned off here. Use the single sign-on button.';
export const SIGN_UP_OFF_MESSAGE =
  'New accounts are not made with an e-mail and password here. Use the single sign-on button.';
export const SSO_NOT_CONFIGURED_MESSAGE = 'Single sign-on is not set up on this server';
export const SSO_UNAVAILABLE_MESSAGE =
  "The hospital's sign-in service could not be reached. Please try again in a minute.";
export const SSO_HANDOFF_EXPIRED_MESSAGE = 'This sign-in has expired or was already used. Please sign in again.';
export const SSO_LINK_EXPIRED_MESSAGE =
  'The link to your hospital sign-in has expired. Sign in with the hospital button again, then with your password.';
export const SSO_LINK_OTHER_ACCOUNT_MESSAGE =
  "This account's e-mail is not the one your hospital sign-in gave. Sign in with the account of that e-mail.";
export const SSO_LINK_TAKEN_MESSAGE = 'Your hospital sign-in is already linked to another account.';
export const SSO_START_CHALLENGE_MESSAGE =
  "This page's sign-in button is out of date, so the sign-in was not started. Reload the page and try again.";
export const SSO_HANDOFF_OTHER_PAGE_MESSAGE =
  'This sign-in was started on another page or in another browser, so it was not used here. Please sign in again ' +
  'from this page.';
export const SSO_LINK_OTHER_BROWSER_MESSAGE =
  'This link to a hospital sign-in was started on another page or in another browser, so nothing was linked. ' +
  'Use the hospital button again on this page.';
export const IDENTITY_NOT_FOUND_MESSAGE = 'This linked sign-in was not found. Reload your profile.';
export const IDENTITY_ONLY_WAY_IN_MESSAGE =
  'This is the only way you sign in to this account, so it cannot be unlinked.';
export const RETURN_TO_INVALID_MESSAGE = 'returnTo must be a page of this site or of an allowed origin';

// Second factors (REQUIRE_MFA, sign-in after the password, the profile)
export const SECOND_FACTOR_REQUIRED_MESSAGE =
  'Your hospital requires a second factor for accounts with a password. Set up an authenticator app or a ' +
  'passkey in your profile to open patient data.';
/** The same for a session of the hospital's sign-in or of a launch from the EHR, which cannot add one here. */
export const PROVIDER_SECOND_FACTOR_REQUIRED_MESSAGE =
  "Your hospital requires a second factor, and this sign-in did not use one. Sign in again with the hospital's " +
  'second factor; if it offers none, ask IT.';
export const SECOND_FACTOR_EXPIRED_MESSAGE = 'This sign-in has expired. Please enter your e-mail and password again.';
export const TOTP_CODE_WRONG_MESSAGE = 'The code is not correct, or was already used. Enter the current code.';
export const RECOVERY_CODE_WRONG_MESSAGE = 'The recovery code is not correct, or was already used.';
export const PASSKEY_FAILED_MESSAGE = 'The passkey could not be verified. Please try again.';
export const PASSKEY_NONE_MESSAGE = 'This account has no passkey. Use another second factor.';
/**
 * 403 with `code: "recovery_code_required"`: an authenticator code or a passkey after MAX_SECOND_FACTOR_FAILURES
 * failed second factors in a row (api/auth/mfa/failure-cap.ts); a recovery code still signs in.
 */
export const RECOVERY_CODE_REQUIRED_MESSAGE =
  'Too many wrong second-factor attempts in a row. To protect your account, sign in with one of your recovery ' +
  'codes; your authenticator app and passkeys work again after that.';
/** 403 with `code: "second_factor_locked"`: the same, and the account has no unused recovery code left. */
export const SECOND_FACTOR_LOCKED_MESSAGE =
  'Too many wrong second-factor attempts in a row, and this account has no recovery code left. Ask IT to unlock ' +
  'its second factor.';
/** A change to how the account signs in (a factor added, sessions ended): the second factor, beside the password. */
export const CONFIRM_SECOND_FACTOR_MESSAGE =
  'Confirm with your second factor too: a code from your authenticator app, a passkey or a recovery code.';
export const PASSKEY_DUPLICATE_MESSAGE = 'This passkey is registered already.';
export const TOTP_ALREADY_ON_MESSAGE = 'An authenticator app is set up already. Remove it first to set up another.';
export const SETUP_EXPIRED_MESSAGE = 'This setup has expired. Please start again.';
export const PASSWORD_WRONG_MESSAGE = 'The password is not correct';
export const SECOND_FACTORS_NEED_PASSWORD_MESSAGE =
  'Second factors are for accounts with a password; your hospital sign-in has its own.';

// GET /api/account/export over its caps (api/account/export-slots.ts)
/** 429: the clinician's own export is still running (EXPORTS_PER_CLINICIAN). */
export const EXPORT_BUSY_CLINICIAN_MESSAGE =
  'An export of your data is already being prepared. Wait for it to finish, then try again.';
/** 503: the instance runs as many exports as it may (EXPORTS_PER_INSTANCE). */
export const EXPORT_BUSY_INSTANCE_MESSAGE =
  'The server is preparing as many data exports as it can at once. Please try again in a minute.';
