import type { BradycardiaAssessment, RiskBand } from '../../clinical/index.ts';
import { formatOneDecimal } from '../shared/lang/format.ts';
import { token } from '../shared/ui/theme.ts';
import { Badge, BulletList, Button, Card } from '../shared/ui/ui.tsx';
import { useClinicalTexts, useMessages } from '../shared/widget-host/widget-context.ts';
import { bidiText } from '../shared/ui/bidi-text.tsx';

/** docs/product.md §9 band colours (LOW green, MODERATE yellow, HIGH red), as AA-contrast pairs. */
export const BAND_STYLES: Record<RiskBand, { background: string; color: string; accent: string }> = {
  LOW: { background: '#dcfce7', color: '#14532d', accent: '#16a34a' },
  MODERATE: { background: '#fef9c3', color: '#713f12', accent: '#ca8a04' },
  HIGH: { background: '#fee2e2', color: '#7f1d1d', accent: '#dc2626' },
};

export function RiskResults({
  assessment,
  patientName,
  onExport,
  exportLabel,
}: {
  assessment: BradycardiaAssessment;
  patientName?: string;
  onExport?: () => void;
  exportLabel?: string;
}) {
  const t = useMessages().advisor;
  const clinical = useClinicalTexts();
  const band = BAND_STYLES[assessment.riskBand];
  return (
    <div part="result" data-risk-band={assessment.riskBand} css={{ display: 'grid', gap: '16px' }}>
      <Card title={t.riskCard} part="card risk-card" accent={band.accent}>
        <div css={{ display: 'grid', gap: '12px' }}>
          {patientName && <p css={{ margin: 0, fontWeight: 600 }}>{bidiText(t.linkedTo(patientName))}</p>}
          <div css={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '12px' }}>
            <span
              data-testid="risk-band"
              css={{
                paddingInline: '14px',
                paddingBlock: '6px',
                borderRadius: '999px',
                fontWeight: 800,
                letterSpacing: '0.04em',
                background: band.background,
                color: band.color,
                border: `2px solid ${band.accent}`,
              }}
            >
              {t.riskBands[assessment.riskBand]}
            </span>
            <span>
              <span css={{ fontSize: '0.85em', color: token('--sgx-color-muted') }}>{t.riskPercentLabel} </span>
              <strong data-testid="risk-percent" css={{ fontSize: '1.6em' }}>
                {bidiText(t.percent(formatOneDecimal(assessment.riskPercent)))}
              </strong>
            </span>
          </div>
          <div css={{ padding: '12px', borderRadius: '8px', background: token('--sgx-color-surface-alt') }}>
            <div css={{ fontSize: '0.85em', color: token('--sgx-color-muted') }}>{t.recommendedDose}</div>
            <div data-testid="advisor-dose" css={{ fontSize: '1.4em', fontWeight: 800 }}>
              {bidiText(t.doseLine(assessment.doseMg, formatOneDecimal(assessment.doseMl)))}
            </div>
            <div css={{ fontSize: '0.9em' }}>{bidiText(t.dosePerKg(assessment.doseMgPerKg))}</div>
            <div css={{ display: 'flex', flexWrap: 'wrap', gap: '8px', marginBlockStart: '8px' }}>
              <Badge tone="primary">{t.byActualWeight}</Badge>
            </div>
            <p css={{ margin: '8px 0 0', fontSize: '0.9em' }}>{bidiText(t.concentrationNote)}</p>
          </div>
          {assessment.warnings.length > 0 && (
            <div
              role="note"
              css={{ padding: '10px 12px', borderRadius: '8px', background: '#fef3c7', color: '#451a03' }}
            >
              <h4 css={{ margin: '0 0 4px', fontSize: '1em' }}>{t.warnings}</h4>
              <BulletList items={assessment.warnings} />
            </div>
          )}
          <div>
            <h4 css={{ margin: '0 0 6px', fontSize: '1em' }}>{t.factors}</h4>
            {assessment.factors.length === 0 ? (
              <p css={{ margin: 0 }}>{t.noFactors}</p>
            ) : (
              <ul css={{ margin: 0, paddingInlineStart: '1.25em', display: 'grid', gap: '6px' }}>
                {assessment.factors.map((factor) => (
                  <li key={factor.id}>
                    <strong>{bidiText(factor.label)}</strong> {bidiText(t.multiplier(factor.multiplier))}
                    <div css={{ fontSize: '0.85em', color: token('--sgx-color-muted') }}>{bidiText(factor.basis)}</div>
                  </li>
                ))}
              </ul>
            )}
          </div>
          <p css={{ margin: 0, fontSize: '0.85em', color: token('--sgx-color-muted') }}>
            {/* the model's name in the element's language (the answer's model.name is the English identifier) */}
            {bidiText(t.heuristic(clinical.advisor.modelName, assessment.model.version))}
          </p>
        </div>
      </Card>
      <Card title={t.planCard} part="card plan-card">
        <div css={{ display: 'grid', gap: '14px' }}>
          <div>
            <h4 css={{ margin: '0 0 6px', fontSize: '1em' }}>{t.preparation}</h4>
            <BulletList items={assessment.recommendations.preparation} label={t.preparation} />
          </div>
          <div>
            <h4 css={{ margin: '0 0 6px', fontSize: '1em' }}>{t.treatment}</h4>
            <ol aria-label={t.treatment} css={{ margin: 0, paddingInlineStart: '1.4em', display: 'grid', gap: '4px' }}>
              {assessment.recommendations.treatment.map((step) => (
                <li key={step}>{bidiText(step)}</li>
              ))}
            </ol>
          </div>
          <div>
            <h4 css={{ margin: '0 0 6px', fontSize: '1em' }}>{t.reparalysis}</h4>
            <BulletList items={assessment.reparalysis} label={t.reparalysis} />
          </div>
          {onExport && exportLabel && (
            <div css={{ '@media print': { display: 'none' } }}>
              <Button variant="secondary" onClick={onExport}>
                {exportLabel}
              </Button>
            </div>
          )}
        </div>
      </Card>
    </div>
  );
}
