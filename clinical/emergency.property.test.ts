import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  anaphylaxisAdrenalineImMg,
  anaphylaxisAdrenalineIvMicrograms,
  atropineEmergencyMg,
  bradycardiaAdrenalineChildMicrograms,
  crystalloidChildMl,
  emergencyCard,
  EMERGENCY_AGE_GROUPS,
  type EmergencyOutcome,
  type EmergencyStep,
} from './emergency.ts';
import {
  ADRENALINE_BRADYCARDIA_CHILD_MAX_MG,
  ADRENALINE_IM_CHILD_MAX_MG,
  ADRENALINE_IV_ANAPHYLAXIS_CHILD_MAX_MICROGRAMS,
  ATROPINE_CHILD_MAX_MG,
  CRYSTALLOID_ADULT_MAX_ML,
  CRYSTALLOID_CHILD_MAX_ML,
} from './emergency-constants.ts';
import { atropineDoseMg, pediatricAdrenalineMicrograms } from './management-plan.ts';
import { CLINICAL_TEXTS_AR } from './texts/ar.ts';

const weight = fc.double({ min: 1, max: 200, noNaN: true });
const validInput = fc.record({
  ageGroup: fc.constantFrom(...EMERGENCY_AGE_GROUPS),
  weightKg: fc.option(weight, { nil: undefined }),
});

const steps = (outcome: EmergencyOutcome): EmergencyStep[] =>
  outcome.kind === 'invalid_input' ? [] : outcome.sections.flatMap((section) => section.steps);

/** A dose in one unit per kind: mg for a drug (1 mg = 1000 micrograms), mL for a fluid. */
const inBaseUnit = (amount: number, unit: 'mg' | 'micrograms' | 'mL') =>
  unit === 'micrograms' ? amount / 1000 : amount;

/** Each dosed child line's rule by weight and maximum, in the unit the code computes it in. */
const CHILD_RULES: Record<string, { perKg: number; max: number }> = {
  atropine: { perKg: 0.02, max: 0.5 },
  secondLine: { perKg: 10, max: 1000 },
  adrenalineIv: { perKg: 1, max: 50 },
  adrenalineIm: { perKg: 0.01, max: 0.5 },
  fluids: { perKg: 10, max: 1000 },
};

/** Each dosed child line's cap (docs/clinical-reference.md §7), in mg or mL. */
const CHILD_CAPS: Record<string, number> = {
  atropine: ATROPINE_CHILD_MAX_MG,
  secondLine: ADRENALINE_BRADYCARDIA_CHILD_MAX_MG,
  adrenalineIv: ADRENALINE_IV_ANAPHYLAXIS_CHILD_MAX_MICROGRAMS / 1000,
  adrenalineIm: ADRENALINE_IM_CHILD_MAX_MG,
  fluids: CRYSTALLOID_CHILD_MAX_ML,
};

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

  it('no child dose on the card is above its cap or the adult dose of the line, in the unit it is shown in', () => {
    const adult = steps(emergencyCard({ ageGroup: 'adult' }));
    fc.assert(
      fc.property(weight, (kg) => {
        const dosed = steps(emergencyCard({ ageGroup: 'child', weightKg: kg })).filter((step) => step.dose);
        expect(dosed.map((step) => step.id).sort()).toEqual(Object.keys(CHILD_CAPS).sort());
        for (const step of dosed) {
          const amount = inBaseUnit(step.dose!.amount, step.dose!.unit);
          expect(amount, step.id).toBeLessThanOrEqual(CHILD_CAPS[step.id]!);
          // capped exactly when the rule by weight goes above the cap (in the line's own unit, as computed), and
          // then the cap itself is given
          const rule = CHILD_RULES[step.id]!;
          expect(step.capped, step.id).toBe(rule.perKg * kg > rule.max);
          if (step.capped) expect(amount, step.id).toBe(CHILD_CAPS[step.id]);
          const same = adult.find((candidate) => candidate.id === step.id && candidate.dose);
          if (same) {
            const adultDose = inBaseUnit(same.dose!.upTo ?? same.dose!.amount, same.dose!.unit);
            expect(amount, step.id).toBeLessThanOrEqual(adultDose);
          }
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("a child's bradycardia adrenaline: 10 micrograms/kg, whole micrograms, never above 1 mg; mg from 1 mg", () => {
    fc.assert(
      fc.property(weight, (kg) => {
        const micrograms = bradycardiaAdrenalineChildMicrograms(kg);
        expect(micrograms.amount).toBe(Math.min(1000, Math.round(10 * kg)));
        expect(micrograms.capped).toBe(10 * kg > 1000);
        const line = steps(emergencyCard({ ageGroup: 'child', weightKg: kg })).find((s) => s.id === 'secondLine')!;
        expect(line.dose!.unit).toBe(micrograms.amount >= 1000 ? 'mg' : 'micrograms');
        expect(inBaseUnit(line.dose!.amount, line.dose!.unit)).toBeLessThanOrEqual(1);
        expect(line.volume!.ml).toBeLessThanOrEqual(10);
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

  it('a child atropine and adrenaline dose is the advisor plan’s (docs/clinical-reference.md §4 and §7 agree)', () => {
    fc.assert(
      fc.property(weight, (kg) => {
        expect(atropineEmergencyMg('child', kg).amount).toBe(atropineDoseMg(10, kg));
        // and so is its adrenaline, capped at 1 mg in both
        expect(pediatricAdrenalineMicrograms(kg)).toBe(bradycardiaAdrenalineChildMicrograms(kg).amount);
      }),
    );
  });

  it('every volume is its dose over the strength, to 2 decimals', () => {
    fc.assert(
      fc.property(validInput, (input) => {
        for (const step of steps(emergencyCard(input))) {
          if (!step.volume || !step.dose) continue;
          const { amount, unit } = step.volume.strength;
          // a dose in micrograms against a strength in mg/mL: 1 mg = 1000 micrograms (and the other way round)
          const perMl =
            step.dose.unit === 'micrograms' && unit === 'mg/mL'
              ? amount * 1000
              : step.dose.unit === 'mg' && unit === 'micrograms/mL'
                ? amount / 1000
                : amount;
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
