import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { groupThousands, toWesternDigits } from './digits.ts';

describe('toWesternDigits', () => {
  it.each([
    ['٧٠', '70'],
    ['٠١٢٣٤٥٦٧٨٩', '0123456789'],
    ['۰۱۲۳۴۵۶۷۸۹', '0123456789'],
    ['٦٥٫٣', '65.3'],
    ['٦٥,٣', '65,3'],
    ['70', '70'],
    [' ١٤٠ mg ', ' 140 mg '],
    ['', ''],
  ])('%j → %j', (typed, western) => {
    expect(toWesternDigits(typed)).toBe(western);
  });

  it('reads every number written in Arabic-Indic digits as the same number', () => {
    fc.assert(
      fc.property(fc.nat({ max: 10_000_000 }), (value) => {
        const arabic = value.toLocaleString('ar-EG', { useGrouping: false });
        expect(arabic).toMatch(/^[\u0660-\u0669]+$/);
        expect(Number(toWesternDigits(arabic))).toBe(value);
      }),
    );
  });
});

describe('groupThousands', () => {
  it.each([
    [0, '0'],
    [999, '999'],
    [1000, '1,000'],
    [2500, '2,500'],
    [10000, '10,000'],
    [1234567, '1,234,567'],
    [-2500, '-2,500'],
  ])('%d → %s', (value, written) => {
    expect(groupThousands(value)).toBe(written);
  });

  it('writes every whole number as en-US does', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), (value) => {
        expect(groupThousands(value)).toBe(value.toLocaleString('en-US'));
      }),
    );
  });

  it('refuses what is not a whole number', () => {
    for (const value of [2.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60])
      expect(() => groupThousands(value)).toThrow(RangeError);
  });
});
