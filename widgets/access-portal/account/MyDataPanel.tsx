import { useEffect, useId, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { deleteAccount, downloadAccountData } from '../../shared/session/account-api.ts';
import { ApiError, userMessage } from '../../shared/api/api-error.ts';
import { TextField } from '../../shared/ui/fields.tsx';
import { formatDate } from '../../shared/lang/format.ts';
import { token } from '../../shared/ui/theme.ts';
import { useToast } from '../../shared/ui/toasts.tsx';
import { Button, FormFailure } from '../../shared/ui/ui.tsx';
import { FormButtons } from './list-parts.tsx';
import { useMessages, useWidgetHost } from '../../shared/widget-host/widget-context.ts';
import { loadSecurity } from '../security/api.ts';
import { serverText } from '../security/texts.ts';

/** A size as people read it: 512 KB, 3.4 MB (Western digits, Latin units, as every figure of the widgets). */
export function formatSize(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

const sectionCss = {
  display: 'grid',
  gap: '10px',
  padding: '12px',
  border: `1px solid ${token('--sgx-color-border')}`,
  borderRadius: '8px',
} as const;

/**
 * "My data" (docs/API.md#my-data): "Download all my data" (the ZIP read as it arrives, with how much has come)
 * and "Delete my account" (the password confirms it; then `onDeleted` signs this page out).
 */
export default function MyDataPanel({ apiBase, onDeleted }: { apiBase: string; onDeleted: () => void }) {
  const t = useMessages().account;
  const toast = useToast();
  const [received, setReceived] = useState<number | null>(null);

  const download = async () => {
    if (received !== null) return;
    setReceived(0);
    try {
      const size = await downloadAccountData(apiBase, (bytes) => setReceived(bytes), formatDate(new Date()));
      toast({ title: t.downloadedTitle, description: t.downloadedDescription(formatSize(size)), variant: 'success' });
    } catch (error) {
      toast({ title: t.downloadDataFailed, description: userMessage(error), variant: 'destructive' });
    } finally {
      setReceived(null);
    }
  };

  return (
    <div css={{ display: 'grid', gap: '14px' }}>
      <p css={{ margin: 0 }}>{t.dataIntro}</p>
      <section aria-labelledby="sgx-download-data" css={sectionCss}>
        <h3 id="sgx-download-data" css={{ margin: 0, fontSize: '1.05em' }}>
          {t.downloadData}
        </h3>
        <p css={{ margin: 0, color: token('--sgx-color-muted') }}>{t.downloadDataHint}</p>
        <div>
          <Button
            data-action="download-data"
            busy={received !== null}
            aria-disabled={received !== null || undefined}
            onClick={() => void download()}
          >
            {t.downloadData}
          </Button>
        </div>
        {received !== null && (
          <div role="status" part="download-progress" css={{ display: 'grid', gap: '6px' }}>
            {/* The ZIP is made as it is sent: its size is not known ahead, so the bar runs without an end. */}
            <progress aria-label={t.downloadProgressLabel} css={{ inlineSize: '100%' }} />
            <span>{t.downloadProgress(formatSize(received))}</span>
          </div>
        )}
      </section>
      <DeleteAccount apiBase={apiBase} onDeleted={onDeleted} />
    </div>
  );
}

function DeleteAccount({ apiBase, onDeleted }: { apiBase: string; onDeleted: () => void }) {
  const t = useMessages().account;
  const host = useWidgetHost();
  const toast = useToast();
  const headingId = useId();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const container = useRef<HTMLDivElement>(null);
  const focusNext = useRef<'password' | 'opener' | null>(null);
  // An account the hospital sign-in made has no password: a recent hospital sign-in confirms the deletion.
  const [hasPassword, setHasPassword] = useState(true);
  useEffect(() => {
    if (!open) return;
    let current = true;
    loadSecurity(apiBase).then(
      (security) => current && setHasPassword(security.hasPassword),
      () => {
        // unknown: ask for the password, and the server's answer says what it needs
      },
    );
    return () => {
      current = false;
    };
  }, [apiBase, open]);

  useLayoutEffect(() => {
    const target = focusNext.current;
    if (!target || !container.current) return;
    focusNext.current = null;
    const selector = target === 'password' ? 'input[name="deletePassword"]' : 'button[data-action="delete-account"]';
    container.current.querySelector<HTMLElement>(selector)?.focus();
  });

  const close = () => {
    setOpen(false);
    setPassword('');
    setError(undefined);
    setFailure(null);
    focusNext.current = 'opener';
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setFailure(null);
    if (hasPassword && !password) {
      setError(t.deletePasswordRequired);
      focusNext.current = 'password';
      return;
    }
    setBusy(true);
    try {
      await deleteAccount(apiBase, hasPassword ? password : null);
    } catch (caught) {
      const issue =
        caught instanceof ApiError ? caught.issues.find((candidate) => candidate.field === 'password') : undefined;
      if (issue) {
        setError(serverText(host, issue.message));
        setPassword('');
        focusNext.current = 'password';
      } else setFailure(serverText(host, userMessage(caught, t.deleteAccountFailed)));
      toast({
        title: t.deleteAccountFailed,
        description: serverText(host, userMessage(caught, t.deleteAccountFailed)),
        variant: 'destructive',
      });
      setBusy(false);
      return;
    }
    toast({ title: t.accountDeletedTitle, variant: 'success' });
    onDeleted();
  };

  return (
    <section aria-labelledby={headingId} css={{ ...sectionCss, borderColor: token('--sgx-color-danger') }}>
      <h3 id={headingId} css={{ margin: 0, fontSize: '1.05em', color: token('--sgx-color-danger') }}>
        {t.deleteAccount}
      </h3>
      <p css={{ margin: 0, color: token('--sgx-color-muted') }}>{t.deleteAccountHint}</p>
      <div ref={container}>
        {open ? (
          <form
            aria-label={t.deleteAccountFormLabel}
            part="form delete-account-form"
            noValidate
            onSubmit={(event) => void submit(event)}
            css={{ display: 'grid', gap: '10px', maxInlineSize: '420px' }}
          >
            {hasPassword ? (
              <TextField
                name="deletePassword"
                type="password"
                autoComplete="current-password"
                label={t.deletePassword}
                required
                value={password}
                onChange={(text) => {
                  setPassword(text);
                  setError(undefined);
                }}
                error={error}
              />
            ) : (
              <p css={{ margin: 0 }}>{t.deleteByHospitalSignIn}</p>
            )}
            {failure && <FormFailure>{failure}</FormFailure>}
            <FormButtons submit={t.deleteAccountConfirm} busy={busy} onCancel={close} />
          </form>
        ) : (
          <Button
            variant="secondary"
            data-action="delete-account"
            onClick={() => {
              setOpen(true);
              focusNext.current = 'password';
            }}
          >
            {t.deleteAccount}
          </Button>
        )}
      </div>
    </section>
  );
}
