import { createStore, type StoreApi } from 'zustand/vanilla';
import { sessionStatusSchema, userSchema } from '../../../contracts/auth.ts';
import { ERROR_CODES } from '../../../contracts/errors.ts';
import { ApiError, apiRequest } from '../api/api-client.ts';
import { existingSessionStore, NO_SESSION, type SessionState } from './session-state.ts';
import { loadOnce } from '../loading/load-once.ts';
import {
  AUTH_TOKEN_KEY,
  EHR_SESSION_FLAG_KEY,
  SESSION_CHANGED_EVENT,
  SESSION_STORE_SYMBOL,
} from './session-storage-keys.ts';
import { SESSION_REFUSED_EVENT } from '../api/api-client.ts';

// The session store's code: loaded by an element only when a stored session exists or the user asks
// for an account feature (session-state.ts holds what elements read without it).
export { isAuthenticated, type SelectedPatient, type SessionState, type SessionUser } from './session-state.ts';

/** docs/product.md §4 and §9: the current user is fresh for 5 minutes. */
export const USER_FRESH_MS = 5 * 60 * 1000;
/**
 * The first question comes this long after a session appears (a sign-in, a page load with one): the shortest
 * idle limit (SESSION_IDLE_MINUTES=1). A stored session already idle is refused by the user's load anyway.
 */
export const IDLE_FIRST_CHECK_MS = 60_000;
/** The idle limit is asked about again this long after the server says it ends (clocks and timers drift). */
export const IDLE_CHECK_MARGIN_MS = 2_000;
/** A session whose end could not be learned (offline, an error) is asked about again after this. */
export const IDLE_RETRY_MS = 60_000;

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

/** A tab opened from the EHR and reloaded: the launch's context is asked again (ehr-context.ts). */
const loadEhrContext = loadOnce(() => import('./ehr-context.ts'), import.meta.url);
function openedFromEhr(): boolean {
  try {
    return globalThis.sessionStorage?.getItem(EHR_SESSION_FLAG_KEY) === '1';
  } catch {
    return false; // storage blocked
  }
}

function createSessionStore(now: () => number = () => Date.now()): StoreApi<SessionState> {
  let inFlight: Promise<void> | null = null;
  let serial = 0;
  /** The api-base the elements asked about the session with (for the idle check). */
  let apiBase: string | undefined;
  const store = createStore<SessionState>()((set, get) => ({
    token: readStoredToken(),
    user: null,
    userFetchedAt: null,
    userStatus: 'idle',
    quickUse: false,
    selectedPatient: null,
    ended: null,
    ehr: null,
    selectPatient(patient) {
      set({ selectedPatient: patient });
    },
    openedFromEhr(ehr) {
      set({ ehr, selectedPatient: ehr.patient });
    },
    signedIn(token, user) {
      writeToken(token);
      set({ ...NO_SESSION, token, user, userFetchedAt: now() });
    },
    tokenRenewed(token) {
      writeToken(token);
      set({ token });
    },
    signOut() {
      writeToken(null);
      set(NO_SESSION);
    },
    sessionEnded({ reason, message }) {
      writeToken(null);
      serial += 1;
      // Signed out as at sign-out, and why (Quick Use stays as it was).
      set({ ...NO_SESSION, quickUse: get().quickUse, ended: { reason, message, serial } });
    },
    startQuickUse() {
      set({ quickUse: true });
    },
    loadUser(base) {
      apiBase ??= base;
      const { token, user, userFetchedAt } = get();
      if (!token) return Promise.resolve();
      if (user && userFetchedAt !== null && now() - userFetchedAt < USER_FRESH_MS) return Promise.resolve();
      if (inFlight) return inFlight;
      set({ userStatus: 'loading' });
      inFlight = apiRequest(base, '/api/auth/me', userSchema, { token })
        .then((loaded) => {
          if (get().token !== token) return;
          set({ user: loaded, userFetchedAt: now(), userStatus: 'idle' });
          // The launch's patient, banner and "Send to EHR" come back from the server after a reload.
          if (!get().ehr && openedFromEhr())
            loadEhrContext().then(
              (module) => module.restoreEhrContext(base, store),
              () => undefined, // offline: the tools work without it
            );
        })
        .catch((error: unknown) => {
          if (get().token !== token) return;
          // A 401 here means "signed out", not an error (docs/product.md §7: "return null on 401"): the
          // refusal's event (api-client.ts) has ended the session already.
          if (!(error instanceof ApiError && error.status === 401)) set({ userStatus: 'error' });
        })
        .finally(() => {
          inFlight = null;
        });
      return inFlight;
    },
  }));

  // Any element's request refused for this session (idle, ended elsewhere): signed out here, saying why.
  globalThis.addEventListener?.(SESSION_REFUSED_EVENT, (event: Event) => {
    const detail = (event as CustomEvent<{ token: string; code?: string; message: string }>).detail;
    if (!detail || detail.token !== store.getState().token) return;
    const reason = detail.code === ERROR_CODES.sessionIdle ? 'idle' : 'ended';
    store.getState().sessionEnded({ reason, message: detail.message });
  });
  watchIdleLimit(store, () => apiBase);

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
 * A session left unused for the server's idle limit ends there; this notices it without a click: it asks
 * the API when the session will end (GET /api/auth/session, which does not count as use) and asks again
 * then. The answer 401 (idle) signs the session out here through the refusal's event, so every element
 * says why at once. Another tab's or element's requests keep the session alive, and the next answer says so.
 */
function watchIdleLimit(store: StoreApi<SessionState>, apiBaseOf: () => string | undefined) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let watched: string | null = null;
  const check = (token: string) => {
    if (store.getState().token !== token) return;
    const apiBase = apiBaseOf();
    if (apiBase === undefined) return schedule(token, IDLE_RETRY_MS);
    apiRequest(apiBase, '/api/auth/session', sessionStatusSchema, { token }).then(
      (status) => schedule(token, status.idleRemainingSeconds * 1000 + IDLE_CHECK_MARGIN_MS),
      (error: unknown) => {
        if (!(error instanceof ApiError && error.status === 401)) schedule(token, IDLE_RETRY_MS);
      },
    );
  };
  const schedule = (token: string, delayMs: number) => {
    clearTimeout(timer);
    if (store.getState().token === token) timer = setTimeout(() => check(token), delayMs);
  };
  const follow = () => {
    const token = store.getState().token;
    if (token === watched) return;
    watched = token;
    clearTimeout(timer);
    if (token) schedule(token, IDLE_FIRST_CHECK_MS);
  };
  store.subscribe(follow);
  follow();
  // A laptop lid opened, a tab shown again: timers were held meanwhile, so ask now.
  globalThis.document?.addEventListener?.('visibilitychange', () => {
    const token = store.getState().token;
    if (token && globalThis.document.visibilityState === 'visible') schedule(token, 0);
  });
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
