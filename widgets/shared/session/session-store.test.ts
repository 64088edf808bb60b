import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isAuthenticated, sessionStore, USER_FRESH_MS } from './session-store.ts';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const user = { id: 'u1', email: 'sara@hospital.example', name: 'Sara', license: null };
let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  fetchMock = vi.fn(async () => json(200, user));
  vi.stubGlobal('fetch', fetchMock);
  sessionStore().setState({ token: null, user: null, userFetchedAt: null, userStatus: 'idle', quickUse: false });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('session store (docs/product.md §4)', () => {
  it('is one store per page, kept on globalThis under a registered symbol', () => {
    expect(sessionStore()).toBe((globalThis as Record<symbol, unknown>)[Symbol.for('sgx.session.v1')]);
  });

  it('signing in stores the token under authToken and caches the user; authenticated needs both', () => {
    expect(isAuthenticated(sessionStore().getState())).toBe(false);
    sessionStore().getState().signedIn('tok-1', user);
    expect(localStorage.getItem('authToken')).toBe('tok-1');
    expect(isAuthenticated(sessionStore().getState())).toBe(true);
    expect(isAuthenticated({ token: 'tok-1', user: null })).toBe(false);
    expect(isAuthenticated({ token: null, user })).toBe(false);
  });

  it('signing out removes the token and every cached value', () => {
    sessionStore().getState().signedIn('tok-1', user);
    sessionStore().getState().startQuickUse();
    sessionStore().getState().signOut();
    expect(localStorage.getItem('authToken')).toBeNull();
    expect(sessionStore().getState()).toMatchObject({ token: null, user: null, userFetchedAt: null, quickUse: false });
  });

  it('asks for the current user only when a token exists', async () => {
    await sessionStore().getState().loadUser('');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('loads the user once, keeps it fresh for 5 minutes, then asks again', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-22T10:00:00Z') });
    sessionStore().setState({ token: 'tok' });
    await Promise.all([
      sessionStore().getState().loadUser('https://api.example'),
      sessionStore().getState().loadUser('https://api.example'),
    ]);
    expect(fetchMock).toHaveBeenCalledTimes(1); // concurrent callers share one request
    expect(fetchMock.mock.calls[0]![0]).toBe('https://api.example/api/auth/me');
    expect(sessionStore().getState().user).toEqual(user);
    vi.setSystemTime(Date.now() + USER_FRESH_MS - 1);
    await sessionStore().getState().loadUser('https://api.example');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    vi.setSystemTime(Date.now() + 2);
    await sessionStore().getState().loadUser('https://api.example');
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('a 401 from /api/auth/me means signed out, not an error', async () => {
    localStorage.setItem('authToken', 'old');
    sessionStore().setState({ token: 'old' });
    fetchMock.mockResolvedValue(
      json(401, { message: 'Your session has ended or is not valid. Please sign in again.' }),
    );
    await sessionStore().getState().loadUser('');
    expect(sessionStore().getState()).toMatchObject({ token: null, user: null, userStatus: 'idle' });
    expect(localStorage.getItem('authToken')).toBeNull();
  });

  it('another failure keeps the token, marks an error, and does not retry', async () => {
    sessionStore().setState({ token: 'tok' });
    fetchMock.mockResolvedValue(new Response('', { status: 503, statusText: 'Service Unavailable' }));
    await sessionStore().getState().loadUser('');
    expect(sessionStore().getState()).toMatchObject({ token: 'tok', user: null, userStatus: 'error' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('follows another tab through the storage event', () => {
    sessionStore().getState().signedIn('tok-1', user);
    localStorage.setItem('authToken', 'tok-2');
    window.dispatchEvent(new StorageEvent('storage', { key: 'authToken', newValue: 'tok-2' }));
    expect(sessionStore().getState()).toMatchObject({ token: 'tok-2', user: null });
    localStorage.removeItem('authToken');
    window.dispatchEvent(new StorageEvent('storage', { key: 'authToken', newValue: null }));
    expect(sessionStore().getState()).toMatchObject({ token: null, user: null });
  });
});
