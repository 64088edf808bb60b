import * as v from 'valibot';
import { hasVisibleCharacter, strictFields } from '../../clinical/validation.ts';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../contracts/auth.ts';

const passwordMessage = `Password must be ${PASSWORD_MIN_LENGTH}-${PASSWORD_MAX_LENGTH} characters`;
const newPasswordMessage = `New password must be ${PASSWORD_MIN_LENGTH}-${PASSWORD_MAX_LENGTH} characters`;
// docs/product.md §5/§8: the terms checkbox.
export const AGREEMENT_MESSAGE = 'Please agree to the terms and conditions';

const email = v.pipe(
  v.string('E-mail is required'),
  v.trim(),
  v.toLowerCase(),
  v.nonEmpty('E-mail is required'),
  v.maxLength(254, 'E-mail must be at most 254 characters'),
  v.email('Please enter a valid e-mail address'),
);

/** A clinician's full name, as sign-up takes it and "My data" corrects it. */
export const nameField = v.pipe(
  v.string('Full name is required'),
  v.trim(),
  v.nonEmpty('Full name is required'),
  v.maxLength(100, 'Full name must be at most 100 characters'),
  v.check(hasVisibleCharacter, 'Full name is required'), // only U+200B, U+202E…: as empty as ""
);
/** The licence number: optional, empty text is none. */
export const licenseField = v.nullable(
  v.pipe(
    v.string('Licence number must be text'),
    v.trim(),
    v.maxLength(50, 'Licence number must be at most 50 characters'),
    v.transform((value) => value || null),
  ),
);

/** docs/product.md §3: email, password, name, license (optional), agreeTerms. */
export const signupSchema = strictFields(
  {
    email,
    password: v.pipe(
      v.string(passwordMessage),
      v.minLength(PASSWORD_MIN_LENGTH, passwordMessage),
      v.maxLength(PASSWORD_MAX_LENGTH, passwordMessage),
    ),
    name: nameField,
    license: v.optional(licenseField, null),
    agreeTerms: v.literal(true, AGREEMENT_MESSAGE),
  },
  {
    email: 'E-mail is required',
    password: passwordMessage,
    name: 'Full name is required',
    agreeTerms: AGREEMENT_MESSAGE,
  },
);

const handle = (message: string) => v.pipe(v.string(message), v.nonEmpty(message), v.maxLength(200, message));

export const signinSchema = strictFields(
  {
    email: v.pipe(
      v.string('E-mail is required'),
      v.trim(),
      v.toLowerCase(),
      v.nonEmpty('E-mail is required'),
      v.maxLength(254, 'E-mail must be at most 254 characters'),
    ),
    password: v.pipe(
      v.string('Password is required'),
      v.nonEmpty('Password is required'),
      v.maxLength(1024, 'Password is too long'),
    ),
    /** The link code single sign-on gave (oidc/routes.ts): link that identity to this account. */
    linkCode: v.optional(handle('linkCode must be the code the hospital sign-in gave')),
    /** With linkCode: the verifier of the page that started that sign-on (auth/handover-proof.ts). */
    linkVerifier: v.optional(
      v.string('linkVerifier must be the value this page made when it started the hospital sign-in'),
    ),
    /** An account waiting out its deletion's grace period: sign in and take it back into use. */
    cancelDeletion: v.optional(v.boolean('cancelDeletion must be true or false')),
  },
  { email: 'E-mail is required', password: 'Password is required' },
);

/** POST /api/auth/signin/second-factor: the challenge's token and one of the factors. */
export const secondFactorSchema = strictFields(
  {
    mfaToken: handle('mfaToken is required'),
    method: v.picklist(['totp', 'recovery_code', 'passkey'], 'method must be totp, recovery_code or passkey'),
    code: v.optional(v.pipe(v.string('Code is required'), v.maxLength(64, 'Code is too long'))),
    credential: v.optional(v.record(v.string(), v.unknown(), 'credential must be a WebAuthn response object')),
  },
  { mfaToken: 'mfaToken is required', method: 'method must be totp, recovery_code or passkey' },
);

export const mfaTokenSchema = strictFields(
  { mfaToken: handle('mfaToken is required') },
  {
    mfaToken: 'mfaToken is required',
  },
);

/** POST /api/auth/totp/confirm */
export const totpConfirmSchema = strictFields(
  {
    setupToken: handle('setupToken is required'),
    code: v.pipe(v.string('Code is required'), v.nonEmpty('Code is required'), v.maxLength(64, 'Code is too long')),
  },
  { setupToken: 'setupToken is required', code: 'Code is required' },
);

/** POST /api/auth/passkeys */
export const passkeyRegisterSchema = strictFields(
  {
    setupToken: handle('setupToken is required'),
    credential: v.record(v.string(), v.unknown(), 'credential must be a WebAuthn response object'),
    name: v.optional(
      v.pipe(v.string('Name must be text'), v.trim(), v.maxLength(60, 'Name must be at most 60 characters')),
    ),
  },
  { setupToken: 'setupToken is required', credential: 'credential must be a WebAuthn response object' },
);

const currentPassword = v.pipe(
  v.string('Password is required'),
  v.nonEmpty('Password is required'),
  v.maxLength(1024, 'Password is too long'),
);

/** POST /api/auth/second-factors/remove */
export const removeFactorSchema = strictFields(
  {
    password: currentPassword,
    factor: v.picklist(['totp', 'passkey'], 'factor must be totp or passkey'),
    passkeyId: v.optional(v.pipe(v.string('passkeyId must be text'), v.maxLength(1400, 'passkeyId is too long'))),
  },
  { password: 'Password is required', factor: 'factor must be totp or passkey' },
);

/**
 * The clinician again, before a change to how the account signs in (POST /api/auth/totp/setup, /passkeys/options,
 * /sessions/end-others, DELETE /api/auth/sessions/:id of another session): the password, and when the account has a
 * second factor, one of them (an authenticator app's code, a recovery code, or a passkey's answer to the challenge
 * of POST /api/auth/step-up/passkey-options). An account without a password (single sign-on) sends nothing: a
 * fresh sign-on stands for it (account/reauthenticate.ts).
 */
export const stepUpSchema = strictFields(
  {
    password: v.optional(currentPassword),
    factor: v.optional(
      v.picklist(['totp', 'recovery_code', 'passkey'], 'factor must be totp, recovery_code or passkey'),
    ),
    code: v.optional(v.pipe(v.string('Code is required'), v.maxLength(64, 'Code is too long'))),
    credential: v.optional(v.record(v.string(), v.unknown(), 'credential must be a WebAuthn response object')),
  },
  {},
);
export const STEP_UP_FIELD_ORDER = ['password', 'factor', 'code', 'credential'];

/** POST /api/auth/recovery-codes */
export const passwordOnlySchema = strictFields({ password: currentPassword }, { password: 'Password is required' });

/** POST /api/auth/password: the current password (as sign-in takes it) and a new one (as sign-up takes it). */
export const passwordChangeSchema = strictFields(
  {
    currentPassword: v.pipe(
      v.string('Current password is required'),
      v.nonEmpty('Current password is required'),
      v.maxLength(1024, 'Current password is too long'),
    ),
    newPassword: v.pipe(
      v.string(newPasswordMessage),
      v.minLength(PASSWORD_MIN_LENGTH, newPasswordMessage),
      v.maxLength(PASSWORD_MAX_LENGTH, newPasswordMessage),
    ),
  },
  { currentPassword: 'Current password is required', newPassword: newPasswordMessage },
);

export const SIGNUP_FIELD_ORDER = ['agreeTerms', 'email', 'password', 'name', 'license'];
export const SIGNIN_FIELD_ORDER = ['email', 'password', 'linkCode', 'linkVerifier'];
export const PASSWORD_CHANGE_FIELD_ORDER = ['currentPassword', 'newPassword'];
