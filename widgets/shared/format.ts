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

// Pure: a page that imports this module for one helper does not keep the others' formatters.
const recordedAt = /* @__PURE__ */ new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/** When a stored record was made, for the account lists: "5 Aug 2025, 14:30" (a Date or an ISO string). */
export const formatRecordedAt = (at: Date | string): string =>
  recordedAt.format(typeof at === 'string' ? new Date(at) : at);

const wholeSar = /* @__PURE__ */ new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** Whole SAR with en-US thousands separators: 54000 → "54,000" (ROI figures). */
export const formatSar = (value: number): string => wholeSar.format(value);

/** A price to the halala, no separators: 1033.48 → "1033.48", 147.6 → "147.60" (dose costs, vial price). */
export const formatSarPrice = (value: number): string => value.toFixed(2);

/** One decimal, always shown: 20 → "20.0" (volumes in mL, hours freed, PPCs avoided). */
export const formatOneDecimal = (value: number): string => value.toFixed(1);
