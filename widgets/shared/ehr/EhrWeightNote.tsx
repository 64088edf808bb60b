import { bidiText } from '../ui/bidi-text.tsx';
import { token } from '../ui/theme.ts';
import { useSession } from '../session/use-session.ts';
import { useEhrTexts, weightSentences } from './texts.ts';

/**
 * Under the weight field, while the EHR's patient is the one chosen: where the weight came from. The EHR's weight
 * with its date when this launch read it; otherwise why the field was left empty, what to do, and the weight the
 * clinician's record kept, never called the EHR's (contracts/smart.ts EhrWeight). It stays: the launch's toast
 * goes after a few seconds.
 */
export function EhrWeightNote({ patientId }: { patientId: string | null | undefined }) {
  const ehr = useSession((state) => state.ehr);
  const t = useEhrTexts();
  if (!ehr || !patientId || patientId !== ehr.patient.id) return null;
  const fromEhr = ehr.weight.source === 'ehr';
  return (
    <p
      part="ehr-weight"
      data-testid="ehr-weight-note"
      data-source={ehr.weight.source}
      css={{
        margin: 0,
        padding: '8px 12px',
        borderRadius: '8px',
        fontSize: '0.9em',
        border: `1px solid ${fromEhr ? token('--sgx-color-border') : token('--sgx-color-warning')}`,
        background: token('--sgx-color-surface-alt'),
      }}
    >
      {bidiText(weightSentences(t, ehr).join(' '))}
    </p>
  );
}
