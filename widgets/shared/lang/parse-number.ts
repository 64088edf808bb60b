import { toWesternDigits } from '../../../clinical/digits.ts';

/**
 * A numeric field's text as a number: empty means "not entered" (undefined), a decimal comma is
 * accepted (65,3), Arabic-Indic digits too (٧٠, ٦٥٫٣), and anything else is NaN, which the tool's schema
 * refuses with its message.
 */
export function parseDecimalText(text: string): number | undefined {
  const trimmed = toWesternDigits(text).trim();
  if (trimmed === '') return undefined;
  const normalised = trimmed.replace(',', '.');
  return /^[-+]?(\d+\.?\d*|\.\d+)$/.test(normalised) ? Number(normalised) : Number.NaN;
}
