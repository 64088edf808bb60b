import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { hasVisibleCharacter } from '../../clinical/visible-text.ts';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../contracts/auth.ts';
import { userMessage } from '../shared/api-error.ts';
import { CheckboxField, TextField } from '../shared/fields.tsx';
import { useWidgetState } from '../shared/widget-state.ts';
import { loadSessionStore, type SessionUser } from '../shared/session-state.ts';
import { token } from '../shared/theme.ts';
import { useToast } from '../shared/toasts.tsx';
import { Button } from '../shared/ui.tsx';
import { useMessages, useWidgetHost } from '../shared/widget-context.ts';
import { postAuth } from './auth-request.ts';

const looksLikeEmail = (text: string) => /^[^\s@]+@[^\s@]+$/.test(text);

type Errors<F extends string> = Partial<Record<F, string>>;

interface AuthFormProps {
  apiBase?: string;
  /** After a successful call: the session is stored and the toast shown; the caller closes and emits. */
  onAuthenticated: (user: SessionUser) => void;
}

/** Focuses the first invalid control after a failed validation. */
function useFocusFirstInvalid(errors: object) {
  const form = useRef<HTMLFormElement>(null);
  const pending = useRef(false);
  useEffect(() => {
    if (!pending.current) return;
    pending.current = false;
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);
  return { form, focusAfterRender: () => (pending.current = true) };
}

interface AuthTexts {
  successTitle: string;
  successDescription: (user: SessionUser) => string;
  failedTitle: string;
  failedToast: string;
  failedInline: string;
}

/**
 * The part sign-in and sign-up share (docs/product.md §8): busy while the call runs; on success the session is
 * stored, the toast shown and the caller told; on failure the toast, the inline box and sgx-error.
 */
function useAuthSubmission(onAuthenticated: (user: SessionUser) => void, texts: AuthTexts) {
  const toast = useToast();
  const host = useWidgetHost();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const run = async (request: () => Promise<{ token: string; user: SessionUser }>, afterSuccess: () => void) => {
    setBusy(true);
    setFailure(null);
    try {
      // The session store's code (not loaded for a signed-out page) downloads beside the request.
      const [{ token: authToken, user }, store] = await Promise.all([request(), loadSessionStore()]);
      store.getState().signedIn(authToken, user);
      toast({ title: texts.successTitle, description: texts.successDescription(user), variant: 'success' });
      afterSuccess();
      onAuthenticated(user);
    } catch (error) {
      const inline = host.serverMessage(userMessage(error, texts.failedInline));
      setFailure(inline);
      toast({ title: texts.failedTitle, description: userMessage(error, texts.failedToast), variant: 'destructive' });
      host.emit('sgx-error', { source: 'access-portal', message: inline });
    } finally {
      setBusy(false);
    }
  };
  return { busy, failure, run };
}

/** docs/product.md §8: the inline red box under a failed sign-in or sign-up. */
function FormFailure({ children }: { children: ReactNode }) {
  return (
    <div
      role="alert"
      part="form-error"
      css={{
        padding: '10px 12px',
        borderRadius: token('--sgx-radius'),
        border: `1px solid ${token('--sgx-color-danger')}`,
        borderInlineStartWidth: '5px',
        background: 'rgb(185 28 28 / 0.08)',
        color: token('--sgx-color-danger'),
        fontWeight: 600,
      }}
    >
      {children}
    </div>
  );
}

const formCss = { display: 'grid', gap: '14px' } as const;

interface CredentialFieldProps {
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
}

function EmailField(props: CredentialFieldProps) {
  const t = useMessages().portal;
  return <TextField name="email" type="email" autoComplete="email" label={t.email} required {...props} />;
}

/** A new password (sign-up) gets the length hint and lets the browser suggest a strong one. */
function PasswordField({ isNew = false, ...props }: CredentialFieldProps & { isNew?: boolean }) {
  const t = useMessages().portal;
  const autoComplete = isNew ? 'new-password' : 'current-password';
  const hint = isNew ? t.passwordHint : undefined;
  return (
    <TextField
      name="password"
      type="password"
      autoComplete={autoComplete}
      label={t.password}
      hint={hint}
      required
      {...props}
    />
  );
}

export function SignInForm({ apiBase, onAuthenticated }: AuthFormProps) {
  const t = useMessages().portal;
  const [email, setEmail] = useWidgetState('signin.email', '');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Errors<'email' | 'password'>>({});
  const { busy, failure, run } = useAuthSubmission(onAuthenticated, {
    successTitle: t.welcomeBackTitle,
    successDescription: () => t.welcomeBackDescription,
    failedTitle: t.signInFailedTitle,
    failedToast: t.signInFailedToast,
    failedInline: t.signInFailedInline,
  });
  const { form, focusAfterRender } = useFocusFirstInvalid(errors);
  const edit = (field: 'email' | 'password', setter: (value: string) => void) => (value: string) => {
    setter(value);
    setErrors((current) => (field in current ? { ...current, [field]: undefined } : current));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found: Errors<'email' | 'password'> = {};
    if (!email.trim()) found.email = t.emailRequired;
    if (!password) found.password = t.passwordRequired;
    setErrors(found);
    if (Object.keys(found).length > 0) {
      focusAfterRender();
      return;
    }
    await run(
      () => postAuth(apiBase, '/api/auth/signin', { email: email.trim(), password }),
      () => setPassword(''),
    );
  };

  return (
    <form ref={form} part="form signin-form" aria-label={t.signInFormLabel} noValidate onSubmit={submit} css={formCss}>
      <EmailField value={email} onChange={edit('email', setEmail)} error={errors.email} />
      <PasswordField value={password} onChange={edit('password', setPassword)} error={errors.password} />
      {failure && <FormFailure>{failure}</FormFailure>}
      <Button type="submit" busy={busy} disabled={busy} css={{ inlineSize: '100%' }}>
        {t.signInSubmit}
      </Button>
    </form>
  );
}

type SignUpField = 'name' | 'email' | 'password' | 'terms';

export function SignUpForm({ apiBase, onAuthenticated }: AuthFormProps) {
  const t = useMessages().portal;
  const toast = useToast();
  const [name, setName] = useWidgetState('signup.name', '');
  const [email, setEmail] = useWidgetState('signup.email', '');
  const [password, setPassword] = useState('');
  const [licence, setLicence] = useWidgetState('signup.licence', '');
  const [agreed, setAgreed] = useWidgetState('signup.agreed', false);
  const [errors, setErrors] = useState<Errors<SignUpField>>({});
  const { busy, failure, run } = useAuthSubmission(onAuthenticated, {
    successTitle: t.accountCreatedTitle,
    successDescription: (user) => t.accountCreatedDescription(user.name || name.trim()),
    failedTitle: t.signUpFailedTitle,
    failedToast: t.signUpFailedToast,
    failedInline: t.signUpFailedInline,
  });
  const { form, focusAfterRender } = useFocusFirstInvalid(errors);
  /** A changed field loses its error. */
  const edit =
    <V,>(field: SignUpField | 'license', setter: (value: V) => void) =>
    (value: V) => {
      setter(value);
      setErrors((current) => (field in current ? { ...current, [field]: undefined } : current));
    };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found: Errors<SignUpField> = {};
    if (!hasVisibleCharacter(name)) found.name = t.nameRequired; // blank, or only U+200B, U+202E…
    if (!email.trim()) found.email = t.emailRequired;
    else if (!looksLikeEmail(email.trim())) found.email = t.emailInvalid;
    if (!password) found.password = t.passwordRequired;
    else if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH)
      found.password = t.passwordLength;
    if (!agreed) found.terms = t.agreementDescription;
    setErrors(found);
    // docs/product.md §5: unticked terms → this toast, and nothing is submitted.
    if (!agreed) toast({ title: t.agreementTitle, description: t.agreementDescription, variant: 'destructive' });
    if (Object.keys(found).length > 0) {
      focusAfterRender();
      return;
    }
    await run(
      () =>
        postAuth(apiBase, '/api/auth/signup', {
          email: email.trim(),
          password,
          name: name.trim(),
          license: licence.trim() || null,
          agreeTerms: true,
        }),
      () => {
        setPassword('');
        setAgreed(false);
      },
    );
  };

  return (
    <form ref={form} part="form signup-form" aria-label={t.signUpFormLabel} noValidate onSubmit={submit} css={formCss}>
      <TextField
        name="name"
        autoComplete="name"
        label={t.fullName}
        required
        value={name}
        onChange={edit('name', setName)}
        error={errors.name}
      />
      <EmailField value={email} onChange={edit('email', setEmail)} error={errors.email} />
      <PasswordField isNew value={password} onChange={edit('password', setPassword)} error={errors.password} />
      <TextField
        name="license"
        autoComplete="off"
        label={t.licence}
        hint={t.licenceHint}
        value={licence}
        onChange={edit('license', setLicence)}
      />
      <CheckboxField
        name="agreeTerms"
        label={t.terms}
        checked={agreed}
        onChange={edit('terms', setAgreed)}
        error={errors.terms}
      />
      {failure && <FormFailure>{failure}</FormFailure>}
      <Button type="submit" busy={busy} disabled={busy} css={{ inlineSize: '100%' }}>
        {t.signUpSubmit}
      </Button>
    </form>
  );
}
