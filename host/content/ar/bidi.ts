import { ltr as isolate } from '../../../clinical/bidi.ts';

/**
 * clinical/bidi.ts `ltr` for a number, dose, unit or citation in Arabic text, kept on one line: its spaces
 * no-break, and a word joiner (U+2060) after a hyphen or slash, so "⁦2-3 min⁩" never ends a line with "2-"
 * or "3" and starts the next with "3 min" or "min".
 */
export const ltr = (run: string | number): string =>
  isolate(String(run).replace(/ /g, '\u00A0').replace(/[-/]/g, '$&\u2060'));
