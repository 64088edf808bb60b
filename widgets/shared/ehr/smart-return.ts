import { ehrContextSchema, smartSessionSchema } from '../../../contracts/smart.ts';
import { apiRequest } from '../api-client.ts';
import { userMessage } from '../api-error.ts';
import { ApiError } from '../api-error.ts';
import { loadSessionStore, type SessionUser } from '../session-state.ts';
import { EHR_SESSION_FLAG_KEY } from './flag.ts';
import type { ToastOptions } from '../toasts.tsx';
import { EHR_TEXTS, ehrServerText } from './texts.ts';

/**
 * Back from a launch from the EHR (`#sgx-smart=<code>`, docs/API.md#smart-app-launch): the one-time code
 * exchanged for the session (the same `authToken` any sign-in stores) and the launch's context; the EHR's
 * patient is chosen, so the calculators take their weight. Answers the user signed in, or null.
 */
export async function finishSmartLaunch(
  apiBase: string | undefined,
  code: string,
  toast: (options: ToastOptions) => void,
): Promise<SessionUser | null> {
  try {
    const [{ token, user, ehr }, store] = await Promise.all([
      apiRequest(apiBase, '/api/smart/session', smartSessionSchema, { method: 'POST', body: { code }, token: null }),
      loadSessionStore(),
    ]);
    store.getState().signedIn(token, user);
    store.getState().openedFromEhr(ehr);
    flag(true);
    toast({
      title: ({ lang }) => EHR_TEXTS[lang].openedTitle,
      description: ({ lang }) => EHR_TEXTS[lang].openedText(ehr.patient.displayName),
      variant: 'success',
    });
    return user;
  } catch (error) {
    toast({
      title: ({ lang }) => EHR_TEXTS[lang].openFailedTitle,
      description: (host) => ehrServerText(host, userMessage(error)),
      variant: 'destructive',
    });
    return null;
  }
}

function flag(on: boolean): void {
  try {
    if (on) globalThis.sessionStorage?.setItem(EHR_SESSION_FLAG_KEY, '1');
    else globalThis.sessionStorage?.removeItem(EHR_SESSION_FLAG_KEY);
  } catch {
    // storage blocked (a frame of another site): a reload then forgets the launch
  }
}

/**
 * After a reload of a tab opened from the EHR: the launch's context asked again (the patient chosen, the banner,
 * Send to EHR). A session that no longer has one (ended, or another account signed in) drops the flag.
 */
export async function restoreEhrContext(apiBase: string | undefined): Promise<void> {
  const store = await loadSessionStore();
  const token = store.getState().token;
  if (!token) return flag(false);
  try {
    const ehr = await apiRequest(apiBase, '/api/smart/context', ehrContextSchema, { token });
    if (store.getState().token === token) store.getState().openedFromEhr(ehr);
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 401)) flag(false);
  }
}
