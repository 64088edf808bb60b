import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from 'react';
import { token } from './theme.ts';
import { InfoTip } from './tooltip.tsx';
import type { FieldIssue } from '../../../clinical/index.ts';
import { bidi } from './bidi-text.tsx';

/** The look of every text-like control (inputs and selects), shared by all fields. */
export const controlCss = {
  inlineSize: '100%',
  // a select is otherwise as wide as its longest option, even in a narrower element
  minInlineSize: 0,
  minBlockSize: '44px',
  paddingInline: '12px',
  paddingBlock: '8px',
  border: `1.5px solid ${token('--sgx-color-border')}`,
  borderRadius: token('--sgx-radius'),
  background: token('--sgx-color-surface'),
  color: token('--sgx-color-text'),
  font: 'inherit',
  '&[aria-invalid="true"]': { borderColor: token('--sgx-color-danger') },
  '&:disabled': { background: token('--sgx-color-surface-alt'), color: token('--sgx-color-muted') },
} as const;

interface FieldFrameProps {
  label: string;
  unit?: string;
  hint?: string;
  error?: string;
  info?: string;
  required?: boolean;
  /** role="alert" on the error; off where the form focuses the first invalid control instead. */
  announceError?: boolean;
  children: (ids: { inputId: string; describedBy: string | undefined }) => ReactNode;
}

/** Label (with unit and an optional info tip), control, hint and error tied to the control. */
function FieldFrame({ label, unit, hint, error, info, required, announceError = true, children }: FieldFrameProps) {
  const inputId = useId();
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div part="field" css={{ display: 'grid', gap: '4px', minInlineSize: 0, alignContent: 'start' }}>
      <span css={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap' }}>
        <label htmlFor={inputId} css={{ fontWeight: 600 }}>
          {bidi(label)}
          {unit && <span css={{ fontWeight: 400, color: token('--sgx-color-muted') }}> ({unit})</span>}
          {required && (
            <span aria-hidden="true" css={{ color: token('--sgx-color-danger') }}>
              {' '}
              *
            </span>
          )}
        </label>
        {info && <InfoTip label={label} text={info} />}
      </span>
      {children({ inputId, describedBy })}
      {hint && (
        <span id={hintId} css={{ fontSize: '0.85em', color: token('--sgx-color-muted') }}>
          {bidi(hint)}
        </span>
      )}
      {error && (
        <span
          id={errorId}
          role={announceError ? 'alert' : undefined}
          css={{ fontSize: '0.875em', color: token('--sgx-color-danger'), fontWeight: 600 }}
        >
          {bidi(error)}
        </span>
      )}
    </div>
  );
}

type InputFieldProps = Omit<FieldFrameProps, 'children'> & {
  value: string;
  onChange: (text: string) => void;
  name: string;
};

/** A frame around one <input>; `input` holds what differs between the kinds of field. */
function InputField({
  value,
  onChange,
  name,
  input,
  ...frame
}: InputFieldProps & { input: InputHTMLAttributes<HTMLInputElement> }) {
  return (
    <FieldFrame {...frame}>
      {({ inputId, describedBy }) => (
        <input
          {...input}
          id={inputId}
          name={name}
          value={value}
          required={frame.required}
          aria-required={frame.required || undefined}
          aria-invalid={frame.error ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => onChange(event.target.value)}
          css={controlCss}
        />
      )}
    </FieldFrame>
  );
}

/**
 * The one numeric field: a text input with inputMode="decimal" (no wheel or arrow-key surprises,
 * no locale parsing by the browser), the unit in the label, and the raw text kept as typed.
 */
export function NumberField({
  placeholder,
  inputMode = 'decimal',
  ...field
}: Omit<InputFieldProps, 'announceError'> & { placeholder?: string; inputMode?: 'decimal' | 'numeric' }) {
  return (
    <InputField {...field} input={{ type: 'text', inputMode, autoComplete: 'off', spellCheck: false, placeholder }} />
  );
}

/** Text, e-mail, password or search: the browser's autofill and spelling help follow the type. */
export function TextField({
  type = 'text',
  autoComplete,
  maxLength,
  ...field
}: Omit<InputFieldProps, 'announceError' | 'unit' | 'info'> & {
  type?: 'text' | 'email' | 'password' | 'search' | 'datetime-local';
  autoComplete?: string;
  maxLength?: number;
}) {
  const words = type === 'text';
  return (
    <InputField
      {...field}
      announceError={false}
      input={{
        type,
        autoComplete,
        maxLength,
        spellCheck: words ? undefined : false,
        autoCapitalize: words ? undefined : 'off',
      }}
    />
  );
}

export function SelectField<V extends string>(
  props: Omit<FieldFrameProps, 'children'> & {
    value: V;
    onChange: (value: V) => void;
    options: readonly { value: V; label: string }[];
    name: string;
  } & Pick<SelectHTMLAttributes<HTMLSelectElement>, 'disabled'>,
) {
  const { value, onChange, options, name, disabled, ...frame } = props;
  return (
    <FieldFrame {...frame}>
      {({ inputId, describedBy }) => (
        <select
          id={inputId}
          name={name}
          value={value}
          disabled={disabled}
          aria-invalid={frame.error ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => onChange(event.target.value as V)}
          css={controlCss}
        >
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </FieldFrame>
  );
}

/** A checkbox, with an optional info tip and an error tied to it (the sign-up terms). */
export function CheckboxField({
  label,
  checked,
  onChange,
  name,
  info,
  error,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  name: string;
  info?: string;
  error?: string;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div part="field" css={{ display: 'grid', gap: '4px' }}>
      <div css={{ display: 'flex', alignItems: 'start', gap: '10px' }}>
        <input
          id={id}
          name={name}
          type="checkbox"
          checked={checked}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(event) => onChange(event.target.checked)}
          css={{
            inlineSize: '20px',
            blockSize: '20px',
            marginBlockStart: '2px',
            marginInline: 0,
            flex: 'none',
            accentColor: token('--sgx-color-primary'),
          }}
        />
        <label htmlFor={id} css={{ cursor: 'pointer' }}>
          {bidi(label)}
        </label>
        {info && <InfoTip label={label} text={info} />}
      </div>
      {error && (
        <span
          id={errorId}
          css={{ fontSize: '0.875em', color: token('--sgx-color-danger'), fontWeight: 600, paddingInlineStart: '30px' }}
        >
          {bidi(error)}
        </span>
      )}
    </div>
  );
}

/**
 * Ties fields to a form's state: `bind('weight')` gives the name, the value, the change handler and
 * the field's error, so a form lists only what differs between its fields (label, unit, hint).
 */
export function fieldBinder<F extends object>(
  form: F,
  setForm: (update: (current: F) => F) => void,
  issues: readonly FieldIssue[] = [],
) {
  const errorFor = (field: string) => issues.find((issue) => issue.field === field)?.message;
  const onChange =
    <K extends keyof F>(name: K) =>
    (value: F[K]) =>
      setForm((current) => ({ ...current, [name]: value }));
  return {
    bind: <K extends keyof F & string>(name: K) => ({
      name,
      value: form[name],
      onChange: onChange(name),
      error: errorFor(name),
    }),
    bindCheck: <K extends keyof F & string>(name: K) => ({ name, checked: form[name], onChange: onChange(name) }),
    onChange,
  };
}
