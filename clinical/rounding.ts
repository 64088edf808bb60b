/**
 * Decimal rounding, half away from zero, done on the decimal representation so that
 * roundTo(1.005, 2) is 1.01 (Math.round(1.005 * 100) / 100 gives 1.00, because 1.005 × 100
 * is 100.49999… in binary floating point).
 */
export function roundTo(value: number, decimals: number): number {
  if (!Number.isFinite(value)) throw new RangeError(`roundTo: not a finite number: ${value}`);
  const sign = value < 0 ? -1 : 1;
  const shifted = Math.round(shiftDecimal(Math.abs(value), decimals));
  const result = sign * shiftDecimal(shifted, -decimals);
  return result === 0 ? 0 : result; // no -0
}

function shiftDecimal(value: number, places: number): number {
  const [mantissa, exponent = '0'] = String(value).split('e');
  return Number(`${mantissa}e${Number(exponent) + places}`);
}
