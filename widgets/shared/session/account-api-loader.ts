/**
 * The account calls (account-api.ts, with the schemas their answers are parsed with), loaded on the first
 * call: only a signed-in clinician records calculations or lists patients, and the advisor calls the
 * server only on "Assess", so an element's first download leaves them out.
 */
export const accountApi = (): Promise<typeof import('./account-api.ts')> => import('./account-api.ts');
