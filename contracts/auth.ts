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
});
export type AuthResponse = v.InferOutput<typeof authResponseSchema>;

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
