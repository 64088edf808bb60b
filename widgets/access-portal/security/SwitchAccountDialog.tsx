import { Dialog } from '../../shared/ui/dialog.tsx';
import { Button } from '../../shared/ui/ui.tsx';
import type { SessionUser } from '../../shared/session/session-state.ts';
import { useSecurityTexts } from './texts.ts';

/**
 * "You are signed in as A. Continue as B?": asked when a hand-over (the hospital's sign-in, a launch from the EHR)
 * would replace the page's session with another account's (shared/session/switch-session.ts). Closing it, or
 * Escape, keeps the session the page has; "Stay" comes first, so Enter does too.
 */
export function SwitchAccountDialog({
  current,
  next,
  onAnswer,
}: {
  current: SessionUser | null;
  next: SessionUser;
  onAnswer: (switchTo: boolean) => void;
}) {
  const t = useSecurityTexts();
  return (
    <Dialog open title={t.switchTitle} onClose={() => onAnswer(false)} part="dialog switch-account-dialog">
      <p css={{ marginBlock: '0 16px' }}>{t.switchText(current?.name ?? null, next.name)}</p>
      <div css={{ display: 'flex', flexWrap: 'wrap', gap: '8px', justifyContent: 'flex-end' }}>
        <Button variant="secondary" autoFocus onClick={() => onAnswer(false)}>
          {t.switchStay}
        </Button>
        <Button onClick={() => onAnswer(true)}>{t.switchContinue(next.name)}</Button>
      </div>
    </Dialog>
  );
}
