import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { AuthResponse, SecondFactorChallenge } from '../../../contracts/auth.ts';
import { userMessage } from '../../shared/api/api-error.ts';
import { TextField } from '../../shared/ui/fields.tsx';
import { Button, FormFailure } from '../../shared/ui/ui.tsx';
import { passkeySignInOptions, secondFactor } from './api.ts';
import { useSecurityTexts, useServerText } from './texts.ts';

type Challenge = SecondFactorChallenge['secondFactor'];

/**
 * The second step of a password sign-in for an account with a second factor (docs/API.md#auth): the
 * authenticator app's code, a passkey (WebAuthn, user verification required), or a recovery code. Wrong codes
 * stay on this step (each counts toward the sign-in lock-out); an expired step goes back to the password.
 */
export function SecondFactorStep({
  apiBase,
  challenge,
  onAuthenticated,
  onBack,
}: {
  apiBase?: string;
  challenge: Challenge;
  onAuthenticated: (answer: AuthResponse) => Promise<void>;
  onBack: () => void;
}) {
  const t = useSecurityTexts();
  const server = useServerText();
  const hasTotp = challenge.methods.includes('totp');
  const [mode, setMode] = useState<'totp' | 'recovery_code'>(hasTotp ? 'totp' : 'recovery_code');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);

  useEffect(() => {
    form.current?.querySelector<HTMLInputElement>('input[name="code"]')?.focus();
  }, [mode]);

  const attempt = async (send: () => Promise<AuthResponse>) => {
    setBusy(true);
    setFailure(null);
    try {
      await onAuthenticated(await send());
    } catch (caught) {
      setFailure(server(userMessage(caught, t.failed)));
      setCode('');
    } finally {
      setBusy(false);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!code.trim()) return setError(t.codeRequired);
    setError(null);
    await attempt(() => secondFactor(apiBase, { mfaToken: challenge.mfaToken, method: mode, code: code.trim() }));
  };

  const usePasskey = async () => {
    if (busy) return;
    setError(null);
    await attempt(async () => {
      const [{ startAuthentication }, { options }] = await Promise.all([
        import('@simplewebauthn/browser'),
        passkeySignInOptions(apiBase, challenge.mfaToken),
      ]);
      let credential: unknown;
      try {
        credential = await startAuthentication({ optionsJSON: options as never });
      } catch {
        throw new Error(t.passkeyCancelled);
      }
      return secondFactor(apiBase, { mfaToken: challenge.mfaToken, method: 'passkey', credential });
    });
  };

  const isTotp = mode === 'totp';
  return (
    <form
      ref={form}
      aria-label={t.secondFactorLabel}
      part="form second-factor-form"
      noValidate
      onSubmit={(event) => void submit(event)}
      css={{ display: 'grid', gap: '12px' }}
    >
      <p css={{ margin: 0 }}>{isTotp ? t.totpIntro : t.recoveryIntro}</p>
      <TextField
        key={mode}
        name="code"
        autoComplete={isTotp ? 'one-time-code' : 'off'}
        label={isTotp ? t.totpCode : t.recoveryCode}
        hint={isTotp ? t.totpHint : undefined}
        required
        value={code}
        onChange={(text) => {
          setCode(text);
          setError(null);
        }}
        error={error ?? undefined}
      />
      {failure && <FormFailure>{failure}</FormFailure>}
      <Button type="submit" busy={busy} disabled={busy} css={{ inlineSize: '100%' }}>
        {t.verify}
      </Button>
      <div css={{ display: 'flex', flexWrap: 'wrap', gap: '8px' }}>
        {challenge.methods.includes('passkey') && (
          <Button variant="secondary" disabled={busy} onClick={() => void usePasskey()}>
            {t.usePasskey}
          </Button>
        )}
        {isTotp && challenge.methods.includes('recovery_code') && (
          <Button variant="ghost" disabled={busy} onClick={() => (setMode('recovery_code'), setCode(''))}>
            {t.useRecoveryCode}
          </Button>
        )}
        {!isTotp && hasTotp && (
          <Button variant="ghost" disabled={busy} onClick={() => (setMode('totp'), setCode(''))}>
            {t.useAuthenticator}
          </Button>
        )}
        <Button variant="ghost" disabled={busy} onClick={onBack}>
          {t.back}
        </Button>
      </div>
    </form>
  );
}
