import { useId } from 'react';
import { token } from '../shared/ui/theme.ts';
import { bidiText } from '../shared/ui/bidi-text.tsx';

interface RangeFieldProps {
  name: string;
  label: string;
  unit: string;
  value: number;
  min: number;
  max: number;
  step: number;
  /** The value as shown beside the slider, e.g. "45 SAR". */
  display: string;
  /** The value as a screen reader says it, with its unit, e.g. "45 SAR per minute". */
  valueText: string;
  hint?: string;
  onChange: (value: number) => void;
}

/** A native slider (arrow keys, Page Up/Down, Home/End) with its unit in the label and its value shown. */
export function RangeField({
  name,
  label,
  unit,
  value,
  min,
  max,
  step,
  display,
  valueText,
  hint,
  onChange,
}: RangeFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div part="field" css={{ display: 'grid', gap: '4px', minInlineSize: 0 }}>
      <span
        css={{
          display: 'flex',
          flexWrap: 'wrap',
          justifyContent: 'space-between',
          alignItems: 'baseline',
          gap: '4px 12px',
        }}
      >
        <label htmlFor={id} css={{ fontWeight: 600 }}>
          {bidiText(label)}
          <span css={{ fontWeight: 400, color: token('--sgx-color-muted') }}> ({unit})</span>
        </label>
        {/* The slider announces its own aria-valuetext; this copy is for the eye. */}
        <output
          htmlFor={id}
          aria-hidden="true"
          part="range-value"
          dir="ltr"
          css={{ fontWeight: 700, color: token('--sgx-color-primary') }}
        >
          {display}
        </output>
      </span>
      <input
        id={id}
        name={name}
        type="range"
        min={min}
        max={max}
        step={step}
        value={value}
        aria-valuetext={valueText}
        aria-describedby={hint ? hintId : undefined}
        onChange={(event) => onChange(Number(event.target.value))}
        css={{
          inlineSize: '100%',
          minBlockSize: '32px',
          margin: 0,
          accentColor: token('--sgx-color-primary'),
          cursor: 'pointer',
        }}
      />
      <span
        aria-hidden="true"
        css={{ display: 'flex', justifyContent: 'space-between', fontSize: '0.8em', color: token('--sgx-color-muted') }}
      >
        <span>{min}</span>
        <span>{max}</span>
      </span>
      {hint && (
        <span id={hintId} css={{ fontSize: '0.85em', color: token('--sgx-color-muted') }}>
          {bidiText(hint)}
        </span>
      )}
    </div>
  );
}
