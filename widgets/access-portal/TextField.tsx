import { useId } from 'react';
import { controlCss } from '../shared/fields.tsx';
import { token } from '../shared/theme.ts';


export interface TextFieldProps {
  label: string;
  name: string;
  value: string;
  onChange: (text: string) => void;
  type?: 'text' | 'email' | 'password' | 'search';
  autoComplete?: string;
  hint?: string;
  error?: string;
  required?: boolean;
  maxLength?: number;
}

/**
 * A text field (e-mail, password, name, licence) with the same label / hint / error pattern as the
 * shared NumberField: the error and hint are tied to the input with aria-describedby, and an error
 * sets aria-invalid. Validation is the form's job (the form is noValidate).
 */
export function TextField({ label, name, value, onChange, type = 'text', autoComplete, hint, error, required, maxLength }: TextFieldProps) {
  const inputId = useId();
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div part="field" css={{ display: 'grid', gap: '4px', minInlineSize: 0 }}>
      <label htmlFor={inputId} css={{ fontWeight: 600 }}>
        {label}
        {required && (
          <span aria-hidden="true" css={{ color: token('--sgx-color-danger') }}>
            {' *'}
          </span>
        )}
      </label>
      <input
        id={inputId}
        name={name}
        type={type}
        value={value}
        autoComplete={autoComplete}
        spellCheck={type === 'text' ? undefined : false}
        autoCapitalize={type === 'text' ? undefined : 'off'}
        maxLength={maxLength}
        required={required}
        aria-required={required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        onChange={(event) => onChange(event.target.value)}
        css={controlCss}
      />
      {hint && (
        <span id={hintId} css={{ fontSize: '0.85em', color: token('--sgx-color-muted') }}>
          {hint}
        </span>
      )}
      {error && (
        <span id={errorId} css={{ fontSize: '0.875em', color: token('--sgx-color-danger'), fontWeight: 600 }}>
          {error}
        </span>
      )}
    </div>
  );
}

/** A checkbox whose error is tied to it (the sign-up terms). */
export function CheckField({ label, name, checked, onChange, error }: { label: string; name: string; checked: boolean; onChange: (checked: boolean) => void; error?: string }) {
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
          css={{ inlineSize: '20px', blockSize: '20px', marginBlockStart: '2px', marginInline: 0, flex: 'none', accentColor: token('--sgx-color-primary') }}
        />
        <label htmlFor={id} css={{ cursor: 'pointer' }}>
          {label}
        </label>
      </div>
      {error && (
        <span id={errorId} css={{ fontSize: '0.875em', color: token('--sgx-color-danger'), fontWeight: 600, paddingInlineStart: '30px' }}>
          {error}
        </span>
      )}
    </div>
  );
}
