import { ltr } from '../../../clinical/bidi.ts';
import type { WidgetLang } from './lang.ts';

/**
 * How dates and figures are written, on screen, in notes, e-mails and PDFs. Dates are local time
 * and the time is always passed in.
 */

const pad = (value: number) => String(value).padStart(2, '0');
const datePart = (at: Date, separator: string) =>
  [at.getFullYear(), pad(at.getMonth() + 1), pad(at.getDate())].join(separator);
const timePart = (at: Date, separator: string) => [pad(at.getHours()), pad(at.getMinutes())].join(separator);

/** "2025-08-05". */
export const formatDate = (at: Date): string => datePart(at, '-');

/** "2025-08-05 14:30". */
export const formatDateTime = (at: Date): string => `${datePart(at, '-')} ${timePart(at, ':')}`;

/** "20250805-1430": a date and time for file names. */
export const formatFileStamp = (at: Date): string => `${datePart(at, '')}-${timePart(at, '')}`;

// Made on first use: a page's first Intl formatter loads the browser's locale data (about 40 ms on a
// desktop, four times that on a phone), which a page that only shows a form should not pay while it loads.
let recordedAt: Intl.DateTimeFormat | undefined;
let wholeSar: Intl.NumberFormat | undefined;

/**
 * When a stored record was made, for the account lists (a Date or an ISO string): "5 Aug 2025, 14:30" in English;
 * in Arabic the date and time in digits, "2025-08-05 14:30", isolated left to right (docs/arabic-glossary.md),
 * never an English month name inside an Arabic list.
 */
export const formatRecordedAt = (at: Date | string, lang: WidgetLang = 'en'): string => {
  const date = typeof at === 'string' ? new Date(at) : at;
  if (lang === 'ar') return ltr(formatDateTime(date));
  return (recordedAt ??= new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' })).format(date);
};

/** Whole SAR with en-US thousands separators: 54000 → "54,000" (ROI figures). */
export const formatSar = (value: number): string =>
  (wholeSar ??= new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })).format(value);

/** A price to the halala, no separators: 1033.48 → "1033.48", 147.6 → "147.60" (dose costs, vial price). */
export const formatSarPrice = (value: number): string => value.toFixed(2);

/** One decimal, always shown: 20 → "20.0" (volumes in mL, hours freed, PPCs avoided). */
export const formatOneDecimal = (value: number): string => value.toFixed(1);
