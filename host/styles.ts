import { css } from '@emotion/react';
import { ARABIC_STACK, LATIN_STACK } from './fonts.ts';

/** Page tokens; the elements read the same `--sgx-*` values, so page and tools match. */
/** The fixed bar: one row on small screens (links in a menu), two rows from 1100 px (links below). */
export const NAV_HEIGHT_PX = 64;
export const DESKTOP_NAV_HEIGHT_PX = 112;
export const DESKTOP_NAV_MIN_WIDTH_PX = 1100;
export const colour = {
  primary: '#0f766e',
  primaryDark: '#115e59',
  text: '#0f172a',
  muted: '#475569',
  surface: '#ffffff',
  page: '#f8fafc',
  tint: '#f0fdfa',
  border: '#cbd5e1',
  focus: '#2563eb',
} as const;

export const globalStyles = css`
  :root {
    --nav-height: ${NAV_HEIGHT_PX}px;
    @media (min-width: ${DESKTOP_NAV_MIN_WIDTH_PX}px) {
      --nav-height: ${DESKTOP_NAV_HEIGHT_PX}px;
    }
    --sgx-color-primary: ${colour.primary};
    --sgx-font: ${LATIN_STACK};
    color-scheme: light;
  }
  :root:lang(ar) {
    --sgx-font: ${ARABIC_STACK};
  }
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
  html {
    -webkit-text-size-adjust: 100%;
  }
  body {
    margin: 0;
    font-family: ${LATIN_STACK};
    font-size: 16px;
    line-height: 1.6;
    color: ${colour.text};
    background: ${colour.page};
  }
  /* The Arabic page (/ar/, dir="rtl"): fonts with Arabic letters first; Latin runs use their Latin glyphs. */
  html:lang(ar) body {
    font-family: ${ARABIC_STACK};
  }
  section[id],
  footer[id] {
    scroll-margin-top: var(--nav-height);
  }
  :focus-visible {
    outline: 3px solid ${colour.focus};
    outline-offset: 2px;
  }
  [tabindex='-1']:focus {
    outline: none;
  }
  a {
    color: ${colour.primaryDark};
  }
  h1,
  h2,
  h3 {
    line-height: 1.25;
  }
  img {
    max-width: 100%;
    height: auto;
  }
  @media (prefers-reduced-motion: reduce) {
    html {
      scroll-behavior: auto;
    }
    *,
    *::before,
    *::after {
      animation-duration: 0.01ms !important;
      transition-duration: 0.01ms !important;
    }
  }
  @media print {
    header[role='banner'],
    .no-print {
      display: none !important;
    }
    body {
      background: #fff;
      font-size: 11pt;
    }
    section {
      break-inside: avoid-page;
    }
    a[href^='http']::after {
      content: ' (' attr(href) ')';
      font-size: 0.85em;
      /* the address reads left to right on the Arabic page too */
      direction: ltr;
      unicode-bidi: isolate;
    }
  }
`;

export const container = css`
  max-width: 1200px;
  margin-inline: auto;
  padding-inline: 20px;
`;

export const sectionStyle = css`
  padding-block: 56px;
  @media (max-width: 600px) {
    padding-block: 40px;
  }
`;

export const buttonStyle = (variant: 'primary' | 'secondary' = 'primary') => css`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  gap: 8px;
  min-height: 44px;
  padding: 10px 20px;
  border-radius: 10px;
  border: 2px solid ${colour.primary};
  background: ${variant === 'primary' ? colour.primary : 'transparent'};
  color: ${variant === 'primary' ? '#fff' : colour.primaryDark};
  font: inherit;
  font-weight: 650;
  text-decoration: none;
  cursor: pointer;
  &:hover {
    background: ${variant === 'primary' ? colour.primaryDark : colour.tint};
  }
`;

export const cardStyle = css`
  background: ${colour.surface};
  border: 1px solid ${colour.border};
  border-radius: 12px;
  padding: 20px;
`;

export const srOnly = css`
  position: absolute;
  width: 1px;
  height: 1px;
  padding: 0;
  margin: -1px;
  overflow: hidden;
  clip: rect(0, 0, 0, 0);
  white-space: nowrap;
  border: 0;
`;

/** Cards that wrap into as many columns as fit, each at least `minPx` wide (as a list: no bullets). */
export const cardGrid = (minPx: number) =>
  ({
    listStyle: 'none',
    margin: 0,
    padding: 0,
    display: 'grid',
    gap: 16,
    gridTemplateColumns: `repeat(auto-fit, minmax(${minPx}px, 1fr))`,
  }) as const;

/** Two columns side by side from 800 px wide, one above the other below. */
export const twoColumns = (marginBlockEnd: number) =>
  ({
    display: 'grid',
    gap: 16,
    marginBlockEnd,
    '@media (min-width: 800px)': { gridTemplateColumns: '1fr 1fr' },
  }) as const;

/** The full-width header button that opens and closes an accordion panel (FAQ, safety hub). */
export const disclosureButton = (minHeight: number, fontWeight: number) =>
  ({
    width: '100%',
    minHeight,
    display: 'flex',
    justifyContent: 'space-between',
    alignItems: 'center',
    gap: 12,
    padding: '12px 18px',
    border: 0,
    background: 'transparent',
    font: 'inherit',
    fontWeight,
    textAlign: 'start',
    cursor: 'pointer',
    color: colour.text,
  }) as const;
