/**
 * The page's own fonts (scripts/build-fonts.mjs; declared and preloaded in index.html): Noto Sans and Noto Sans
 * Arabic, variable in weight, and ≤ ≥ ▸ ▾ ◂ ☰ ⚠ ✕ from Noto's math and symbol fonts, each cut down to the characters
 * the page writes (fonts/ranges.json). Text laid out in them has the same size on every machine, so the boxes the
 * page reserves for the tools before they are defined (components/reserved-heights.ts) hold whatever fonts a
 * reader's device has (issue 28: a machine with Noto installed rendered the tools up to 14.5 % shorter than one
 * with only DejaVu; e2e/prerendered-page.e2e.ts checks which fonts draw every text).
 * - Families of our own name: a font installed as "Noto Sans" never stands in for them.
 * - Declared in index.html's own <style>, not with the page's Emotion styles: those are inserted again when the
 *   page hydrates, and each new declaration of a face made Chromium lay the text out again in the fallback
 *   until it had loaded the face again (the hero's heading moved between three and four lines).
 * - `font-display: optional` with a preload: Chromium waits for a preloaded optional font (up to about 100 ms)
 *   before the first paint, then never swaps: the text is in these fonts from its first paint, or, when they
 *   come later (a slow first visit), in the fallback for that page's life. Either way nothing moves. `block`
 *   moved the hero's heading when the fonts arrived after the first paint, though nothing showed in between.
 *   The service worker precaches them for the next visit.
 * - The Arabic face is only in the Arabic page's font stack, so the English page never downloads it.
 */
export const FONT_FAMILY = {
  latin: 'SGX Noto Sans',
  arabic: 'SGX Noto Sans Arabic',
  symbols: 'SGX Noto Sans Symbols',
} as const;

const FALLBACK_SANS = `system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif`;
/** The English page's font stack (also the elements' `--sgx-font` there). */
export const LATIN_STACK = `'${FONT_FAMILY.latin}', '${FONT_FAMILY.symbols}', ${FALLBACK_SANS}`;
/** The Arabic page's: Arabic letters from the Arabic font, Latin runs from the Latin one. */
export const ARABIC_STACK =
  `'${FONT_FAMILY.arabic}', '${FONT_FAMILY.latin}', '${FONT_FAMILY.symbols}', ` +
  `system-ui, -apple-system, 'Segoe UI', Tahoma, 'Geeza Pro', Arial, sans-serif`;
