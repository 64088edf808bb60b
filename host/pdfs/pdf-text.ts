import { pdfSafe } from '../../widgets/roi-calculator/pdf-report.ts';

// pdfSafe covers ≥ ≤ — – × μ. The documents also hold typographic quotes, arrows and the like,
// which jsPDF's built-in (WinAnsi) fonts cannot show either.
const EXTRA_REPLACEMENTS: readonly [RegExp, string][] = [
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

/**
 * Text as the PDF writes it: only characters jsPDF's built-in fonts show correctly
 * (ASCII and Latin-1, e.g. '≥ 0.9' becomes '>= 0.9', Greek 'μg' becomes 'µg' with the micro sign).
 */
export function pdfText(text: string): string {
  return EXTRA_REPLACEMENTS.reduce((safe, [pattern, replacement]) => safe.replace(pattern, replacement), pdfSafe(text));
}

/** True when every character of `text` can be drawn with the built-in fonts (ASCII or Latin-1). */
export function isPdfSafe(text: string): boolean {
  return /^[\n\x20-\x7e\xa0-\xff]*$/.test(text);
}
