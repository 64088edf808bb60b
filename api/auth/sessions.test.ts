import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../test-support/test-api.ts';

// Sessions that end when a clinician walks away (SESSION_IDLE_MINUTES, with the app's clock under the
// test's control) and the profile's list of sessions with "sign out of all other sessions". On each store.
let clock = new Date('2026-06-01T08:00:00.000Z');
const tick = (seconds: number) => (clock = new Date(clock.getTime() + seconds * 1000));
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ now: () => clock, auth: { idleMinutes: 1 } });
});
afterAll(() => api?.close());

const chrome =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const safari =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) ' +
  'Version/17.5 Mobile/15E148 Safari/604.1';

describe('the idle limit (SESSION_IDLE_MINUTES=1)', () => {
  it('a request after the idle time is a 401 that says why, and the session is ended for good', async () => {
    const { token, user } = await api.signUp();
    tick(50);
    expect((await api.request('GET', '/api/patients', { token })).status).toBe(200); // used at 50 s
    tick(55);
    expect((await api.request('GET', '/api/patients', { token })).status).toBe(200); // 55 s after the last use
    tick(61);
    const idle = await api.request('GET', '/api/patients', { token });
    expect(idle.status).toBe(401);
    expect(idle.body).toEqual({
      message: 'You were signed out after 1 minutes without activity. Please sign in again.',
      code: 'session_idle',
    });
    // Ended, not merely late: the next request is the ordinary "session has ended".
    const after = await api.request('GET', '/api/auth/me', { token });
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ message: 'Your session has ended or is not valid. Please sign in again.' });
    const audit = (await api.auditLines()).filter(
      (line) => line.actor === user.id && line.action === 'session.idle_timeout',
    );
    expect(audit).toEqual([expect.objectContaining({ recordType: 'session', outcome: 'success' })]);
  });

  it('asking when the session ends does not count as use, so it never keeps an unattended session alive', async () => {
    const { token } = await api.signUp();
    tick(20);
    const status = await api.request('GET', '/api/auth/session', { token });
    expect(status.body).toEqual({
      expiresAt: new Date(clock.getTime() - 20_000 + 12 * 3600_000).toISOString(),
      idleExpiresAt: new Date(clock.getTime() + 40_000).toISOString(),
      idleMinutes: 1,
      idleRemainingSeconds: 40,
    });
    tick(30);
    expect((await api.request('GET', '/api/auth/session', { token })).body.idleRemainingSeconds).toBe(10);
    tick(11);
    expect((await api.request('GET', '/api/auth/session', { token })).status).toBe(401);
  });

  it('records the last use at most every tenth of the idle limit (one write, not one per request)', async () => {
    const { token, user } = await api.signUp();
    const lastUse = async () => (await api.store.listOpenSessions(user.id, clock.toISOString()))[0]?.lastUsedAt;
    const signedUpAt = clock.toISOString();
    tick(3);
    await api.request('GET', '/api/auth/me', { token });
    expect(await lastUse()).toBe(signedUpAt); // 3 s < 6 s: not written
    tick(4);
    await api.request('GET', '/api/auth/me', { token });
    expect(await lastUse()).toBe(clock.toISOString()); // 7 s: written
  });

  it('the 12-hour limit still holds for a session in use', async () => {
    const { token } = await api.signUp();
    const expiry = clock.getTime() + 12 * 3600_000;
    // A request every 50 s (never idle) for 12 hours ...
    while (clock.getTime() + 50_000 < expiry) {
      tick(50);
      expect((await api.request('GET', '/api/auth/me', { token })).status).toBe(200);
    }
    // ... and then the token's own expiry ends it.
    tick(50);
    const expired = await api.request('GET', '/api/auth/me', { token });
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ message: 'Your session has ended or is not valid. Please sign in again.' });
  }, 120_000);
});

describe('the profile’s sessions', () => {
  it('lists the open sessions (device, last use, this one), newest use first, and not idle ones', async () => {
    const account = await api.signUp();
    tick(1);
    const onPhone = await api.request('POST', '/api/auth/signin', {
      headers: { 'User-Agent': safari },
      body: { email: account.email, password: account.password },
    });
    tick(5);
    const onWard = await api.request('POST', '/api/auth/signin', {
      headers: { 'User-Agent': chrome },
      body: { email: account.email, password: account.password },
    });
    tick(5);
    const listed = await api.request('GET', '/api/auth/sessions', { token: onWard.body.token });
    expect(listed.status).toBe(200);
    expect(listed.body.sessions).toEqual([
      {
        id: expect.any(String),
        device: 'Chrome on Windows',
        method: 'password',
        createdAt: new Date(clock.getTime() - 5_000).toISOString(),
        lastUsedAt: clock.toISOString(),
        current: true,
      },
      expect.objectContaining({ device: 'Safari on iOS', current: false }),
      expect.objectContaining({ device: null, current: false }), // the sign-up's (no User-Agent sent)
    ]);
    expect(JSON.stringify(listed.body)).not.toContain('Mozilla');
    // Not used for the idle limit: no longer listed.
    tick(30);
    await api.request('GET', '/api/auth/me', { token: onPhone.body.token });
    tick(35);
    const later = await api.request('GET', '/api/auth/sessions', { token: onPhone.body.token });
    expect(later.body.sessions.map((session: { device: string | null }) => session.device)).toEqual(['Safari on iOS']);
  });

  it('"sign out of all other sessions" ends them at once; this one goes on; each is an audit line', async () => {
    const account = await api.signUp();
    const others = [];
    for (let index = 0; index < 3; index += 1)
      others.push(
        (await api.request('POST', '/api/auth/signin', { body: { email: account.email, password: account.password } }))
          .body.token as string,
      );
    const stranger = await api.signUp();
    const ended = await api.request('POST', '/api/auth/sessions/end-others', {
      token: account.token,
      body: { password: account.password }, // the clinician again (step-up.test.ts)
    });
    expect(ended.status).toBe(200);
    expect(ended.body).toEqual({ ended: 3 });
    for (const token of others) expect((await api.request('GET', '/api/auth/me', { token })).status).toBe(401);
    expect((await api.request('GET', '/api/auth/me', { token: account.token })).status).toBe(200);
    expect((await api.request('GET', '/api/auth/me', { token: stranger.token })).status).toBe(200);
    const lines = (await api.auditLines()).filter(
      (line) => line.actor === account.user.id && line.action === 'session.end.others',
    );
    expect(lines).toHaveLength(3);
  });

  it('ends one session by its id; another clinician’s, an unknown or a malformed id is a 404', async () => {
    const account = await api.signUp();
    const other = await api.request('POST', '/api/auth/signin', {
      body: { email: account.email, password: account.password },
    });
    const stranger = await api.signUp();
    const strangers = await api.request('GET', '/api/auth/sessions', { token: stranger.token });
    const theirs = strangers.body.sessions[0].id as string;
    for (const id of [theirs, crypto.randomUUID(), 'not-an-id']) {
      const answer = await api.request('DELETE', `/api/auth/sessions/${id}`, { token: account.token });
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ message: 'Session not found' });
    }
    expect((await api.request('GET', '/api/auth/me', { token: stranger.token })).status).toBe(200);
    const mine = await api.request('GET', '/api/auth/sessions', { token: account.token });
    const otherId = mine.body.sessions.find((session: { current: boolean }) => !session.current).id;
    const ended = await api.request('DELETE', `/api/auth/sessions/${otherId}`, {
      token: account.token,
      body: { password: account.password },
    });
    expect(ended.status).toBe(204);
    expect((await api.request('GET', '/api/auth/me', { token: other.body.token })).status).toBe(401);
  });

  it('needs a session', async () => {
    for (const [method, path] of [
      ['GET', '/api/auth/sessions'],
      ['GET', '/api/auth/session'],
      ['POST', '/api/auth/sessions/end-others'],
      ['GET', '/api/auth/security'],
    ] as const) {
      const answer = await api.request(method, path);
      expect([path, answer.status]).toEqual([path, 401]);
    }
  });
});
