import { useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { hasVisibleCharacter } from '../../../clinical/visible-text.ts';
import { updateProfile } from '../../shared/session/account-api.ts';
import { ApiError, userMessage } from '../../shared/api/api-error.ts';
import { TextField } from '../../shared/ui/fields.tsx';
import { existingSessionStore, type SessionUser } from '../../shared/session/session-state.ts';
import { useToast } from '../../shared/ui/toasts.tsx';
import { Button } from '../../shared/ui/ui.tsx';
import { inlineFormCss, FormButtons } from './list-parts.tsx';
import { useMessages, useWidgetHost } from '../../shared/widget-host/widget-context.ts';

/**
 * The profile's "Correct name or licence number" (PATCH /api/account): the name is required, the licence
 * number optional (empty clears it). The saved user goes into the page's session, so the bar's welcome
 * and every element follow at once.
 */
export function ProfileForm({ apiBase, user }: { apiBase: string; user: SessionUser }) {
  const t = useMessages().account;
  const host = useWidgetHost();
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState(user.name);
  const [license, setLicense] = useState(user.license ?? '');
  const [errors, setErrors] = useState<{ name?: string; license?: string }>({});
  const [busy, setBusy] = useState(false);
  const container = useRef<HTMLDivElement>(null);
  const focusNext = useRef<'first' | 'invalid' | 'opener' | null>(null);

  useLayoutEffect(() => {
    const target = focusNext.current;
    if (!target || !container.current) return;
    focusNext.current = null;
    const selector = {
      first: 'input[name="profileName"]',
      invalid: '[aria-invalid="true"]',
      opener: 'button[data-action="edit-profile"]',
    }[target];
    container.current.querySelector<HTMLElement>(selector)?.focus();
  });

  const close = () => {
    setOpen(false);
    setErrors({});
    focusNext.current = 'opener';
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!hasVisibleCharacter(name)) {
      setErrors({ name: t.nameRequired });
      focusNext.current = 'invalid';
      return;
    }
    setBusy(true);
    try {
      const saved = await updateProfile(apiBase, { name: name.trim(), license: license.trim() || null });
      existingSessionStore()?.setState({ user: saved });
      toast({ title: t.profileSaved, variant: 'success' });
      close();
    } catch (error) {
      const found: { name?: string; license?: string } = {};
      if (error instanceof ApiError) {
        for (const issue of error.issues) {
          if (issue.field === 'name' || issue.field === 'license')
            found[issue.field] = host.serverMessage(issue.message);
        }
      }
      setErrors(found);
      if (Object.keys(found).length > 0) focusNext.current = 'invalid';
      toast({
        title: t.profileSaveFailed,
        description: host.serverMessage(userMessage(error, t.profileSaveFailed)),
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div ref={container}>
      {open ? (
        <form
          aria-label={t.profileFormLabel}
          part="form profile-form"
          noValidate
          onSubmit={(event) => void submit(event)}
          css={inlineFormCss}
        >
          <TextField
            name="profileName"
            autoComplete="name"
            label={t.fullName}
            required
            value={name}
            onChange={(text) => {
              setName(text);
              setErrors((current) => ({ ...current, name: undefined }));
            }}
            error={errors.name}
          />
          <TextField
            name="profileLicense"
            autoComplete="off"
            label={t.licence}
            value={license}
            onChange={(text) => {
              setLicense(text);
              setErrors((current) => ({ ...current, license: undefined }));
            }}
            error={errors.license}
          />
          <FormButtons submit={t.save} busy={busy} onCancel={close} />
        </form>
      ) : (
        <Button
          variant="secondary"
          data-action="edit-profile"
          onClick={() => {
            setName(user.name);
            setLicense(user.license ?? '');
            setOpen(true);
            focusNext.current = 'first';
          }}
        >
          {t.editProfile}
        </Button>
      )}
    </div>
  );
}
