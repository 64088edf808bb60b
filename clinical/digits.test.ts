import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toWesternDigits } from './digits.ts';

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
