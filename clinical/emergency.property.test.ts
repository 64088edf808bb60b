import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  anaphylaxisAdrenalineImMg,
  anaphylaxisAdrenalineIvMicrograms,
  atropineEmergencyMg,
  crystalloidChildMl,
  emergencyCard,
  EMERGENCY_AGE_GROUPS,
  type EmergencyOutcome,
  type EmergencyStep,
} from './emergency.ts';
import { CRYSTALLOID_ADULT_MAX_ML } from './emergency-constants.ts';
import { atropineDoseMg } from './management-plan.ts';
import { CLINICAL_TEXTS_AR } from './texts/ar.ts';

const weight = fc.double({ min: 1, max: 200, noNaN: true });
const validInput = fc.record({
  ageGroup: fc.constantFrom(...EMERGENCY_AGE_GROUPS),
  weightKg: fc.option(weight, { nil: undefined }),
});

const steps = (outcome: EmergencyOutcome): EmergencyStep[] =>
  outcome.kind === 'invalid_input' ? [] : outcome.sections.flatMap((section) => section.steps);

describe('emergency card properties', () => {
  it('a child dose is never above the adult dose (atropine, adrenaline IV and IM, crystalloid)', () => {
    fc.assert(
      fc.property(weight, (kg) => {
        expect(atropineEmergencyMg('child', kg).amount).toBeLessThanOrEqual(atropineEmergencyMg('adult', kg).amount);
        expect(anaphylaxisAdrenalineIvMicrograms('child', kg).amount).toBeLessThanOrEqual(
          anaphylaxisAdrenalineIvMicrograms('adult', kg).amount,
        );
        expect(anaphylaxisAdrenalineImMg('child', kg).amount).toBeLessThanOrEqual(
          anaphylaxisAdrenalineImMg('adult', kg).amount,
        );
        expect(crystalloidChildMl(kg).amount).toBeLessThanOrEqual(CRYSTALLOID_ADULT_MAX_ML);
      }),
      { numRuns: 2000 },
    );
  });

  it('the same holds line by line on the card itself', () => {
    const adult = steps(emergencyCard({ ageGroup: 'adult' }));
    fc.assert(
      fc.property(weight, (kg) => {
        for (const step of steps(emergencyCard({ ageGroup: 'child', weightKg: kg }))) {
          const same = adult.find((candidate) => candidate.id === step.id && candidate.dose);
          if (!same || !step.dose) continue;
          expect(step.dose.unit).toBe(same.dose!.unit);
          expect(step.dose.amount).toBeLessThanOrEqual(same.dose!.upTo ?? same.dose!.amount);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('a child dose is the rule by weight, held within its limits: capped exactly when above the maximum', () => {
    fc.assert(
      fc.property(weight, (kg) => {
        const atropine = atropineEmergencyMg('child', kg);
        expect(atropine.amount).toBeGreaterThanOrEqual(0.1);
        expect(atropine.amount).toBeLessThanOrEqual(0.5);
        expect(atropine.capped).toBe(0.02 * kg > 0.5);
        expect(atropine.raisedToMinimum).toBe(0.02 * kg < 0.1);
        if (!atropine.capped && !atropine.raisedToMinimum) {
          expect(Math.abs(atropine.amount - 0.02 * kg)).toBeLessThanOrEqual(0.005 + 1e-9);
        }
        const iv = anaphylaxisAdrenalineIvMicrograms('child', kg);
        expect(iv.capped).toBe(kg > 50);
        expect(iv.amount).toBe(Math.min(50, Math.round(kg)));
        const im = anaphylaxisAdrenalineImMg('child', kg);
        expect(im.capped).toBe(0.01 * kg > 0.5);
        expect(im.amount).toBeLessThanOrEqual(0.5);
        const fluids = crystalloidChildMl(kg);
        expect(fluids.amount).toBe(Math.min(1000, Math.round(10 * kg)));
      }),
      { numRuns: 2000 },
    );
  });

  it('a child atropine dose is the advisor plan’s (docs/clinical-reference.md §4 and §7 agree)', () => {
    fc.assert(
      fc.property(weight, (kg) => {
        expect(atropineEmergencyMg('child', kg).amount).toBe(atropineDoseMg(10, kg));
      }),
    );
  });

  it('every volume is its dose over the strength, to 2 decimals', () => {
    fc.assert(
      fc.property(validInput, (input) => {
        for (const step of steps(emergencyCard(input))) {
          if (!step.volume || !step.dose) continue;
          const { amount, unit } = step.volume.strength;
          // a dose in micrograms against a strength in mg/mL: 1 mg = 1000 micrograms
          const perMl = step.dose.unit === 'micrograms' && unit === 'mg/mL' ? amount * 1000 : amount;
          expect(Math.abs(step.volume.ml - step.dose.amount / perMl)).toBeLessThanOrEqual(0.005 + 1e-9);
        }
      }),
    );
  });

  it('every line has a source; a child with a weight and every adult get doses; a child without one none', () => {
    fc.assert(
      fc.property(validInput, (input) => {
        const outcome = emergencyCard(input);
        expect(outcome.kind).toBe(input.ageGroup === 'child' && input.weightKg === undefined ? 'needs_weight' : 'card');
        const all = steps(outcome);
        expect(all.every((step) => step.source && step.sourceLabel)).toBe(true);
        expect(all.some((step) => step.dose)).toBe(outcome.kind === 'card');
      }),
    );
  });

  it('is deterministic, does not change its input, and the language never moves a number', () => {
    fc.assert(
      fc.property(validInput, (input) => {
        const copy = structuredClone(input);
        const outcome = emergencyCard(input);
        expect(input).toEqual(copy);
        expect(emergencyCard(structuredClone(input))).toEqual(outcome);
        const numbers = (value: EmergencyOutcome) =>
          steps(value).map(({ dose, volume, capped, raisedToMinimum }) => ({ dose, volume, capped, raisedToMinimum }));
        expect(numbers(emergencyCard(input, CLINICAL_TEXTS_AR))).toEqual(numbers(outcome));
      }),
    );
  });

  it('any weight outside 1-200 kg (or not a number) is refused', () => {
    const badWeight = fc.oneof(
      fc.double({ max: 0.999999, noNaN: true }),
      fc.double({ min: 200.000001, noNaN: true }),
      fc.constant(Number.NaN),
      fc.string(),
    );
    fc.assert(
      fc.property(fc.constantFrom(...EMERGENCY_AGE_GROUPS), badWeight, (ageGroup, weightKg) => {
        const outcome = emergencyCard({ ageGroup, weightKg });
        expect(outcome.kind).toBe('invalid_input');
        if (outcome.kind === 'invalid_input') expect(outcome.issues[0]!.field).toBe('weightKg');
      }),
    );
  });
});
