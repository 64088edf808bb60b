import { ltr as isolate } from '../../../clinical/bidi.ts';

/**
 * clinical/bidi.ts `ltr` for a number, dose, unit or citation in Arabic text, kept on one line (its spaces
 * no-break): "⁦3 min⁩" never ends a line with "3" and starts the next with "min".
 */
export const ltr = (run: string | number): string => isolate(String(run).replace(/ /g, '\u00A0'));
