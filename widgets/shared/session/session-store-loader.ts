import type { StoreApi } from 'zustand/vanilla';
import { loadOnce } from '../loading/load-once.ts';
import { existingSessionStore, type SessionState } from './session-state.ts';

// The session store's code (session-store.ts: zustand, the /api/auth/me call), downloaded when an element first
// needs the store: a stored session, or the user asking for an account feature. It stands apart from
// session-state.ts, which the store imports, so that no two modules import each other.

/** The store's code, downloaded once (a failed download can be retried). */
const loadStoreCode = loadOnce(() => import('./session-store.ts'), import.meta.url);

/** The page's session store, creating it (and loading its code) when none exists yet. */
export function loadSessionStore(): Promise<StoreApi<SessionState>> {
  const existing = existingSessionStore();
  if (existing) return Promise.resolve(existing);
  return loadStoreCode().then((module) => module.sessionStore());
}
