import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { SiteConfig } from '../../contracts/site-config.ts';
import { Dialog } from '../shared/ui/dialog.tsx';
import type { SessionUser } from '../shared/session/session-store.ts';
import { token } from '../shared/ui/theme.ts';
import { useMessages, useWidgetHost } from '../shared/widget-host/widget-context.ts';
import { SignInForm, SignUpForm } from './AuthForms.tsx';
import { loadSignInOptions } from './security/api.ts';

export type PortalTab = 'signin' | 'signup';
export const PORTAL_TABS: readonly PortalTab[] = ['signin', 'signup'];

interface PortalDialogProps {
  open: boolean;
  tab: PortalTab;
  onTabChange: (tab: PortalTab) => void;
  onClose: () => void;
  apiBase?: string;
  onAuthenticated: (user: SessionUser) => void;
  /** The link code single sign-on gave: the sign-in tab asks for the password once to link. */
  linkCode?: string | null;
}

/**
 * "HCP Access Portal" (docs/product.md §2): a tablist (sign in, sign up) following the WAI-ARIA tabs pattern
 * with automatic activation: arrow keys (mirrored in right-to-left), Home and End move between tabs,
 * only the selected tab is in the Tab order. Both panels stay mounted, so typed values survive a
 * switch.
 */
export function PortalDialog({
  open,
  tab,
  onTabChange,
  onClose,
  apiBase,
  onAuthenticated,
  linkCode,
}: PortalDialogProps) {
  const t = useMessages().portal;
  const { dir } = useWidgetHost();
  const baseId = useId();
  // How this server signs in: the hospital's button, and whether e-mail and password are on (OIDC_ONLY).
  // Until it answers (or if it cannot), e-mail and password as always.
  const [options, setOptions] = useState<SiteConfig['signIn'] | undefined>(undefined);
  useEffect(() => {
    if (!open) return;
    let current = true;
    loadSignInOptions(apiBase).then(
      (loaded) => current && setOptions(loaded),
      () => {
        // an older server, or offline: e-mail and password only
      },
    );
    return () => {
      current = false;
    };
  }, [open, apiBase]);
  const tabs: readonly PortalTab[] = options && !options.passwordSignIn ? ['signin'] : PORTAL_TABS;
  const tabRefs = useRef<Partial<Record<PortalTab, HTMLButtonElement | null>>>({});
  const tabId = (name: PortalTab) => `${baseId}-tab-${name}`;
  const panelId = (name: PortalTab) => `${baseId}-panel-${name}`;
  const labels: Record<PortalTab, string> = { signin: t.signInTab, signup: t.signUpTab };

  // The Dialog (a child) has already called showModal() when this runs: start on the selected tab.
  useEffect(() => {
    if (open) tabRefs.current[tab]?.focus();
    // Only on opening (tab is left out on purpose): a tab change moves focus itself.
  }, [open]);

  const select = (next: PortalTab) => {
    onTabChange(next);
    tabRefs.current[next]?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = tabs.indexOf(tab);
    const forward = dir === 'rtl' ? 'ArrowLeft' : 'ArrowRight';
    const backward = dir === 'rtl' ? 'ArrowRight' : 'ArrowLeft';
    let next: PortalTab | undefined;
    if (event.key === forward) next = tabs[(index + 1) % tabs.length];
    else if (event.key === backward) next = tabs[(index - 1 + tabs.length) % tabs.length];
    else if (event.key === 'Home') next = tabs[0];
    else if (event.key === 'End') next = tabs[tabs.length - 1];
    if (!next) return;
    event.preventDefault();
    select(next);
  };

  return (
    <Dialog open={open} title={t.portalTitle} onClose={onClose} part="dialog portal-dialog">
      <div
        role="tablist"
        aria-label={t.tabsLabel}
        part="tablist"
        onKeyDown={onKeyDown}
        css={{
          display: 'grid',
          gridTemplateColumns: `repeat(${tabs.length}, 1fr)`,
          gap: '4px',
          padding: '4px',
          marginBlockEnd: '16px',
          borderRadius: token('--sgx-radius'),
          background: token('--sgx-color-surface-alt'),
        }}
      >
        {tabs.map((name) => {
          const selected = name === tab || tabs.length === 1;
          return (
            <button
              key={name}
              ref={(element) => {
                tabRefs.current[name] = element;
              }}
              type="button"
              role="tab"
              id={tabId(name)}
              aria-selected={selected}
              aria-controls={panelId(name)}
              tabIndex={selected ? 0 : -1}
              part={selected ? 'tab tab-selected' : 'tab'}
              onClick={() => select(name)}
              css={{
                all: 'unset',
                boxSizing: 'border-box',
                textAlign: 'center',
                cursor: 'pointer',
                minBlockSize: '40px',
                paddingInline: '12px',
                paddingBlock: '8px',
                borderRadius: '8px',
                fontWeight: 650,
                color: selected ? token('--sgx-color-text') : token('--sgx-color-muted'),
                background: selected ? token('--sgx-color-surface') : 'transparent',
                boxShadow: selected ? '0 1px 3px rgb(15 23 42 / 0.15)' : 'none',
                '&:focus-visible': { outline: `3px solid ${token('--sgx-color-focus')}`, outlineOffset: '2px' },
              }}
            >
              {labels[name]}
            </button>
          );
        })}
      </div>
      {tabs.map((name) => (
        <div
          key={name}
          role="tabpanel"
          id={panelId(name)}
          aria-labelledby={tabId(name)}
          hidden={name !== tab && tabs.length > 1}
          part={`tabpanel ${name}-panel`}
        >
          {name === 'signin' ? (
            <SignInForm apiBase={apiBase} onAuthenticated={onAuthenticated} options={options} linkCode={linkCode} />
          ) : (
            <SignUpForm apiBase={apiBase} onAuthenticated={onAuthenticated} />
          )}
        </div>
      ))}
    </Dialog>
  );
}
