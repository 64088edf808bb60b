import { useState, type FormEvent } from 'react';
import type { StepUpProof } from '../../../contracts/auth.ts';
import { userMessage } from '../../shared/api/api-error.ts';
import { TextField } from '../../shared/ui/fields.tsx';
import { token } from '../../shared/ui/theme.ts';
import { Button } from '../../shared/ui/ui.tsx';
import { useWidgetHost } from '../../shared/widget-host/widget-context.ts';
import { stepUpPasskeyOptions } from './api.ts';
import { serverText, useSecurityTexts } from './texts.ts';

const boxCss = {
  display: 'grid',
  gap: '10px',
  padding: '12px',
  border: `1px dashed ${token('--sgx-color-border')}`,
  borderRadius: '8px',
  maxInlineSize: '460px',
} as const;
const rowCss = { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '8px 12px' } as const;

/**
 * "Is it you?" before a change to how the account signs in (a second factor added, the other sessions signed
 * out; docs/API.md#second-factors-and-sessions): the password, and when the account has a second factor, one of
 * them: the authenticator app's code, a recovery code, or a passkey. A token copied from this browser cannot
 * make such a change without them. `onConfirm` makes the change with the proof; what the server refuses stays
 * here, said on the field it is about.
 */
export function StepUpCheck({
  apiBase,
  label,
  factors,
  onConfirm,
  onCancel,
}: {
  apiBase: string;
  label: string;
  /** The account's second factors (none: the password alone). */
  factors: { totp: boolean; passkeys: boolean };
  onConfirm: (proof: StepUpProof) => Promise<void>;
  onCancel: () => void;
}) {
  const t = useSecurityTexts();
  const host = useWidgetHost();
  const hasFactor = factors.totp || factors.passkeys;
  const [mode, setMode] = useState<'totp' | 'recovery_code'>(factors.totp ? 'totp' : 'recovery_code');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<{ password?: string; code?: string }>({});
  const [busy, setBusy] = useState(false);

  const attempt = async (proof: () => Promise<StepUpProof>) => {
    setBusy(true);
    try {
      await onConfirm(await proof());
    } catch (caught) {
      const message = serverText(host, userMessage(caught, t.failed));
      const field = (caught as { issues?: { field?: string }[] }).issues?.[0]?.field;
      setErrors(field === 'password' || !hasFactor ? { password: message } : { code: message });
      setCode('');
      if (field === 'password') setPassword('');
    } finally {
      setBusy(false);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!password) return setErrors({ password: t.stepUpPasswordRequired });
    if (hasFactor && !code.trim()) return setErrors({ code: t.codeRequired });
    void attempt(async () => ({ password, ...(hasFactor ? { factor: mode, code: code.trim() } : {}) }));
  };
  const usePasskey = () => {
    if (busy) return;
    if (!password) return setErrors({ password: t.stepUpPasswordRequired });
    void attempt(async () => {
      const [{ startAuthentication }, { options }] = await Promise.all([
        import('@simplewebauthn/browser'),
        stepUpPasskeyOptions(apiBase),
      ]);
      try {
        return {
          password,
          factor: 'passkey',
          credential: await startAuthentication({ optionsJSON: options as never }),
        };
      } catch {
        throw new Error(t.passkeyCancelled);
      }
    });
  };

  const isTotp = mode === 'totp';
  return (
    <form aria-label={label} part="step-up" noValidate onSubmit={submit} css={boxCss}>
      <p css={{ margin: 0 }}>{hasFactor ? t.stepUpIntroWithFactor : t.stepUpIntro}</p>
      <TextField
        name="password"
        type="password"
        autoComplete="current-password"
        label={t.stepUpPassword}
        required
        value={password}
        onChange={(text) => {
          setPassword(text);
          setErrors({});
        }}
        error={errors.password}
      />
      {hasFactor && (
        <TextField
          key={mode}
          name="code"
          autoComplete={isTotp ? 'one-time-code' : 'off'}
          label={isTotp ? t.totpCode : t.recoveryCode}
          hint={isTotp ? t.totpHint : undefined}
          value={code}
          onChange={(text) => {
            setCode(text);
            setErrors({});
          }}
          error={errors.code}
        />
      )}
      <div css={rowCss}>
        <Button type="submit" busy={busy} disabled={busy}>
          {t.confirm}
        </Button>
        {factors.passkeys && (
          <Button variant="secondary" disabled={busy} onClick={usePasskey}>
            {t.usePasskey}
          </Button>
        )}
        {hasFactor && isTotp && (
          <Button variant="ghost" disabled={busy} onClick={() => (setMode('recovery_code'), setCode(''))}>
            {t.useRecoveryCode}
          </Button>
        )}
        {hasFactor && !isTotp && factors.totp && (
          <Button variant="ghost" disabled={busy} onClick={() => (setMode('totp'), setCode(''))}>
            {t.useAuthenticator}
          </Button>
        )}
        <Button variant="ghost" onClick={onCancel} disabled={busy}>
          {t.cancel}
        </Button>
      </div>
    </form>
  );
}
