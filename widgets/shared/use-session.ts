import { useEffect } from 'react';
import { useStore } from 'zustand';
import { sessionStore, type SessionState } from './session-store.ts';

/** The session in a component: re-renders on change, and loads the user when a token has none. */
export function useSession<T>(selector: (state: SessionState) => T, apiBase?: string): T {
  const store = sessionStore();
  const token = useStore(store, (state) => state.token);
  useEffect(() => {
    if (apiBase !== undefined && token) void store.getState().loadUser(apiBase);
  }, [store, token, apiBase]);
  return useStore(store, selector);
}
