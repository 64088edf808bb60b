import type { Patient } from '../../shared/session/account-api.ts';
import { SelectField } from '../../shared/ui/fields.tsx';
import { token } from '../../shared/ui/theme.ts';
import { Button } from '../../shared/ui/ui.tsx';
import { useMessages } from '../../shared/widget-host/widget-context.ts';
import type { Messages } from '../../shared/lang/messages/index.ts';

/** The account area's lists (patients, history, exports) share one look. */
export const listCss = { listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: '8px' } as const;
export const rowCss = {
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  gap: '8px',
  padding: '10px',
  border: `1px solid ${token('--sgx-color-border')}`,
  borderRadius: '8px',
} as const;
/** The small grey line under a row's title. */
export const rowDetailCss = { display: 'block', fontSize: '0.85em', color: token('--sgx-color-muted') } as const;

/** "Patient: all patients / one of them", filtering the history and the exports. */
export function PatientFilter({
  name,
  patients,
  value,
  onChange,
}: {
  name: string;
  /** Null while the patients load: only "All patients" until then. */
  patients: readonly Patient[] | null;
  value: string;
  onChange: (patientId: string) => void;
}) {
  const t = useMessages().account;
  return (
    <SelectField
      name={name}
      label={t.filterPatient}
      value={value}
      onChange={onChange}
      options={[
        { value: '', label: t.allPatients },
        ...(patients ?? []).map((patient) => ({ value: patient.id, label: patient.displayName })),
      ]}
    />
  );
}

/**
 * The patient of a history entry or an export: the name, or "No patient" when it is linked to none. A linked
 * patient missing from the list (it has not loaded, or failed to) is "Linked patient", never "No patient".
 */
export function namePatient(
  patients: readonly Patient[] | null,
  id: string | null,
  t: Pick<Messages['account'], 'unlinked' | 'linkedPatient'>,
): string {
  if (id === null) return t.unlinked;
  return patients?.find((patient) => patient.id === id)?.displayName ?? t.linkedPatient;
}

/** A form the profile opens in place (correcting it, changing the password): one look. */
export const inlineFormCss = {
  display: 'grid',
  gap: '10px',
  padding: '12px',
  border: `1px dashed ${token('--sgx-color-border')}`,
  borderRadius: '8px',
  maxInlineSize: '420px',
} as const;

/** An in-place form's two buttons: its action (busy while it runs) and Cancel. */
export function FormButtons({ submit, busy, onCancel }: { submit: string; busy: boolean; onCancel: () => void }) {
  const t = useMessages().account;
  return (
    <div css={{ display: 'flex', flexWrap: 'wrap', gap: '8px' }}>
      <Button type="submit" busy={busy} disabled={busy}>
        {submit}
      </Button>
      <Button variant="ghost" onClick={onCancel} disabled={busy}>
        {t.cancel}
      </Button>
    </div>
  );
}
