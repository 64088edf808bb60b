import type { StoreApi } from 'zustand/vanilla';
import type { User } from '../../../contracts/auth.ts';
import type { Patient } from '../../../contracts/records.ts';
import type { EhrContext } from '../../../contracts/smart.ts';
import { AUTH_TOKEN_KEY, SESSION_STORE_SYMBOL } from './session-storage-keys.ts';

// What every element may read about the session without loading the session store's code (zustand,
// the /api/auth/me call): its shape, the signed-out state, and the page's store if one exists. The
// store itself (session-store.ts, loaded by session-store-loader.ts) loads only when a stored session exists
// or the user asks for an account feature, so an element alone on a page does not download it.

export type SessionUser = User;

/** The patient chosen in the account area, used by the calculators (weight prefilled, id sent). */
export type SelectedPatient = Pick<Patient, 'id' | 'displayName' | 'mrn' | 'yearOfBirth' | 'ageGroup' | 'weightKg'>;

/** The session's data, as components read it. */
export interface SessionData {
  token: string | null;
  user: SessionUser | null;
  userFetchedAt: number | null;
  userStatus: 'idle' | 'loading' | 'error';
  /** Quick Use: session only, nothing saved; kept in memory, so a reload forgets it. */
  quickUse: boolean;
  selectedPatient: SelectedPatient | null;
  /**
   * Why the last session ended without the clinician signing out (the API refused its token): `idle` when
   * it was not used for the idle limit, else `ended`; with the API's message. Null after a sign-in or a
   * sign-out. The elements keep what was typed; the access portal says why and offers to sign in again.
   */
  ended: SessionEnded | null;
  /**
   * The session was opened from the EHR (SMART App Launch): its patient, the banner it asked for, and
   * whether "Send to EHR" writes a draft order too. Null otherwise, and after a reload (the EHR opens the
   * app again for each patient).
   */
  ehr: EhrContext | null;
}

export interface SessionEnded {
  reason: 'idle' | 'ended';
  /** The API's message (English; shown through the element's serverMessage). */
  message: string;
  /** Increases with each ending, so that each is noticed once. */
  serial: number;
}

export interface SessionState extends SessionData {
  selectPatient(patient: SelectedPatient | null): void;
  /** After a launch from the EHR: the launch's context, and its patient chosen. */
  openedFromEhr(ehr: EhrContext): void;
  /** After a successful sign-up or sign-in. */
  signedIn(token: string, user: SessionUser): void;
  /**
   * The server opened a new session in place of this one (a second factor added): its token is kept instead,
   * nothing else changes (the chosen patient, the launch from the EHR stay).
   */
  tokenRenewed(token: string): void;
  /** Removes the token and every cached value (the caller reloads the page, docs/product.md §4). */
  signOut(): void;
  /** The API refused the session: signed out here, without a reload, keeping why (`ended`). */
  sessionEnded(ended: Omit<SessionEnded, 'serial'>): void;
  startQuickUse(): void;
  /** Loads the current user, only when a token exists and the cached user is stale; never retries. */
  loadUser(apiBase: string | undefined): Promise<void>;
}

/** A page with no session store yet: nobody signed in, no Quick Use. */
export const NO_SESSION: SessionData = Object.freeze({
  token: null,
  user: null,
  userFetchedAt: null,
  userStatus: 'idle',
  quickUse: false,
  selectedPatient: null,
  ended: null,
  ehr: null,
});

/** docs/product.md §4: authenticated only when both a user is loaded and a token exists. */
export const isAuthenticated = (state: Pick<SessionData, 'token' | 'user'>): boolean =>
  Boolean(state.token && state.user);

type SessionGlobal = typeof globalThis & { [SESSION_STORE_SYMBOL]?: StoreApi<SessionState> };

/** The page's session store if any element (of any bundle) has created it. */
export function existingSessionStore(): StoreApi<SessionState> | null {
  return (globalThis as SessionGlobal)[SESSION_STORE_SYMBOL] ?? null;
}

/** The page's session token, for the API calls (none before a session store exists). */
export const sessionToken = (): string | null => existingSessionStore()?.getState().token ?? null;

/** docs/product.md §4: a stored session is a token in localStorage["authToken"]. A cheap, synchronous check. */
export function hasStoredToken(): boolean {
  try {
    return Boolean(globalThis.localStorage?.getItem(AUTH_TOKEN_KEY));
  } catch {
    return false; // storage blocked (privacy mode, sandboxed iframe)
  }
}
