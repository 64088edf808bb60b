import { useId, type ReactNode } from 'react';
import type { RoiResult } from '../../clinical/index.ts';
import type { RoiInputsDetail } from '../shared/widget-host/events.ts';
import { formatOneDecimal, formatSar } from '../shared/lang/format.ts';
import { token } from '../shared/ui/theme.ts';
import { Card, visuallyHidden } from '../shared/ui/ui.tsx';
import { useMessages } from '../shared/widget-host/widget-context.ts';
import { useCountUp } from './count-up.ts';
import { impactLines } from './report-text.ts';
import { fitColumns, surfaceCss } from '../shared/ui/styles.ts';
import { bidi, bidiText } from '../shared/ui/bidi-text.tsx';

/** docs/product.md §2–4: the three result cards; their figures count up to the formula results. */
export function RoiResultCards({ result }: { result: RoiResult }) {
  const t = useMessages().roi;
  const [time = 0, hours = 0, cost = 0, ppcs = 0] = useCountUp(
    [result.timeSavedMin, result.hoursFreed, result.costSavedSar, result.ppcsAvoided],
    [0, 1, 0, 1],
  );
  return (
    <div
      part="results"
      role="group"
      aria-label={t.resultsLabel}
      css={{ display: 'grid', gap: '12px', gridTemplateColumns: fitColumns(150) }}
    >
      <ResultCard
        id="time-saved"
        title={t.timeSaved}
        value={String(time)}
        unit={t.unitMin}
        note={t.hoursFreed(formatOneDecimal(hours))}
      />
      <ResultCard id="cost-saved" title={t.costSaved} value={formatSar(cost)} unit={t.unitSar} note={t.costSavedNote} />
      <ResultCard id="ppcs-avoided" title={t.ppcsAvoided} value={formatOneDecimal(ppcs)} note={t.ppcsAvoidedNote} />
      {/* The animated figures are not announced step by step; this line says the final ones once. */}
      <p aria-live="polite" aria-atomic="true" css={visuallyHidden}>
        {bidiText(
          t.resultsAnnouncement(
            String(result.timeSavedMin),
            formatOneDecimal(result.hoursFreed),
            formatSar(result.costSavedSar),
            formatOneDecimal(result.ppcsAvoided),
          ),
        )}
      </p>
    </div>
  );
}

function ResultCard({
  id,
  title,
  value,
  unit,
  note,
}: {
  id: string;
  title: string;
  value: string;
  unit?: string;
  note: ReactNode;
}) {
  const headingId = useId();
  return (
    <section
      part="result"
      data-result={id}
      aria-labelledby={headingId}
      css={{
        display: 'grid',
        alignContent: 'start',
        gap: '4px',
        padding: '14px',
        ...surfaceCss,
        borderBlockStart: `5px solid ${token('--sgx-color-primary')}`,
        minInlineSize: 0,
      }}
    >
      <h3 id={headingId} css={{ margin: 0, fontSize: '0.95em', color: token('--sgx-color-muted') }}>
        {bidiText(title)}
      </h3>
      <p css={{ margin: 0, display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', gap: '6px' }}>
        <strong
          data-testid={`${id}-value`}
          css={{
            fontSize: '1.8em',
            lineHeight: 1.1,
            color: token('--sgx-color-primary'),
            fontVariantNumeric: 'tabular-nums',
          }}
        >
          {value}
        </strong>
        {unit && <span css={{ fontWeight: 600 }}>{unit}</span>}
      </p>
      <p data-testid={`${id}-note`} css={{ margin: 0, fontSize: '0.85em', color: token('--sgx-color-muted') }}>
        {bidi(note)}
      </p>
    </section>
  );
}

/** docs/product.md §2, §5 and docs/clinical-reference.md §5: the time-comparison chart and what the figures mean. */
export function RoiImpactSummary({ inputs, result }: { inputs: RoiInputsDetail; result: RoiResult }) {
  const t = useMessages().roi;
  const [summary, fixedCost, tof] = impactLines(inputs, result, t);
  const bars = [
    {
      key: 'neostigmine',
      label: t.neostigmine,
      minutes: inputs.timeNeostigmine,
      percent: result.neostigmineBarPercent,
      colour: token('--sgx-color-muted'),
    },
    {
      key: 'product',
      label: t.product,
      minutes: inputs.timeProduct,
      percent: result.productBarPercent,
      colour: token('--sgx-color-primary'),
    },
  ];
  return (
    <Card title={t.impactTitle} part="impact">
      <div css={{ display: 'grid', gap: '12px' }}>
        <p css={{ margin: 0, fontWeight: 600 }}>{t.chartTitle}</p>
        <div
          part="chart"
          role="img"
          aria-label={t.chartLabel(inputs.timeNeostigmine, inputs.timeProduct)}
          css={{
            display: 'grid',
            gap: '8px',
            // the label column gives way in a narrow element (its words wrap) rather than push the bar out
            gridTemplateColumns: 'minmax(0, max-content) minmax(32px, 1fr) max-content',
            alignItems: 'center',
          }}
        >
          {bars.map((bar) => (
            <div key={bar.key} css={{ display: 'contents' }}>
              <span css={{ minInlineSize: 0, overflowWrap: 'anywhere' }}>{bidiText(bar.label)}</span>
              <span
                css={{
                  display: 'block',
                  blockSize: '24px',
                  borderRadius: '6px',
                  background: token('--sgx-color-surface-alt'),
                  overflow: 'hidden',
                }}
              >
                <span
                  data-testid={`bar-${bar.key}`}
                  part={`bar bar-${bar.key}`}
                  style={{ inlineSize: `${bar.percent}%` }}
                  css={{
                    display: 'block',
                    blockSize: '100%',
                    background: bar.colour,
                    transition: 'inline-size 0.3s ease',
                    '@media (prefers-reduced-motion: reduce)': { transition: 'none' },
                  }}
                />
              </span>
              <span css={{ fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}>
                {bidiText(t.minutes(bar.minutes))}
              </span>
            </div>
          ))}
        </div>
        <p css={{ margin: 0 }}>{bidi(summary)}</p>
        <ul
          css={{
            margin: 0,
            paddingInlineStart: '1.25em',
            display: 'grid',
            gap: '4px',
            fontSize: '0.9em',
            color: token('--sgx-color-muted'),
          }}
        >
          <li>{bidi(fixedCost)}</li>
          <li>{bidi(tof)}</li>
        </ul>
      </div>
    </Card>
  );
}
