import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import type { StoreApi } from 'zustand/vanilla';
import {
  existingSessionStore,
  hasStoredToken,
  NO_SESSION,
  type SessionData,
  type SessionState,
} from './session-state.ts';
import { loadSessionStore } from './session-store-loader.ts';
import { AUTH_TOKEN_KEY, SESSION_CHANGED_EVENT } from './session-storage-keys.ts';

/**
 * The page's session store, once there is one. With none, the session store's code is loaded only when a
 * session is stored (this tab or another one signed in); until then the element follows the page and
 * takes the store another element creates (a sign-in, Quick Use: SESSION_CHANGED_EVENT).
 */
function usePageSessionStore(): StoreApi<SessionState> | null {
  const [store, setStore] = useState(existingSessionStore);
  useEffect(() => {
    if (store) return;
    let active = true;
    const adopt = (found: StoreApi<SessionState> | null) => {
      if (active && found) setStore(() => found);
    };
    const load = () =>
      loadSessionStore().then(adopt, () => {
        // the code could not be downloaded: the element goes on as signed out
      });
    const onCreated = () => adopt(existingSessionStore());
    const onStorage = (event: StorageEvent) => {
      if ((event.key === AUTH_TOKEN_KEY || event.key === null) && hasStoredToken()) void load();
    };
    window.addEventListener(SESSION_CHANGED_EVENT, onCreated);
    window.addEventListener('storage', onStorage);
    if (existingSessionStore()) onCreated();
    else if (hasStoredToken()) void load();
    return () => {
      active = false;
      window.removeEventListener(SESSION_CHANGED_EVENT, onCreated);
      window.removeEventListener('storage', onStorage);
    };
  }, [store]);
  return store;
}

/**
 * The session in a component: re-renders on change, and loads the user when a token has none.
 * Signed out with no session store on the page, it reads NO_SESSION and loads no session code.
 */
export function useSession<T>(selector: (state: SessionData) => T, apiBase?: string): T {
  const store = usePageSessionStore();
  const subscribe = useCallback((onChange: () => void) => store?.subscribe(onChange) ?? (() => {}), [store]);
  const snapshot = () => store?.getState() ?? NO_SESSION;
  const state = useSyncExternalStore(subscribe, snapshot, snapshot);
  const token = state.token;
  useEffect(() => {
    if (store && apiBase !== undefined && token) void store.getState().loadUser(apiBase);
  }, [store, token, apiBase]);
  return selector(state);
}
