import { createStore, type StoreApi } from 'zustand/vanilla';
import { userSchema } from '../../contracts/auth.ts';
import { ApiError, apiRequest } from './api-client.ts';
import { existingSessionStore, type SessionState } from './session-state.ts';
import { AUTH_TOKEN_KEY, SESSION_CHANGED_EVENT, SESSION_STORE_SYMBOL } from './session-storage-keys.ts';

// The session store's code: loaded by an element only when a stored session exists or the user asks
// for an account feature (session-state.ts holds what elements read without it).
export { isAuthenticated, type SelectedPatient, type SessionState, type SessionUser } from './session-state.ts';

/** docs/product.md §4 and §9: the current user is fresh for 5 minutes. */
export const USER_FRESH_MS = 5 * 60 * 1000;

function readStoredToken(): string | null {
  try {
    return globalThis.localStorage?.getItem(AUTH_TOKEN_KEY) ?? null;
  } catch {
    return null; // storage blocked (privacy mode, sandboxed iframe)
  }
}

function writeToken(token: string | null): void {
  try {
    if (token) globalThis.localStorage?.setItem(AUTH_TOKEN_KEY, token);
    else globalThis.localStorage?.removeItem(AUTH_TOKEN_KEY);
  } catch {
    // storage blocked: the session lasts for this page only
  }
}

function createSessionStore(now: () => number = () => Date.now()): StoreApi<SessionState> {
  let inFlight: Promise<void> | null = null;
  const store = createStore<SessionState>()((set, get) => ({
    token: readStoredToken(),
    user: null,
    userFetchedAt: null,
    userStatus: 'idle',
    quickUse: false,
    selectedPatient: null,
    selectPatient(patient) {
      set({ selectedPatient: patient });
    },
    signedIn(token, user) {
      writeToken(token);
      set({ token, user, userFetchedAt: now(), userStatus: 'idle', quickUse: false, selectedPatient: null });
    },
    signOut() {
      writeToken(null);
      set({ token: null, user: null, userFetchedAt: null, userStatus: 'idle', quickUse: false, selectedPatient: null });
    },
    startQuickUse() {
      set({ quickUse: true });
    },
    loadUser(apiBase) {
      const { token, user, userFetchedAt } = get();
      if (!token) return Promise.resolve();
      if (user && userFetchedAt !== null && now() - userFetchedAt < USER_FRESH_MS) return Promise.resolve();
      if (inFlight) return inFlight;
      set({ userStatus: 'loading' });
      inFlight = apiRequest(apiBase, '/api/auth/me', userSchema, { token })
        .then((loaded) => {
          if (get().token === token) set({ user: loaded, userFetchedAt: now(), userStatus: 'idle' });
        })
        .catch((error: unknown) => {
          if (get().token !== token) return;
          // A 401 here means "signed out", not an error (docs/product.md §7: "return null on 401").
          if (error instanceof ApiError && error.status === 401) get().signOut();
          else set({ userStatus: 'error' });
        })
        .finally(() => {
          inFlight = null;
        });
      return inFlight;
    },
  }));

  // Other tabs: the storage event. The token changed there, so the cached user is no longer known.
  globalThis.addEventListener?.('storage', (event: StorageEvent) => {
    if (event.key !== AUTH_TOKEN_KEY && event.key !== null) return;
    const token = readStoredToken();
    if (token === store.getState().token) return;
    store.setState({ token, user: null, userFetchedAt: null, userStatus: 'idle', selectedPatient: null });
  });
  return store;
}

/**
 * The one session store of the page, created on first use. Kept on globalThis under a registered
 * symbol, so elements from separately loaded bundles share it: one signing in or out updates all of
 * them. Its creation is announced on window (SESSION_CHANGED_EVENT), so elements that had no store
 * to follow (and did not load this code) start following it.
 */
export function sessionStore(): StoreApi<SessionState> {
  const existing = existingSessionStore();
  if (existing) return existing;
  const store = createSessionStore();
  (globalThis as Record<symbol, unknown>)[SESSION_STORE_SYMBOL] = store;
  globalThis.dispatchEvent?.(new Event(SESSION_CHANGED_EVENT));
  return store;
}
