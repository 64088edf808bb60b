import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assessBradycardia } from './bradycardia-advisor.ts';
import { RISK_FACTORS } from './bradycardia-model.ts';
import { validAdvisorInput } from './test-inputs.test-support.ts';
import type { BradycardiaInput } from './bradycardia-schema.ts';

const advisorInput = validAdvisorInput;

function assess(input: BradycardiaInput) {
  const outcome = assessBradycardia(input);
  if (outcome.kind !== 'assessment') throw new Error(JSON.stringify(outcome));
  return outcome;
}

/** Each way of adding one risk factor other than a pacemaker. */
const addFactor: ((input: BradycardiaInput) => BradycardiaInput)[] = [
  (i) => ({ ...i, betaBlocker: true }),
  (i) => ({ ...i, dexmedetomidine: true }),
  (i) => ({ ...i, digoxin: true }),
  (i) => ({ ...i, amiodarone: true }),
  (i) => ({ ...i, highDoseOpioids: true }),
  (i) => ({ ...i, vagalStimulus: true }),
  (i) => (i.cardiacHistory === 'none' ? { ...i, cardiacHistory: 'bradycardia' } : i),
  (i) => (i.cardiacHistory === 'none' || i.cardiacHistory === 'bradycardia' ? { ...i, cardiacHistory: 'av_block' } : i),
  (i) => ({ ...i, baselineHr: Math.min(i.baselineHr, 55) }),
  (i) => ({ ...i, baselineHr: Math.min(i.baselineHr, 45) }),
  (i) => ({ ...i, age: Math.max(i.age, 70) }),
  (i) => ({ ...i, age: Math.max(i.age, 80) }),
  (i) => ({ ...i, depth: 'immediate' }),
];

describe('bradycardia model properties', () => {
  it('adding any risk factor other than a pacemaker never lowers the risk', () => {
    fc.assert(
      fc.property(advisorInput, fc.integer({ min: 0, max: addFactor.length - 1 }), (input, which) => {
        const more = addFactor[which]!(input);
        expect(assess(more).riskPercent).toBeGreaterThanOrEqual(assess(input).riskPercent);
      }),
      { numRuns: 3000 },
    );
  });

  it('a pacemaker in place of no cardiac history lowers the risk', () => {
    fc.assert(
      fc.property(advisorInput, (input) => {
        const none = assess({ ...input, cardiacHistory: 'none' });
        const paced = assess({ ...input, cardiacHistory: 'pacemaker' });
        expect(paced.riskPercent).toBeLessThanOrEqual(none.riskPercent);
      }),
    );
  });

  it('the percent stays in (0, 100) and the band matches it', () => {
    fc.assert(
      fc.property(advisorInput, (input) => {
        const { riskPercent, riskBand } = assess(input);
        expect(riskPercent).toBeGreaterThan(0);
        expect(riskPercent).toBeLessThan(100);
        expect(riskBand).toBe(riskPercent < 5 ? 'LOW' : riskPercent < 15 ? 'MODERATE' : 'HIGH');
      }),
      { numRuns: 2000 },
    );
  });

  it('the same input gives the same output', () => {
    fc.assert(
      fc.property(advisorInput, (input) => {
        expect(assess(structuredClone(input))).toEqual(assess(structuredClone(input)));
      }),
    );
  });

  it('lists every applied factor, and the percent is the odds model over exactly those', () => {
    fc.assert(
      fc.property(advisorInput, (input) => {
        const result = assess(input);
        const expectedIds = RISK_FACTORS.filter((rule) => rule.applies(input)).map((rule) => rule.id);
        expect(result.factors.map((f) => f.id)).toEqual(expectedIds);
        const odds = (2 / 98) * result.factors.reduce((p, f) => p * f.multiplier, 1);
        expect(Math.abs(result.riskPercent - (100 * odds) / (1 + odds))).toBeLessThanOrEqual(0.05 + 1e-9);
      }),
    );
  });

  it('dose = mg/kg by depth × weight (whole mg), mL = mg / 100', () => {
    fc.assert(
      fc.property(advisorInput, (input) => {
        const result = assess(input);
        const mgPerKg = { tof_2_plus: 2, ptc_1_2: 4, immediate: 16 }[input.depth];
        expect(result.doseMg).toBe(Math.round(mgPerKg * input.weight));
        expect(Math.abs(result.doseMl - result.doseMg / 100)).toBeLessThanOrEqual(0.05 + 1e-9);
      }),
    );
  });

  it('never throws on arbitrary input', () => {
    fc.assert(
      fc.property(fc.anything(), (input) => {
        expect(() => assessBradycardia(input)).not.toThrow();
      }),
    );
  });
});
