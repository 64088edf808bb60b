import { bidiText } from '../ui/bidi-text.tsx';
import { token } from '../ui/theme.ts';
import { useSession } from '../session/use-session.ts';
import { useEhrTexts } from './texts.ts';

/**
 * The patient banner a launch from the EHR asks for when the EHR shows none around the app
 * (`need_patient_banner`, SMART App Launch v2.2): name, MRN, birth date and sex of the EHR's patient, above the
 * tool, while that patient is the one chosen.
 */
export function EhrPatientBanner({ patientId }: { patientId: string | null | undefined }) {
  const ehr = useSession((state) => state.ehr);
  const t = useEhrTexts();
  const banner = ehr?.banner;
  if (!banner || !patientId || patientId !== ehr.patient.id) return null;
  const facts = [
    banner.mrn ? t.bannerMrn(banner.mrn) : null,
    banner.birthDate ? t.bannerBorn(banner.birthDate) : null,
    banner.gender ? (t.genders[banner.gender] ?? banner.gender) : null,
  ].filter((fact): fact is string => fact !== null);
  return (
    <section
      aria-label={t.bannerLabel}
      part="ehr-patient-banner"
      data-testid="ehr-patient-banner"
      css={{
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'baseline',
        gap: '4px 16px',
        padding: '8px 12px',
        marginBlockEnd: '12px',
        borderRadius: '8px',
        border: `1px solid ${token('--sgx-color-border')}`,
        background: token('--sgx-color-surface-alt'),
      }}
    >
      <span css={{ fontSize: '0.8em', color: token('--sgx-color-muted') }}>{t.bannerLabel}</span>
      <strong>{bidiText(banner.name)}</strong>
      {facts.map((fact) => (
        <span key={fact}>{bidiText(fact)}</span>
      ))}
    </section>
  );
}
