import { useEffect, useId, useState, type ComponentType } from 'react';
import { Dialog } from '../../shared/ui/dialog.tsx';
import { loadOnce } from '../../shared/loading/load-once.ts';
import type { SessionUser } from '../../shared/session/session-store.ts';
import { token } from '../../shared/ui/theme.ts';
import { useToast } from '../../shared/ui/toasts.tsx';
import { Button, Spinner, visuallyHidden } from '../../shared/ui/ui.tsx';
import { useMessages } from '../../shared/widget-host/widget-context.ts';
import { ChangePasswordForm } from './ChangePasswordForm.tsx';
import { ExportsPanel } from './ExportsPanel.tsx';
import { HistoryPanel } from './HistoryPanel.tsx';
import { PatientsPanel } from './PatientsPanel.tsx';
import { loadSecurity } from '../security/api.ts';
import { SecurityPanel } from '../security/SecurityPanel.tsx';
import { ProfileForm } from './ProfileForm.tsx';

type Tab = 'patients' | 'history' | 'exports' | 'activity' | 'data' | 'profile';
const TABS: Tab[] = ['patients', 'history', 'exports', 'activity', 'data', 'profile'];

// "Activity" and "My data" are chunks of their own, fetched when their tab is first opened.
const loadActivity = loadOnce(() => import('./ActivityPanel.tsx'), import.meta.url);
const loadMyData = loadOnce(() => import('./MyDataPanel.tsx'), import.meta.url);

/** A panel downloaded on demand: a spinner while it comes, "Could not load" when it cannot. */
function useOnDemand<P>(load: () => Promise<{ default: ComponentType<P> }>, wanted: boolean) {
  const [Component, setComponent] = useState<ComponentType<P> | null>(null);
  const toast = useToast();
  useEffect(() => {
    if (!wanted || Component) return;
    let current = true;
    load().then(
      (module) => current && setComponent(() => module.default),
      () =>
        current &&
        toast({
          title: (host) => host.messages.account.loadFailed,
          description: (host) => host.messages.common.checkConnection,
          variant: 'destructive',
        }),
    );
    return () => {
      current = false;
    };
  }, [wanted, Component]);
  return Component;
}

function Loading() {
  const t = useMessages().account;
  return (
    <span role="status">
      <Spinner />
      <span css={visuallyHidden}>{t.loading}</span>
    </span>
  );
}

/** The account area behind the profile button: patients, history, stored exports, activity, my data, profile. */
export function AccountDialog({
  open,
  onClose,
  user,
  apiBase,
  hospitalName,
  onSignOut,
  onAccountDeleted,
}: {
  open: boolean;
  onClose: () => void;
  user: SessionUser;
  apiBase: string;
  hospitalName?: string;
  onSignOut: () => void;
  /** After "Delete my account": the server has ended every session; the page signs out. */
  onAccountDeleted: () => void;
}) {
  const t = useMessages().account;
  const [tab, setTab] = useState<Tab>('patients');
  const id = useId();
  // REQUIRE_MFA and no second factor yet: patient data answers 403, so the profile (to set one up) comes first.
  useEffect(() => {
    if (!open) return;
    let current = true;
    loadSecurity(apiBase).then(
      (security) => current && security.secondFactorNeeded && setTab('profile'),
      () => {
        // the patients tab says what went wrong when it loads
      },
    );
    return () => {
      current = false;
    };
  }, [open, apiBase]);
  const Activity = useOnDemand(loadActivity, open && tab === 'activity');
  const MyData = useOnDemand(loadMyData, open && tab === 'data');
  return (
    <Dialog open={open} title={t.title} onClose={onClose} part="dialog account-dialog" wide>
      <div
        role="tablist"
        aria-label={t.tabsLabel}
        onKeyDown={(event) => {
          const index = TABS.indexOf(tab);
          const next =
            event.key === 'ArrowRight'
              ? TABS[(index + 1) % TABS.length]
              : event.key === 'ArrowLeft'
                ? TABS[(index + TABS.length - 1) % TABS.length]
                : undefined;
          if (!next) return;
          event.preventDefault();
          setTab(next);
          (event.currentTarget.querySelector(`#${CSS.escape(`${id}-${next}`)}`) as HTMLElement | null)?.focus();
        }}
        css={{
          display: 'flex',
          flexWrap: 'wrap',
          gap: '4px',
          marginBlockEnd: '14px',
          borderBlockEnd: `1px solid ${token('--sgx-color-border')}`,
        }}
      >
        {TABS.map((name) => (
          <button
            key={name}
            id={`${id}-${name}`}
            type="button"
            role="tab"
            aria-selected={tab === name}
            aria-controls={`${id}-${name}-panel`}
            tabIndex={tab === name ? 0 : -1}
            onClick={() => setTab(name)}
            css={{
              all: 'unset',
              cursor: 'pointer',
              padding: '8px 14px',
              fontWeight: 650,
              borderBlockEnd: `3px solid ${tab === name ? token('--sgx-color-primary') : 'transparent'}`,
              color: tab === name ? token('--sgx-color-primary') : token('--sgx-color-text'),
              '&:focus-visible': { outline: `3px solid ${token('--sgx-color-focus')}` },
            }}
          >
            {t.tabs[name]}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-${tab}-panel`} aria-labelledby={`${id}-${tab}`} css={{ minBlockSize: '240px' }}>
        {open && tab === 'patients' && <PatientsPanel apiBase={apiBase} />}
        {open && tab === 'history' && <HistoryPanel apiBase={apiBase} hospitalName={hospitalName} />}
        {open && tab === 'exports' && <ExportsPanel apiBase={apiBase} />}
        {open && tab === 'activity' && (Activity ? <Activity apiBase={apiBase} /> : <Loading />)}
        {open && tab === 'data' && (MyData ? <MyData apiBase={apiBase} onDeleted={onAccountDeleted} /> : <Loading />)}
        {tab === 'profile' && (
          <div css={{ display: 'grid', gap: '12px' }}>
            <dl part="profile" css={{ margin: 0, display: 'grid', gap: '10px' }}>
              {(
                [
                  [t.name, user.name],
                  [t.email, user.email],
                  [t.licence, user.license || t.licenceNone],
                ] as const
              ).map(([label, value]) => (
                <div key={label} css={{ display: 'grid', gap: '2px' }}>
                  <dt css={{ fontSize: '0.85em', fontWeight: 600, color: token('--sgx-color-muted') }}>{label}</dt>
                  <dd css={{ margin: 0, overflowWrap: 'anywhere' }}>{value}</dd>
                </div>
              ))}
            </dl>
            {open && <ProfileForm apiBase={apiBase} user={user} />}
            {open && <SecurityPanel apiBase={apiBase} passwordForm={<ChangePasswordForm apiBase={apiBase} />} />}
            <div>
              <Button variant="secondary" onClick={onSignOut}>
                {t.signOut}
              </Button>
            </div>
          </div>
        )}
      </div>
    </Dialog>
  );
}
