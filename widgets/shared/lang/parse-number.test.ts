import { describe, expect, it } from 'vitest';
import { parseDecimalText } from './parse-number.ts';

describe('parseDecimalText', () => {
  it.each([
    ['70', 70],
    ['٧٠', 70],
    ['۷۰', 70],
    ['65,3', 65.3],
    ['٦٥٫٣', 65.3],
    ['٦٥,٣', 65.3],
    [' 1.5 ', 1.5],
  ])('%j is %d', (text, value) => {
    expect(parseDecimalText(text)).toBe(value);
  });

  it('empty is "not entered"; anything else that is not a number is NaN', () => {
    expect(parseDecimalText('  ')).toBeUndefined();
    for (const text of ['7O', '٧٠kg', '1..2', 'seventy', '٧ ٠']) expect(parseDecimalText(text)).toBeNaN();
  });
});
