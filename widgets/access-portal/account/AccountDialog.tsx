import { useEffect, useId, useState } from 'react';
import { Dialog } from '../../shared/dialog.tsx';
import type { SessionUser } from '../../shared/session-store.ts';
import { token } from '../../shared/theme.ts';
import { Button } from '../../shared/ui.tsx';
import { useMessages } from '../../shared/widget-context.ts';
import { ChangePasswordForm } from './ChangePasswordForm.tsx';
import { ExportsPanel } from './ExportsPanel.tsx';
import { HistoryPanel } from './HistoryPanel.tsx';
import { PatientsPanel } from './PatientsPanel.tsx';
import { loadSecurity } from '../security/api.ts';
import { SecurityPanel } from '../security/SecurityPanel.tsx';

type Tab = 'patients' | 'history' | 'exports' | 'profile';
const TABS: Tab[] = ['patients', 'history', 'exports', 'profile'];

/** The account area behind the profile button: patients, history, stored exports, profile. */
export function AccountDialog({
  open,
  onClose,
  user,
  apiBase,
  hospitalName,
  onSignOut,
}: {
  open: boolean;
  onClose: () => void;
  user: SessionUser;
  apiBase: string;
  hospitalName?: string;
  onSignOut: () => void;
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
