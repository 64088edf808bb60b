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
