/** How the ROI figures are written, on screen and in the reports. */

const sarFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** Whole SAR with en-US thousands separators: 54000 → "54,000". */
export const formatSar = (value: number): string => sarFormat.format(value);

/** One decimal, always shown: 20 → "20.0" (hours freed, PPCs avoided). */
export const formatOneDecimal = (value: number): string => value.toFixed(1);

/** Local date and time as "2025-08-05 14:30" (the time is passed in). */
export function formatDateTime(at: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${pad(at.getHours())}:${pad(at.getMinutes())}`;
}
