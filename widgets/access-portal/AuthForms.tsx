import { useEffect, useRef, useState, type FormEvent } from 'react';
import { hasVisibleCharacter } from '../../clinical/visible-text.ts';
import {
  ACCOUNT_DELETION_PENDING_CODE,
  deletionPendingSchema,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  type AuthResponse,
  type SecondFactorChallenge,
} from '../../contracts/auth.ts';
import type { SiteConfig } from '../../contracts/site-config.ts';
import * as v from 'valibot';
import { ApiError, userMessage } from '../shared/api/api-error.ts';
import { formatDate } from '../shared/lang/format.ts';
import { CheckboxField, TextField } from '../shared/ui/fields.tsx';
import { useWidgetState } from '../shared/element/widget-state.ts';
import type { SessionUser } from '../shared/session/session-state.ts';
import { loadSessionStore } from '../shared/session/session-store-loader.ts';
import { token } from '../shared/ui/theme.ts';
import { useToast } from '../shared/ui/toasts.tsx';
import { Button, FormFailure } from '../shared/ui/ui.tsx';
import type { Messages } from '../shared/lang/messages/index.ts';
import { useMessages, useWidgetHost } from '../shared/widget-host/widget-context.ts';
import { postAuth, postSignIn } from './auth-request.ts';
import { linkDetails, signOnUrl, type LinkDetails } from './security/api.ts';
import { newSignOnChallenge, signOnVerifier } from './security/sign-on-verifier.ts';
import { SecondFactorStep } from './security/SecondFactorStep.tsx';
import { SECURITY_TEXTS, serverText, useSecurityTexts } from './security/texts.ts';

const looksLikeEmail = (text: string) => /^[^\s@]+@[^\s@]+$/.test(text);

type PortalMessages = Messages['portal'];
/** A fixed text of the portal's catalogue, by name. */
type PortalText = { [K in keyof PortalMessages]: PortalMessages[K] extends string ? K : never }[keyof PortalMessages];
/** Each field's error by the name of its text, so that it is shown in the element's language of the moment. */
type Errors<F extends string> = Partial<Record<F, PortalText>>;

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
 * stored, the toast shown and the caller told; on failure the toast, the inline box and sgx-error. `textsOf`
 * picks the texts from a catalogue: what is shown is written in the element's language of the moment.
 */
function useAuthSubmission(onAuthenticated: (user: SessionUser) => void, textsOf: (t: PortalMessages) => AuthTexts) {
  const toast = useToast();
  const host = useWidgetHost();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<{ error: unknown } | null>(null);
  /** A session answered: stored, the welcome toast, the caller told. */
  const finish = async (answer: AuthResponse, afterSuccess: () => void = () => {}) => {
    const store = await loadSessionStore();
    const { token: authToken, user } = answer;
    store.getState().signedIn(authToken, user);
    toast({
      title: ({ messages }) => textsOf(messages.portal).successTitle,
      description: ({ messages, lang }) =>
        answer.recoveryCodesLeft !== undefined
          ? SECURITY_TEXTS[lang].recoveryLeft(answer.recoveryCodesLeft)
          : textsOf(messages.portal).successDescription(user),
      variant: 'success',
    });
    afterSuccess();
    onAuthenticated(user);
  };
  /** `request` answers a session, or null when a further step (a second factor) comes first. */
  const run = async (request: () => Promise<AuthResponse | null>, afterSuccess: () => void) => {
    setBusy(true);
    setFailed(null);
    try {
      // The session store's code (not loaded for a signed-out page) downloads beside the request.
      const [answer] = await Promise.all([request(), loadSessionStore()]);
      if (answer) await finish(answer, afterSuccess);
    } catch (error) {
      setFailed({ error });
      toast({
        title: ({ messages }) => textsOf(messages.portal).failedTitle,
        description: (host) => serverText(host, userMessage(error, textsOf(host.messages.portal).failedToast)),
        variant: 'destructive',
      });
      host.emit('sgx-error', {
        source: 'access-portal',
        message: serverText(host, userMessage(error, textsOf(host.messages.portal).failedInline)),
      });
    } finally {
      setBusy(false);
    }
  };
  const failure = failed && serverText(host, userMessage(failed.error, textsOf(host.messages.portal).failedInline));
  return { busy, failure, failedWith: failed?.error, run, finish };
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

interface SignInFormProps extends AuthFormProps {
  /** How this server signs in (GET /api/config): the hospital's button, e-mail and password or not. */
  options?: SiteConfig['signIn'];
  /** The code single sign-on gave when the e-mail has a password account: the password links it. */
  linkCode?: string | null;
}

/** The hospital's single sign-on button: the browser goes to the provider and comes back to this page. */
function SignOnButton({
  apiBase,
  displayName,
  startPath,
}: {
  apiBase?: string;
  displayName: string;
  startPath: string;
}) {
  const t = useSecurityTexts();
  const [busy, setBusy] = useState(false);
  return (
    <Button
      part="button button-primary sso-button"
      busy={busy}
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        const here = globalThis.location.href.replace(/#sgx-sso(-link)?=.*$/, '');
        // This tab's verifier: the code the provider's round trip brings back is good only with it.
        globalThis.location.assign(signOnUrl(apiBase, startPath, here, await newSignOnChallenge()));
      }}
      css={{ inlineSize: '100%' }}
    >
      {t.ssoButton(displayName)}
    </Button>
  );
}

export function SignInForm({ apiBase, onAuthenticated, options, linkCode }: SignInFormProps) {
  const t = useMessages().portal;
  const security = useSecurityTexts();
  const toast = useToast();
  const [email, setEmail] = useWidgetState('signin.email', '');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Errors<'email' | 'password'>>({});
  const [challenge, setChallenge] = useState<SecondFactorChallenge['secondFactor'] | null>(null);
  /** Set while "Keep my account" signs in: its toast says the account is kept (read when the toast is shown). */
  const keeping = useRef(false);
  const { busy, failure, failedWith, run, finish } = useAuthSubmission(onAuthenticated, (texts) => ({
    successTitle: keeping.current ? texts.accountKeptTitle : texts.welcomeBackTitle,
    successDescription: () => (keeping.current ? texts.accountKeptDescription : texts.welcomeBackDescription),
    failedTitle: texts.signInFailedTitle,
    failedToast: texts.signInFailedToast,
    failedInline: texts.signInFailedInline,
  }));
  const { form, focusAfterRender } = useFocusFirstInvalid(errors);
  const edit = (field: 'email' | 'password', setter: (value: string) => void) => (value: string) => {
    setter(value);
    setErrors((current) => (field in current ? { ...current, [field]: undefined } : current));
  };
  const sso = options?.sso ?? null;
  // The identity a link code would link, named before the password is asked; refused when the code is not this
  // page's (started in another browser) or has expired: then the password signs in without linking.
  const [link, setLink] = useState<
    { status: 'loading' } | { status: 'ready'; details: LinkDetails } | { status: 'refused'; message: string } | null
  >(linkCode ? { status: 'loading' } : null);
  const host = useWidgetHost();
  useEffect(() => {
    if (!linkCode) return setLink(null);
    let current = true;
    setLink({ status: 'loading' });
    linkDetails(apiBase, linkCode).then(
      (details) => {
        if (!current) return;
        setLink({ status: 'ready', details });
        setEmail((typed) => typed || details.email);
      },
      (error: unknown) => current && setLink({ status: 'refused', message: serverText(host, userMessage(error)) }),
    );
    return () => {
      current = false;
    };
  }, [apiBase, linkCode]);
  const linking = link?.status === 'ready' ? linkCode : null;
  const linked = (answer: AuthResponse) => {
    if (answer.linked && sso)
      toast({
        title: ({ lang }) => SECURITY_TEXTS[lang].linkedTitle,
        description: ({ lang }) => SECURITY_TEXTS[lang].linkedText(sso.displayName),
        variant: 'success',
      });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found: Errors<'email' | 'password'> = {};
    if (!email.trim()) found.email = 'emailRequired';
    if (!password) found.password = 'passwordRequired';
    setErrors(found);
    if (Object.keys(found).length > 0) {
      focusAfterRender();
      return;
    }
    keeping.current = false;
    await signIn(false);
  };
  /** The password sign-in; with `cancelDeletion`, "Keep my account" (a second factor may still follow). */
  const signIn = (cancelDeletion: boolean) =>
    run(
      async () => {
        const answer = await postSignIn(apiBase, {
          email: email.trim(),
          password,
          ...(linking ? { linkCode: linking, linkVerifier: signOnVerifier() } : {}),
          ...(cancelDeletion ? { cancelDeletion: true as const } : {}),
        });
        if ('secondFactor' in answer) {
          setChallenge(answer.secondFactor);
          return null;
        }
        linked(answer);
        return answer;
      },
      () => setPassword(''),
    );
  // An account whose deletion waits out its grace period: sign in again with the same password to keep it.
  const pending = deletionPending(failedWith);
  const keep = async () => {
    if (busy) return;
    keeping.current = true;
    await signIn(true);
  };

  if (challenge)
    return (
      <SecondFactorStep
        apiBase={apiBase}
        challenge={challenge}
        onAuthenticated={async (answer) => {
          linked(answer);
          await finish(answer, () => setPassword(''));
          setChallenge(null);
        }}
        onBack={() => {
          setChallenge(null);
          setPassword('');
        }}
      />
    );

  // OIDC_ONLY: only the hospital's button, unless a password must link an account first.
  const passwordForm = (options?.passwordSignIn ?? true) || Boolean(linking);
  return (
    <div css={formCss}>
      {link?.status === 'ready' && sso && (
        <div role="note" part="link-notice" css={{ display: 'grid', gap: '4px' }}>
          <strong>{security.linkTitle}</strong>
          <span>{security.linkWho(link.details.provider, link.details.name, link.details.email)}</span>
          <span>{security.linkText(sso.displayName)}</span>
        </div>
      )}
      {link?.status === 'refused' && (
        <div role="alert" part="link-notice" css={{ display: 'grid', gap: '4px' }}>
          <strong>{security.linkRefused}</strong>
          <span>{link.message}</span>
        </div>
      )}
      {sso && !linking && <SignOnButton apiBase={apiBase} {...sso} />}
      {sso && !linking && (
        <p css={{ margin: 0, textAlign: 'center', color: token('--sgx-color-muted') }}>
          {passwordForm ? security.ssoOr : security.ssoOnly}
        </p>
      )}
      {passwordForm && (
        <form
          ref={form}
          part="form signin-form"
          aria-label={t.signInFormLabel}
          noValidate
          onSubmit={submit}
          css={formCss}
        >
          <EmailField value={email} onChange={edit('email', setEmail)} error={errors.email && t[errors.email]} />
          <PasswordField
            value={password}
            onChange={edit('password', setPassword)}
            error={errors.password && t[errors.password]}
          />
          {pending ? (
            <FormFailure>
              <span css={{ display: 'block', marginBlockEnd: '8px' }}>
                {t.deletionPending(formatDate(new Date(pending)))}
              </span>
              <Button
                variant="secondary"
                data-action="keep-account"
                busy={busy}
                disabled={busy}
                onClick={() => void keep()}
              >
                {t.keepAccount}
              </Button>
            </FormFailure>
          ) : (
            failure && <FormFailure>{failure}</FormFailure>
          )}
          <Button type="submit" busy={busy} disabled={busy} css={{ inlineSize: '100%' }}>
            {t.signInSubmit}
          </Button>
        </form>
      )}
    </div>
  );
}

/** The `eraseAfter` of a sign-in refused because the account's deletion waits out its grace period. */
function deletionPending(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.status !== 403) return null;
  const parsed = v.safeParse(deletionPendingSchema, error.body);
  return parsed.success && parsed.output.code === ACCOUNT_DELETION_PENDING_CODE ? parsed.output.eraseAfter : null;
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
  const { busy, failure, run } = useAuthSubmission(onAuthenticated, (texts) => ({
    successTitle: texts.accountCreatedTitle,
    successDescription: (user) => texts.accountCreatedDescription(user.name || name.trim()),
    failedTitle: texts.signUpFailedTitle,
    failedToast: texts.signUpFailedToast,
    failedInline: texts.signUpFailedInline,
  }));
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
    if (!hasVisibleCharacter(name)) found.name = 'nameRequired'; // blank, or only U+200B, U+202E…
    if (!email.trim()) found.email = 'emailRequired';
    else if (!looksLikeEmail(email.trim())) found.email = 'emailInvalid';
    if (!password) found.password = 'passwordRequired';
    else if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH)
      found.password = 'passwordLength';
    if (!agreed) found.terms = 'agreementDescription';
    setErrors(found);
    // docs/product.md §5: unticked terms → this toast, and nothing is submitted.
    if (!agreed)
      toast({
        title: ({ messages }) => messages.portal.agreementTitle,
        description: ({ messages }) => messages.portal.agreementDescription,
        variant: 'destructive',
      });
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
        error={errors.name && t[errors.name]}
      />
      <EmailField value={email} onChange={edit('email', setEmail)} error={errors.email && t[errors.email]} />
      <PasswordField
        isNew
        value={password}
        onChange={edit('password', setPassword)}
        error={errors.password && t[errors.password]}
      />
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
        error={errors.terms && t[errors.terms]}
      />
      {failure && <FormFailure>{failure}</FormFailure>}
      <Button type="submit" busy={busy} disabled={busy} css={{ inlineSize: '100%' }}>
        {t.signUpSubmit}
      </Button>
    </form>
  );
}
