import { Dialog } from '../shared/ui/dialog.tsx';
import { token } from '../shared/ui/theme.ts';
import { Button, Card } from '../shared/ui/ui.tsx';
import { useMessages } from '../shared/widget-host/widget-context.ts';
import { fitColumns } from '../shared/ui/styles.ts';
import type { PortalTab } from './PortalDialog.tsx';

interface ChooserDialogProps {
  open: boolean;
  onClose: () => void;
  onAccount: (tab: PortalTab) => void;
  onQuickUse: () => void;
}

/**
 * "Choose Access Mode" (docs/product.md §2): account access (Sign In, Sign Up) or Quick Use. The cards stack when
 * narrow.
 */
export function ChooserDialog({ open, onClose, onAccount, onQuickUse }: ChooserDialogProps) {
  const t = useMessages().portal;
  const textCss = { margin: '0 0 16px', color: token('--sgx-color-muted') } as const;
  const actionsCss = { display: 'flex', flexWrap: 'wrap', gap: '8px' } as const;
  return (
    <Dialog open={open} title={t.chooserTitle} onClose={onClose} part="dialog chooser-dialog">
      <p css={{ margin: '0 0 16px' }}>{t.chooserIntro}</p>
      <div css={{ display: 'grid', gap: '14px', gridTemplateColumns: fitColumns(200) }}>
        <Card title={t.accountCardTitle} part="card account-card" accent={token('--sgx-color-primary')}>
          <p css={textCss}>{t.accountCardText}</p>
          <div css={actionsCss}>
            <Button onClick={() => onAccount('signin')} css={{ flex: '1 1 auto' }}>
              {t.chooseSignIn}
            </Button>
            <Button variant="secondary" onClick={() => onAccount('signup')} css={{ flex: '1 1 auto' }}>
              {t.chooseSignUp}
            </Button>
          </div>
        </Card>
        <Card title={t.quickUseCardTitle} part="card quick-use-card" accent={token('--sgx-color-muted')}>
          <p css={textCss}>{t.quickUseCardText}</p>
          <div css={actionsCss}>
            <Button variant="secondary" onClick={onQuickUse} css={{ flex: '1 1 auto' }}>
              {t.chooseQuickUse}
            </Button>
          </div>
        </Card>
      </div>
    </Dialog>
  );
}
