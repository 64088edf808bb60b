import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import type { AccountSecurity, SessionList, StepUpProof, TotpSetup } from '../../../contracts/auth.ts';
import type { secondFactorAddedSchema } from '../../../contracts/auth.ts';
import type { InferOutput } from 'valibot';
import { userMessage } from '../../shared/api/api-error.ts';
import { saveBlob } from '../../shared/session/account-api.ts';
import { TextField } from '../../shared/ui/fields.tsx';
import { formatRecordedAt } from '../../shared/lang/format.ts';
import { token } from '../../shared/ui/theme.ts';
import { useToast } from '../../shared/ui/toasts.tsx';
import { Button, FormFailure } from '../../shared/ui/ui.tsx';
import { useWidgetHost } from '../../shared/widget-host/widget-context.ts';
import {
  confirmTotp,
  endOtherSessions,
  listSessions,
  loadSecurity,
  passkeyRegistrationOptions,
  registerPasskey,
  removeSecondFactor,
  renewRecoveryCodes,
  startTotpSetup,
  unlinkIdentity,
} from './api.ts';
import { serverText, useSecurityTexts } from './texts.ts';
import { StepUpCheck } from './StepUpCheck.tsx';
import { existingSessionStore } from '../../shared/session/session-state.ts';

type SecondFactorAdded = InferOutput<typeof secondFactorAddedSchema>;

const sectionCss = {
  display: 'grid',
  gap: '10px',
  paddingBlock: '12px',
  borderBlockStart: `1px solid ${token('--sgx-color-border')}`,
} as const;
const rowCss = { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '8px 12px' } as const;
const mutedCss = { color: token('--sgx-color-muted') } as const;
const headingCss = { margin: 0, fontSize: '1em' } as const;
const boxCss = {
  display: 'grid',
  gap: '10px',
  padding: '12px',
  border: `1px dashed ${token('--sgx-color-border')}`,
  borderRadius: '8px',
  maxInlineSize: '460px',
} as const;

/** A step that needs the password again (remove a factor, new recovery codes): a small inline form. */
function PasswordCheck({
  label,
  onConfirm,
  onCancel,
}: {
  label: string;
  onConfirm: (password: string) => Promise<void>;
  onCancel: () => void;
}) {
  const t = useSecurityTexts();
  const host = useWidgetHost();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || !password) return;
    setBusy(true);
    try {
      await onConfirm(password);
    } catch (caught) {
      setError(serverText(host, userMessage(caught, t.failed)));
      setPassword('');
    } finally {
      setBusy(false);
    }
  };
  return (
    <form aria-label={label} noValidate onSubmit={(event) => void submit(event)} css={boxCss}>
      <TextField
        name="password"
        type="password"
        autoComplete="current-password"
        label={label}
        required
        value={password}
        onChange={(text) => {
          setPassword(text);
          setError(undefined);
        }}
        error={error}
      />
      <div css={rowCss}>
        <Button type="submit" busy={busy} disabled={busy || !password}>
          {t.confirm}
        </Button>
        <Button variant="ghost" onClick={onCancel} disabled={busy}>
          {t.cancel}
        </Button>
      </div>
    </form>
  );
}

/** Recovery codes, shown once: to copy, download, or write down. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const t = useSecurityTexts();
  const [copied, setCopied] = useState(false);
  const text = `${codes.join('\n')}\n`;
  return (
    <div part="recovery-codes" css={boxCss}>
      <strong>{t.recoveryCodes}</strong>
      <p css={{ margin: 0 }}>{t.recoveryShowOnce}</p>
      <ol
        dir="ltr"
        css={{
          margin: 0,
          paddingInlineStart: '2.2em',
          fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
          // A code is 29 characters (six groups of four): two columns where they fit, never a code broken in two.
          columns: '30ch 2',
        }}
      >
        {codes.map((code) => (
          <li key={code} css={{ whiteSpace: 'nowrap' }}>
            {code}
          </li>
        ))}
      </ol>
      <div css={rowCss}>
        <Button
          variant="secondary"
          onClick={() =>
            void globalThis.navigator?.clipboard?.writeText(text).then(
              () => setCopied(true),
              () => {},
            )
          }
        >
          {copied ? t.copied : t.copy}
        </Button>
        <Button
          variant="secondary"
          onClick={() => saveBlob(new Blob([text], { type: 'text/plain' }), 'recovery-codes.txt')}
        >
          {t.download}
        </Button>
        <Button onClick={onDone}>{t.saved}</Button>
      </div>
    </div>
  );
}

/** Setting up an authenticator app: the QR code (drawn here from the server's path), the key, the first code. */
function TotpSetupForm({
  apiBase,
  setup,
  onDone,
  onCancel,
}: {
  apiBase: string;
  /** Started once the clinician proved it is them (StepUpCheck). */
  setup: TotpSetup;
  onDone: (added: SecondFactorAdded) => void;
  onCancel: () => void;
}) {
  const t = useSecurityTexts();
  const host = useWidgetHost();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!code.trim()) return setError(t.codeRequired);
    setBusy(true);
    try {
      onDone(await confirmTotp(apiBase, setup.setupToken, code.trim()));
    } catch (caught) {
      setError(serverText(host, userMessage(caught, t.failed)));
      setCode('');
    } finally {
      setBusy(false);
    }
  };
  return (
    <form aria-label={t.totpSetUp} part="totp-setup" noValidate onSubmit={(event) => void submit(event)} css={boxCss}>
      <p css={{ margin: 0 }}>{t.totpScan}</p>
      {
        <>
          <svg
            role="img"
            aria-label={t.totpQr}
            viewBox={`0 0 ${setup.qr.size} ${setup.qr.size}`}
            shapeRendering="crispEdges"
            css={{ inlineSize: '200px', blockSize: '200px', background: '#fff', border: '1px solid #ccc' }}
          >
            <path d={setup.qr.path} fill="#000" />
          </svg>
          <div>
            <span css={mutedCss}>{t.totpKey}: </span>
            <code dir="ltr" part="totp-secret" css={{ overflowWrap: 'anywhere', userSelect: 'all' }}>
              {setup.secret.match(/.{1,4}/g)!.join(' ')}
            </code>
          </div>
          <TextField
            name="code"
            autoComplete="one-time-code"
            label={t.totpCode}
            hint={t.totpHint}
            required
            value={code}
            onChange={(text) => {
              setCode(text);
              setError(undefined);
            }}
            error={error}
          />
        </>
      }
      <div css={rowCss}>
        <Button type="submit" busy={busy} disabled={busy}>
          {t.confirm}
        </Button>
        <Button variant="ghost" onClick={onCancel} disabled={busy}>
          {t.cancel}
        </Button>
      </div>
    </form>
  );
}

/**
 * The profile's sign-in section (docs/API.md#second-factors-and-sessions): for an account with a password, its
 * second factors (an authenticator app, passkeys, recovery codes shown once) and the password form the profile
 * gives (`passwordForm`); the hospital sign-in it is linked to; its active sessions, with "Sign out of all other
 * sessions". Loaded with the profile, never before.
 */
export function SecurityPanel({ apiBase, passwordForm }: { apiBase: string; passwordForm: ReactNode }) {
  const t = useSecurityTexts();
  const host = useWidgetHost();
  const toast = useToast();
  const [security, setSecurity] = useState<AccountSecurity | null>(null);
  const [sessions, setSessions] = useState<SessionList['sessions'] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const [step, setStep] = useState<
    | null
    | { kind: 'prove'; then: 'totp' | 'passkey' | 'end-others' }
    | { kind: 'unlink'; id: string }
    | { kind: 'totp'; setup: TotpSetup }
    | { kind: 'remove-totp' }
    | { kind: 'remove-passkey'; id: string }
    | { kind: 'renew' }
    | { kind: 'codes'; codes: string[] }
  >(null);
  const [passkeyName, setPasskeyName] = useState('');
  const [adding, setAdding] = useState(false);
  const [ending, setEnding] = useState(false);
  const [sessionsNote, setSessionsNote] = useState<string | null>(null);
  const when = (at: string) => formatRecordedAt(at, host.lang);

  useEffect(() => {
    let current = true;
    Promise.all([loadSecurity(apiBase), listSessions(apiBase)]).then(
      ([loaded, listed]) => {
        if (!current) return;
        setSecurity(loaded);
        setSessions(listed.sessions);
        setLoadError(null);
      },
      (caught: unknown) => current && setLoadError(serverText(host, userMessage(caught, t.loadFailed))),
    );
    return () => {
      current = false;
    };
  }, [apiBase, version]);

  const refresh = () => setVersion((value) => value + 1);
  const failed = (caught: unknown) =>
    toast({ title: t.failed, description: serverText(host, userMessage(caught, t.failed)), variant: 'destructive' });
  /**
   * A second factor added: the server ended every session, this one too, and opened a new one (its token is kept
   * from now on); recovery codes to show (the first time).
   */
  const added = ({ recoveryCodes, token: renewed }: SecondFactorAdded) => {
    existingSessionStore()?.getState().tokenRenewed(renewed);
    toast({ title: t.factorOnTitle, description: t.factorOnText, variant: 'success' });
    setStep(recoveryCodes ? { kind: 'codes', codes: recoveryCodes } : null);
    refresh();
  };

  /** After StepUpCheck: the passkey's options with the proof, the browser's registration, the passkey stored. */
  const addPasskey = async (proof: StepUpProof) => {
    setAdding(true);
    try {
      const [{ startRegistration, browserSupportsWebAuthn }, { setupToken, options }] = await Promise.all([
        import('@simplewebauthn/browser'),
        passkeyRegistrationOptions(apiBase, proof),
      ]);
      setStep(null);
      if (!browserSupportsWebAuthn()) throw new Error(t.passkeyUnsupported);
      const credential = await startRegistration({ optionsJSON: options as never });
      const name = passkeyName.trim();
      const answer = await registerPasskey(apiBase, { setupToken, credential, ...(name ? { name } : {}) });
      setPasskeyName('');
      added(answer);
    } catch (caught) {
      // refused before the browser was asked: StepUpCheck says why, on its field
      if (step?.kind === 'prove') throw caught;
      failed(caught);
    } finally {
      setAdding(false);
    }
  };

  const endOthers = async (proof: StepUpProof | null) => {
    setEnding(true);
    try {
      const { ended } = await endOtherSessions(apiBase, proof);
      setStep(null);
      setSessionsNote(ended === 0 ? t.noOthers : t.endedOthers(ended));
      refresh();
    } catch (caught) {
      if (proof) throw caught; // StepUpCheck says why, on its field
      failed(caught);
    } finally {
      setEnding(false);
    }
  };
  /** A linked sign-in unlinked, the clinician proven again (an account without a password: a recent sign-on). */
  const unlink = async (id: string, proof: StepUpProof | null) => {
    try {
      await unlinkIdentity(apiBase, id, proof);
      setStep(null);
      toast({ title: t.unlinkedTitle, variant: 'success' });
      refresh();
    } catch (caught) {
      if (proof) throw caught; // StepUpCheck says why, on its field
      failed(caught);
    }
  };
  const factors = { totp: Boolean(security?.totp), passkeys: (security?.passkeys.length ?? 0) > 0 };
  const proveStep =
    step?.kind === 'prove' ? (
      <StepUpCheck
        apiBase={apiBase}
        label={step.then === 'end-others' ? t.endOthers : step.then === 'totp' ? t.totpSetUp : t.passkeyAdd}
        factors={factors}
        onCancel={() => setStep(null)}
        onConfirm={async (proof) => {
          if (step.then === 'totp') setStep({ kind: 'totp', setup: await startTotpSetup(apiBase, proof) });
          else if (step.then === 'passkey') await addPasskey(proof);
          else await endOthers(proof);
        }}
      />
    ) : null;

  if (loadError) return <FormFailure>{loadError}</FormFailure>;
  if (!security || !sessions) return null;
  const others = sessions.filter((session) => !session.current).length;

  return (
    <section aria-label={t.heading} part="security" css={{ display: 'grid', gap: '4px' }}>
      <h3 css={{ margin: 0, fontSize: '1.05em' }}>{t.heading}</h3>
      {security.secondFactorNeeded && (
        <div role="status" part="second-factor-required" css={{ fontWeight: 600, color: token('--sgx-color-danger') }}>
          {t.requiredNotice}
        </div>
      )}

      {security.hasPassword ? (
        <div css={sectionCss}>
          <h4 css={headingCss}>{t.secondFactors}</h4>
          <div css={rowCss} part="totp-status">
            <strong>{t.totpLabel}</strong>
            <span css={mutedCss}>{security.totp ? t.totpOn(when(security.totp.createdAt)) : t.totpOff}</span>
            {!step && !security.totp && (
              <Button variant="secondary" onClick={() => setStep({ kind: 'prove', then: 'totp' })}>
                {t.totpSetUp}
              </Button>
            )}
            {!step && security.totp && (
              <Button variant="ghost" onClick={() => setStep({ kind: 'remove-totp' })}>
                {t.remove}
              </Button>
            )}
          </div>
          {step?.kind === 'prove' && step.then === 'totp' && proveStep}
          {step?.kind === 'totp' && (
            <TotpSetupForm apiBase={apiBase} setup={step.setup} onDone={added} onCancel={() => setStep(null)} />
          )}
          {step?.kind === 'remove-totp' && (
            <PasswordCheck
              label={t.removeConfirm}
              onCancel={() => setStep(null)}
              onConfirm={async (password) => {
                await removeSecondFactor(apiBase, { password, factor: 'totp' });
                toast({ title: t.factorRemoved, variant: 'success' });
                setStep(null);
                refresh();
              }}
            />
          )}

          <strong>{t.passkeys}</strong>
          {security.passkeys.length === 0 ? (
            <span css={mutedCss}>{t.passkeysNone}</span>
          ) : (
            <ul part="passkeys" css={{ margin: 0, paddingInlineStart: '1.2em', display: 'grid', gap: '6px' }}>
              {security.passkeys.map((passkey) => (
                <li key={passkey.id}>
                  <div css={rowCss}>
                    <span>{passkey.name}</span>
                    <span css={mutedCss}>
                      {t.passkeyCreated(when(passkey.createdAt))} ·{' '}
                      {passkey.lastUsedAt ? t.lastUsed(when(passkey.lastUsedAt)) : t.neverUsed}
                    </span>
                    {!step && (
                      <Button variant="ghost" onClick={() => setStep({ kind: 'remove-passkey', id: passkey.id })}>
                        {t.remove}
                      </Button>
                    )}
                  </div>
                  {step?.kind === 'remove-passkey' && step.id === passkey.id && (
                    <PasswordCheck
                      label={t.removeConfirm}
                      onCancel={() => setStep(null)}
                      onConfirm={async (password) => {
                        await removeSecondFactor(apiBase, { password, factor: 'passkey', passkeyId: passkey.id });
                        toast({ title: t.factorRemoved, variant: 'success' });
                        setStep(null);
                        refresh();
                      }}
                    />
                  )}
                </li>
              ))}
            </ul>
          )}
          {!step && (
            <div css={{ ...rowCss, alignItems: 'end' }}>
              <div css={{ flex: '1 1 14em', maxInlineSize: '20em' }}>
                <TextField name="passkeyName" label={t.passkeyName} value={passkeyName} onChange={setPasskeyName} />
              </div>
              <Button
                variant="secondary"
                busy={adding}
                disabled={adding}
                onClick={() => setStep({ kind: 'prove', then: 'passkey' })}
              >
                {t.passkeyAdd}
              </Button>
            </div>
          )}
          {step?.kind === 'prove' && step.then === 'passkey' && proveStep}

          {(security.totp || security.passkeys.length > 0) && (
            <div css={rowCss}>
              <strong>{t.recoveryCodes}</strong>
              <span css={mutedCss}>{t.recoveryLeftCount(security.recoveryCodesLeft)}</span>
              {!step && (
                <Button variant="ghost" onClick={() => setStep({ kind: 'renew' })}>
                  {t.recoveryRenew}
                </Button>
              )}
            </div>
          )}
          {step?.kind === 'renew' && (
            <PasswordCheck
              label={t.recoveryRenewConfirm}
              onCancel={() => setStep(null)}
              onConfirm={async (password) => {
                const { recoveryCodes } = await renewRecoveryCodes(apiBase, password);
                toast({ title: t.codesRenewed, variant: 'success' });
                setStep(recoveryCodes ? { kind: 'codes', codes: recoveryCodes } : null);
                refresh();
              }}
            />
          )}
          {step?.kind === 'codes' && <RecoveryCodes codes={step.codes} onDone={() => setStep(null)} />}
          {passwordForm}
        </div>
      ) : (
        <p css={{ ...sectionCss, margin: 0 }}>{t.ssoAccount}</p>
      )}

      {security.identities.length > 0 && (
        <div css={sectionCss}>
          <h4 css={headingCss}>{t.linkedHeading}</h4>
          {security.identities.map((identity) => (
            <div key={identity.id} css={{ display: 'grid', gap: '8px' }}>
              <div css={rowCss}>
                <span>
                  {identity.displayName
                    ? t.linkedTo(identity.displayName, when(identity.linkedAt))
                    : t.linkedToUnknown(identity.issuer, when(identity.linkedAt))}
                </span>
                {/* An account without a password keeps its only way in (the server refuses it too). */}
                {!step && (security.hasPassword || security.identities.length > 1) && (
                  <Button
                    variant="ghost"
                    onClick={() =>
                      security.hasPassword
                        ? setStep({ kind: 'unlink', id: identity.id })
                        : void unlink(identity.id, null)
                    }
                  >
                    {t.unlink}
                  </Button>
                )}
              </div>
              {step?.kind === 'unlink' && step.id === identity.id && (
                <StepUpCheck
                  apiBase={apiBase}
                  label={t.unlinkConfirm}
                  factors={factors}
                  onCancel={() => setStep(null)}
                  onConfirm={(proof) => unlink(identity.id, proof)}
                />
              )}
            </div>
          ))}
        </div>
      )}

      <div css={sectionCss}>
        <h4 css={headingCss}>{t.sessions}</h4>
        <ul part="sessions" css={{ margin: 0, paddingInlineStart: '1.2em', display: 'grid', gap: '6px' }}>
          {sessions.map((session) => (
            <li key={session.id}>
              <strong>{session.device ?? t.unknownDevice}</strong>
              {session.current && <span css={{ fontWeight: 600 }}> · {t.thisDevice}</span>}
              <div css={mutedCss}>
                {t.methods[session.method] ?? session.method} · {t.sessionLastUsed(when(session.lastUsedAt))}
              </div>
            </li>
          ))}
        </ul>
        <div css={rowCss}>
          <Button
            variant="secondary"
            busy={ending}
            disabled={ending || others === 0 || step?.kind === 'prove'}
            onClick={() =>
              security.hasPassword ? setStep({ kind: 'prove', then: 'end-others' }) : void endOthers(null)
            }
          >
            {t.endOthers}
          </Button>
          {sessionsNote && (
            <span role="status" css={mutedCss}>
              {sessionsNote}
            </span>
          )}
        </div>
        {step?.kind === 'prove' && step.then === 'end-others' && proveStep}
      </div>
    </section>
  );
}
