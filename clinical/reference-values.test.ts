import { describe, expect, it } from 'vitest';
import { withoutIsolates } from './bidi.ts';
import {
  CONCENTRATION_MG_PER_ML,
  RSI_ROCURONIUM_DOSE_MG_PER_KG,
  TOF_RATIO_TARGET,
  VIAL_CONTENT_MG,
  VIAL_VOLUME_ML,
  VIALS_PER_BOX,
} from './constants.ts';
import { calculateDose, MEDIAN_RECOVERY_MIN } from './dose-calculator.ts';
import { emergencyCard, type EmergencyOutcome, type EmergencyStepId } from './emergency.ts';
import * as E from './emergency-constants.ts';
import { digitRuns } from './texts/checks.ts';
import { CLINICAL_TEXTS_EN } from './texts/en.ts';

// Numbers the product shows that no behaviour test pins down: each is checked against docs/clinical-reference.md
// as written there, and where a text shows it, in that text. The clinical verification report lists these tests
// by name (scripts/clinical-verification/rules.ts). The texts are matched on their numbers, not their wording.

const dose = CLINICAL_TEXTS_EN.dose;

describe('numbers of docs/clinical-reference.md §1 the product shows', () => {
  it('a vial holds 200 mg in 2 mL (100 mg/mL), 10 vials to a box', () => {
    expect([VIAL_CONTENT_MG, VIAL_VOLUME_ML, CONCENTRATION_MG_PER_ML, VIALS_PER_BOX]).toEqual([200, 2, 100, 10]);
    expect(VIAL_CONTENT_MG / VIAL_VOLUME_ML).toBe(CONCENTRATION_MG_PER_ML);
  });

  it('extubation target: a TOF ratio of 0.9, as the administration and monitoring texts write it', () => {
    expect(TOF_RATIO_TARGET).toBe(0.9);
    expect(dose.administration).toContain(`until at least ${TOF_RATIO_TARGET}`);
    expect(dose.monitoring).toContain(`Confirm TOF ratio ≥ ${TOF_RATIO_TARGET} before extubation`);
  });

  it('immediate reversal follows rapid-sequence rocuronium 1.2 mg/kg: its indication and warning say so', () => {
    expect(RSI_ROCURONIUM_DOSE_MG_PER_KG).toBe(1.2);
    expect(dose.immediateIndication).toContain(`rocuronium ${RSI_ROCURONIUM_DOSE_MG_PER_KG} mg/kg`);
    expect(dose.rsiVecuroniumWarning).toContain(`rocuronium ${RSI_ROCURONIUM_DOSE_MG_PER_KG} mg/kg`);
  });

  it('median time to a TOF ratio ≥ 0.9: about 2, 3 and 1.5 min after 2, 4 and 16 mg/kg', () => {
    expect(MEDIAN_RECOVERY_MIN).toEqual({ moderate: 2, deep: 3, immediate: 1.5 });
    const base = { ageGroup: 'adult', bodyWeight: 70, nmbaType: 'rocuronium', creatinine: 100, ptc: null };
    const minutes = (changes: object) => {
      const outcome = calculateDose({ ...base, tofCount: '', rsiScenario: false, dialysis: false, ...changes });
      return outcome.kind === 'dose' ? [outcome.doseMgPerKg, outcome.medianRecoveryMin] : outcome.kind;
    };
    expect([minutes({ tofCount: '2' }), minutes({ tofCount: '0' }), minutes({ rsiScenario: true })]).toEqual([
      [2, 2],
      [4, 3],
      [16, 1.5],
    ]);
  });
});

type Card = Extract<EmergencyOutcome, { kind: 'card' }>;
const card = (input: object): Card => {
  const outcome = emergencyCard(input);
  if (outcome.kind !== 'card') throw new Error(`expected a card, got ${JSON.stringify(outcome)}`);
  return outcome;
};
const ADULT = card({ ageGroup: 'adult' });
const CHILD = card({ ageGroup: 'child', weightKg: 20 });

/** What a line of the card reads (its action and detail), without the isolation marks. */
function line(outcome: Card, id: EmergencyStepId): string {
  const step = outcome.sections.flatMap((section) => section.steps).find((candidate) => candidate.id === id);
  if (!step) throw new Error(`no step ${id}`);
  return withoutIsolates(`${step.action} ${step.detail}`);
}
/** A range such as "3-5" in a text, whichever dash it is written with. */
const range = (text: string, spec: string) => {
  const [from, to] = spec.split('-');
  return new RegExp(`(^|[^\\d.])${from}\\s*[-–]\\s*${to}(?![\\d.])`).test(text);
};

describe('the emergency card shows the numbers of docs/clinical-reference.md §7', () => {
  it('adult atropine: repeat every 3-5 min to a total of 3 mg', () => {
    expect([E.ATROPINE_REPEAT_MIN, E.ATROPINE_ADULT_MAX_TOTAL_MG]).toEqual(['3-5', 3]);
    expect(range(line(ADULT, 'atropine'), '3-5')).toBe(true);
    expect(digitRuns(line(ADULT, 'atropine'))).toContain('3');
  });

  it('adult second line: adrenaline infusion 2-10 micrograms/min, or dopamine 5-20 micrograms/kg/min', () => {
    expect([
      E.ADRENALINE_INFUSION_ADULT_MICROGRAMS_PER_MIN,
      E.DOPAMINE_INFUSION_ADULT_MICROGRAMS_PER_KG_PER_MIN,
    ]).toEqual(['2-10', '5-20']);
    expect(range(line(ADULT, 'secondLine'), '2-10')).toBe(true);
    expect(range(line(ADULT, 'secondLine'), '5-20')).toBe(true);
  });

  it('child second line: adrenaline 0.1 mL/kg of 0.1 mg/mL, every 3-5 min', () => {
    expect([E.ADRENALINE_BRADYCARDIA_CHILD_ML_PER_KG, E.ADRENALINE_BRADYCARDIA_REPEAT_MIN]).toEqual([0.1, '3-5']);
    expect(digitRuns(line(CHILD, 'secondLine'))).toContain('0.1');
    expect(range(line(CHILD, 'secondLine'), '3-5')).toBe(true);
  });

  it('child: CPR when the heart rate stays below 60 bpm', () => {
    expect(E.CHILD_CPR_HEART_RATE_BELOW_BPM).toBe(60);
    expect(digitRuns(line(CHILD, 'childCpr'))).toContain('60');
  });

  it('anaphylaxis: 100% oxygen among the first actions', () => {
    expect(E.OXYGEN_PERCENT).toBe(100);
    for (const outcome of [ADULT, CHILD]) expect(digitRuns(line(outcome, 'firstActions'))).toContain('100');
  });

  it('anaphylaxis: adrenaline IV repeated every 1-2 min', () => {
    expect(E.ADRENALINE_IV_REPEAT_MIN).toBe('1-2');
    for (const outcome of [ADULT, CHILD]) expect(range(line(outcome, 'adrenalineIv'), '1-2')).toBe(true);
  });

  it('anaphylaxis: refractory after 3 boluses', () => {
    expect(E.REFRACTORY_AFTER_BOLUSES).toBe(3);
    for (const outcome of [ADULT, CHILD]) expect(digitRuns(line(outcome, 'refractory'))).toEqual(['3']);
  });

  it('anaphylaxis: mast-cell tryptase as soon as feasible, at 1-2 h and after 24 h', () => {
    for (const outcome of [ADULT, CHILD]) {
      expect(range(line(outcome, 'tryptase'), '1-2')).toBe(true);
      expect(digitRuns(line(outcome, 'tryptase'))).toContain('24');
    }
  });

  it('after sugammadex: anaphylaxis in about 1 in 2,500 to 1 in 5,000 administrations, most within 5 minutes', () => {
    expect([
      E.SUGAMMADEX_ANAPHYLAXIS_ONE_IN_MIYAZAKI_2018,
      E.SUGAMMADEX_ANAPHYLAXIS_ONE_IN_ORIHARA_2020,
      E.SUGAMMADEX_ANAPHYLAXIS_WITHIN_MIN,
    ]).toEqual([2500, 5000, 5]);
    const note = withoutIsolates(ADULT.sections.find((section) => section.id === 'anaphylaxis')!.note!.text);
    expect(digitRuns(note)).toEqual(expect.arrayContaining(['2,500', '5,000', '5']));
  });
});
