import * as v from 'valibot';

/** One definition for the sign-up form and the API's sign-up schema. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

/** The user as the API shows it: never the password hash. */
export const userSchema = v.object({
  id: v.string(),
  email: v.string(),
  name: v.string(),
  license: v.nullable(v.string()),
});
export type User = v.InferOutput<typeof userSchema>;

/** The answer of sign-up and sign-in. */
export const authResponseSchema = v.object({
  token: v.pipe(v.string(), v.nonEmpty()),
  user: userSchema,
  /** True when this password sign-in also linked the hospital sign-in the clinician came with (`linkCode`). */
  linked: v.optional(v.boolean()),
  /** After a sign-in with a recovery code: how many unused ones the account has left. */
  recoveryCodesLeft: v.optional(v.number()),
});
export type AuthResponse = v.InferOutput<typeof authResponseSchema>;

/** The second factors an account may have (REQUIRE_MFA, sign-in after the password). */
export const SECOND_FACTOR_METHODS = ['totp', 'passkey', 'recovery_code'] as const;
export type SecondFactorMethod = (typeof SECOND_FACTOR_METHODS)[number];

/**
 * Sign-in with a password when the account has a second factor: no session yet, a token for the next step
 * (POST /api/auth/signin/second-factor) and the methods the account can use.
 */
export const secondFactorChallengeSchema = v.object({
  secondFactor: v.object({
    mfaToken: v.pipe(v.string(), v.nonEmpty()),
    methods: v.array(v.picklist(SECOND_FACTOR_METHODS)),
  }),
});
export type SecondFactorChallenge = v.InferOutput<typeof secondFactorChallengeSchema>;

/** The answer of POST /api/auth/signin: a session, or the second factor to give first. */
export const signInResponseSchema = v.union([authResponseSchema, secondFactorChallengeSchema]);
export type SignInResponse = v.InferOutput<typeof signInResponseSchema>;

/** GET /api/auth/session: when this session ends, by the idle limit or the absolute one (ISO times). */
export const sessionStatusSchema = v.object({
  expiresAt: v.string(),
  idleExpiresAt: v.string(),
  idleMinutes: v.number(),
  /** Seconds until the idle limit, by the server's clock (the browser's may differ). */
  idleRemainingSeconds: v.number(),
});
export type SessionStatus = v.InferOutput<typeof sessionStatusSchema>;

/** GET /api/auth/sessions */
export const sessionListSchema = v.object({
  sessions: v.array(
    v.object({
      id: v.string(),
      device: v.nullable(v.string()),
      method: v.string(),
      createdAt: v.string(),
      lastUsedAt: v.string(),
      current: v.boolean(),
    }),
  ),
});
export type SessionList = v.InferOutput<typeof sessionListSchema>;

/** GET /api/auth/security: the profile's sign-in and second-factor section. */
export const accountSecuritySchema = v.object({
  hasPassword: v.boolean(),
  requireMfa: v.boolean(),
  /** REQUIRE_MFA and this session has no second factor: patient data answers 403 until one is set up. */
  secondFactorNeeded: v.boolean(),
  totp: v.nullable(v.object({ createdAt: v.string() })),
  passkeys: v.array(
    v.object({ id: v.string(), name: v.string(), createdAt: v.string(), lastUsedAt: v.nullable(v.string()) }),
  ),
  recoveryCodesLeft: v.number(),
  /** The hospital sign-ins linked to the account (the provider's name when it is this server's). */
  /** `id`: what DELETE /api/auth/identities/:id names it by (a hash of its issuer and subject). */
  identities: v.array(
    v.object({ id: v.string(), issuer: v.string(), displayName: v.nullable(v.string()), linkedAt: v.string() }),
  ),
});
export type AccountSecurity = v.InferOutput<typeof accountSecuritySchema>;

/** POST /api/auth/totp/setup */
export const totpSetupSchema = v.object({
  setupToken: v.string(),
  secret: v.string(),
  uri: v.string(),
  qr: v.object({ size: v.number(), path: v.string() }),
});
export type TotpSetup = v.InferOutput<typeof totpSetupSchema>;

/** Recovery codes, shown once (after the first second factor, or when made anew); null when none were made. */
export const recoveryCodesSchema = v.object({ recoveryCodes: v.nullable(v.array(v.string())) });

/**
 * A second factor added (POST /api/auth/totp/confirm, /passkeys): the recovery codes, and the session the
 * server opened in place of the one the change was made in (ASVS 7.2.4): the page keeps its token instead.
 */
export const secondFactorAddedSchema = v.object({ ...recoveryCodesSchema.entries, ...authResponseSchema.entries });

/** What proves the clinician again before a change to how they sign in (api/auth/schemas.ts stepUpSchema). */
export interface StepUpProof {
  password: string;
  factor?: 'totp' | 'recovery_code' | 'passkey';
  code?: string;
  credential?: unknown;
}

/** POST /api/auth/signout: 204, or 200 with where to end the hospital sign-in's session too. */
export const signOutResponseSchema = v.object({ endSessionUrl: v.string() });
/**
 * Sign-in of an account waiting out its deletion's grace period (ACCOUNT_DELETION_GRACE_DAYS): 403 with
 * this `code` and `eraseAfter` (ISO time) beside the message. Signing in again with `cancelDeletion: true`
 * takes the account back into use.
 */
export const ACCOUNT_DELETION_PENDING_CODE = 'account_deletion_pending';
export const deletionPendingSchema = v.object({
  message: v.string(),
  code: v.literal(ACCOUNT_DELETION_PENDING_CODE),
  eraseAfter: v.string(),
});

/** PATCH /api/account: the profile's name and licence number, corrected. */
export interface ProfileChanges {
  name?: string;
  license?: string | null;
}
