import { token } from './theme.ts';

/** The elements' recurring style objects, so a card or a link looks the same in every element. */

/** A themed surface: background, hairline border and the element's radius. */
export const surfaceCss = {
  background: token('--sgx-color-surface'),
  border: `1px solid ${token('--sgx-color-border')}`,
  borderRadius: token('--sgx-radius'),
} as const;

/** A form laid out as a card: fields one under the other. */
export const formCardCss = (gap: string) => ({ display: 'grid', gap, padding: '18px', ...surfaceCss }) as const;

/**
 * Columns of at least `minPx` each, as many as fit (CSS grid's auto-fit); a column narrower than that when the
 * element itself is, so that nothing sticks out of an element in a narrow column (down to 200 px, issue 30).
 */
export const fitColumns = (minPx: number) => `repeat(auto-fit, minmax(min(${minPx}px, 100%), 1fr))`;

/** Form and result side by side once the element (not the page) is at least this wide. */
export const twoColumnsCss = (minWidthPx: number) =>
  ({
    display: 'grid',
    gap: '20px',
    // one column, no wider than the element, below that width
    gridTemplateColumns: 'minmax(0, 1fr)',
    [`@container (min-width: ${minWidthPx}px)`]: {
      gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr)',
      alignItems: 'start',
    },
  }) as const;

/** A link that looks like the secondary button (the guide download, the profile page). */
export const outlineLinkCss = {
  display: 'inline-flex',
  alignItems: 'center',
  border: `2px solid ${token('--sgx-color-primary')}`,
  borderRadius: token('--sgx-radius'),
  color: token('--sgx-color-primary'),
  fontWeight: 650,
  textDecoration: 'none',
  '&:hover': { filter: 'brightness(0.92)' },
} as const;

/** The "×" that closes a dialog or dismisses a toast: no button chrome, a clear focus ring. */
export const closeButtonCss = {
  all: 'unset',
  cursor: 'pointer',
  lineHeight: 1,
  borderRadius: '6px',
  '&:focus-visible': { outline: `3px solid ${token('--sgx-color-focus')}` },
} as const;
