/**
 * Text as a PDF writes it. jsPDF's built-in fonts (WinAnsi) show only ASCII and Latin-1: ≥, ≤ and
 * Greek μ come out garbled (docs/engineering-notes.md#jspdf-fonts), so every text is mapped to safe
 * characters first.
 */

const SAFE_REPLACEMENTS: readonly [RegExp, string][] = [
  [/≥/g, '>='],
  [/≤/g, '<='],
  [/[—–]/g, '-'],
  [/×/g, 'x'],
  [/μ/g, 'µ'], // Greek mu → micro sign, which the built-in fonts have
];

// The product page's documents also hold typographic quotes, arrows and the like.
const DOCUMENT_REPLACEMENTS: readonly [RegExp, string][] = [
  [/[‘’‚′]/g, "'"],
  [/[“”„″]/g, '"'],
  [/…/g, '...'],
  [/→/g, '->'],
  [/←/g, '<-'],
  [/•/g, '-'],
  [/[−‐‑‒]/g, '-'],
  [/≈/g, '~'],
  [/[\u2009\u202f\u2007]/g, ' '],
  [/γ/g, 'gamma'],
  [/β/g, 'beta'],
  [/α/g, 'alpha'],
];

const replaceAll = (text: string, replacements: readonly [RegExp, string][]) =>
  replacements.reduce((safe, [pattern, replacement]) => safe.replace(pattern, replacement), text);

/** ≥ ≤ — – × μ made safe: what the ROI report and the notes PDF write. */
export function pdfSafe(text: string): string {
  return replaceAll(text, SAFE_REPLACEMENTS);
}

/**
 * pdfSafe, plus quotes, arrows, bullets, odd dashes and spaces and Greek letters: what the product
 * page's documents write (e.g. '≥ 0.9' becomes '>= 0.9', 'μg' becomes 'µg' with the micro sign).
 */
export function pdfText(text: string): string {
  return replaceAll(pdfSafe(text), DOCUMENT_REPLACEMENTS);
}

/** True when every character of `text` can be drawn with the built-in fonts (ASCII or Latin-1). */
export function isPdfSafe(text: string): boolean {
  return /^[\n\x20-\x7e\xa0-\xff]*$/.test(text);
}
