import { css } from '@emotion/react';

/**
 * Theme tokens. A host page sets them on the element (or any ancestor): custom properties pass
 * through `all: initial`. Sizes are px/em, never rem (rem follows the host page's root font size).
 */
export const TOKENS = {
  '--sgx-color-primary': '#0f766e',
  '--sgx-color-primary-contrast': '#ffffff',
  '--sgx-color-text': '#0f172a',
  '--sgx-color-muted': '#475569',
  '--sgx-color-surface': '#ffffff',
  '--sgx-color-surface-alt': '#f1f5f9',
  '--sgx-color-border': '#cbd5e1',
  '--sgx-color-danger': '#b91c1c',
  '--sgx-color-success': '#15803d',
  '--sgx-color-warning': '#a16207',
  '--sgx-color-focus': '#2563eb',
  '--sgx-radius': '10px',
  '--sgx-font': 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Helvetica Neue", Arial, sans-serif',
  '--sgx-font-size': '16px',
} as const;
export type ThemeToken = keyof typeof TOKENS;

/** `var(--sgx-x, default)`: every use carries its default, so no host setting is needed. */
export const token = (name: ThemeToken): string => `var(${name}, ${TOKENS[name]})`;

/**
 * Isolation from the host page: nothing inherited gets in (custom properties still do). `all:
 * initial` resets the host element; the inherited text properties are also `!important`, because a
 * page rule such as `* { color: red !important }` matches the host element itself, and for
 * important declarations the shadow tree's wins only when it is important too. Layout properties
 * (display, margin, width) stay the page's to set.
 */
export const hostStyles = css`
  :host {
    all: initial;
    display: block;
    box-sizing: border-box;
    font-family: ${token('--sgx-font')} !important;
    font-size: ${token('--sgx-font-size')} !important;
    font-style: normal !important;
    font-weight: 400 !important;
    line-height: 1.5 !important;
    letter-spacing: normal !important;
    word-spacing: normal !important;
    text-transform: none !important;
    text-align: start !important;
    text-indent: 0 !important;
    text-shadow: none !important;
    white-space: normal !important;
    /* a word longer than a narrow element's line (a heading at 200 px) breaks rather than sticks out */
    overflow-wrap: anywhere !important;
    color: ${token('--sgx-color-text')} !important;
    -webkit-text-size-adjust: 100%;
  }
  :host([hidden]) {
    display: none;
  }
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
  :focus-visible {
    outline: 3px solid ${token('--sgx-color-focus')};
    outline-offset: 2px;
  }
  @media print {
    :host {
      color: #000;
    }
  }
`;
