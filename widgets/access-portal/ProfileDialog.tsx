import { Dialog } from '../shared/dialog.tsx';
import type { SessionUser } from '../shared/session-store.ts';
import { token } from '../shared/theme.ts';
import { useMessages } from '../shared/widget-context.ts';

/** A small read-only profile (name, e-mail, licence) until the account area exists. */
export function ProfileDialog({ open, onClose, user }: { open: boolean; onClose: () => void; user: SessionUser }) {
  const t = useMessages().portal;
  const rows: [string, string][] = [
    [t.profileName, user.name],
    [t.profileEmail, user.email],
    [t.profileLicence, user.license || t.profileLicenceNone],
  ];
  return (
    <Dialog open={open} title={t.profileTitle} onClose={onClose} part="dialog profile-dialog">
      <dl part="profile" css={{ margin: 0, display: 'grid', gap: '10px' }}>
        {rows.map(([label, value]) => (
          <div key={label} css={{ display: 'grid', gap: '2px' }}>
            <dt css={{ fontSize: '0.85em', fontWeight: 600, color: token('--sgx-color-muted') }}>{label}</dt>
            <dd css={{ margin: 0, overflowWrap: 'anywhere' }}>{value}</dd>
          </div>
        ))}
      </dl>
    </Dialog>
  );
}
