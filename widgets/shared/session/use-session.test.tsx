import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { existingSessionStore, isAuthenticated } from './session-state.ts';
import { useSession } from './use-session.ts';

// An element alone on a page loads the session store's code only when a session is stored, or when
// another element (a sign-in, Quick Use) or another tab starts one.
const user = { id: 'u1', email: 'sara@hospital.example', name: 'Sara', license: null };
const STORE = Symbol.for('sgx.session.v1');
let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  delete (globalThis as Record<symbol, unknown>)[STORE];
  fetchMock = vi.fn(
    async () => new Response(JSON.stringify(user), { status: 200, headers: { 'Content-Type': 'application/json' } }),
  );
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
  delete (globalThis as Record<symbol, unknown>)[STORE];
});

function Probe() {
  const signedIn = useSession(isAuthenticated, '');
  const name = useSession((state) => state.user?.name ?? 'nobody');
  const quickUse = useSession((state) => state.quickUse);
  return <p>{`${signedIn ? 'signed in' : 'signed out'} as ${name}${quickUse ? ', Quick Use' : ''}`}</p>;
}

describe('useSession without a session store on the page', () => {
  it('nothing stored: reads "signed out", creates no store and calls no API', async () => {
    render(<Probe />);
    await act(() => vi.dynamicImportSettled());
    expect(screen.getByText('signed out as nobody')).toBeTruthy();
    expect(existingSessionStore()).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('a stored token: loads the store, which reads the token and the current user', async () => {
    localStorage.setItem('authToken', 'tok-1');
    render(<Probe />);
    expect(await screen.findByText('signed in as Sara')).toBeTruthy();
    expect(existingSessionStore()?.getState().token).toBe('tok-1');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(String(fetchMock.mock.calls[0]![0])).toBe('/api/auth/me');
  });

  it('follows the store another element creates later (Quick Use, then a sign-in)', async () => {
    render(<Probe />);
    await act(() => vi.dynamicImportSettled());
    expect(existingSessionStore()).toBeNull();
    const { sessionStore } = await import('./session-store.ts');
    act(() => sessionStore().getState().startQuickUse());
    expect(screen.getByText('signed out as nobody, Quick Use')).toBeTruthy();
    act(() => sessionStore().getState().signedIn('tok-2', user));
    expect(screen.getByText('signed in as Sara')).toBeTruthy();
  });

  it('another tab signs in (the storage event): loads the store and follows it', async () => {
    render(<Probe />);
    await act(() => vi.dynamicImportSettled());
    localStorage.setItem('authToken', 'tok-3');
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: 'authToken', newValue: 'tok-3' }));
    });
    expect(await screen.findByText('signed in as Sara')).toBeTruthy();
    expect(existingSessionStore()?.getState().token).toBe('tok-3');
  });
});
