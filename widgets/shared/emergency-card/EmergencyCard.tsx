import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import {
  emergencyCard,
  EMERGENCY_CARD_TEXTS_EN,
  type EmergencyAgeGroup,
  type EmergencyDose,
  type EmergencyOutcome,
  type EmergencyStep,
  type EmergencyVolume,
} from '../../../clinical/index.ts';
import { bidiText } from '../ui/bidi-text.tsx';
import { NumberField } from '../ui/fields.tsx';
import { keepFocusInside } from '../ui/focus-trap.ts';
import { fitColumns } from '../ui/styles.ts';
import { parseDecimalText } from '../lang/parse-number.ts';
import type { Messages } from '../lang/messages/index.ts';
import type { SelectedPatient } from '../session/session-state.ts';
import { useClinicalTexts, useMessages } from '../widget-host/widget-context.ts';
import { hideOtherContentWhilePrinting } from './print.ts';
import { carryEnglish } from '../lang/lang-packs.ts';
import { doseCalculator } from '../lang/messages/dose-calculator.ts';
import { emergency } from '../lang/messages/emergency.ts';

// The card's English texts come with its code (../lang-packs.ts): its clinical texts, which no element's bundle
// carries, and the messages it shows, for a card opened by the product page's bar before any element.
carryEnglish({ messages: { emergency, doseCalculator }, clinical: EMERGENCY_CARD_TEXTS_EN });

/** The patient the card is for, when one is chosen: its weight and age group fill the card. */
export type EmergencyPatient = Partial<Pick<SelectedPatient, 'displayName' | 'weightKg' | 'ageGroup'>>;

export interface EmergencyCardProps {
  open: boolean;
  /** Escape, the Close button: the card asks to close; focus then returns to `returnFocusTo`. */
  onClose: () => void;
  patient?: EmergencyPatient | null;
  /** Without a patient: the age group and weight text to start with (stories, tests). */
  initialAgeGroup?: EmergencyAgeGroup;
  initialWeight?: string;
  /** Where focus goes when the card closes (the button that opened it); else what had focus when it opened. */
  returnFocusTo?: HTMLElement | null;
}

// High contrast at arm's length (WCAG AA at least; most pairs are AAA): black on white, white on the
// emergency red (6.5:1), dark text on the light badges.
const RED = '#b91c1c';
const INK = '#0b0f19';
const MUTED = '#334155';
const RULE = '#94a3b8';

const formatAmount = (amount: number, upTo?: number) => (upTo === undefined ? `${amount}` : `${amount}-${upTo}`);
const formatDose = (dose: EmergencyDose) => `${formatAmount(dose.amount, dose.upTo)} ${dose.unit}`;
const formatVolume = (volume: EmergencyVolume) => `${formatAmount(volume.ml, volume.upTo)} mL`;
const formatStrength = (volume: EmergencyVolume) => `${volume.strength.amount} ${volume.strength.unit}`;

const ageGroupOf = (patient: EmergencyPatient | null | undefined): EmergencyAgeGroup | undefined =>
  patient?.ageGroup == null ? undefined : patient.ageGroup === 'adult' ? 'adult' : 'child';

/**
 * The one-tap emergency card (docs/clinical-reference.md §7): a full-screen modal dialog with bradycardia with
 * poor perfusion and anaphylaxis, for an adult or a child, every line with its dose, the mL of the usual
 * strength and its source; large type, high contrast, printable on one A4 page. Computes everything in the
 * browser (no request). Escape and Close close it and return focus.
 */
export function EmergencyCard({
  open,
  onClose,
  patient = null,
  initialAgeGroup,
  initialWeight = '',
  returnFocusTo,
}: EmergencyCardProps) {
  const messages = useMessages();
  const clinical = useClinicalTexts();
  const t = messages.emergency;
  const titleId = useId();
  const radioName = useId();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleRef = useRef<HTMLHeadingElement>(null);
  const focusBack = useRef<HTMLElement | null>(null);
  const [ageGroup, setAgeGroup] = useState<EmergencyAgeGroup>(() => ageGroupOf(patient) ?? initialAgeGroup ?? 'adult');
  const [weightText, setWeightText] = useState(() =>
    patient?.weightKg != null ? String(patient.weightKg) : initialWeight,
  );

  const { outcome, shown } = useMemo(() => {
    const computed = emergencyCard({ ageGroup, weightKg: parseDecimalText(weightText) }, clinical);
    // A weight that cannot be used: its message on the field, and the card's lines as without a weight.
    const lines = computed.kind === 'invalid_input' ? emergencyCard({ ageGroup }, clinical) : computed;
    return { outcome: computed, shown: lines as Exclude<EmergencyOutcome, { kind: 'invalid_input' }> };
  }, [ageGroup, weightText, clinical]);
  const weightError = outcome.kind === 'invalid_input' ? outcome.issues[0]?.message : undefined;

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      focusBack.current = returnFocusTo ?? deepActiveElement();
      dialog.showModal();
      // The title, not a field: on a phone a focused field would open the keyboard over the card.
      titleRef.current?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open, returnFocusTo]);

  useEffect(() => {
    if (!open) return;
    return hideOtherContentWhilePrinting(() => dialogRef.current);
  }, [open]);

  useEffect(() => {
    const dialog = dialogRef.current;
    return () => {
      if (dialog?.open) dialog.close();
    };
  }, []);

  const patientName = patient?.displayName;
  const weightHint =
    patientName && patient?.weightKg != null && weightText === String(patient.weightKg)
      ? t.fromPatient(patientName)
      : t.weightHint;

  return (
    <dialog
      ref={dialogRef}
      part="emergency-card"
      aria-labelledby={titleId}
      data-testid="emergency-card"
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onKeyDown={(event) => {
        // Escape closes it through onClose (the parent's state), not the browser's own cancel.
        if (event.key === 'Escape') {
          event.preventDefault();
          onClose();
        }
        // Tab stays in the card, as in every dialog of the elements (inside an iframe it would reach the page).
        if (dialogRef.current) keepFocusInside(dialogRef.current, event);
      }}
      onClose={() => {
        if (open) onClose();
        const target = focusBack.current;
        focusBack.current = null;
        if (target?.isConnected) target.focus();
      }}
      css={{
        boxSizing: 'border-box',
        inlineSize: '100vw',
        maxInlineSize: '100vw',
        blockSize: '100dvh',
        maxBlockSize: '100dvh',
        margin: 0,
        padding: 0,
        border: 'none',
        overflow: 'auto',
        color: INK,
        background: '#ffffff',
        fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Naskh Arabic", Arial, sans-serif',
        fontSize: '18px',
        lineHeight: 1.45,
        '&::backdrop': { background: 'rgb(15 23 42 / 0.7)' },
        '@media (min-width: 720px)': { fontSize: '20px' },
        '@media print': {
          position: 'absolute',
          insetBlockStart: 0,
          insetInline: 0,
          inlineSize: 'auto',
          maxInlineSize: 'none',
          blockSize: 'auto',
          maxBlockSize: 'none',
          overflow: 'visible',
          fontSize: '9.5pt',
          lineHeight: 1.3,
          color: '#000',
          '&::backdrop': { display: 'none' },
        },
      }}
    >
      <header
        css={{
          position: 'sticky',
          insetBlockStart: 0,
          zIndex: 1,
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'center',
          justifyContent: 'space-between',
          gap: '10px 16px',
          paddingBlock: '12px',
          paddingInline: '16px',
          '@media (max-width: 600px)': { paddingBlock: '8px', paddingInline: '12px' },
          background: RED,
          color: '#ffffff',
          '@media print': {
            position: 'static',
            background: 'none',
            color: '#000',
            paddingBlock: '0 4pt',
            paddingInline: 0,
            borderBlockEnd: '2pt solid #000',
          },
        }}
      >
        <h2
          id={titleId}
          ref={titleRef}
          tabIndex={-1}
          css={{
            margin: 0,
            fontSize: '1.35em',
            lineHeight: 1.2,
            '&:focus': { outline: 'none' },
            '@media (max-width: 600px)': { fontSize: '1.1em' },
          }}
        >
          <span aria-hidden="true">⚠ </span>
          {bidiText(t.title)}
        </h2>
        <div css={{ display: 'flex', gap: '10px', '@media print': { display: 'none' } }}>
          <HeaderButton onClick={() => window.print()}>{t.print}</HeaderButton>
          <HeaderButton onClick={onClose} primary>
            <span aria-hidden="true">✕ </span>
            {t.close}
          </HeaderButton>
        </div>
      </header>

      <div
        css={{
          display: 'grid',
          gap: '16px',
          padding: '16px',
          maxInlineSize: '1280px',
          marginInline: 'auto',
          '@media print': { padding: '4pt 0 0', gap: '6pt', maxInlineSize: 'none' },
        }}
      >
        <p
          data-testid="emergency-protocol"
          css={{
            margin: 0,
            padding: '10px 14px',
            border: `3px solid ${RED}`,
            borderRadius: '8px',
            fontWeight: 800,
            fontSize: '1.1em',
            '@media print': { padding: '3pt 6pt', border: '1.5pt solid #000', fontSize: '1em' },
          }}
        >
          {bidiText(clinical.emergency.checkLocalProtocol)}
          <span css={{ display: 'block', fontWeight: 400, fontSize: '0.8em', color: MUTED }}>
            {bidiText(messages.common.decisionSupport)}
          </span>
        </p>

        <div
          css={{
            display: 'grid',
            gap: '16px',
            alignItems: 'start',
            gridTemplateColumns: fitColumns(260),
            '@media print': { display: 'none' },
          }}
        >
          <fieldset css={{ margin: 0, padding: 0, border: 'none', minInlineSize: 0 }}>
            <legend css={{ fontWeight: 700, padding: 0, marginBlockEnd: '6px' }}>{t.ageGroup}</legend>
            <div css={{ display: 'flex', gap: '8px', flexWrap: 'wrap' }}>
              {(['adult', 'child'] as const).map((value) => (
                <label
                  key={value}
                  css={{
                    display: 'inline-flex',
                    alignItems: 'center',
                    gap: '10px',
                    minBlockSize: '52px',
                    paddingInline: '16px',
                    border: `2px solid ${INK}`,
                    borderRadius: '10px',
                    fontWeight: 700,
                    cursor: 'pointer',
                    '&:has(input:checked)': { background: INK, color: '#ffffff' },
                    '&:has(input:focus-visible)': { outline: '3px solid #2563eb', outlineOffset: '2px' },
                  }}
                >
                  <input
                    type="radio"
                    name={radioName}
                    value={value}
                    checked={ageGroup === value}
                    onChange={() => setAgeGroup(value)}
                    css={{ inlineSize: '22px', blockSize: '22px', margin: 0, accentColor: RED }}
                  />
                  {bidiText(t.ageGroups[value])}
                </label>
              ))}
            </div>
          </fieldset>
          <div css={{ fontSize: '1.05em' }}>
            <NumberField
              name="weight"
              label={t.weight}
              unit={messages.doseCalculator.unitKg}
              hint={weightHint}
              value={weightText}
              onChange={setWeightText}
              error={weightError}
              required={ageGroup === 'child'}
            />
          </div>
        </div>

        <p
          data-testid="emergency-print-summary"
          css={{ display: 'none', margin: 0, fontWeight: 700, '@media print': { display: 'block' } }}
        >
          {bidiText(t.ageGroups[ageGroup])}
          {' · '}
          {shown.weightKg !== null ? <bdi dir="ltr">{`${shown.weightKg} kg`}</bdi> : t.noWeight}
        </p>

        {shown.kind === 'needs_weight' && (
          <p
            role="status"
            data-testid="emergency-needs-weight"
            css={{
              margin: 0,
              padding: '12px 14px',
              borderRadius: '8px',
              background: '#fef3c7',
              border: '2px solid #92400e',
              fontWeight: 700,
              fontSize: '1.1em',
            }}
          >
            {bidiText(shown.message)}
          </p>
        )}

        <div
          css={{
            display: 'grid',
            gap: '20px',
            alignItems: 'start',
            '@media (min-width: 1000px)': { gridTemplateColumns: '1fr 1fr' },
            '@media print': { gridTemplateColumns: '1fr 1fr', gap: '10pt' },
          }}
        >
          {shown.sections.map((section) => (
            <section
              key={section.id}
              aria-labelledby={`${titleId}-${section.id}`}
              data-section={section.id}
              css={{ minInlineSize: 0 }}
            >
              <h3
                id={`${titleId}-${section.id}`}
                css={{
                  margin: '0 0 8px',
                  paddingBlockEnd: '4px',
                  borderBlockEnd: `3px solid ${RED}`,
                  fontSize: '1.25em',
                  lineHeight: 1.25,
                  '@media print': { borderBlockEndWidth: '1.5pt', borderBlockEndColor: '#000', margin: '0 0 3pt' },
                }}
              >
                {bidiText(section.title)}
              </h3>
              {section.note && (
                <p css={{ margin: '0 0 8px', fontSize: '0.85em', color: MUTED, '@media print': { margin: '0 0 3pt' } }}>
                  {bidiText(section.note.text)} <SourceTag label={section.note.sourceLabel} />
                </p>
              )}
              <ol css={{ margin: 0, paddingInlineStart: '1.6em', display: 'grid', gap: '10px' }}>
                {section.steps.map((step) => (
                  <StepLine key={step.id} step={step} t={t} />
                ))}
              </ol>
            </section>
          ))}
        </div>

        <footer
          css={{
            borderBlockStart: `1px solid ${RULE}`,
            paddingBlockStart: '10px',
            fontSize: '0.8em',
            color: MUTED,
            '@media print': { paddingBlockStart: '3pt', color: '#000' },
          }}
        >
          <h3 css={{ margin: '0 0 4px', fontSize: '1em' }}>{t.sources}</h3>
          <ul css={{ margin: 0, paddingInlineStart: '1.2em' }}>
            {shown.sources.map((source) => (
              <li key={source.id}>
                <strong>{bidiText(source.short)}</strong>
                {': '}
                {bidiText(source.full)}
              </li>
            ))}
          </ul>
        </footer>
      </div>
    </dialog>
  );
}

/** One line of the card: what to do, the dose (and its mL of the strength), a cap or minimum, the source. */
function StepLine({ step, t }: { step: EmergencyStep; t: Messages['emergency'] }) {
  const limit =
    step.dose?.computed === undefined
      ? null
      : step.capped
        ? t.capped(`${step.dose.computed} ${step.dose.unit}`)
        : step.raisedToMinimum
          ? t.raisedToMinimum(`${step.dose.computed} ${step.dose.unit}`)
          : null;
  return (
    <li
      data-step={step.id}
      css={{
        paddingBlockEnd: '10px',
        borderBlockEnd: `1px solid ${RULE}`,
        '@media print': { paddingBlockEnd: '3pt', breakInside: 'avoid' },
      }}
    >
      <div>
        <strong>{bidiText(step.action)}</strong>
        {step.detail && (
          <span css={{ display: 'block', color: MUTED, fontSize: '0.9em', '@media print': { color: '#000' } }}>
            {bidiText(step.detail)}
          </span>
        )}
      </div>
      {step.dose && (
        <div
          css={{ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', gap: '4px 12px', marginBlockStart: '4px' }}
        >
          <span data-testid="emergency-dose" css={{ fontSize: '1.45em', fontWeight: 800, lineHeight: 1.2 }}>
            <bdi dir="ltr">{formatDose(step.dose)}</bdi>
          </span>
          {step.volume && (
            <span data-testid="emergency-volume" css={{ fontWeight: 700 }}>
              {'= '}
              <bdi dir="ltr">{formatVolume(step.volume)}</bdi> {t.of} <bdi dir="ltr">{formatStrength(step.volume)}</bdi>
            </span>
          )}
          {limit && (
            <span
              data-testid="emergency-limit"
              css={{
                padding: '1px 8px',
                borderRadius: '6px',
                background: '#ffedd5',
                border: '1.5px solid #9a3412',
                color: '#7c2d12',
                fontWeight: 700,
                fontSize: '0.85em',
              }}
            >
              {bidiText(limit)}
            </span>
          )}
        </div>
      )}
      {step.volumeNote && (
        <span css={{ display: 'block', fontSize: '0.85em', color: MUTED, marginBlockStart: '2px' }}>
          {bidiText(step.volumeNote)}
        </span>
      )}
      <span css={{ display: 'block', fontSize: '0.8em', color: MUTED, marginBlockStart: '2px' }}>
        {t.source}: <SourceTag label={step.sourceLabel} />
      </span>
    </li>
  );
}

function SourceTag({ label }: { label: string }) {
  return <cite css={{ fontStyle: 'normal', fontWeight: 600 }}>{bidiText(label)}</cite>;
}

function HeaderButton({
  onClick,
  primary = false,
  children,
}: {
  onClick: () => void;
  primary?: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      css={{
        minBlockSize: '48px',
        minInlineSize: '48px',
        paddingInline: '16px',
        border: '2px solid #ffffff',
        borderRadius: '10px',
        background: primary ? '#ffffff' : 'transparent',
        color: primary ? RED : '#ffffff',
        font: 'inherit',
        fontWeight: 800,
        cursor: 'pointer',
        '&:focus-visible': { outline: '3px solid #ffffff', outlineOffset: '3px' },
      }}
    >
      {children}
    </button>
  );
}

/** The focused element, looking inside shadow roots. */
function deepActiveElement(): HTMLElement | null {
  let active: Element | null = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active instanceof HTMLElement ? active : null;
}
