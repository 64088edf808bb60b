import { createSecretKey } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../test-support/test-api.ts';
import { createSignInLimiter } from './sign-in-limiter.ts';
import { TOKEN_TTL_SECONDS } from './tokens.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const signupBody = (changes: Record<string, unknown> = {}) => ({
  email: `dr.${Math.random().toString(36).slice(2)}@hospital.example`,
  password: 'correct horse battery',
  name: 'Sara Al-Harbi',
  license: 'SCFHS-998877',
  agreeTerms: true,
  ...changes,
});

describe('POST /api/auth/signup', () => {
  it('creates the account and answers 201 { token, user } without the password hash', async () => {
    const body = signupBody({ email: '  Dr.Sara@Hospital.Example ' });
    const response = await api.request('POST', '/api/auth/signup', { body });
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual(['token', 'user']);
    expect(response.body.user).toEqual({
      id: expect.any(String),
      email: 'dr.sara@hospital.example',
      name: 'Sara Al-Harbi',
      license: 'SCFHS-998877',
    });
    expect(response.body.token.split('.')).toHaveLength(3);
    expect(response.text).not.toMatch(/argon2|passwordHash/);
    const file = await api.storedData();
    expect(file).toContain('$argon2id$v=19$m=19456,t=2,p=1$');
    expect(file).not.toContain('correct horse battery');
  });

  it('keeps an optional licence optional', async () => {
    const { license: _license, ...withoutLicence } = signupBody();
    const response = await api.request('POST', '/api/auth/signup', { body: withoutLicence });
    expect(response.status).toBe(201);
    expect(response.body.user.license).toBeNull();
  });

  it('refuses a duplicate e-mail with 409, whatever its case', async () => {
    const body = signupBody({ email: 'twice@hospital.example' });
    expect((await api.request('POST', '/api/auth/signup', { body })).status).toBe(201);
    const again = await api.request('POST', '/api/auth/signup', { body: { ...body, email: 'TWICE@hospital.example' } });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: 'An account with this e-mail already exists. Sign in instead.' });
  });

  it.each([
    { changes: { agreeTerms: false }, field: 'agreeTerms', message: 'Please agree to the terms and conditions' },
    { changes: { agreeTerms: undefined }, field: 'agreeTerms', message: 'Please agree to the terms and conditions' },
    { changes: { agreeTerms: 'true' }, field: 'agreeTerms', message: 'Please agree to the terms and conditions' },
    { changes: { email: 'not-an-email' }, field: 'email', message: 'Please enter a valid e-mail address' },
    { changes: { email: '' }, field: 'email', message: 'E-mail is required' },
    { changes: { password: 'short12' }, field: 'password', message: 'Password must be 8-128 characters' },
    { changes: { password: 'x'.repeat(129) }, field: 'password', message: 'Password must be 8-128 characters' },
    // On the list of common and leaked passwords (api/auth/common-passwords.ts), in any case.
    ...['password1', 'QWERTYUIOP', 'Iloveyou'].map((password) => ({
      changes: { password },
      field: 'password',
      message: 'Password is too common: it is on lists of leaked passwords, so it is easy to guess. Choose another.',
    })),
    { changes: { name: '   ' }, field: 'name', message: 'Full name is required' },
    { changes: { license: 'L'.repeat(51) }, field: 'license', message: 'Licence number must be at most 50 characters' },
    { changes: { role: 'admin' }, field: 'role', message: 'Unknown field "role"' },
  ])('refuses $field: "$message", and stores nothing', async ({ changes, field, message }) => {
    const before = await api.storedData();
    const response = await api.request('POST', '/api/auth/signup', { body: signupBody(changes) });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message, issues: [{ field, message }] });
    expect(await api.storedData()).toBe(before);
  });

  it('accepts passwords of exactly 8 and 128 characters', async () => {
    expect((await api.request('POST', '/api/auth/signup', { body: signupBody({ password: 'kq7vzp2x' }) })).status).toBe(
      201,
    );
    expect(
      (await api.request('POST', '/api/auth/signup', { body: signupBody({ password: 'p'.repeat(128) }) })).status,
    ).toBe(201);
  });
});

describe('sign in, me, sign out', () => {
  it('signs in with the right password, answers /me, and sign-out really ends the session', async () => {
    const account = await api.signUp('Omar Haddad');
    const signin = await api.request('POST', '/api/auth/signin', {
      body: { email: account.email.toUpperCase(), password: account.password },
    });
    expect(signin.status).toBe(200);
    expect(signin.body.user).toEqual(account.user);
    const token = signin.body.token as string;

    const me = await api.request('GET', '/api/auth/me', { token });
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ id: account.user.id, email: account.email, name: 'Omar Haddad', license: 'SCFHS-12345' });

    // lower-case "bearer", as the spec's client sends it
    expect((await api.request('GET', '/api/auth/me', { headers: { Authorization: `bearer ${token}` } })).status).toBe(
      200,
    );

    const signout = await api.request('POST', '/api/auth/signout', { token });
    expect(signout.status).toBe(204);
    const after = await api.request('GET', '/api/auth/me', { token });
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ message: 'Your session has ended or is not valid. Please sign in again.' });
    // the sign-up session is a different session, still open
    expect((await api.request('GET', '/api/auth/me', { token: account.token })).status).toBe(200);
  });

  it('answers the same 401 for an unknown e-mail and a wrong password', async () => {
    const account = await api.signUp();
    const wrong = await api.request('POST', '/api/auth/signin', {
      body: { email: account.email, password: 'wrong password' },
    });
    const unknown = await api.request('POST', '/api/auth/signin', {
      body: { email: 'nobody@hospital.example', password: 'wrong password' },
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ message: 'Invalid e-mail or password' });
    expect(unknown.body).toEqual(wrong.body);
  });

  it('GET /api/auth/me without a token: 401 asking to sign in', async () => {
    const response = await api.request('GET', '/api/auth/me');
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: 'Please sign in to use this feature.' });
  });

  it('POST /api/auth/signin refuses a missing password', async () => {
    const response = await api.request('POST', '/api/auth/signin', { body: { email: 'a@b.example' } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      message: 'Password is required',
      issues: [{ field: 'password', message: 'Password is required' }],
    });
  });
});

describe('forged and stale tokens are refused', () => {
  let account: Awaited<ReturnType<TestApi['signUp']>>;
  let claims: { sid: string; sub: string; iss: string; aud: string; iat: number; exp: number };
  beforeAll(async () => {
    account = await api.signUp();
    claims = jwt.decode(account.token) as typeof claims;
  });
  const refused = { message: 'Your session has ended or is not valid. Please sign in again.' };
  const realKey = async () => api.jwtKey;

  it('the genuine token works (control)', async () => {
    expect((await api.request('GET', '/api/auth/me', { token: account.token })).status).toBe(200);
  });

  it.each([
    [
      'alg none',
      async () => {
        const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
        const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
        return `${header}.${payload}.`;
      },
    ],
    ['a changed signature', async () => `${account.token.slice(0, -4)}AAAA`],
    [
      'a changed payload with the old signature',
      async () => {
        const [header, , signature] = account.token.split('.');
        const payload = Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString('base64url');
        return `${header}.${payload}.${signature}`;
      },
    ],
    [
      'another secret',
      async () =>
        jwt.sign({ sid: claims.sid }, createSecretKey(Buffer.alloc(48, 7)), {
          algorithm: 'HS256',
          issuer: claims.iss,
          audience: claims.aud,
          subject: claims.sub,
        }),
    ],
    [
      'expired',
      async () =>
        jwt.sign({ sid: claims.sid, iat: claims.iat - 100_000, exp: claims.iat - 50_000 }, await realKey(), {
          algorithm: 'HS256',
          issuer: claims.iss,
          audience: claims.aud,
          subject: claims.sub,
        }),
    ],
    [
      'another issuer',
      async () =>
        jwt.sign({ sid: claims.sid }, await realKey(), {
          algorithm: 'HS256',
          issuer: 'elsewhere',
          audience: claims.aud,
          subject: claims.sub,
          expiresIn: 600,
        }),
    ],
    [
      'another audience',
      async () =>
        jwt.sign({ sid: claims.sid }, await realKey(), {
          algorithm: 'HS256',
          issuer: claims.iss,
          audience: 'elsewhere',
          subject: claims.sub,
          expiresIn: 600,
        }),
    ],
    [
      'HS512 with the right key',
      async () =>
        jwt.sign({ sid: claims.sid }, await realKey(), {
          algorithm: 'HS512',
          issuer: claims.iss,
          audience: claims.aud,
          subject: claims.sub,
          expiresIn: 600,
        }),
    ],
    [
      'an unknown session id',
      async () =>
        jwt.sign({ sid: 'no-such-session' }, await realKey(), {
          algorithm: 'HS256',
          issuer: claims.iss,
          audience: claims.aud,
          subject: claims.sub,
          expiresIn: 600,
        }),
    ],
    [
      'a session of another user',
      async () =>
        jwt.sign({ sid: claims.sid }, await realKey(), {
          algorithm: 'HS256',
          issuer: claims.iss,
          audience: claims.aud,
          subject: 'another-user',
          expiresIn: 600,
        }),
    ],
    ['garbage', async () => 'not.a.token'],
  ])('%s', async (_name, makeToken) => {
    const response = await api.request('GET', '/api/auth/me', { token: await makeToken() });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(refused);
  });

  it('a malformed Authorization header is a 401 with the expected format', async () => {
    const response = await api.request('GET', '/api/auth/me', { headers: { Authorization: 'Token abc def' } });
    expect(response.status).toBe(401);
  });

  it('a bad token is refused on anonymous routes too: a lapsed session is never silently anonymous', async () => {
    const response = await api.request('POST', '/api/tools/run', {
      token: 'not.a.token',
      body: {
        toolType: 'roi_calculator',
        inputs: { numberOfCases: 1, orCostPerMinute: 45, timeNeostigmine: 15, timeProduct: 3, baselinePPCRate: 10 },
      },
    });
    expect(response.status).toBe(401);
  });
});

describe("a token's expiry is judged by the app's clock, the one that issued it", () => {
  it('valid while the app clock is before its expiry (the machine clock long past it), refused after', async () => {
    let clock = new Date('2020-01-01T00:00:00Z');
    const timed = await startTestApi({ now: () => clock });
    try {
      const { token } = await timed.signUp();
      expect((await timed.request('GET', '/api/auth/me', { token })).status).toBe(200);
      clock = new Date(clock.getTime() + TOKEN_TTL_SECONDS * 1000);
      const expired = await timed.request('GET', '/api/auth/me', { token });
      expect(expired.status).toBe(401);
      expect(expired.body).toEqual({ message: 'Your session has ended or is not valid. Please sign in again.' });
    } finally {
      await timed.close();
    }
  });
});

/**
 * An address past its failure limit is slowed, never locked out: each attempt from it waits its turn. These tests
 * allow no wait (maxWaitMs 0), so an attempt the address would have to wait for shows as a 429.
 */
const slowedPast = (perAddress: number) =>
  createSignInLimiter({ perAddress, slowDown: { spacingMs: 60_000, maxWaitMs: 0 } });

describe('sign-in rate limits and no enumeration', () => {
  it('locks an account after 10 failures in 15 min, even for the right password; others unaffected', async () => {
    const limited = await startTestApi();
    try {
      const victim = await limited.signUp();
      const bystander = await limited.signUp();
      for (let attempt = 1; attempt <= 10; attempt += 1) {
        const response = await limited.request('POST', '/api/auth/signin', {
          body: { email: victim.email, password: `guess ${attempt}` },
        });
        expect(response.status).toBe(401);
      }
      const locked = await limited.request('POST', '/api/auth/signin', {
        body: { email: victim.email, password: victim.password },
      });
      expect(locked.status).toBe(429);
      expect(locked.body).toEqual({ message: 'Too many failed sign-in attempts. Try again in 15 minutes.' });
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(800);
      expect(
        (
          await limited.request('POST', '/api/auth/signin', {
            body: { email: bystander.email, password: bystander.password },
          })
        ).status,
      ).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('an unknown e-mail locks the same way, so a 429 reveals nothing', async () => {
    const limited = await startTestApi();
    try {
      for (let attempt = 1; attempt <= 10; attempt += 1) {
        await limited.request('POST', '/api/auth/signin', {
          body: { email: 'ghost@hospital.example', password: 'whatever1' },
        });
      }
      const response = await limited.request('POST', '/api/auth/signin', {
        body: { email: 'ghost@hospital.example', password: 'whatever1' },
      });
      expect(response.status).toBe(429);
      expect(response.body).toEqual({ message: 'Too many failed sign-in attempts. Try again in 15 minutes.' });
    } finally {
      await limited.close();
    }
  });

  it('limits failures per address across accounts (coarser than per account)', async () => {
    const limited = await startTestApi({ limiter: slowedPast(5) });
    try {
      for (let attempt = 1; attempt <= 5; attempt += 1) {
        await limited.request('POST', '/api/auth/signin', {
          body: { email: `user${attempt}@hospital.example`, password: 'whatever1' },
        });
      }
      const response = await limited.request('POST', '/api/auth/signin', {
        body: { email: 'fresh@hospital.example', password: 'whatever1' },
      });
      expect(response.status).toBe(429);
    } finally {
      await limited.close();
    }
  });

  describe('behind a proxy (TRUST_PROXY=true, one hop): the address is the one the proxy saw', () => {
    // The proxy appends the address it saw to whatever X-Forwarded-For the client sent.
    const viaProxy = (claimed: string | undefined, seenByProxy: string) => ({
      'X-Forwarded-For': claimed ? `${claimed}, ${seenByProxy}` : seenByProxy,
    });

    it('a client rotating a spoofed X-Forwarded-For is still limited', async () => {
      const limited = await startTestApi({ trustProxy: true, limiter: slowedPast(5) });
      try {
        for (let attempt = 1; attempt <= 5; attempt += 1) {
          const response = await limited.request('POST', '/api/auth/signin', {
            body: { email: `user${attempt}@hospital.example`, password: 'whatever1' },
            headers: viaProxy(`10.0.0.${attempt}`, '198.51.100.9'),
          });
          expect(response.status).toBe(401);
        }
        const response = await limited.request('POST', '/api/auth/signin', {
          body: { email: 'fresh@hospital.example', password: 'whatever1' },
          headers: viaProxy('10.0.0.99', '198.51.100.9'),
        });
        expect(response.status).toBe(429);
      } finally {
        await limited.close();
      }
    });

    it('an IPv6 client rotating its address within its /64 is limited as one (server probe 4, N7)', async () => {
      const limited = await startTestApi({ trustProxy: true, limiter: slowedPast(5) });
      try {
        const statuses = [];
        for (let attempt = 1; attempt <= 6; attempt += 1) {
          const response = await limited.request('POST', '/api/auth/signin', {
            body: { email: `v6user${attempt}@hospital.example`, password: 'whatever1' },
            headers: viaProxy(undefined, `2001:db8:1:2::${attempt.toString(16)}`),
          });
          statuses.push(response.status);
        }
        expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
        // another /64 is another client
        const elsewhere = await limited.request('POST', '/api/auth/signin', {
          body: { email: 'v6fresh@hospital.example', password: 'whatever1' },
          headers: viaProxy(undefined, '2001:db8:1:3::1'),
        });
        expect(elsewhere.status).toBe(401);
      } finally {
        await limited.close();
      }
    });

    it('claiming another address does not lock that address out', async () => {
      const limited = await startTestApi({ trustProxy: true, limiter: slowedPast(5) });
      try {
        const victim = await limited.signUp();
        for (let attempt = 1; attempt <= 8; attempt += 1) {
          await limited.request('POST', '/api/auth/signin', {
            body: { email: `user${attempt}@hospital.example`, password: 'whatever1' },
            headers: viaProxy('203.0.113.7', '198.51.100.9'), // the attacker claims to be the victim's address
          });
        }
        const response = await limited.request('POST', '/api/auth/signin', {
          body: { email: victim.email, password: victim.password },
          headers: viaProxy(undefined, '203.0.113.7'),
        });
        expect(response.status).toBe(200);
      } finally {
        await limited.close();
      }
    });

    it('with two hops, the address the outer proxy saw counts', async () => {
      const limited = await startTestApi({
        trustProxy: true,
        trustProxyHops: 2,
        limiter: slowedPast(5),
      });
      try {
        for (let attempt = 1; attempt <= 6; attempt += 1) {
          const response = await limited.request('POST', '/api/auth/signin', {
            body: { email: `user${attempt}@hospital.example`, password: 'whatever1' },
            // spoofed part, then what the outer proxy saw, then the outer proxy as the inner one saw it
            headers: { 'X-Forwarded-For': `10.0.0.${attempt}, 198.51.100.9, 172.16.0.2` },
          });
          expect([attempt, response.status]).toEqual([attempt, attempt <= 5 ? 401 : 429]);
        }
        const other = await limited.request('POST', '/api/auth/signin', {
          body: { email: 'other@hospital.example', password: 'whatever1' },
          headers: { 'X-Forwarded-For': '198.51.100.9, 198.51.100.10, 172.16.0.2' },
        });
        expect(other.status).toBe(401); // another client behind the same inner proxy is not limited
      } finally {
        await limited.close();
      }
    });
  });

  // Security review 1, L3: one clinician's typos behind the hospital's NAT (50 of them) locked every clinician there
  // out for 15 minutes, even with the right password.
  it('an address past its failure limit is slowed, not locked out: the right password from it signs in', async () => {
    const spacingMs = 400;
    const limited = await startTestApi({
      limiter: createSignInLimiter({ perAddress: 3, slowDown: { spacingMs, maxWaitMs: 1_000 } }),
    });
    try {
      const colleague = await limited.signUp();
      for (let attempt = 1; attempt <= 3; attempt += 1) {
        const typo = await limited.request('POST', '/api/auth/signin', {
          body: { email: `nat${attempt}@hospital.example`, password: 'not the password' },
        });
        expect(typo.status).toBe(401);
      }
      const started = performance.now();
      const signedIn = await limited.request('POST', '/api/auth/signin', {
        body: { email: colleague.email, password: colleague.password },
      });
      expect(signedIn.status).toBe(200); // was 429 for the rest of the 15 minutes
      expect(performance.now() - started).toBeGreaterThanOrEqual(spacingMs - 5); // waited its turn
      // A flood from the address: one attempt per turn, and those that would wait over a second are refused.
      const flood = await Promise.all(
        Array.from({ length: 6 }, (_, index) =>
          limited.request('POST', '/api/auth/signin', {
            body: { email: `flood${index}@hospital.example`, password: 'not the password' },
          }),
        ),
      );
      const statuses = flood.map((answer) => answer.status).sort();
      expect(statuses).toContain(401);
      expect(statuses).toContain(429);
      const refused = flood.find((answer) => answer.status === 429)!;
      expect(refused.body).toEqual({ message: 'Too many failed sign-in attempts. Try again in 1 minutes.' });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    } finally {
      await limited.close();
    }
  });

  it('does not limit 60 successful sign-ups and 60 sign-ins a minute from one address', async () => {
    const busy = await startTestApi();
    try {
      const accounts = [];
      for (let index = 0; index < 60; index += 1) accounts.push(await busy.signUp());
      for (const account of accounts) {
        const response = await busy.request('POST', '/api/auth/signin', {
          body: { email: account.email, password: account.password },
        });
        expect(response.status).toBe(200);
      }
    } finally {
      await busy.close();
    }
  }, 60_000);
});
