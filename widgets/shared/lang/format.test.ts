import { describe, expect, it } from 'vitest';
import {
  formatDate,
  formatDateTime,
  formatFileStamp,
  formatOneDecimal,
  formatRecordedAt,
  formatSar,
  formatSarPrice,
} from './format.ts';

// Dates are built in local time, as the widgets pass them (new Date() at the moment of the action).
describe('dates', () => {
  it.each([
    [new Date(2025, 7, 5, 14, 30), '2025-08-05', '2025-08-05 14:30', '20250805-1430'],
    [new Date(2026, 10, 22, 9, 5), '2026-11-22', '2026-11-22 09:05', '20261122-0905'],
    [new Date(2025, 0, 1, 0, 0), '2025-01-01', '2025-01-01 00:00', '20250101-0000'],
    [new Date(2025, 11, 31, 23, 59, 59), '2025-12-31', '2025-12-31 23:59', '20251231-2359'],
    [new Date(2024, 1, 29, 12, 7), '2024-02-29', '2024-02-29 12:07', '20240229-1207'],
  ])('%s → %s, %s, %s', (at, date, dateTime, stamp) => {
    expect(formatDate(at)).toBe(date);
    expect(formatDateTime(at)).toBe(dateTime);
    expect(formatFileStamp(at)).toBe(stamp);
  });
});

describe('formatRecordedAt: the account lists (en-GB, medium date, short time)', () => {
  it.each([
    [new Date(2025, 7, 5, 14, 30), '5 Aug 2025, 14:30'],
    [new Date(2026, 0, 1, 0, 5), '1 Jan 2026, 00:05'],
    [new Date(2025, 11, 31, 23, 59), '31 Dec 2025, 23:59'],
  ])('%s → %s', (at, text) => {
    expect(formatRecordedAt(at)).toBe(text);
    expect(formatRecordedAt(at.toISOString())).toBe(text);
    expect(formatRecordedAt(at)).toBe(at.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' }));
  });
});

describe('formatRecordedAt in Arabic: the date and time in digits, in a left-to-right isolate', () => {
  it.each([
    [new Date(2025, 7, 5, 14, 30), '\u20662025-08-05 14:30\u2069'],
    [new Date(2026, 0, 1, 0, 5), '\u20662026-01-01 00:05\u2069'],
  ])('%s → %s', (at, text) => {
    expect(formatRecordedAt(at, 'ar')).toBe(text);
    expect(formatRecordedAt(at.toISOString(), 'ar')).toBe(text);
  });
});

describe('formatSar: whole SAR with thousands separators (ROI)', () => {
  it.each([
    [54000, '54,000'],
    [108000, '108,000'],
    [914023800, '914,023,800'],
    [999, '999'],
    [1000, '1,000'],
    [0, '0'],
    [1234.5, '1,235'],
    [-1200, '-1,200'],
  ])('%d → %s', (value, text) => {
    expect(formatSar(value)).toBe(text);
  });
});

describe('formatSarPrice: to the halala, no separators (dose cost, vial price)', () => {
  it.each([
    [147.64, '147.64'],
    [295.28, '295.28'],
    [1033.48, '1033.48'],
    [147.6, '147.60'],
    [14764, '14764.00'],
    [0, '0.00'],
  ])('%d → %s', (value, text) => {
    expect(formatSarPrice(value)).toBe(text);
  });
});

describe('formatOneDecimal', () => {
  it.each([
    [20, '20.0'],
    [1.4, '1.4'],
    [12.8, '12.8'],
    [23.4, '23.4'],
    [3.75, '3.8'],
    [0, '0.0'],
    [12345, '12345.0'],
  ])('%d → %s', (value, text) => {
    expect(formatOneDecimal(value)).toBe(text);
  });
});
