import Router from '@koa/router';
import type { Middleware, Next } from 'koa';
import { assertSecondFactor } from '../auth/second-factor-gate.ts';
import { requireAuth } from '../auth/authenticate.ts';
import type { AppContext, AppState } from '../state.ts';

/**
 * What each API route needs, declared next to its handler as its first middleware (docs/API.md#conventions),
 * never decided by a pattern on the path: a route is reached only by its one spelling (the routers match case
 * exactly, canonical-path.ts refuses any other form), and what it needs travels with it.
 * - `anyone`: no session needed (signing in, the site's settings, Quick Use's tool runs);
 * - `signedIn`: a session (the profile, second factors, sessions);
 * - `patientData`: a session, and under REQUIRE_MFA one with a second factor (auth/second-factor-gate.ts):
 *   whatever answers or changes patients, calculations, exports, FHIR, the EHR link, the account's export.
 * route-access.test.ts holds every route to the requirement it must have, in every spelling.
 */
export type Access = 'anyone' | 'signedIn' | 'patientData';

/** Marks a guard, and so the route whose stack it heads, with what it lets through. */
export const ACCESS = Symbol('sgx.route-access');

export type Guard = Middleware<AppState> & { readonly [ACCESS]: Access };

const guard = (access: Access, check: (ctx: AppContext) => void): Guard =>
  Object.assign(
    async function routeAccess(ctx: AppContext, next: Next) {
      check(ctx);
      await next();
    },
    { [ACCESS]: access },
  ) as Guard;

export const access: Readonly<Record<Access, Guard>> = Object.freeze({
  anyone: guard('anyone', () => undefined),
  signedIn: guard('signedIn', (ctx) => requireAuth(ctx)),
  patientData: guard('patientData', (ctx) => {
    requireAuth(ctx);
    assertSecondFactor(ctx, ctx.state.requireMfa === true);
  }),
});

/**
 * An API router: matches paths with their case as written (`/api/Patients` is not `/api/patients`); every
 * route it gets must start with a guard of `access` (route-access.test.ts checks each).
 */
export function apiRouter(prefix: string): Router<AppState> {
  return new Router<AppState>({ prefix, sensitive: true });
}

/** What a router's route needs, or undefined when it declares nothing (the route-access test then fails). */
export function accessOf(stack: readonly unknown[]): Access | undefined {
  const first = stack[0] as Partial<Guard> | undefined;
  return first?.[ACCESS];
}
