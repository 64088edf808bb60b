import { describe, expect, it } from 'vitest';
import { roundTo } from './rounding.ts';

describe('roundTo (half away from zero, on the decimal value)', () => {
  it.each([
    [1.005, 2, 1.01],
    [1.004, 2, 1],
    [0.475, 1, 0.5],
    [0.45, 1, 0.5],
    [0.05, 1, 0.1],
    [0.04999, 1, 0],
    [2.5, 0, 3],
    [-2.5, 0, -3],
    [-0.04, 1, 0],
    [23.4375, 1, 23.4],
    [1e-7, 2, 0],
    [1.23e21, 1, 1.23e21],
    [130.6, 0, 131],
  ])('roundTo(%d, %d) = %d', (value, decimals, expected) => {
    expect(roundTo(value, decimals)).toBe(expected);
    expect(Object.is(roundTo(value, decimals), -0)).toBe(false);
  });
  it('refuses non-finite numbers', () => {
    expect(() => roundTo(Number.NaN, 1)).toThrow(RangeError);
  });
});
