import type { StoreApi } from 'zustand/vanilla';
import { apiSend } from '../api/api-client.ts';
import type { SessionState, SessionUser } from './session-state.ts';

/** Asks the clinician whether to leave `current` (null: not known, e.g. offline) for `next`; true to switch. */
export type ConfirmSwitch = (current: SessionUser | null, next: SessionUser) => Promise<boolean>;

/**
 * A session handed over to this page (the hospital's sign-in, a launch from the EHR) while it holds another
 * account's: taken only when the clinician says so ("You are signed in as A. Continue as B?"), never silently
 * (security review M4: a code planted in the page must not swap the clinician's session for someone else's).
 * The same account, or no session held: taken. Declined: the new session is ended on the server at once, and the
 * page keeps the one it had. Answers whether `next` was taken.
 */
export async function takeOrKeep(
  store: StoreApi<SessionState>,
  apiBase: string | undefined,
  next: { token: string; user: SessionUser },
  confirm: ConfirmSwitch,
): Promise<boolean> {
  if (store.getState().token) await store.getState().loadUser(apiBase);
  const held = store.getState();
  if (!held.token || held.user?.id === next.user.id || (await confirm(held.user, next.user))) return true;
  await apiSend(apiBase, '/api/auth/signout', { method: 'POST', token: next.token }).catch(() => undefined);
  return false;
}
