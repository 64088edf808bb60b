import { smartSessionSchema } from '../../../contracts/smart.ts';
import { apiRequest } from '../api/api-client.ts';
import { userMessage } from '../api/api-error.ts';
import type { SessionUser } from '../session/session-state.ts';
import { loadSessionStore } from '../session/session-store-loader.ts';
import { takeOrKeep, type ConfirmSwitch } from '../session/switch-session.ts';
import { markOpenedFromEhr as flag } from '../session/ehr-context.ts';
import type { ToastOptions } from '../ui/toasts.tsx';
import { EHR_TEXTS, ehrServerText, openedText } from './texts.ts';

/**
 * Back from a launch from the EHR (`#sgx-smart=<code>`, docs/API.md#smart-app-launch): the one-time code
 * exchanged for the session (the same `authToken` any sign-in stores) and the launch's context; the EHR's
 * patient is chosen, so the calculators take their weight. The code is good only in the browser the launch
 * went through (its binding cookie goes with the request). When the page holds another clinician's session,
 * `confirm` asks first (a shared workstation). Answers the user signed in, or null.
 */
export async function finishSmartLaunch(
  apiBase: string | undefined,
  code: string,
  toast: (options: ToastOptions) => void,
  confirm: ConfirmSwitch,
): Promise<SessionUser | null> {
  try {
    const [{ token, user, ehr }, store] = await Promise.all([
      apiRequest(apiBase, '/api/smart/session', smartSessionSchema, { method: 'POST', body: { code }, token: null }),
      loadSessionStore(),
    ]);
    if (!(await takeOrKeep(store, apiBase, { token, user }, confirm))) return null;
    store.getState().signedIn(token, user);
    store.getState().openedFromEhr(ehr);
    flag(true);
    toast({
      title: ({ lang }) => EHR_TEXTS[lang].openedTitle,
      description: ({ lang }) => openedText(EHR_TEXTS[lang], ehr),
      // no weight filled in: not a plain success (the note under the weight field says it again, and stays)
      variant: ehr.weight.source === 'ehr' ? 'success' : 'default',
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
