import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { barWidthPercent, calculateRoi, computeRoi, parseWholeNumber, type RoiOutcome } from './roi.ts';

const defaults = { numberOfCases: 100, orCostPerMinute: 45, timeNeostigmine: 15, timeProduct: 3, baselinePPCRate: 10 };
function expectRoi(outcome: RoiOutcome) {
  if (outcome.kind !== 'roi') throw new Error(JSON.stringify(outcome));
  return outcome;
}

describe('ROI formulas (docs/product.md §9)', () => {
  it('the defaults', () => {
    // (15 − 3) × 100 = 1200 min; 1200 × 45 = 54 000 SAR; 100 × 10% × 0.38 = 3.8; 1200 / 60 = 20.0 h
    expect(calculateRoi(defaults)).toEqual({
      kind: 'roi',
      timeSavedMin: 1200,
      costSavedSar: 54000,
      ppcsAvoided: 3.8,
      hoursFreed: 20,
      neostigmineBarPercent: 75, // 15 / 20
      productBarPercent: 15, // 3 / 20
      riskRatio: 0.62,
    });
  });

  it.each([
    // cases, cost, tNeo, tProd, rate → timeSaved, costSaved, ppcs, hours
    { input: { numberOfCases: 0 }, out: [0, 0, 0, 0] },
    { input: { numberOfCases: 1 }, out: [12, 540, 0, 0.2] }, // 1 × 10% × 0.38 = 0.038 → 0.0; 12/60 = 0.2
    // 125 × 1% × 0.38 = 0.475 → 0.5 (half up)
    { input: { numberOfCases: 125, baselinePPCRate: 1 }, out: [1500, 67500, 0.5, 25] },
    // 7 × 7 = 49; 49/60 = 0.816 → 0.8; 7 × .1 × .38 = 0.266 → 0.3
    { input: { numberOfCases: 7, timeNeostigmine: 10, timeProduct: 3 }, out: [49, 2205, 0.3, 0.8] },
    { input: { orCostPerMinute: 150, baselinePPCRate: 20 }, out: [1200, 180000, 7.6, 20] },
    { input: { orCostPerMinute: 10, baselinePPCRate: 0 }, out: [1200, 12000, 0, 20] },
    // the product slower: the formula shows a loss
    { input: { timeNeostigmine: 3, timeProduct: 15 }, out: [-1200, -54000, 3.8, -20] },
    { input: { numberOfCases: 1000, timeNeostigmine: 20, timeProduct: 0 }, out: [20000, 900000, 38, 333.3] },
  ])('$input → $out', ({ input, out }) => {
    const result = expectRoi(calculateRoi({ ...defaults, ...input }));
    expect([result.timeSavedMin, result.costSavedSar, result.ppcsAvoided, result.hoursFreed]).toEqual(out);
  });

  it.each([
    { changes: { orCostPerMinute: 5 }, field: 'orCostPerMinute' },
    { changes: { orCostPerMinute: 155 }, field: 'orCostPerMinute' },
    { changes: { orCostPerMinute: 47 }, field: 'orCostPerMinute' },
    { changes: { baselinePPCRate: 21 }, field: 'baselinePPCRate' },
    { changes: { baselinePPCRate: -1 }, field: 'baselinePPCRate' },
    { changes: { baselinePPCRate: 2.5 }, field: 'baselinePPCRate' },
    { changes: { numberOfCases: -1 }, field: 'numberOfCases' },
    { changes: { numberOfCases: 1.5 }, field: 'numberOfCases' },
    { changes: { numberOfCases: '100' }, field: 'numberOfCases' },
    { changes: { timeNeostigmine: 241 }, field: 'timeNeostigmine' },
    { changes: { timeProduct: -3 }, field: 'timeProduct' },
    { changes: { riskRatio: 0.5 }, field: 'riskRatio' },
  ])('the API refuses $changes', ({ changes, field }) => {
    const outcome = calculateRoi({ ...defaults, ...changes });
    expect(outcome.kind).toBe('invalid_input');
    if (outcome.kind === 'invalid_input') expect(outcome.issues.map((issue) => issue.field)).toEqual([field]);
  });

  it('accepts the fixed risk ratio when sent', () => {
    expect(calculateRoi({ ...defaults, riskRatio: 0.62 }).kind).toBe('roi');
  });

  it('names the slider rule in its message', () => {
    expect(calculateRoi({ ...defaults, orCostPerMinute: 47 })).toEqual({
      kind: 'invalid_input',
      issues: [{ field: 'orCostPerMinute', message: 'OR cost per minute must be 10-150 SAR in steps of 5' }],
    });
  });
});

describe('whole-number parsing (docs/product.md §5: invalid or empty becomes 0)', () => {
  it.each([
    ['100', 100],
    [' 42 ', 42],
    ['12.7', 12],
    ['0', 0],
    ['007', 7],
    ['', 0],
    ['   ', 0],
    ['abc', 0],
    ['12abc', 0],
    ['-5', 0],
    ['1e3', 0],
    ['NaN', 0],
    ['Infinity', 0],
    ['99999999999999999999', 0],
  ])('"%s" → %d', (text, value) => {
    expect(parseWholeNumber(text)).toBe(value);
  });
});

describe('bar width (docs/product.md §5: minutes / 20 as a percentage)', () => {
  it.each([
    [0, 0],
    [1, 5],
    [3, 15],
    [15, 75],
    [19, 95],
    [20, 100],
    [21, 100],
    [60, 100],
    [-2, 0],
  ])('%d min → %d%%', (minutes, percent) => {
    expect(barWidthPercent(minutes)).toBe(percent);
  });
});

describe('ROI properties', () => {
  const input = fc.record({
    numberOfCases: fc.integer({ min: 0, max: 1_000_000 }),
    orCostPerMinute: fc.integer({ min: 2, max: 30 }).map((n) => n * 5),
    timeNeostigmine: fc.integer({ min: 0, max: 240 }),
    timeProduct: fc.integer({ min: 0, max: 240 }),
    baselinePPCRate: fc.integer({ min: 0, max: 20 }),
  });
  it('results are whole minutes and SAR, one-decimal PPCs and hours, and consistent with each other', () => {
    fc.assert(
      fc.property(input, (values) => {
        const r = computeRoi(values);
        expect(Number.isInteger(r.timeSavedMin)).toBe(true);
        expect(r.costSavedSar).toBe(r.timeSavedMin * values.orCostPerMinute);
        expect(Math.abs(r.hoursFreed - r.timeSavedMin / 60)).toBeLessThanOrEqual(0.05 + 1e-9);
        expect(
          Math.abs(r.ppcsAvoided - values.numberOfCases * (values.baselinePPCRate / 100) * 0.38),
        ).toBeLessThanOrEqual(0.05 + 1e-6);
        expect(Math.round(r.ppcsAvoided * 10)).toBeCloseTo(r.ppcsAvoided * 10, 6);
        expect(r.ppcsAvoided).toBeGreaterThanOrEqual(0);
      }),
    );
  });
  it('parsing never yields a negative, fractional or unsafe number', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const value = parseWholeNumber(text);
        expect(Number.isSafeInteger(value) && value >= 0).toBe(true);
      }),
    );
  });
});
