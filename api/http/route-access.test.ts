import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRoutersOf } from '../app.ts';
import { startTestApi, type TestApi } from '../test-support/test-api.ts';
import { accessOf, type Access } from './access.ts';

// Every API route, as the app holds it: each says what it needs (http/access.ts), that is the need this table
// gives it, and under REQUIRE_MFA a password-only session (no second factor) gets exactly that in every spelling
// of the route's path: its own spelling reaches the guard, every other one (case, a trailing or doubled slash, a
// percent-encoded letter) is a 404 that reaches nothing (security review 1, H1). A new route that declares nothing,
// or is not in this table, fails here. On each store (node-postgres runs it again).

/** `METHOD path` of every route of an app with single sign-on and SMART set up, and what it needs. */
const ROUTES: Record<string, Access> = {
  'POST /api/auth/signup': 'anyone',
  'POST /api/auth/signin': 'anyone',
  'POST /api/auth/signin/passkey-options': 'anyone',
  'POST /api/auth/signin/second-factor': 'anyone',
  'GET /api/auth/me': 'signedIn',
  'POST /api/auth/password': 'signedIn',
  'POST /api/auth/signout': 'signedIn',
  'POST /api/smart/session': 'anyone',
  'GET /api/smart/context': 'patientData',
  'POST /api/smart/send': 'patientData',
  'GET /api/auth/security': 'signedIn',
  'POST /api/auth/totp/setup': 'signedIn',
  'POST /api/auth/totp/confirm': 'signedIn',
  'POST /api/auth/step-up/passkey-options': 'signedIn',
  'POST /api/auth/passkeys/options': 'signedIn',
  'POST /api/auth/passkeys': 'signedIn',
  'POST /api/auth/second-factors/remove': 'signedIn',
  'POST /api/auth/recovery-codes': 'signedIn',
  'GET /api/auth/session': 'signedIn',
  'GET /api/auth/sessions': 'signedIn',
  'POST /api/auth/sessions/end-others': 'signedIn',
  'DELETE /api/auth/sessions/:id': 'signedIn',
  'DELETE /api/auth/identities/:id': 'signedIn',
  'GET /api/auth/oidc/start': 'anyone',
  'GET /api/auth/oidc/callback': 'anyone',
  'POST /api/auth/oidc/session': 'anyone',
  'POST /api/auth/oidc/link': 'anyone',
  'POST /api/tools/run': 'anyone', // Quick Use; a run for a patient asks for the second factor itself
  'GET /api/patients': 'patientData',
  'POST /api/patients': 'patientData',
  'GET /api/patients/:id': 'patientData',
  'PATCH /api/patients/:id': 'patientData',
  'DELETE /api/patients/:id': 'patientData',
  'GET /api/history': 'patientData',
  'GET /api/history/:id': 'patientData',
  'POST /api/exports': 'patientData',
  'GET /api/exports': 'patientData',
  'GET /api/exports/:id': 'patientData',
  'DELETE /api/exports/:id': 'patientData',
  'GET /api/config': 'anyone',
  'GET /api/history/:id/fhir': 'patientData',
  'PATCH /api/account': 'signedIn',
  'GET /api/account/export': 'patientData',
  'GET /api/account/activity': 'patientData',
  'DELETE /api/account': 'signedIn',
};
/** The routes that stand in for single sign-on and SMART when they are not set up: every method, anyone. */
const OFF_ROUTES: Record<string, Access> = {
  'ALL /api/auth/oidc/start': 'anyone',
  'ALL /api/auth/oidc/callback': 'anyone',
  'ALL /api/auth/oidc/session': 'anyone',
  'ALL /api/auth/oidc/link': 'anyone',
  'ALL /api/smart/session': 'anyone',
  'ALL /api/smart/context': 'anyone',
  'ALL /api/smart/send': 'anyone',
};

interface Route {
  key: string;
  method: string;
  path: string;
  access: Access | undefined;
}

/** Every route of the app's API routers, with what its first middleware declares. */
function routesOf(api: TestApi): Route[] {
  return apiRoutersOf(api.app).flatMap((router) =>
    router.stack
      .filter((layer) => layer.methods.length > 0)
      .map((layer) => {
        const methods = layer.methods.filter((method) => method !== 'HEAD');
        const method = methods.length > 4 ? 'ALL' : methods[0]!;
        const path = String(layer.path);
        return { key: `${method} ${path}`, method, path, access: accessOf(layer.stack) };
      }),
  );
}

/** The path with its parameters filled (an id no record has), and the other spellings of it. */
function spellings(path: string) {
  const concrete = path.replace(/:[a-z]+/gi, '0b9f3c64-5d1e-4f6a-9a2b-7c8d9e0f1a2b');
  const [, first, rest] = /^\/api\/([a-z])(.*)$/.exec(concrete)!;
  return {
    concrete,
    others: {
      'a capital letter': `/api/${first!.toUpperCase()}${rest}`,
      'all capitals': concrete.toUpperCase(),
      'the prefix in capitals': concrete.replace(/^\/api\//, '/API/'),
      'a trailing slash': `${concrete}/`,
      'a doubled slash': concrete.replace(/^\/api\//, '/api//'),
      'a percent-encoded letter': `/api/%${first!.charCodeAt(0).toString(16)}${rest}`,
      'an upper-case percent-encoded letter': `/api/%${first!.charCodeAt(0).toString(16).toUpperCase()}${rest}`,
    },
  };
}

let configured: TestApi;
let bare: TestApi;
beforeAll(async () => {
  [configured, bare] = await Promise.all([
    startTestApi((url) => ({
      auth: {
        requireMfa: true,
        publicUrl: url,
        // Set up, never reached: the routes exist; nothing here signs in through them.
        oidc: {
          issuer: 'http://127.0.0.1:9/realms/none',
          clientId: 'sgx-portal',
          clientSecret: 'never-used-0123456789',
          displayName: 'Hospital',
          allowedTenants: [],
          trustedEmailDomains: [],
          scopes: 'openid profile email',
        },
        smart: {
          clientId: 'sgx-smart',
          clientSecret: 'never-used-0123456789',
          privateKeyPem: undefined,
          allowedIssuers: ['http://127.0.0.1:9/fhir'],
          writeDraftOrders: false,
        },
      },
    })),
    startTestApi({ auth: { requireMfa: true } }),
  ]);
});
afterAll(async () => {
  await configured?.close();
  await bare?.close();
});

describe('every API route says what it needs', () => {
  it('with single sign-on and SMART set up: each route starts with a guard, the one this table gives it', () => {
    const routes = routesOf(configured);
    expect(routes.filter((route) => route.access === undefined).map((route) => route.key)).toEqual([]);
    expect(Object.fromEntries(routes.map((route) => [route.key, route.access]))).toEqual(ROUTES);
  });

  it('without them: their stand-ins too', () => {
    const routes = routesOf(bare);
    const expected = Object.fromEntries(
      Object.entries(ROUTES).filter(([key]) => !/\/api\/(auth\/oidc|smart)\//.test(key)),
    );
    expect(Object.fromEntries(routes.map((route) => [route.key, route.access]))).toEqual({
      ...expected,
      ...OFF_ROUTES,
    });
  });

  it('every router matches case exactly', () => {
    for (const api of [configured, bare])
      for (const router of apiRoutersOf(api.app))
        expect(router.opts, String(router.opts.prefix)).toMatchObject({ sensitive: true });
  });
});

describe('REQUIRE_MFA: a password-only session, every route, every spelling', () => {
  const body = (method: string) => (method === 'GET' || method === 'DELETE' ? undefined : {});
  const requireStatus: Record<Access, (status: number, answer: { code?: string }) => void> = {
    patientData: (status, answer) => {
      expect(status).toBe(403);
      expect(answer.code).toBe('second_factor_required');
    },
    signedIn: (status) => expect([401, 403]).not.toContain(status),
    anyone: (status) => expect(status).not.toBe(401),
  };

  it.each(Object.entries(ROUTES))('%s (%s)', async (key, access) => {
    const [method, path] = key.split(' ') as [string, string];
    const { token } = await configured.signUp('Password Only');
    const { concrete, others } = spellings(path);
    for (const [spelling, other] of Object.entries(others)) {
      const answer = await configured.request(method, other, { token, body: body(method) });
      expect([spelling, answer.status, answer.body]).toEqual([spelling, 404, { message: 'Not found' }]);
    }
    // None of them reached the route (none signed the session out); the route's own spelling reaches its guard.
    expect((await configured.request('GET', '/api/auth/me', { token })).status).toBe(200);
    const asked = await configured.request(method, concrete, { token, body: body(method) });
    requireStatus[access](asked.status, asked.body ?? {});
    if (access !== 'anyone') {
      const anonymous = await configured.request(method, concrete, { body: body(method) });
      expect(anonymous.status, 'without a session').toBe(401);
    }
  });

  it('once the account has a second factor, the same session opens the patient data, the export included', async () => {
    const { token } = await configured.signUp('Soon Two Factors');
    expect((await configured.request('GET', '/api/account/export', { token })).status).toBe(403);
    const setup = await configured.request('POST', '/api/auth/totp/setup', {
      token,
      body: { password: 'correct horse battery' },
    });
    const code = await generate({ secret: setup.body.secret, epoch: Math.floor(Date.now() / 1000) });
    const confirmed = await configured.request('POST', '/api/auth/totp/confirm', {
      token,
      body: { setupToken: setup.body.setupToken, code },
    });
    expect(confirmed.status).toBe(200);
    // the session it was added in is replaced by a new one, with the factor
    const { token: renewed } = confirmed.body as { token: string };
    expect((await configured.request('GET', '/api/patients', { token })).status).toBe(401);
    const exported = await configured.request('GET', '/api/account/export', { token: renewed });
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toBe('application/zip');
    expect((await configured.request('GET', '/api/patients', { token: renewed })).status).toBe(200);
    // and still only by their one spelling
    expect((await configured.request('GET', '/api/Patients', { token: renewed })).status).toBe(404);
  });
});
