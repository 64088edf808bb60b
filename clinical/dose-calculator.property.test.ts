import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calculateDose } from './dose-calculator.ts';
import { validDoseInput } from './test-inputs.test-support.ts';
import type { DoseCalculatorInput } from './dose-schema.ts';

const validInput = validDoseInput;

/** The rules of docs/product.md §5 restated as a plain decision list, independent of the implementation's structure. */
function expectedKind(input: DoseCalculatorInput): string {
  if (input.nmbaType === 'other') return 'not_indicated';
  if ((input.creatinine != null && input.creatinine < 30) || input.dialysis) return 'contraindicated';
  if (input.ageGroup === 'infant') return 'not_established';
  if (input.rsiScenario && input.ageGroup === 'adult') return 'dose';
  const tof = input.tofCount ?? '';
  return tof !== '' || input.ptc === 1 || input.ptc === 2 ? 'dose' : 'unable_to_calculate';
}

describe('dose calculator properties', () => {
  it('total dose = round(mg/kg × weight); vials × 200 ≥ total > (vials − 1) × 200; mL and SAR follow', () => {
    fc.assert(
      fc.property(validInput, (input) => {
        const outcome = calculateDose(input);
        if (outcome.kind !== 'dose') return;
        expect(outcome.totalDoseMg).toBe(Math.round(outcome.doseMgPerKg * input.bodyWeight));
        expect(outcome.vials * 200).toBeGreaterThanOrEqual(outcome.totalDoseMg);
        expect((outcome.vials - 1) * 200).toBeLessThan(outcome.totalDoseMg);
        expect(Math.abs(outcome.volumeMl - outcome.totalDoseMg / 100)).toBeLessThanOrEqual(0.05 + 1e-9);
        expect(outcome.costSar.toFixed(2)).toBe(((outcome.vials * 14764) / 100).toFixed(2));
        expect([2, 4, 16]).toContain(outcome.doseMgPerKg);
      }),
      { numRuns: 2000 },
    );
  });

  it('the same input always gives the same output', () => {
    fc.assert(
      fc.property(validInput, (input) => {
        expect(calculateDose(structuredClone(input))).toEqual(calculateDose(structuredClone(input)));
      }),
    );
  });

  it('does not change its input', () => {
    fc.assert(
      fc.property(validInput, (input) => {
        const copy = structuredClone(input);
        calculateDose(input);
        expect(input).toEqual(copy);
      }),
    );
  });

  it('the spec rules hold in order for every valid input', () => {
    fc.assert(
      fc.property(validInput, (input) => {
        expect(calculateDose(input).kind).toBe(expectedKind(input));
      }),
      { numRuns: 2000 },
    );
  });

  it('any weight outside 1–200 kg (or not a number) is refused with the weight issue first', () => {
    const badWeight = fc.oneof(
      fc.double({ max: 0.999999, noNaN: true }),
      fc.double({ min: 200.000001, noNaN: true }),
      fc.constant(Number.NaN),
      fc.string(),
      fc.constant(null),
    );
    fc.assert(
      fc.property(validInput, badWeight, (input, bodyWeight) => {
        const outcome = calculateDose({ ...input, bodyWeight });
        expect(outcome.kind).toBe('invalid_input');
        if (outcome.kind === 'invalid_input') expect(outcome.issues[0]?.field).toBe('bodyWeight');
      }),
    );
  });

  it('never throws on arbitrary input', () => {
    fc.assert(
      fc.property(fc.anything(), (input) => {
        expect(() => calculateDose(input)).not.toThrow();
      }),
    );
  });
});
