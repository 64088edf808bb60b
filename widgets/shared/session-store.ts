import { createStore, type StoreApi } from 'zustand/vanilla';
import { userSchema, type User } from '../../contracts/auth.ts';
import type { Patient } from '../../contracts/records.ts';
import { ApiError, apiRequest } from './api-client.ts';
import { AUTH_TOKEN_KEY, SESSION_STORE_SYMBOL } from './session-storage-keys.ts';

export type SessionUser = User;

/** docs/product.md §4 and §9: the current user is fresh for 5 minutes. */
export const USER_FRESH_MS = 5 * 60 * 1000;

/** The patient chosen in the account area, used by the calculators (weight prefilled, id sent). */
export type SelectedPatient = Pick<Patient, 'id' | 'displayName' | 'mrn' | 'yearOfBirth' | 'ageGroup' | 'weightKg'>;

export interface SessionState {
  token: string | null;
  user: SessionUser | null;
  userFetchedAt: number | null;
  userStatus: 'idle' | 'loading' | 'error';
  /** Quick Use: session only, nothing saved; kept in memory, so a reload forgets it. */
  quickUse: boolean;
  selectedPatient: SelectedPatient | null;
  selectPatient(patient: SelectedPatient | null): void;
  /** After a successful sign-up or sign-in. */
  signedIn(token: string, user: SessionUser): void;
  /** Removes the token and every cached value (the caller reloads the page, docs/product.md §4). */
  signOut(): void;
  startQuickUse(): void;
  /** Loads the current user, only when a token exists and the cached user is stale; never retries. */
  loadUser(apiBase: string | undefined): Promise<void>;
}

/** docs/product.md §4: authenticated only when both a user is loaded and a token exists. */
export const isAuthenticated = (state: Pick<SessionState, 'token' | 'user'>): boolean =>
  Boolean(state.token && state.user);

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

type SessionGlobal = typeof globalThis & { [SESSION_STORE_SYMBOL]?: StoreApi<SessionState> };

/**
 * The one session store of the page. Kept on globalThis under a registered symbol, so elements
 * from separately loaded bundles share it: one signing in or out updates all of them.
 */
export function sessionStore(): StoreApi<SessionState> {
  const global = globalThis as SessionGlobal;
  global[SESSION_STORE_SYMBOL] ??= createSessionStore();
  return global[SESSION_STORE_SYMBOL];
}

/** The page's session token, for the API calls. */
export const sessionToken = (): string | null => sessionStore().getState().token;
