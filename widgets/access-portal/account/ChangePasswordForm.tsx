import { useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../contracts/auth.ts';
import { changePassword } from '../../shared/session/account-api.ts';
import { ApiError, userMessage } from '../../shared/api/api-error.ts';
import { TextField } from '../../shared/ui/fields.tsx';
import { useToast } from '../../shared/ui/toasts.tsx';
import { Button, FormFailure } from '../../shared/ui/ui.tsx';
import { inlineFormCss, FormButtons } from './list-parts.tsx';
import { useMessages, useWidgetHost } from '../../shared/widget-host/widget-context.ts';

type Field = 'currentPassword' | 'newPassword' | 'confirmPassword';
type Errors = Partial<Record<Field, string>>;
const EMPTY = { currentPassword: '', newPassword: '', confirmPassword: '' };

/**
 * The profile's "Change password" (docs/API.md, POST /api/auth/password): the current password, a new
 * one typed twice. Checked here first (required, 8-128 characters, the two alike, not the current one);
 * the server's field errors (a wrong current password) go under their field and anything else (a
 * lock-out, the network) in a box under the form. On success the form closes and a toast says that
 * every other session of the account has ended; this one goes on.
 */
export function ChangePasswordForm({ apiBase }: { apiBase: string }) {
  const t = useMessages().account;
  const portal = useMessages().portal;
  const host = useWidgetHost();
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const container = useRef<HTMLDivElement>(null);
  /** Where focus goes after the next render: the first invalid field, the form's first field, or the opener. */
  const focusNext = useRef<'invalid' | 'first' | 'opener' | null>(null);

  // Before paint, so focus never rests on a control that has just gone.
  useLayoutEffect(() => {
    const target = focusNext.current;
    if (!target || !container.current) return;
    focusNext.current = null;
    const selector = {
      invalid: '[aria-invalid="true"]',
      first: 'input[name="currentPassword"]',
      opener: 'button[data-action="change-password"]',
    }[target];
    container.current.querySelector<HTMLElement>(selector)?.focus();
  });

  const edit = (field: Field) => (text: string) => {
    setValues((current) => ({ ...current, [field]: text }));
    setErrors((current) => (current[field] ? { ...current, [field]: undefined } : current));
  };
  const close = () => {
    setOpen(false);
    setValues(EMPTY);
    setErrors({});
    setFailure(null);
    focusNext.current = 'opener';
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found: Errors = {};
    if (!values.currentPassword) found.currentPassword = t.currentPasswordRequired;
    const length = values.newPassword.length;
    if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH) {
      found.newPassword = t.newPasswordLength;
    } else if (values.newPassword === values.currentPassword) {
      found.newPassword = t.newPasswordUnchanged;
    }
    if (!found.newPassword && values.confirmPassword !== values.newPassword)
      found.confirmPassword = t.newPasswordsDiffer;
    setErrors(found);
    setFailure(null);
    if (Object.keys(found).length > 0) {
      focusNext.current = 'invalid';
      return;
    }
    setBusy(true);
    try {
      await changePassword(apiBase, { currentPassword: values.currentPassword, newPassword: values.newPassword });
      toast({ title: t.passwordChangedTitle, description: t.passwordChangedDescription, variant: 'success' });
      close();
    } catch (error) {
      const fieldErrors: Errors = {};
      if (error instanceof ApiError) {
        for (const issue of error.issues) {
          if (issue.field === 'currentPassword' || issue.field === 'newPassword') {
            fieldErrors[issue.field] = host.serverMessage(issue.message);
          }
        }
      }
      if (Object.keys(fieldErrors).length > 0) {
        setErrors(fieldErrors);
        setValues((current) => ({
          ...current,
          currentPassword: fieldErrors.currentPassword ? '' : current.currentPassword,
        }));
        focusNext.current = 'invalid';
      } else {
        setFailure(host.serverMessage(userMessage(error, t.passwordChangeFailed)));
      }
      toast({
        title: t.passwordChangeFailed,
        description: host.serverMessage(userMessage(error, t.passwordChangeFailed)),
        variant: 'destructive',
      });
      host.emit('sgx-error', { source: 'access-portal', message: host.serverMessage(userMessage(error)) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div ref={container}>
      {open ? (
        <form
          aria-label={t.changePassword}
          part="form change-password-form"
          noValidate
          onSubmit={(event) => void submit(event)}
          css={inlineFormCss}
        >
          <TextField
            name="currentPassword"
            type="password"
            autoComplete="current-password"
            label={t.currentPassword}
            required
            value={values.currentPassword}
            onChange={edit('currentPassword')}
            error={errors.currentPassword}
          />
          <TextField
            name="newPassword"
            type="password"
            autoComplete="new-password"
            label={t.newPassword}
            hint={portal.passwordHint}
            required
            value={values.newPassword}
            onChange={edit('newPassword')}
            error={errors.newPassword}
          />
          <TextField
            name="confirmPassword"
            type="password"
            autoComplete="new-password"
            label={t.confirmNewPassword}
            required
            value={values.confirmPassword}
            onChange={edit('confirmPassword')}
            error={errors.confirmPassword}
          />
          {failure && <FormFailure>{failure}</FormFailure>}
          <FormButtons submit={t.changePassword} busy={busy} onCancel={close} />
        </form>
      ) : (
        <Button
          variant="secondary"
          data-action="change-password"
          onClick={() => {
            setOpen(true);
            focusNext.current = 'first';
          }}
        >
          {t.changePassword}
        </Button>
      )}
    </div>
  );
}
