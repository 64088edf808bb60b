import type { SessionUser } from '../../shared/session/session-state.ts';
import { loadSessionStore } from '../../shared/session/session-store-loader.ts';
import { userMessage } from '../../shared/api/api-error.ts';
import type { ToastOptions } from '../../shared/ui/toasts.tsx';
import { finishSmartLaunch } from '../../shared/ehr/smart-return.ts';
import { exchangeSignOn } from './api.ts';
import { SECURITY_TEXTS, serverText } from './texts.ts';

/**
 * Back from the hospital's sign-in with a one-time code: exchanged for the session (the same `authToken` a
 * password sign-in stores), with the welcome toast; a code that has expired or was used says so. Answers the
 * user signed in, or null.
 */
export async function finishSignOn(
  apiBase: string | undefined,
  code: string,
  toast: (options: ToastOptions) => void,
  /** The hand-over of a launch from the EHR (`#sgx-smart=`), with the launch's patient. */
  smart = false,
): Promise<SessionUser | null> {
  if (smart) return finishSmartLaunch(apiBase, code, toast);
  try {
    const [{ token, user }, store] = await Promise.all([exchangeSignOn(apiBase, code), loadSessionStore()]);
    store.getState().signedIn(token, user);
    toast({
      title: ({ messages }) => messages.portal.welcomeBackTitle,
      description: ({ messages }) => messages.portal.welcomeBackDescription,
      variant: 'success',
    });
    return user;
  } catch (error) {
    toast({
      title: ({ lang }) => SECURITY_TEXTS[lang].ssoFailedTitle,
      description: (host) => serverText(host, userMessage(error)),
      variant: 'destructive',
    });
    return null;
  }
}
