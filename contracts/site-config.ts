import * as v from 'valibot';
import { HOSPITAL_NAME_MAX_CHARS } from '../clinical/patient-sheet.ts';

/**
 * `GET /api/config`: what a page learns from the server it is served by (docs/API.md). `hospitalName` is
 * HOSPITAL_NAME, printed on the patient counselling sheet; null when the server has none.
 */
export const siteConfigSchema = v.object({
  hospitalName: v.nullable(v.pipe(v.string(), v.maxLength(HOSPITAL_NAME_MAX_CHARS))),
  /**
   * How clinicians sign in here: `sso` when the hospital's single sign-on is set up (the button says "Sign in
   * with {displayName}"; the page navigates to `startPath`), `passwordSignIn` false with OIDC_ONLY. A server
   * of an earlier release sends neither: e-mail and password only.
   */
  signIn: v.optional(
    v.object({
      sso: v.nullable(v.object({ displayName: v.string(), startPath: v.string() })),
      passwordSignIn: v.boolean(),
    }),
    { sso: null, passwordSignIn: true },
  ),
});
export type SiteConfig = v.InferOutput<typeof siteConfigSchema>;
