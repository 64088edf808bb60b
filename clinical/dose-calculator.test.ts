import { describe, expect, it } from 'vitest';
import { calculateDose, type DoseOutcome } from './dose-calculator.ts';
import type { DoseCalculatorInput } from './dose-schema.ts';
import * as text from './dose-texts.ts';

/** A valid adult moderate-block request; each case changes only what it tests. */
const base: DoseCalculatorInput = {
  ageGroup: 'adult',
  bodyWeight: 70,
  nmbaType: 'rocuronium',
  creatinine: 100,
  tofCount: '2',
  ptc: null,
  rsiScenario: false,
  dialysis: false,
};
const run = (changes: Record<string, unknown>): DoseOutcome => calculateDose({ ...base, ...changes });

function expectDose(outcome: DoseOutcome) {
  if (outcome.kind !== 'dose') throw new Error(`expected a dose, got ${JSON.stringify(outcome)}`);
  return outcome;
}

describe('worked examples (docs/clinical-reference.md §1)', () => {
  it.each([
    // weight, mg/kg from TOF/PTC/RSI, total mg, vials, mL, SAR
    {
      name: '70 kg × 2 mg/kg = 140 mg → 1 vial, 1.4 mL, 147.64 SAR',
      changes: { bodyWeight: 70, tofCount: '2' },
      mgPerKg: 2,
      total: 140,
      vials: 1,
      ml: 1.4,
      sar: 147.64,
    },
    {
      name: '70 kg × 4 mg/kg = 280 mg → 2 vials, 2.8 mL, 295.28 SAR',
      changes: { bodyWeight: 70, tofCount: '0' },
      mgPerKg: 4,
      total: 280,
      vials: 2,
      ml: 2.8,
      sar: 295.28,
    },
    {
      name: '80 kg × 16 mg/kg = 1280 mg → 7 vials, 12.8 mL, 1033.48 SAR',
      changes: { bodyWeight: 80, rsiScenario: true },
      mgPerKg: 16,
      total: 1280,
      vials: 7,
      ml: 12.8,
      sar: 1033.48,
    },
    {
      name: '65.3 kg × 2 mg/kg = 130.6 → 131 mg → 1 vial, 1.3 mL',
      changes: { bodyWeight: 65.3, tofCount: '2' },
      mgPerKg: 2,
      total: 131,
      vials: 1,
      ml: 1.3,
      sar: 147.64,
    },
  ])('$name', ({ changes, mgPerKg, total, vials, ml, sar }) => {
    const dose = expectDose(run(changes));
    expect(dose.doseMgPerKg).toBe(mgPerKg);
    expect(dose.totalDoseMg).toBe(total);
    expect(dose.vials).toBe(vials);
    expect(dose.volumeMl).toBe(ml);
    expect(dose.costSar).toBe(sar);
    expect(dose.costSar.toFixed(2)).toBe(sar.toFixed(2));
  });
});

describe('rule 1: body weight', () => {
  it.each([
    { weight: 0, message: 'Please enter a valid body weight' },
    { weight: -1, message: 'Please enter a valid body weight' },
    { weight: -0.5, message: 'Please enter a valid body weight' },
    { weight: Number.NaN, message: 'Please enter a valid body weight' },
    { weight: Number.POSITIVE_INFINITY, message: 'Please enter a valid body weight' },
    { weight: undefined, message: 'Please enter a valid body weight' },
    { weight: null, message: 'Please enter a valid body weight' },
    { weight: '70', message: 'Please enter a valid body weight' },
    { weight: '', message: 'Please enter a valid body weight' },
    { weight: 0.5, message: 'Body weight must be between 1 and 200 kg' },
    { weight: 0.99, message: 'Body weight must be between 1 and 200 kg' },
    { weight: 200.1, message: 'Body weight must be between 1 and 200 kg' },
    { weight: 201, message: 'Body weight must be between 1 and 200 kg' },
    { weight: 1000, message: 'Body weight must be between 1 and 200 kg' },
  ])('weight $weight is refused: "$message", no result', ({ weight, message }) => {
    expect(run({ bodyWeight: weight })).toEqual({ kind: 'invalid_input', issues: [{ field: 'bodyWeight', message }] });
  });

  it.each([
    { weight: 1, total: 2, vials: 1, ml: 0.0 }, // 2 mg/kg × 1 kg = 2 mg → 1 vial, 0.02 mL → 0.0 mL
    { weight: 1.5, total: 3, vials: 1, ml: 0.0 }, // 2 × 1.5 = 3 mg → 0.03 mL → 0.0
    { weight: 2.5, total: 5, vials: 1, ml: 0.1 }, // 2 × 2.5 = 5 mg → 0.05 mL → 0.1 (half up)
    { weight: 100, total: 200, vials: 1, ml: 2.0 }, // 2 × 100 = 200 mg → exactly one vial
    { weight: 100.5, total: 201, vials: 2, ml: 2.0 }, // 2 × 100.5 = 201 mg → 2 vials, 2.01 → 2.0 mL
    { weight: 199.9, total: 400, vials: 2, ml: 4.0 }, // 2 × 199.9 = 399.8 → 400 mg
    { weight: 200, total: 400, vials: 2, ml: 4.0 }, // 2 × 200 = 400 mg → 2 vials
  ])('weight $weight kg at 2 mg/kg gives $total mg, $vials vial(s), $ml mL', ({ weight, total, vials, ml }) => {
    const dose = expectDose(run({ bodyWeight: weight }));
    expect([dose.totalDoseMg, dose.vials, dose.volumeMl, dose.weightKg]).toEqual([total, vials, ml, weight]);
    expect(dose.warnings.includes(text.smallVolumeWarning(total))).toBe(ml < 1);
  });

  it('a volume that rounds to 0.0 mL names the exact volume and the dilution', () => {
    // 2 mg/kg × 1 kg = 2 mg = 0.02 mL at 100 mg/mL
    expect(text.smallVolumeWarning(2)).toBe(
      'Small volume: 2 mg is 0.02 mL at 100 mg/mL. Measure it with a 1 mL ' +
        'syringe, or dilute to 10 mg/mL (0.2 mL) for accuracy (EU SmPC 4.2).',
    );
  });

  it('an invalid weight wins over every later rule (nmba other, dialysis, infant)', () => {
    const outcome = run({ bodyWeight: 0, nmbaType: 'other', dialysis: true, ageGroup: 'infant' });
    expect(outcome).toEqual({
      kind: 'invalid_input',
      issues: [{ field: 'bodyWeight', message: 'Please enter a valid body weight' }],
    });
  });

  it('lists the weight issue first when several fields are wrong', () => {
    const outcome = run({ bodyWeight: -3, creatinine: 5, ptc: 99 });
    expect(outcome.kind).toBe('invalid_input');
    if (outcome.kind !== 'invalid_input') return;
    expect(outcome.issues.map((issue) => issue.field)).toEqual(['bodyWeight', 'creatinine', 'ptc']);
  });
});

describe('other fields are refused, never clamped', () => {
  it.each([
    {
      changes: { creatinine: 9 },
      field: 'creatinine',
      message: 'Creatinine clearance must be between 10 and 200 mL/min (leave it empty if unknown)',
    },
    {
      changes: { creatinine: 201 },
      field: 'creatinine',
      message: 'Creatinine clearance must be between 10 and 200 mL/min (leave it empty if unknown)',
    },
    {
      changes: { creatinine: '50' },
      field: 'creatinine',
      message: 'Creatinine clearance must be between 10 and 200 mL/min (leave it empty if unknown)',
    },
    {
      changes: { tofCount: '5' },
      field: 'tofCount',
      message: 'TOF count must be 0, 1, 2, 3 or 4 (leave it empty if not counted)',
    },
    {
      changes: { tofCount: 2 },
      field: 'tofCount',
      message: 'TOF count must be 0, 1, 2, 3 or 4 (leave it empty if not counted)',
    },
    {
      changes: { tofCount: '-1' },
      field: 'tofCount',
      message: 'TOF count must be 0, 1, 2, 3 or 4 (leave it empty if not counted)',
    },
    {
      changes: { ptc: 16 },
      field: 'ptc',
      message: 'PTC must be a whole number from 0 to 15 (leave it empty if not counted)',
    },
    {
      changes: { ptc: -1 },
      field: 'ptc',
      message: 'PTC must be a whole number from 0 to 15 (leave it empty if not counted)',
    },
    {
      changes: { ptc: 1.5 },
      field: 'ptc',
      message: 'PTC must be a whole number from 0 to 15 (leave it empty if not counted)',
    },
    { changes: { ageGroup: 'elderly' }, field: 'ageGroup', message: 'Choose an age group: adult, pediatric or infant' },
    { changes: { ageGroup: undefined }, field: 'ageGroup', message: 'Choose an age group: adult, pediatric or infant' },
    {
      changes: { nmbaType: 'atracurium' },
      field: 'nmbaType',
      message: 'Choose the blocking agent: rocuronium, vecuronium or other',
    },
    {
      changes: { rsiScenario: 'yes' },
      field: 'rsiScenario',
      message: 'RSI scenario must be ticked or unticked (true or false)',
    },
    {
      changes: { dialysis: undefined },
      field: 'dialysis',
      message: 'Dialysis must be ticked or unticked (true or false)',
    },
    { changes: { weightKg: 70 }, field: 'weightKg', message: 'Unknown field "weightKg"' },
  ])('$field: $message', ({ changes, field, message }) => {
    expect(run(changes)).toEqual({ kind: 'invalid_input', issues: [{ field, message }] });
  });

  it.each([null, undefined, 'text', 42, []])('a non-object input (%j) is refused', (input) => {
    const outcome = calculateDose(input);
    expect(outcome.kind).toBe('invalid_input');
  });

  it('accepts the edges of every range', () => {
    expect(run({ creatinine: 200, ptc: 15 }).kind).toBe('dose');
    expect(run({ creatinine: null, tofCount: null, ptc: 0 }).kind).toBe('unable_to_calculate');
  });
});

describe('rule 2: not indicated for NMBAs other than rocuronium and vecuronium', () => {
  it('nmba other → "Not indicated" with the indication warning', () => {
    expect(run({ nmbaType: 'other' })).toEqual({
      kind: 'not_indicated',
      title: 'Not indicated',
      warnings: ['Only indicated for the reversal of neuromuscular blockade induced by rocuronium or vecuronium'],
    });
  });
  it.each([
    { changes: { creatinine: 20 } },
    { changes: { dialysis: true } },
    { changes: { ageGroup: 'infant' } },
    { changes: { rsiScenario: true } },
    { changes: { tofCount: '', ptc: null } },
  ])('comes before the later rules: $changes', ({ changes }) => {
    expect(run({ nmbaType: 'other', ...changes }).kind).toBe('not_indicated');
  });
});

describe('rule 3: severe renal impairment or dialysis', () => {
  const contraindicated = {
    kind: 'contraindicated',
    title: 'Contraindicated',
    contraindicated: true,
    warnings: [
      'Not recommended in severe renal impairment (CrCl <30 mL/min) or dialysis patients',
      text.RENAL_LABEL_NOTE,
    ],
  };
  it.each([
    { creatinine: 10, dialysis: false },
    { creatinine: 29, dialysis: false },
    { creatinine: 29.9, dialysis: false },
    { creatinine: 100, dialysis: true },
    { creatinine: null, dialysis: true },
    { creatinine: 30, dialysis: true },
  ])('CrCl $creatinine, dialysis $dialysis → Contraindicated', (changes) => {
    expect(run(changes)).toEqual(contraindicated);
  });

  it.each([
    // CrCl, outcome, renal warning expected
    { creatinine: 30, note: text.CRCL_NO_ADJUSTMENT_NOTE },
    { creatinine: 31, note: text.CRCL_NO_ADJUSTMENT_NOTE },
    { creatinine: 79, note: text.CRCL_NO_ADJUSTMENT_NOTE },
    { creatinine: 80, note: text.CRCL_NO_ADJUSTMENT_NOTE },
    { creatinine: 81, note: undefined },
    { creatinine: 200, note: undefined },
    { creatinine: null, note: text.CRCL_NOT_ENTERED_WARNING },
    { creatinine: undefined, note: text.CRCL_NOT_ENTERED_WARNING },
  ])('CrCl $creatinine → a dose, with the renal note $note', ({ creatinine, note }) => {
    const dose = expectDose(run({ creatinine }));
    expect(dose.doseMgPerKg).toBe(2);
    const renalNotes = dose.warnings.filter(
      (w) => w === text.CRCL_NO_ADJUSTMENT_NOTE || w === text.CRCL_NOT_ENTERED_WARNING,
    );
    expect(renalNotes).toEqual(note ? [note] : []);
  });

  it('comes before the infant rule', () => {
    expect(run({ ageGroup: 'infant', creatinine: 20 }).kind).toBe('contraindicated');
    expect(run({ ageGroup: 'infant', dialysis: true }).kind).toBe('contraindicated');
  });
});

describe('rule 4: infants', () => {
  it.each([
    { changes: {} },
    { changes: { rsiScenario: true } },
    { changes: { tofCount: '', ptc: null } },
    { changes: { nmbaType: 'vecuronium' } },
  ])('infant → "Not established" ($changes)', ({ changes }) => {
    expect(run({ ageGroup: 'infant', ...changes })).toEqual({
      kind: 'not_established',
      title: 'Not established',
      notEstablished: true,
      warnings: ['Use in children under 2 years of age is not established'],
    });
  });
});

describe('rule 5: dose per kg by block depth', () => {
  const noDepth = { tofCount: '', ptc: null };
  it.each([
    // tofCount, ptc → mg/kg (70 kg: 2 → 140 mg, 4 → 280 mg) and the indication
    { tofCount: '4', ptc: null, mgPerKg: 2, total: 140, indication: text.moderateIndication('4') },
    { tofCount: '3', ptc: null, mgPerKg: 2, total: 140, indication: text.moderateIndication('3') },
    { tofCount: '2', ptc: null, mgPerKg: 2, total: 140, indication: 'Moderate block (TOF count 2: T2 has reappeared)' },
    { tofCount: '2', ptc: 1, mgPerKg: 2, total: 140, indication: 'Moderate block (TOF count 2: T2 has reappeared)' },
    {
      tofCount: '1',
      ptc: null,
      mgPerKg: 4,
      total: 280,
      indication: 'Deep block (TOF count 1: no labelled dose; 4 mg/kg is the deep-block dose)',
    },
    { tofCount: '0', ptc: null, mgPerKg: 4, total: 280, indication: 'Deep block (TOF count 0)' },
    { tofCount: '0', ptc: 5, mgPerKg: 4, total: 280, indication: 'Deep block (TOF count 0)' },
    {
      tofCount: '1',
      ptc: 0,
      mgPerKg: 4,
      total: 280,
      indication: 'Deep block (TOF count 1: no labelled dose; 4 mg/kg is the deep-block dose)',
    },
    { tofCount: '', ptc: 1, mgPerKg: 4, total: 280, indication: 'Deep block (PTC 1-2, no TOF response)' },
    { tofCount: '', ptc: 2, mgPerKg: 4, total: 280, indication: 'Deep block (PTC 1-2, no TOF response)' },
    { tofCount: null, ptc: 2, mgPerKg: 4, total: 280, indication: 'Deep block (PTC 1-2, no TOF response)' },
    { tofCount: undefined, ptc: 1, mgPerKg: 4, total: 280, indication: 'Deep block (PTC 1-2, no TOF response)' },
  ])(
    'TOF "$tofCount", PTC $ptc → $mgPerKg mg/kg × 70 kg = $total mg',
    ({ tofCount, ptc, mgPerKg, total, indication }) => {
      const dose = expectDose(run({ tofCount, ptc }));
      expect([dose.doseMgPerKg, dose.totalDoseMg, dose.indication]).toEqual([mgPerKg, total, indication]);
      expect(dose.depth).toBe(mgPerKg === 2 ? 'moderate' : 'deep');
    },
  );

  it('TOF 0 or 1 with PTC 0 still gives 4 mg/kg, with the profound-block caution', () => {
    expect(expectDose(run({ tofCount: '0', ptc: 0 })).warnings).toContain(text.PROFOUND_WITH_TOF_WARNING);
    expect(expectDose(run({ tofCount: '0', ptc: 1 })).warnings).not.toContain(text.PROFOUND_WITH_TOF_WARNING);
  });

  it.each([
    { tofCount: '', ptc: null, reason: 'Please specify block depth (TOF count or PTC)' },
    { tofCount: null, ptc: undefined, reason: 'Please specify block depth (TOF count or PTC)' },
    { tofCount: '', ptc: 0, reason: text.PROFOUND_BLOCK_REASON },
    { tofCount: '', ptc: 3, reason: text.countTofReason(3) },
    { tofCount: '', ptc: 15, reason: text.countTofReason(15) },
  ])('TOF "$tofCount", PTC $ptc → Unable to calculate', ({ tofCount, ptc, reason }) => {
    expect(run({ tofCount, ptc })).toEqual({
      kind: 'unable_to_calculate',
      title: 'Unable to calculate',
      reason,
      warnings: [],
    });
  });

  it('PTC 3 reason names the count and the next step', () => {
    expect(text.countTofReason(3)).toBe(
      'PTC 3 with no TOF count entered: count the TOF. Once twitches return ' +
        'the dose follows the TOF count (TOF 0-1: 4 mg/kg; TOF 2 or more: 2 ' +
        'mg/kg).',
    );
  });

  // RSI × age group × NMBA: every combination of the three, each depth setting.
  const rsiCases: {
    ageGroup: string;
    nmbaType: string;
    rsi: boolean;
    depth: Record<string, unknown>;
    expected: string;
  }[] = [];
  for (const ageGroup of ['adult', 'pediatric', 'infant']) {
    for (const nmbaType of ['rocuronium', 'vecuronium', 'other']) {
      for (const rsi of [true, false]) {
        for (const [depthName, depth] of Object.entries({
          tof2: { tofCount: '2', ptc: null },
          tof0: { tofCount: '0', ptc: null },
          none: noDepth,
        })) {
          let expected: string;
          if (nmbaType === 'other') expected = 'not_indicated';
          else if (ageGroup === 'infant') expected = 'not_established';
          else if (rsi && ageGroup === 'adult') expected = 'dose 16';
          else if (depthName === 'tof2') expected = 'dose 2';
          else if (depthName === 'tof0') expected = 'dose 4';
          else expected = 'unable_to_calculate';
          rsiCases.push({ ageGroup, nmbaType, rsi, depth, expected });
        }
      }
    }
  }
  it.each(rsiCases)(
    '$ageGroup, $nmbaType, RSI $rsi, $depth → $expected',
    ({ ageGroup, nmbaType, rsi, depth, expected }) => {
      const outcome = run({ ageGroup, nmbaType, rsiScenario: rsi, ...depth });
      const summary = outcome.kind === 'dose' ? `dose ${outcome.doseMgPerKg}` : outcome.kind;
      expect(summary).toBe(expected);
      if (outcome.kind !== 'dose' && outcome.kind !== 'unable_to_calculate') return;
      expect(outcome.warnings.includes(text.PEDIATRIC_RSI_WARNING)).toBe(rsi && ageGroup === 'pediatric');
      expect(outcome.warnings.includes(text.RSI_VECURONIUM_WARNING)).toBe(
        rsi && ageGroup === 'adult' && nmbaType === 'vecuronium',
      );
    },
  );

  it('adult RSI gives 16 mg/kg whatever the TOF and PTC, with the immediate-reversal indication', () => {
    // 16 mg/kg × 70 kg = 1120 mg → 6 vials (1200 mg), 11.2 mL, 6 × 147.64 = 885.84 SAR
    const dose = expectDose(run({ rsiScenario: true, tofCount: '', ptc: null }));
    expect(dose).toMatchObject({
      depth: 'immediate',
      doseMgPerKg: 16,
      totalDoseMg: 1120,
      vials: 6,
      volumeMl: 11.2,
      costSar: 885.84,
      indication: 'Immediate reversal after rapid-sequence rocuronium 1.2 mg/kg',
      medianRecoveryMin: 1.5,
    });
  });

  it('paediatric RSI follows the TOF rules and warns', () => {
    // 4 mg/kg × 30 kg = 120 mg → 1 vial, 1.2 mL
    const dose = expectDose(run({ ageGroup: 'pediatric', bodyWeight: 30, rsiScenario: true, tofCount: '1' }));
    expect([dose.doseMgPerKg, dose.totalDoseMg, dose.vials, dose.volumeMl]).toEqual([4, 120, 1, 1.2]);
    expect(dose.warnings).toContain('16 mg/kg immediate reversal is not established in pediatrics');
  });

  it('paediatric RSI without a depth: unable to calculate, with the paediatric warning', () => {
    expect(run({ ageGroup: 'pediatric', rsiScenario: true, tofCount: '', ptc: null })).toEqual({
      kind: 'unable_to_calculate',
      title: 'Unable to calculate',
      reason: 'Please specify block depth (TOF count or PTC)',
      warnings: ['16 mg/kg immediate reversal is not established in pediatrics'],
    });
  });
});

describe('rule 6 and docs/product.md §9: what a dose result carries', () => {
  it('a complete dose result for 70 kg at TOF 2 with CrCl 100', () => {
    expect(run({})).toEqual({
      kind: 'dose',
      depth: 'moderate',
      doseMgPerKg: 2,
      weightKg: 70,
      indication: 'Moderate block (TOF count 2: T2 has reappeared)',
      totalDoseMg: 140,
      vials: 1,
      boxes: 1,
      volumeMl: 1.4,
      costSar: 147.64,
      medianRecoveryMin: 2,
      administration:
        'Single IV bolus over about 10 seconds; monitor TOF ratio every 15-30 seconds until at least 0.9.',
      monitoring: [
        'Quantitative neuromuscular monitoring',
        'Confirm TOF ratio ≥ 0.9 before extubation',
        'Assess ventilation and airway reflexes',
        'Monitor for recurrence of block',
      ],
      warnings: [],
    });
  });

  it.each([
    // 16 mg/kg × weight: vials above one box are shown plainly, never capped
    // 16 × 125 = 2000 mg → 10 vials
    { weight: 125, total: 2000, vials: 10, boxes: 1, ml: 20.0, sar: 1476.4, boxWarning: false },
    // 16 × 126 = 2016 mg → 11 vials
    { weight: 126, total: 2016, vials: 11, boxes: 2, ml: 20.2, sar: 1624.04, boxWarning: true },
    // 16 × 200 = 3200 mg → 16 vials
    { weight: 200, total: 3200, vials: 16, boxes: 2, ml: 32.0, sar: 2362.24, boxWarning: true },
  ])(
    '16 mg/kg × $weight kg = $total mg → $vials vials ($boxes boxes)',
    ({ weight, total, vials, boxes, ml, sar, boxWarning }) => {
      const dose = expectDose(run({ bodyWeight: weight, rsiScenario: true }));
      expect([dose.totalDoseMg, dose.vials, dose.boxes, dose.volumeMl, dose.costSar]).toEqual([
        total,
        vials,
        boxes,
        ml,
        sar,
      ]);
      expect(dose.warnings.includes(text.moreThanOneBoxWarning(vials, boxes))).toBe(boxWarning);
    },
  );

  it.each([
    { weight: 100, total: 200, warned: false }, // 2 × 100 = 200 mg: one vial is enough
    { weight: 100.5, total: 201, warned: true }, // 2 × 100.5 = 201 mg: one vial would under-dose
  ])('under-dosing note when one vial is not enough ($total mg)', ({ weight, warned }) => {
    expect(expectDose(run({ bodyWeight: weight })).warnings.includes(text.UNDER_DOSING_WARNING)).toBe(warned);
  });
});

describe('creatinineMethod: how the CrCl was obtained (docs/fhir.md#creatinine-clearance)', () => {
  it.each([null, undefined, 'cockcroft_gault'])('%s changes no outcome', (creatinineMethod) => {
    expect(run({ creatinineMethod })).toEqual(run({}));
    expect(run({ creatinineMethod, creatinine: 20 }).kind).toBe('contraindicated');
  });

  it.each(['measured', 'CG', 1, true])('%s is refused, with a message naming the field', (creatinineMethod) => {
    expect(run({ creatinineMethod })).toEqual({
      kind: 'invalid_input',
      issues: [{ field: 'creatinineMethod', message: 'creatinineMethod must be "cockcroft_gault" or left out' }],
    });
  });
});
