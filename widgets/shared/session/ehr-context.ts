import type { StoreApi } from 'zustand/vanilla';
import { ehrContextSchema } from '../../../contracts/smart.ts';
import { apiRequest } from '../api/api-client.ts';
import { ApiError } from '../api/api-error.ts';
import type { SessionState } from './session-state.ts';
import { EHR_SESSION_FLAG_KEY } from './session-storage-keys.ts';

/** Notes in this tab that its session was opened from the EHR (`on`), or that it no longer is. */
export function markOpenedFromEhr(on: boolean): void {
  try {
    if (on) globalThis.sessionStorage?.setItem(EHR_SESSION_FLAG_KEY, '1');
    else globalThis.sessionStorage?.removeItem(EHR_SESSION_FLAG_KEY);
  } catch {
    // storage blocked (a frame of another site): a reload then forgets the launch
  }
}

/**
 * After a reload of a tab opened from the EHR: the launch's context asked again (the patient chosen, the banner,
 * Send to EHR). A session that no longer has one (ended, or another account signed in) drops the flag. Loaded by
 * the session store only in such a tab.
 */
export async function restoreEhrContext(apiBase: string | undefined, store: StoreApi<SessionState>): Promise<void> {
  const token = store.getState().token;
  if (!token) return markOpenedFromEhr(false);
  try {
    const ehr = await apiRequest(apiBase, '/api/smart/context', ehrContextSchema, { token });
    if (store.getState().token === token) store.getState().openedFromEhr(ehr);
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 401)) markOpenedFromEhr(false);
  }
}
