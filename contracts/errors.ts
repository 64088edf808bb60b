import * as v from 'valibot';

/** Every API error body: `{ message, issues? }`; a 400 lists the field issues (api/http/validate.ts). */
export const errorBodySchema = v.object({
  message: v.string(),
  issues: v.optional(v.array(v.object({ field: v.string(), message: v.string() })), []),
});
