import type { DoseOutcome, DoseResult } from '../../clinical/index.ts';
import { formatOneDecimal, formatSarPrice } from '../shared/lang/format.ts';
import { token } from '../shared/ui/theme.ts';
import { useToast } from '../shared/ui/toasts.tsx';
import { Badge, BulletList, Button } from '../shared/ui/ui.tsx';
import { useMessages } from '../shared/widget-host/widget-context.ts';
import { fitColumns, surfaceCss } from '../shared/ui/styles.ts';
import { bidi, bidiText } from '../shared/ui/bidi-text.tsx';

type ShownOutcome = Exclude<DoseOutcome, { kind: 'invalid_input' }>;

/** Exactly one outcome: not indicated, contraindicated, not established, a dose, or unable to calculate. */
export function DoseOutcomePanel({
  outcome,
  note,
  patientLine,
  savedLine,
  onExport,
  sheetButton,
}: {
  outcome: ShownOutcome;
  /** The note "Copy as note" writes at a given time: the one "Export PDF to notes" writes (./note.ts). */
  note: (at: Date) => string;
  patientLine?: string;
  savedLine?: string;
  onExport?: () => void;
  /** "Patient sheet" (issue 37), shown beside the dose's other actions. */
  sheetButton?: React.ReactNode;
}) {
  const t = useMessages().doseCalculator;
  const panel = (accent: string, children: React.ReactNode) => (
    <section
      part="result"
      data-outcome={outcome.kind}
      aria-label={t.resultHeading}
      css={{
        padding: '18px',
        ...surfaceCss,
        borderInlineStart: `6px solid ${accent}`,
        display: 'grid',
        gap: '12px',
      }}
    >
      {patientLine && <p css={{ margin: 0, fontWeight: 700 }}>{bidiText(patientLine)}</p>}
      {children}
      {savedLine && (
        <p role="status" css={{ margin: 0, fontSize: '0.85em', color: token('--sgx-color-success') }}>
          {bidiText(savedLine)}
        </p>
      )}
    </section>
  );

  switch (outcome.kind) {
    case 'dose':
      return panel(
        token('--sgx-color-primary'),
        <DoseDetails result={outcome} note={note} onExport={onExport} sheetButton={sheetButton} />,
      );
    case 'unable_to_calculate':
      return panel(
        token('--sgx-color-warning'),
        <>
          <h3 css={{ margin: 0, fontSize: '1.25em' }}>{bidiText(outcome.title)}</h3>
          <p css={{ margin: 0, fontWeight: 600 }}>{bidiText(outcome.reason)}</p>
          {outcome.warnings.length > 0 && <Warnings items={outcome.warnings} />}
        </>,
      );
    case 'not_indicated':
    case 'contraindicated':
    case 'not_established':
      return panel(
        token('--sgx-color-danger'),
        <>
          <h3 css={{ margin: 0, fontSize: '1.25em', color: token('--sgx-color-danger') }}>{bidiText(outcome.title)}</h3>
          <Warnings items={outcome.warnings} />
        </>,
      );
  }
}

function Warnings({ items }: { items: readonly string[] }) {
  const t = useMessages().doseCalculator;
  return (
    <div role="note" css={{ padding: '10px 12px', borderRadius: '8px', background: '#fef3c7', color: '#451a03' }}>
      <h4 css={{ margin: '0 0 4px', fontSize: '1em' }}>{t.warnings}</h4>
      <BulletList items={items} />
    </div>
  );
}

function DoseDetails({
  result,
  note,
  onExport,
  sheetButton,
}: {
  result: DoseResult;
  note: (at: Date) => string;
  onExport?: () => void;
  sheetButton?: React.ReactNode;
}) {
  const messages = useMessages();
  const t = messages.doseCalculator;
  const toast = useToast();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(note(new Date()));
      toast({
        title: (host) => host.messages.common.copied,
        description: (host) => host.messages.doseCalculator.noteCopied,
        variant: 'success',
      });
    } catch {
      toast({
        title: (host) => host.messages.common.copyFailed,
        description: (host) => host.messages.common.copyFailedDetail,
        variant: 'destructive',
      });
    }
  };
  // [label, value, whether the value is a number with its unit]: those are isolated left to right, so
  // that "140 mg" never reads "mg 140" in Arabic (a vial count is a phrase of the language).
  const stats: [string, string, boolean][] = [
    [t.totalDose, `${result.totalDoseMg} ${t.unitMg}`, true],
    [t.vials, t.vialCount(result.vials), false],
    [t.volume, `${formatOneDecimal(result.volumeMl)} ${t.unitMl}`, true],
    [t.cost, `${formatSarPrice(result.costSar)} ${t.unitSar}`, true],
  ];
  return (
    <>
      <div css={{ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', gap: '8px 14px' }}>
        <div>
          {/* the result's heading (h3 under the element's h2, as the other outcomes' titles), looking as a label */}
          <h3 css={{ margin: 0, fontSize: '0.85em', fontWeight: 400, color: token('--sgx-color-muted') }}>
            {t.dosePerKg}
          </h3>
          <strong
            data-testid="dose-per-kg"
            dir="ltr"
            css={{ fontSize: '2em', lineHeight: 1.1, color: token('--sgx-color-primary') }}
          >
            {result.doseMgPerKg} {t.unitMgPerKg}
          </strong>
        </div>
        <Badge tone="primary">{t.byActualWeight}</Badge>
      </div>
      <p css={{ margin: 0, fontWeight: 600 }}>{bidiText(result.indication)}</p>
      <dl css={{ margin: 0, display: 'grid', gap: '8px', gridTemplateColumns: fitColumns(130) }}>
        {stats.map(([label, value, figure]) => (
          <div key={label} css={{ padding: '10px', borderRadius: '8px', background: token('--sgx-color-surface-alt') }}>
            <dt css={{ fontSize: '0.8em', color: token('--sgx-color-muted') }}>{bidiText(label)}</dt>
            <dd css={{ margin: 0, fontSize: '1.25em', fontWeight: 700 }}>
              {figure ? <bdi dir="ltr">{value}</bdi> : bidiText(value)}
            </dd>
          </div>
        ))}
      </dl>
      <p css={{ margin: 0, fontSize: '0.9em', color: token('--sgx-color-muted') }}>
        {bidiText(t.medianRecovery(result.medianRecoveryMin))}
      </p>
      <div>
        <h4 css={{ margin: '0 0 4px', fontSize: '1em' }}>{t.administration}</h4>
        <p css={{ margin: 0 }}>{bidiText(result.administration)}</p>
      </div>
      <div>
        <h4 css={{ margin: '0 0 4px', fontSize: '1em' }}>{t.monitoring}</h4>
        <BulletList items={result.monitoring} />
      </div>
      {result.warnings.length > 0 && <Warnings items={result.warnings} />}
      <p css={{ margin: 0, fontSize: '0.85em', color: token('--sgx-color-muted') }}>
        {bidi(messages.common.decisionSupport)}
      </p>
      <div css={{ display: 'flex', flexWrap: 'wrap', gap: '8px', '@media print': { display: 'none' } }}>
        <Button variant="secondary" onClick={() => void copy()}>
          {t.copyNote}
        </Button>
        {onExport && (
          <Button variant="secondary" onClick={onExport}>
            {messages.records.exportNotes}
          </Button>
        )}
        {sheetButton}
      </div>
    </>
  );
}
