import type { SessionUser } from '../../shared/session/session-state.ts';
import { loadSessionStore } from '../../shared/session/session-store-loader.ts';
import { takeOrKeep, type ConfirmSwitch } from '../../shared/session/switch-session.ts';
import { userMessage } from '../../shared/api/api-error.ts';
import type { ToastOptions } from '../../shared/ui/toasts.tsx';
import { finishSmartLaunch } from '../../shared/ehr/smart-return.ts';
import { exchangeSignOn } from './api.ts';
import { forgetSignOnVerifier } from './sign-on-verifier.ts';
import { SECURITY_TEXTS, serverText } from './texts.ts';

// Loaded with the hand-over: the question asked when it would replace the page's session with another account's.
export { SwitchAccountDialog } from './SwitchAccountDialog.tsx';

/**
 * Back from the hospital's sign-in with a one-time code: exchanged, with the verifier this tab made when it
 * started (sign-on-verifier.ts), for the session (the same `authToken` a password sign-in stores), with the
 * welcome toast; a code that has expired, was used, or was not this page's says so. When the page holds another
 * account's session, `confirm` asks first. Answers the user signed in, or null.
 */
export async function finishSignOn(
  apiBase: string | undefined,
  code: string,
  toast: (options: ToastOptions) => void,
  /** The hand-over of a launch from the EHR (`#sgx-smart=`), with the launch's patient. */
  smart: boolean,
  confirm: ConfirmSwitch,
): Promise<SessionUser | null> {
  if (smart) return finishSmartLaunch(apiBase, code, toast, confirm);
  try {
    const [answer, store] = await Promise.all([exchangeSignOn(apiBase, code), loadSessionStore()]);
    forgetSignOnVerifier();
    if (!(await takeOrKeep(store, apiBase, answer, confirm))) return null;
    store.getState().signedIn(answer.token, answer.user);
    toast({
      title: ({ messages }) => messages.portal.welcomeBackTitle,
      description: ({ messages }) => messages.portal.welcomeBackDescription,
      variant: 'success',
    });
    return answer.user;
  } catch (error) {
    forgetSignOnVerifier();
    toast({
      title: ({ lang }) => SECURITY_TEXTS[lang].ssoFailedTitle,
      description: (host) => serverText(host, userMessage(error)),
      variant: 'destructive',
    });
    return null;
  }
}
