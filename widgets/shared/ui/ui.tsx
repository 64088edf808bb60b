import type { ButtonHTMLAttributes, FormHTMLAttributes, ReactNode } from 'react';
import { token } from './theme.ts';
import { formCardCss, surfaceCss } from './styles.ts';
import { bidi, bidiText } from './bidi-text.tsx';

/** Buttons, cards and badges every element shares. */
export function Button({
  variant = 'primary',
  busy = false,
  children,
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: 'primary' | 'secondary' | 'ghost'; busy?: boolean }) {
  const primary = variant === 'primary';
  return (
    <button
      type="button"
      part={`button button-${variant}`}
      aria-busy={busy || undefined}
      {...rest}
      css={{
        display: 'inline-flex',
        alignItems: 'center',
        justifyContent: 'center',
        gap: '8px',
        minBlockSize: '44px',
        paddingInline: '18px',
        paddingBlock: '8px',
        border: `2px solid ${variant === 'ghost' ? 'transparent' : token('--sgx-color-primary')}`,
        borderRadius: token('--sgx-radius'),
        background: primary ? token('--sgx-color-primary') : 'transparent',
        color: primary ? token('--sgx-color-primary-contrast') : token('--sgx-color-primary'),
        font: 'inherit',
        fontWeight: 650,
        cursor: 'pointer',
        '&:disabled': { opacity: 0.6, cursor: 'not-allowed' },
        '&:hover:not(:disabled)': { filter: 'brightness(0.92)' },
      }}
    >
      {busy && <Spinner />}
      {children}
    </button>
  );
}

export function Spinner() {
  return (
    <span
      aria-hidden="true"
      data-spinner=""
      css={{
        inlineSize: '1em',
        blockSize: '1em',
        borderRadius: '50%',
        border: '2px solid currentColor',
        borderInlineEndColor: 'transparent',
        animation: 'sgx-spin 0.8s linear infinite',
        '@keyframes sgx-spin': { to: { transform: 'rotate(360deg)' } },
        '@media (prefers-reduced-motion: reduce)': { animationDuration: '2.4s' },
      }}
    />
  );
}

export function Card({
  title,
  children,
  part = 'card',
  accent,
}: {
  title?: ReactNode;
  children: ReactNode;
  part?: string;
  accent?: string;
}) {
  return (
    <section
      part={part}
      css={{
        ...surfaceCss,
        borderBlockStart: accent ? `5px solid ${accent}` : undefined,
        padding: '18px',
        minInlineSize: 0,
      }}
    >
      {title && <h3 css={{ margin: '0 0 12px', fontSize: '1.1em', lineHeight: 1.3 }}>{bidi(title)}</h3>}
      {children}
    </section>
  );
}

export function Badge({
  children,
  tone = 'neutral',
}: {
  children: ReactNode;
  tone?: 'neutral' | 'primary' | 'danger';
}) {
  const colour =
    tone === 'danger'
      ? token('--sgx-color-danger')
      : tone === 'primary'
        ? token('--sgx-color-primary')
        : token('--sgx-color-muted');
  return (
    <span
      part="badge"
      css={{
        display: 'inline-block',
        paddingInline: '10px',
        paddingBlock: '2px',
        borderRadius: '999px',
        border: `1px solid ${colour}`,
        color: colour,
        fontSize: '0.8em',
        fontWeight: 700,
        letterSpacing: '0.02em',
        // one line where it fits; in an element narrower than the badge, its words wrap inside it
        maxInlineSize: '100%',
        boxSizing: 'border-box',
      }}
    >
      {children}
    </span>
  );
}

export function BulletList({ items, label }: { items: readonly string[]; label?: string }) {
  return (
    <ul aria-label={label} css={{ margin: 0, paddingInlineStart: '1.25em', display: 'grid', gap: '4px' }}>
      {items.map((item) => (
        <li key={item}>{bidiText(item)}</li>
      ))}
    </ul>
  );
}

export const visuallyHidden = {
  position: 'absolute',
  inlineSize: '1px',
  blockSize: '1px',
  padding: 0,
  // no negative margin: right to left, it put the box a pixel past the element's end, and the page scrolled
  margin: 0,
  overflow: 'hidden',
  clip: 'rect(0, 0, 0, 0)',
  whiteSpace: 'nowrap',
  border: 0,
} as const;

/**
 * A tool's input form as a card (part "form"): the browser's own validation bubbles are off, since
 * every field shows its own message; submitting (Enter or the button) runs `onSubmit` once.
 */
export function FormCard({
  onSubmit,
  gap = '14px',
  children,
  ...rest
}: Omit<FormHTMLAttributes<HTMLFormElement>, 'onSubmit'> & { onSubmit: () => void; gap?: string }) {
  return (
    <form
      part="form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
      css={formCardCss(gap)}
      {...rest}
    >
      {children}
    </form>
  );
}

/**
 * The inline red box under a form whose submission failed (docs/product.md §8): the sign-in and sign-up
 * forms, the second-factor step, the security panel's steps, the password change. An alert, so a screen
 * reader says it as it appears.
 */
export function FormFailure({ children }: { children: ReactNode }) {
  return (
    <div
      role="alert"
      part="form-error"
      css={{
        padding: '10px 12px',
        borderRadius: token('--sgx-radius'),
        border: `1px solid ${token('--sgx-color-danger')}`,
        borderInlineStartWidth: '5px',
        background: 'rgb(185 28 28 / 0.08)',
        color: token('--sgx-color-danger'),
        fontWeight: 600,
      }}
    >
      {children}
    </div>
  );
}
