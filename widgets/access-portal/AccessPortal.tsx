import { useEffect, useRef, useState } from 'react';
import {
  existingSessionStore,
  isAuthenticated,
  type SessionData,
  type SessionUser,
} from '../shared/session/session-state.ts';
import { loadSessionStore } from '../shared/session/session-store-loader.ts';
import { token } from '../shared/ui/theme.ts';
import { Button, Spinner, visuallyHidden } from '../shared/ui/ui.tsx';
import { useToast } from '../shared/ui/toasts.tsx';
import { useSession } from '../shared/session/use-session.ts';
import { useMessages, useWidgetHost } from '../shared/widget-host/widget-context.ts';
import { signOutOnServer } from './auth-request.ts';
import { takeSsoReturn, type SsoReturn } from './sso-fragment.ts';
import type { PortalTab } from './PortalDialog.tsx';
import { QuickUseBadge } from './QuickUseBadge.tsx';
import { reloadPage } from './reload.ts';
import { outlineLinkCss } from '../shared/ui/styles.ts';
import { loadOnce } from '../shared/loading/load-once.ts';
// The access control's texts in English (only its own), carried with its code.
import './catalogue.ts';

type AccountDialogComponent = typeof import('./account/AccountDialog.tsx').AccountDialog;
type SwitchDialogComponent = typeof import('./security/sso-return.ts').SwitchAccountDialog;
/** A hand-over that would replace the page's session with another account's, waiting for the clinician's answer. */
interface SwitchQuestion {
  current: SessionUser | null;
  next: SessionUser;
  answer: (switchTo: boolean) => void;
  Dialog: SwitchDialogComponent;
}
type PortalDialogs = typeof import('./portal-dialogs.ts');

/** The chooser and the portal, downloaded once per page (a failed download can be tried again). */
const loadDialogs: () => Promise<PortalDialogs> = loadOnce(() => import('./portal-dialogs.ts'), import.meta.url);
const loadAccountDialog = loadOnce(() => import('./account/AccountDialog.tsx'), import.meta.url);
/** The hand-over after the hospital's sign-in, loaded only when the page comes back from it. */
const loadSignOnReturn = loadOnce(() => import('./security/sso-return.ts'), import.meta.url);
const preloadDialogs = () => {
  loadDialogs().catch(() => {
    // reported when the user clicks
  });
};

export interface AccessPortalProps {
  /** API origin (empty or absent: same origin). */
  apiBase?: string;
  /** Where the profile button leads; absent: it opens a small profile dialog. */
  profileHref?: string;
  /** `hospital-name`: printed on patient sheets made from the history (else GET /api/config; docs/API.md). */
  hospitalName?: string;
}

/** Logout waits at most this long for the server before signing out locally anyway. */
export const SIGNOUT_TIMEOUT_MS = 4000;

const selectSession = (state: SessionData) => state;

/** Phones: the bar must share a 360 px wide navigation with the site's own controls. */
const NARROW = '@media (max-width: 480px)';

/** Compact controls of a top navigation bar. */
const barButtonCss = {
  minBlockSize: '40px',
  paddingInline: '14px',
  paddingBlock: '6px',
  whiteSpace: 'nowrap',
  flex: 'none',
  [NARROW]: { paddingInline: '10px', fontSize: '0.9em' },
} as const;

/** Text that wraps onto at most two lines instead of widening the bar (the name, the Quick Use notice). */
const twoLineCss = {
  minInlineSize: 0,
  maxInlineSize: 'max(9em, 40vw)',
  overflow: 'hidden',
  display: '-webkit-box',
  WebkitBoxOrient: 'vertical',
  WebkitLineClamp: 2,
  lineHeight: 1.25,
  overflowWrap: 'anywhere',
  textWrap: 'balance',
  [NARROW]: { maxInlineSize: '34vw', fontSize: '0.85em' },
} as const;

/**
 * The access control of the top navigation (docs/product.md §2, §4, §5, §8). Signed out: a button opening
 * "Choose Access Mode", then the "HCP Access Portal" (sign in / sign up). Quick Use: a badge.
 * Signed in: "Welcome, Dr. {name}", a profile button and a logout button. The session lives in the
 * page-wide store, so every element sees the same state.
 */
export function AccessPortal({ apiBase, profileHref, hospitalName }: AccessPortalProps) {
  const messages = useMessages();
  const t = messages.portal;
  const host = useWidgetHost();
  const session = useSession(selectSession, apiBase ?? '');
  const authenticated = isAuthenticated(session);
  const checking = !authenticated && Boolean(session.token) && session.userStatus !== 'error';

  const [chooserOpen, setChooserOpen] = useState(false);
  const [portalOpen, setPortalOpen] = useState(false);
  const [portalTab, setPortalTab] = useState<PortalTab>('signin');
  const [profileOpen, setProfileOpen] = useState(false);
  // The account area loads on the first click of the profile button: most visits never open it,
  // and it is a fair part of the page's first download.
  const [AccountDialog, setAccountDialog] = useState<AccountDialogComponent | null>(null);
  const toast = useToast();
  /** A part of the element's code (a dialog, the session store) could not be downloaded. */
  const loadFailed = () =>
    toast({
      title: (host) => host.messages.account.loadFailed,
      description: (host) => host.messages.common.checkConnection,
      variant: 'destructive',
    });
  const openProfile = () => {
    if (AccountDialog) return setProfileOpen(true);
    loadAccountDialog().then((module) => {
      setAccountDialog(() => module.AccountDialog);
      setProfileOpen(true);
    }, loadFailed);
  };
  const [loggingOut, setLoggingOut] = useState(false);
  // The sign-in dialogs load when first needed: most visits never open them.
  const [dialogs, setDialogs] = useState<PortalDialogs | null>(null);
  const withDialogs = (open: () => void) => {
    if (dialogs) return open();
    loadDialogs().then((module) => {
      setDialogs(module);
      open();
    }, loadFailed);
  };

  const bar = useRef<HTMLDivElement>(null);
  const refocusBar = useRef(false);
  const [linkCode, setLinkCode] = useState<string | null>(null);
  const [switchQuestion, setSwitchQuestion] = useState<SwitchQuestion | null>(null);

  // Back from the hospital's sign-in or the EHR's launch: the one-time code in the page's URL opens the session
  // (or asks for the password once, to link an account that has one).
  useEffect(() => {
    const back: SsoReturn | null = takeSsoReturn();
    if (!back) return;
    if (back.kind === 'link') {
      setLinkCode(back.code);
      openPortal('signin');
      return;
    }
    // A launch from the EHR (`smart`) is handed over the same way, with the launch's patient.
    loadSignOnReturn().then((module) => {
      // Another account's session held here: "Continue as …?" first.
      const confirm = (current: SessionUser | null, next: SessionUser) =>
        new Promise<boolean>((resolve) =>
          setSwitchQuestion({
            current,
            next,
            Dialog: module.SwitchAccountDialog,
            answer: (switchTo) => {
              setSwitchQuestion(null);
              resolve(switchTo);
            },
          }),
        );
      return module.finishSignOn(apiBase, back.code, toast, back.kind === 'smart', confirm).then((user) => {
        if (user) host.emit('sgx-signed-in', { user });
      });
    }, loadFailed);
  }, []);

  // The server ended the session (the idle limit, or signed out elsewhere): say why; no reload, so every
  // element keeps what was typed.
  const ended = session.ended;
  useEffect(() => {
    if (!ended) return;
    toast({
      title: ({ messages }) => messages.portal.sessionEndedTitle,
      description: (host) => `${host.serverMessage(ended.message)} ${host.messages.portal.sessionEndedKept}`,
      variant: 'destructive',
    });
  }, [ended?.serial]);

  // Signed in or out elsewhere (another element, another tab): drop the dialogs that no longer apply.
  useEffect(() => {
    if (authenticated) {
      setChooserOpen(false);
      setPortalOpen(false);
    } else {
      setProfileOpen(false);
    }
  }, [authenticated]);

  // After the portal closes, focus goes back to the bar (its trigger, or the signed-in controls).
  useEffect(() => {
    if (portalOpen || !refocusBar.current) return;
    refocusBar.current = false;
    bar.current?.querySelector<HTMLElement>('button, a[href]')?.focus();
  }, [portalOpen, authenticated]);

  const closePortal = () => {
    refocusBar.current = true;
    setPortalOpen(false);
  };

  const openPortal = (tab: PortalTab) =>
    withDialogs(() => {
      setChooserOpen(false);
      setPortalTab(tab);
      setPortalOpen(true);
    });

  const openChooser = () => {
    withDialogs(() => setChooserOpen(true));
    // Both of its choices need the session store: its code loads while the user reads the dialog.
    loadSessionStore().catch(() => {
      // reported if the user chooses Quick Use (startQuickUse); sign-in loads it again
    });
  };

  const startQuickUse = () => {
    setChooserOpen(false);
    const start = (store: Awaited<ReturnType<typeof loadSessionStore>>) => {
      store.getState().startQuickUse();
      host.emit('sgx-quick-use', {});
    };
    // Quick Use is the first account feature on a signed-out page: it creates the page's session store.
    const existing = existingSessionStore();
    if (existing) start(existing);
    else loadSessionStore().then(start, loadFailed);
  };

  const onAuthenticated = (user: SessionUser) => {
    closePortal();
    setLinkCode(null);
    host.emit('sgx-signed-in', { user });
  };

  const logout = async () => {
    if (loggingOut) return;
    setLoggingOut(true);
    const store = existingSessionStore();
    const authToken = store?.getState().token;
    const endSessionUrl = authToken ? await signOutOnServer(apiBase, authToken, SIGNOUT_TIMEOUT_MS) : undefined;
    store?.getState().signOut();
    host.emit('sgx-signed-out', {});
    // Signed in by the hospital's sign-in: its session ends too (the provider then sends the browser back).
    if (endSessionUrl) reloadPage.leave(endSessionUrl);
    else reloadPage.reload();
  };

  /** "Delete my account" went through: the server ended every session; this page signs out as at logout. */
  const accountDeleted = () => {
    existingSessionStore()?.getState().signOut();
    host.emit('sgx-signed-out', {});
    reloadPage.reload();
  };

  const user = session.user;
  return (
    <div
      ref={bar}
      part="bar"
      css={{
        display: 'flex',
        flexWrap: 'nowrap',
        alignItems: 'center',
        justifyContent: 'flex-end',
        gap: '8px',
        minInlineSize: 0,
        maxInlineSize: '100%',
      }}
    >
      {authenticated && user ? (
        <>
          <span
            part="welcome"
            title={t.welcome(user.name)}
            css={{ ...twoLineCss, fontWeight: 600, marginInlineEnd: '4px' }}
          >
            {t.welcome(user.name)}
          </span>
          {profileHref ? (
            <a href={profileHref} part="profile-link" css={{ ...barButtonCss, ...outlineLinkCss }}>
              {t.profile}
            </a>
          ) : (
            <Button variant="secondary" aria-haspopup="dialog" onClick={openProfile} css={barButtonCss}>
              {t.profile}
            </Button>
          )}
          <Button
            variant="ghost"
            busy={loggingOut}
            disabled={loggingOut}
            onClick={() => void logout()}
            css={barButtonCss}
          >
            {t.logout}
          </Button>
          {!profileHref && AccountDialog && (
            <AccountDialog
              open={profileOpen}
              onClose={() => setProfileOpen(false)}
              user={user}
              apiBase={apiBase ?? ''}
              hospitalName={hospitalName}
              onSignOut={() => void logout()}
              onAccountDeleted={accountDeleted}
            />
          )}
        </>
      ) : checking ? (
        <span
          role="status"
          part="status"
          css={{
            display: 'inline-flex',
            alignItems: 'center',
            minBlockSize: '40px',
            color: token('--sgx-color-muted'),
          }}
        >
          <Spinner />
          <span css={visuallyHidden}>{t.checkingSession}</span>
        </span>
      ) : (
        <>
          {session.quickUse && <QuickUseBadge text={messages.common.quickUseBadge} />}
          <Button
            aria-haspopup="dialog"
            onClick={() => (session.quickUse ? openPortal('signin') : openChooser())}
            onPointerEnter={preloadDialogs}
            onFocus={preloadDialogs}
            part="button button-primary access-button"
            css={barButtonCss}
          >
            {session.quickUse ? t.openAccessDuringQuickUse : t.openAccess}
          </Button>
        </>
      )}
      {switchQuestion && (
        <switchQuestion.Dialog
          current={switchQuestion.current}
          next={switchQuestion.next}
          onAnswer={switchQuestion.answer}
        />
      )}
      {dialogs && (
        <>
          <dialogs.ChooserDialog
            open={chooserOpen}
            onClose={() => setChooserOpen(false)}
            onAccount={openPortal}
            onQuickUse={startQuickUse}
          />
          <dialogs.PortalDialog
            open={portalOpen}
            tab={portalTab}
            onTabChange={setPortalTab}
            onClose={closePortal}
            apiBase={apiBase}
            onAuthenticated={onAuthenticated}
            linkCode={linkCode}
          />
        </>
      )}
    </div>
  );
}
