import { describe, expect, it } from 'vitest';
import { withoutIsolates } from './bidi.ts';
import {
  anaphylaxisAdrenalineImMg,
  anaphylaxisAdrenalineIvMicrograms,
  atropineEmergencyMg,
  bradycardiaAdrenalineChildMicrograms,
  crystalloidChildMl,
  emergencyCard,
  type EmergencyOutcome,
  type EmergencyStep,
  type EmergencyStepId,
} from './emergency.ts';
import * as E from './emergency-constants.ts';
import { CLINICAL_TEXTS_AR } from './texts/ar.ts';
import { digitRuns } from './texts/checks.ts';

type Card = Extract<EmergencyOutcome, { kind: 'card' }>;

function expectCard(outcome: EmergencyOutcome): Card {
  if (outcome.kind !== 'card') throw new Error(`expected a card, got ${JSON.stringify(outcome)}`);
  return outcome;
}
const card = (input: unknown) => expectCard(emergencyCard(input));
const stepOf = (outcome: Card, section: 'bradycardia' | 'anaphylaxis', id: EmergencyStepId): EmergencyStep => {
  const found = outcome.sections.find((candidate) => candidate.id === section)!.steps.find((step) => step.id === id);
  if (!found) throw new Error(`no ${section} step ${id}`);
  return found;
};

/** What a line shows, as one comparable value: "0.4 mg", "20 micrograms = 0.2 mL of 100 micrograms/mL (capped)". */
function shown(step: EmergencyStep): string {
  if (!step.dose) return '-';
  const range = step.dose.upTo !== undefined ? `-${step.dose.upTo}` : '';
  const volume = step.volume
    ? ` = ${step.volume.ml} mL of ${step.volume.strength.amount} ${step.volume.strength.unit}`
    : '';
  const limit = step.capped ? ' (capped)' : step.raisedToMinimum ? ' (minimum)' : '';
  return `${step.dose.amount}${range} ${step.dose.unit}${volume}${limit}`;
}

describe('worked checks (docs/clinical-reference.md §7)', () => {
  it.each([
    // child 20 kg: atropine 0.02 × 20, adrenaline IV 1 × 20 micrograms, IM 0.01 × 20 mg, fluids 10 × 20 mL
    ['child', 20, 'bradycardia', 'atropine', '0.4 mg'],
    ['child', 20, 'bradycardia', 'secondLine', '200 micrograms = 2 mL of 0.1 mg/mL'],
    ['child', 20, 'anaphylaxis', 'adrenalineIv', '20 micrograms = 0.2 mL of 100 micrograms/mL'],
    ['child', 20, 'anaphylaxis', 'adrenalineIm', '0.2 mg = 0.2 mL of 1 mg/mL'],
    ['child', 20, 'anaphylaxis', 'fluids', '200 mL'],
    // child 30 kg: atropine capped at 0.5 mg (0.6 computed)
    ['child', 30, 'bradycardia', 'atropine', '0.5 mg (capped)'],
    ['child', 30, 'anaphylaxis', 'adrenalineIv', '30 micrograms = 0.3 mL of 100 micrograms/mL'],
    ['child', 30, 'anaphylaxis', 'adrenalineIm', '0.3 mg = 0.3 mL of 1 mg/mL'],
    // adult 80 kg: atropine 1 mg, adrenaline IV 50 micrograms (0.5 mL of 100 micrograms/mL), IM 0.5 mg (0.5 mL
    // of 1 mg/mL)
    ['adult', 80, 'bradycardia', 'atropine', '1 mg'],
    ['adult', 80, 'anaphylaxis', 'adrenalineIv', '50 micrograms = 0.5 mL of 100 micrograms/mL'],
    ['adult', 80, 'anaphylaxis', 'adrenalineIm', '0.5 mg = 0.5 mL of 1 mg/mL'],
    ['adult', 80, 'anaphylaxis', 'fluids', '500-1000 mL'],
    ['adult', 80, 'bradycardia', 'secondLine', '-'],
    // the minimum: child 3 kg atropine 0.1 mg (0.06 computed)
    ['child', 3, 'bradycardia', 'atropine', '0.1 mg (minimum)'],
    // the cap: child 120 kg → adrenaline IV for bradycardia 1 mg (1.2 mg computed, capped; PALS 2020), 10 mL of
    // 0.1 mg/mL; below 1 mg the dose stays in micrograms (child 99 kg: 990 micrograms = 9.9 mL)
    ['child', 120, 'bradycardia', 'secondLine', '1 mg = 10 mL of 0.1 mg/mL (capped)'],
    ['child', 100, 'bradycardia', 'secondLine', '1 mg = 10 mL of 0.1 mg/mL'],
    ['child', 99, 'bradycardia', 'secondLine', '990 micrograms = 9.9 mL of 0.1 mg/mL'],
    ['child', 3.5, 'bradycardia', 'secondLine', '35 micrograms = 0.35 mL of 0.1 mg/mL'],
  ] as const)('%s %i kg: %s %s → %s', (ageGroup, weightKg, section, id, expected) => {
    expect(shown(stepOf(card({ ageGroup, weightKg }), section, id))).toBe(expected);
  });

  it('child 30 kg: the atropine line says what was computed before the cap', () => {
    const atropine = stepOf(card({ ageGroup: 'child', weightKg: 30 }), 'bradycardia', 'atropine');
    expect([atropine.dose?.amount, atropine.dose?.computed, atropine.capped]).toEqual([0.5, 0.6, true]);
  });

  it('child 120 kg: bradycardia adrenaline capped at 1 mg, 1.2 mg computed, citing PALS 2020', () => {
    const adrenaline = stepOf(card({ ageGroup: 'child', weightKg: 120 }), 'bradycardia', 'secondLine');
    expect(adrenaline.dose).toEqual({ amount: 1, unit: 'mg', computed: 1.2 });
    expect([adrenaline.capped, adrenaline.raisedToMinimum, adrenaline.source]).toEqual([true, false, 'pals2020']);
    expect(adrenaline.detail).toContain('max 1 mg a dose (PALS 2020)');
  });

  it('child 3 kg: the atropine line says what was computed before the minimum', () => {
    const atropine = stepOf(card({ ageGroup: 'child', weightKg: 3 }), 'bradycardia', 'atropine');
    expect([atropine.dose?.amount, atropine.dose?.computed, atropine.raisedToMinimum]).toEqual([0.1, 0.06, true]);
  });

  it('an adult needs no weight: the same doses without one', () => {
    const without = card({ ageGroup: 'adult' });
    expect(without.weightKg).toBeNull();
    expect(card({ ageGroup: 'adult', weightKg: null }).sections).toEqual(without.sections);
    expect(card({ ageGroup: 'adult', weightKg: 80 }).sections).toEqual(without.sections);
  });
});

describe('caps and minimums (child never above adult)', () => {
  it.each([
    // [function, weight, amount, computed, capped, raised]
    ['atropine mg', atropineEmergencyMg('child', 5), 0.1, 0.1, false, false], // 0.02 × 5 = 0.1, the minimum itself
    ['atropine mg', atropineEmergencyMg('child', 4.9), 0.1, 0.098, false, true],
    ['atropine mg', atropineEmergencyMg('child', 1), 0.1, 0.02, false, true],
    ['atropine mg', atropineEmergencyMg('child', 25), 0.5, 0.5, false, false], // the maximum itself
    ['atropine mg', atropineEmergencyMg('child', 25.5), 0.5, 0.51, true, false],
    ['atropine mg', atropineEmergencyMg('child', 200), 0.5, 4, true, false],
    ['atropine mg', atropineEmergencyMg('adult', 200), 1, 1, false, false],
    ['adrenaline IV micrograms', anaphylaxisAdrenalineIvMicrograms('child', 50), 50, 50, false, false],
    ['adrenaline IV micrograms', anaphylaxisAdrenalineIvMicrograms('child', 51), 50, 51, true, false],
    ['adrenaline IV micrograms', anaphylaxisAdrenalineIvMicrograms('child', 200), 50, 200, true, false],
    ['adrenaline IV micrograms', anaphylaxisAdrenalineIvMicrograms('adult', 3), 50, 50, false, false],
    ['adrenaline IM mg', anaphylaxisAdrenalineImMg('child', 50), 0.5, 0.5, false, false],
    ['adrenaline IM mg', anaphylaxisAdrenalineImMg('child', 60), 0.5, 0.6, true, false],
    ['adrenaline IM mg', anaphylaxisAdrenalineImMg('adult', 40), 0.5, 0.5, false, false],
    ['crystalloid mL', crystalloidChildMl(100), 1000, 1000, false, false],
    ['crystalloid mL', crystalloidChildMl(120), 1000, 1200, true, false],
    // a child's adrenaline in bradycardia: at most 1 mg (1000 micrograms) a dose, PALS 2020 (reached at 100 kg)
    ['bradycardia adrenaline micrograms', bradycardiaAdrenalineChildMicrograms(99.9), 999, 999, false, false],
    ['bradycardia adrenaline micrograms', bradycardiaAdrenalineChildMicrograms(100), 1000, 1000, false, false],
    ['bradycardia adrenaline micrograms', bradycardiaAdrenalineChildMicrograms(120), 1000, 1200, true, false],
    ['bradycardia adrenaline micrograms', bradycardiaAdrenalineChildMicrograms(200), 1000, 2000, true, false],
  ])('%s → %s', (_name, value, amount, computed, capped, raised) => {
    expect(value).toEqual({ amount, computed, capped, raisedToMinimum: raised });
  });

  it('the doses and caps are docs/clinical-reference.md §7', () => {
    expect([E.ATROPINE_CHILD_MG_PER_KG, E.ATROPINE_CHILD_MIN_MG, E.ATROPINE_CHILD_MAX_MG, E.ATROPINE_ADULT_MG]).toEqual(
      [0.02, 0.1, 0.5, 1],
    );
    expect([E.ADRENALINE_IV_ANAPHYLAXIS_ADULT_MICROGRAMS, E.ADRENALINE_IV_ANAPHYLAXIS_CHILD_MICROGRAMS_PER_KG]).toEqual(
      [50, 1],
    );
    expect([E.ADRENALINE_IM_ADULT_MG, E.ADRENALINE_IM_CHILD_MG_PER_KG, E.ADRENALINE_IM_CHILD_MAX_MG]).toEqual([
      0.5, 0.01, 0.5,
    ]);
    expect([E.CRYSTALLOID_ADULT_MIN_ML, E.CRYSTALLOID_ADULT_MAX_ML, E.CRYSTALLOID_CHILD_ML_PER_KG]).toEqual([
      500, 1000, 10,
    ]);
    expect([E.ADRENALINE_BRADYCARDIA_CHILD_MG_PER_KG, E.ADRENALINE_BRADYCARDIA_CHILD_MICROGRAMS_PER_KG]).toEqual([
      0.01, 10,
    ]);
    expect(E.ADRENALINE_BRADYCARDIA_CHILD_MG_PER_KG / E.ADRENALINE_BRADYCARDIA_STRENGTH_MG_PER_ML).toBeCloseTo(
      E.ADRENALINE_BRADYCARDIA_CHILD_ML_PER_KG,
      12,
    );
  });
});

describe('rounding: mg to 2 decimals, micrograms and crystalloid mL whole, drug volumes to 2 decimals', () => {
  it.each([
    // weight, atropine mg, bradycardia adrenaline (micrograms, mL), IV adrenaline (micrograms, mL), IM (mg, mL), fluids
    [3.5, 0.1, 35, 0.35, 4, 0.04, 0.04, 0.04, 35], // 0.07 → min 0.1; 3.5 → 4 micrograms (half up); 0.035 → 0.04 mg
    [7.3, 0.15, 73, 0.73, 7, 0.07, 0.07, 0.07, 73], // 0.146 → 0.15 mg
    [12.3, 0.25, 123, 1.23, 12, 0.12, 0.12, 0.12, 123], // 0.246 → 0.25 mg
    [16.25, 0.33, 163, 1.63, 16, 0.16, 0.16, 0.16, 163], // 0.325 → 0.33; 162.5 → 163 micrograms and mL
    [22.5, 0.45, 225, 2.25, 23, 0.23, 0.23, 0.23, 225], // 22.5 → 23 micrograms
    [65.3, 0.5, 653, 6.53, 50, 0.5, 0.5, 0.5, 653],
  ])('%s kg', (weightKg, atropine, bradyMicrograms, bradyMl, ivMicrograms, ivMl, imMg, imMl, fluidsMl) => {
    const outcome = card({ ageGroup: 'child', weightKg });
    const step = (section: 'bradycardia' | 'anaphylaxis', id: EmergencyStepId) => stepOf(outcome, section, id);
    expect(step('bradycardia', 'atropine').dose?.amount).toBe(atropine);
    expect([step('bradycardia', 'secondLine').dose?.amount, step('bradycardia', 'secondLine').volume?.ml]).toEqual([
      bradyMicrograms,
      bradyMl,
    ]);
    expect([step('anaphylaxis', 'adrenalineIv').dose?.amount, step('anaphylaxis', 'adrenalineIv').volume?.ml]).toEqual([
      ivMicrograms,
      ivMl,
    ]);
    expect([step('anaphylaxis', 'adrenalineIm').dose?.amount, step('anaphylaxis', 'adrenalineIm').volume?.ml]).toEqual([
      imMg,
      imMl,
    ]);
    expect(step('anaphylaxis', 'fluids').dose?.amount).toBe(fluidsMl);
  });
});

describe('the lines, in order, each with its source', () => {
  const ANAPHYLAXIS_STEPS: EmergencyStepId[] = [
    'firstActions',
    'adrenalineIv',
    'adrenalineIm',
    'fluids',
    'refractory',
    'tryptase',
    'report',
    'allergyReferral',
  ];
  const ids = (outcome: Card) => outcome.sections.map((section) => [section.id, section.steps.map((step) => step.id)]);

  it('adult', () => {
    expect(ids(card({ ageGroup: 'adult' }))).toEqual([
      ['bradycardia', ['atropine', 'secondLine', 'pulseless']],
      ['anaphylaxis', ANAPHYLAXIS_STEPS],
    ]);
  });

  it('child', () => {
    expect(ids(card({ ageGroup: 'child', weightKg: 20 }))).toEqual([
      ['bradycardia', ['atropine', 'secondLine', 'childCpr', 'pulseless']],
      ['anaphylaxis', ANAPHYLAXIS_STEPS],
    ]);
  });

  it.each(['adult', 'child'] as const)('%s: bradycardia from AHA 2020 (adult) or PALS 2020 (child)', (ageGroup) => {
    const outcome = card({ ageGroup, weightKg: 20 });
    const expected = ageGroup === 'adult' ? 'aha2020' : 'pals2020';
    expect(new Set(outcome.sections[0]!.steps.map((step) => step.source))).toEqual(new Set([expected]));
    const anaphylaxis = outcome.sections[1]!;
    expect(anaphylaxis.steps.map((step) => step.source)).toEqual(
      ANAPHYLAXIS_STEPS.map((id) => (id === 'report' ? 'sfda' : 'nap6Rcuk2021')),
    );
    expect(anaphylaxis.note).toMatchObject({
      source: 'miyazaki2018Orihara2020',
      sourceLabel: 'Miyazaki 2018; Orihara 2020',
    });
    for (const step of outcome.sections.flatMap((section) => section.steps)) {
      expect(step.sourceLabel.length).toBeGreaterThan(0);
      expect(outcome.sources.map((source) => source.id)).toContain(step.source);
    }
  });

  it('says "check against local protocol", and names every source in full', () => {
    const outcome = card({ ageGroup: 'adult' });
    expect(outcome.checkLocalProtocol).toBe('Check against local protocol');
    expect(outcome.sources).toEqual([
      { id: 'aha2020', short: 'AHA 2020', full: 'American Heart Association 2020: adult bradycardia algorithm' },
      {
        id: 'miyazaki2018Orihara2020',
        short: 'Miyazaki 2018; Orihara 2020',
        full:
          'Miyazaki Y et al. Anesth Analg 2018 (doi:10.1213/ANE.0000000000002562), one Japanese centre; ' +
          'Orihara M et al. BJA 2020;124:154 (doi:10.1016/j.bja.2019.10.016), four Japanese centres',
      },
      expect.objectContaining({ id: 'nap6Rcuk2021', short: 'NAP6 2018; RCUK 2021' }),
      expect.objectContaining({ id: 'sfda', short: 'SFDA' }),
    ]);
  });

  it('atropine: in mg only, no mL, and the line says why (its strengths vary between hospitals)', () => {
    for (const input of [{ ageGroup: 'adult' }, { ageGroup: 'child', weightKg: 20 }]) {
      const atropine = stepOf(card(input), 'bradycardia', 'atropine');
      expect(atropine.dose?.unit).toBe('mg');
      expect(atropine.volume).toBeNull();
      expect(atropine.volumeNote).toBe(
        'Atropine is shown in mg only: its strengths vary between hospitals (0.1, 0.4, 0.5, 0.6, 1 mg/mL), so no ' +
          'volume is given. Check the ampoule.',
      );
    }
    expect(E.ATROPINE_STRENGTHS_MG_PER_ML).toEqual([0.1, 0.4, 0.5, 0.6, 1]);
  });

  it('anaphylaxis after sugammadex: 1 in 2,500 (Miyazaki 2018) to 1 in 5,000 (Orihara 2020), with both sources', () => {
    const note = card({ ageGroup: 'adult' }).sections[1]!.note!;
    expect(note.text).toBe(
      'After sugammadex, anaphylaxis occurs in about 1 in 2,500 (Miyazaki 2018) to 1 in 5,000 (Orihara 2020) ' +
        'administrations, most within 5 minutes of injection.',
    );
    expect([E.SUGAMMADEX_ANAPHYLAXIS_ONE_IN_MIYAZAKI_2018, E.SUGAMMADEX_ANAPHYLAXIS_ONE_IN_ORIHARA_2020]).toEqual([
      2500, 5000,
    ]);
    const arabic = withoutIsolates(
      expectCard(emergencyCard({ ageGroup: 'adult' }, CLINICAL_TEXTS_AR)).sections[1]!.note!.text,
    );
    expect(arabic).toContain('1 من كل 2,500 إعطاء (Miyazaki 2018) إلى 1 من كل 5,000 إعطاء (Orihara 2020)');
  });

  it('refractory means after 3 adrenaline boluses; tryptase is timed from the onset of the reaction', () => {
    for (const ageGroup of ['adult', 'child'] as const) {
      const outcome = card({ ageGroup, weightKg: 20 });
      expect(stepOf(outcome, 'anaphylaxis', 'refractory').action).toBe('Refractory (after 3 adrenaline boluses)');
      expect(stepOf(outcome, 'anaphylaxis', 'tryptase').detail).toBe(
        'As soon as feasible, then 1-2 h from the onset of the reaction, then at least 24 h after it',
      );
      const arabic = expectCard(emergencyCard({ ageGroup, weightKg: 20 }, CLINICAL_TEXTS_AR));
      expect(withoutIsolates(stepOf(arabic, 'anaphylaxis', 'refractory').action)).toBe(
        'حالة معنّدة (بعد 3 جرعات من الأدرينالين)',
      );
      expect(withoutIsolates(stepOf(arabic, 'anaphylaxis', 'tryptase').detail)).toContain('1-2 h من بدء التفاعل');
    }
  });

  it('the child lines state the rule by weight', () => {
    const outcome = card({ ageGroup: 'child', weightKg: 20 });
    expect(stepOf(outcome, 'bradycardia', 'atropine').detail).toBe(
      '0.02 mg/kg (min 0.1 mg, max 0.5 mg); may repeat once',
    );
    expect(stepOf(outcome, 'anaphylaxis', 'adrenalineIv').detail).toContain(
      '1 microgram/kg, not above the adult 50 micrograms',
    );
    expect(stepOf(outcome, 'anaphylaxis', 'adrenalineIm').detail).toContain('0.01 mg/kg, max 0.5 mg');
    expect(stepOf(outcome, 'anaphylaxis', 'fluids').detail).toContain('10 mL/kg, not above the adult 1000 mL');
  });
});

describe('a child without a weight', () => {
  it.each([{}, { weightKg: null }, { weightKg: undefined }])('%j: needs_weight, the lines without doses', (extra) => {
    const outcome = emergencyCard({ ageGroup: 'child', ...extra });
    if (outcome.kind !== 'needs_weight') throw new Error(outcome.kind);
    expect(outcome.message).toBe("Enter the child's weight in kg to see the doses.");
    expect(outcome.weightKg).toBeNull();
    const steps = outcome.sections.flatMap((section) => section.steps);
    expect(steps).toHaveLength(12);
    expect(steps.every((step) => step.dose === null && step.volume === null && !step.capped)).toBe(true);
    expect(steps.find((step) => step.id === 'atropine')!.detail).toContain('0.02 mg/kg');
  });
});

describe('invalid input is refused, never clamped', () => {
  it.each([
    [{ ageGroup: 'child', weightKg: 0 }, 'weightKg', 'Weight must be between 1 and 200 kg'],
    [{ ageGroup: 'child', weightKg: 0.5 }, 'weightKg', 'Weight must be between 1 and 200 kg'],
    [{ ageGroup: 'child', weightKg: 200.1 }, 'weightKg', 'Weight must be between 1 and 200 kg'],
    [{ ageGroup: 'adult', weightKg: -3 }, 'weightKg', 'Weight must be between 1 and 200 kg'],
    [{ ageGroup: 'child', weightKg: Number.NaN }, 'weightKg', 'Weight must be between 1 and 200 kg'],
    [{ ageGroup: 'child', weightKg: '20' }, 'weightKg', 'Weight must be between 1 and 200 kg'],
    [{ ageGroup: 'infant', weightKg: 8 }, 'ageGroup', 'Choose adult or child (under 18)'],
    [{ weightKg: 20 }, 'ageGroup', 'Choose adult or child (under 18)'],
    [{ ageGroup: 'child', weight: 20 }, 'weight', 'Unknown field "weight"'],
  ])('%j → %s: %s', (input, field, message) => {
    expect(emergencyCard(input)).toEqual({ kind: 'invalid_input', issues: [{ field, message }] });
  });

  it('a weight of exactly 1 or 200 kg is accepted', () => {
    expect(card({ ageGroup: 'child', weightKg: 1 }).weightKg).toBe(1);
    expect(card({ ageGroup: 'child', weightKg: 200 }).weightKg).toBe(200);
  });
});

describe('in Arabic', () => {
  it.each([{ ageGroup: 'child', weightKg: 20 }, { ageGroup: 'child', weightKg: 30 }, { ageGroup: 'adult' }])(
    '%j: the same numbers, Arabic words with the English text numbers',
    (input) => {
      const english = card(input);
      const arabic = expectCard(emergencyCard(input, CLINICAL_TEXTS_AR));
      const numbers = (outcome: Card) =>
        outcome.sections.map((section) =>
          section.steps.map(({ dose, volume, capped, source }) => ({ dose, volume, capped, source })),
        );
      expect(numbers(arabic)).toEqual(numbers(english));
      const texts = (outcome: Card) =>
        outcome.sections.flatMap((section) => [
          section.title,
          ...section.steps.flatMap((step) => [step.action, step.detail]),
        ]);
      const arabicTexts = texts(arabic);
      texts(english).forEach((text, index) => expect(digitRuns(arabicTexts[index]!)).toEqual(digitRuns(text)));
      expect(withoutIsolates(arabic.checkLocalProtocol)).toBe('تحقَّق من البروتوكول المحلي');
    },
  );

  it('refuses with Arabic messages', () => {
    const outcome = emergencyCard({ ageGroup: 'child', weightKg: 500 }, CLINICAL_TEXTS_AR);
    expect(outcome.kind).toBe('invalid_input');
    if (outcome.kind === 'invalid_input') expect(withoutIsolates(outcome.issues[0]!.message)).toContain('1-200 kg');
  });
});
