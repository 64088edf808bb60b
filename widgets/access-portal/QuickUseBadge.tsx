import { token } from '../shared/ui/theme.ts';

/**
 * The Quick Use notice next to the access button. Looks like the shared Badge, but wraps onto two
 * lines on a phone instead of widening the navigation bar (the shared Badge never wraps).
 */
export function QuickUseBadge({ text }: { text: string }) {
  return (
    <span
      part="badge quick-use-badge"
      css={{
        display: 'inline-block',
        minInlineSize: 0,
        maxInlineSize: 'max(10em, 40vw)',
        paddingInline: '10px',
        paddingBlock: '2px',
        borderRadius: '999px',
        border: `1px solid ${token('--sgx-color-muted')}`,
        color: token('--sgx-color-muted'),
        fontSize: '0.8em',
        fontWeight: 700,
        letterSpacing: '0.02em',
        lineHeight: 1.25,
        textAlign: 'center',
        textWrap: 'balance',
        '@media (max-width: 480px)': { maxInlineSize: '11.5em', borderRadius: '12px' },
      }}
    >
      {text}
    </span>
  );
}
