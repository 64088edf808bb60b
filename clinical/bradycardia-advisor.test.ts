import { describe, expect, it } from 'vitest';
import { assessBradycardia, type BradycardiaOutcome } from './bradycardia-advisor.ts';
import { riskBandFor } from './bradycardia-model.ts';
import type { BradycardiaInput } from './bradycardia-schema.ts';
import { atropineDoseMg, pediatricAdrenalineMicrograms } from './management-plan.ts';
import { ADULT_ADVISOR_INPUT } from './test-inputs.test-support.ts';

const base: BradycardiaInput = ADULT_ADVISOR_INPUT;
const run = (changes: Record<string, unknown>): BradycardiaOutcome => assessBradycardia({ ...base, ...changes });
function expectAssessment(outcome: BradycardiaOutcome) {
  if (outcome.kind !== 'assessment') throw new Error(`expected an assessment, got ${JSON.stringify(outcome)}`);
  return outcome;
}

// odds(2 %) = 2/98 = 0.020408; percent = 100 × odds × M / (1 + odds × M)
describe('worked examples (docs/clinical-reference.md §4)', () => {
  it.each([
    { name: 'no factor → 2.0% LOW', changes: {}, percent: 2.0, band: 'LOW', factors: [] },
    {
      name: 'beta-blocker → 3.9% LOW',
      changes: { betaBlocker: true },
      percent: 3.9,
      band: 'LOW',
      factors: ['betaBlocker'],
    }, // 0.040816 / 1.040816
    {
      name: 'beta-blocker + dexmedetomidine → 7.5% MODERATE',
      changes: { betaBlocker: true, dexmedetomidine: true },
      percent: 7.5,
      band: 'MODERATE',
      factors: ['betaBlocker', 'dexmedetomidine'],
    }, // odds 0.081633 → 7.55
    {
      name: 'AV block + beta-blocker + HR 45 → 23.4% HIGH',
      changes: { cardiacHistory: 'av_block', betaBlocker: true, baselineHr: 45 },
      percent: 23.4,
      band: 'HIGH',
      factors: ['betaBlocker', 'conductionDisease', 'baselineHrBelow50'],
    }, // × 3 × 2 × 2.5 = 15 → odds 0.306122 → 23.44
  ])('$name', ({ changes, percent, band, factors }) => {
    const result = expectAssessment(run(changes));
    expect(result.riskPercent).toBe(percent);
    expect(result.riskBand).toBe(band);
    expect(result.factors.map((factor) => factor.id)).toEqual(factors);
  });
});

describe('each multiplier alone', () => {
  it.each([
    { changes: { betaBlocker: true }, id: 'betaBlocker', multiplier: 2.0, percent: 3.9 }, // odds 0.040816 → 3.92
    { changes: { dexmedetomidine: true }, id: 'dexmedetomidine', multiplier: 2.0, percent: 3.9 },
    { changes: { digoxin: true }, id: 'digoxin', multiplier: 1.5, percent: 3.0 }, // odds 0.030612 → 2.97
    { changes: { amiodarone: true }, id: 'amiodarone', multiplier: 1.5, percent: 3.0 },
    { changes: { highDoseOpioids: true }, id: 'highDoseOpioids', multiplier: 1.5, percent: 3.0 },
    { changes: { vagalStimulus: true }, id: 'vagalStimulus', multiplier: 2.0, percent: 3.9 },
    { changes: { cardiacHistory: 'bradycardia' }, id: 'historyBradycardia', multiplier: 2.0, percent: 3.9 },
    // odds 0.061224 → 5.77
    { changes: { cardiacHistory: 'av_block' }, id: 'conductionDisease', multiplier: 3.0, percent: 5.8 },
    // odds 0.010204 → 1.01
    { changes: { cardiacHistory: 'pacemaker' }, id: 'pacemaker', multiplier: 0.5, percent: 1.0 },
    { changes: { baselineHr: 45 }, id: 'baselineHrBelow50', multiplier: 2.5, percent: 4.9 }, // odds 0.05102 → 4.85
    { changes: { baselineHr: 55 }, id: 'baselineHr50to59', multiplier: 1.5, percent: 3.0 },
    { changes: { age: 80 }, id: 'age75plus', multiplier: 1.5, percent: 3.0 },
    { changes: { age: 70 }, id: 'age65to74', multiplier: 1.25, percent: 2.5 }, // odds 0.02551 → 2.49
    { changes: { depth: 'immediate' }, id: 'dose16', multiplier: 1.3, percent: 2.6 }, // odds 0.026531 → 2.58
  ])('$id × $multiplier → $percent%', ({ changes, id, multiplier, percent }) => {
    const result = expectAssessment(run(changes));
    expect(result.factors).toHaveLength(1);
    expect(result.factors[0]).toMatchObject({ id, multiplier });
    expect(result.factors[0]?.basis.length).toBeGreaterThan(5);
    expect(result.riskPercent).toBe(percent);
  });
});

describe('half-open bands', () => {
  it.each([
    { hr: 20, ids: ['baselineHrBelow50'] },
    { hr: 49, ids: ['baselineHrBelow50'] },
    { hr: 49.9, ids: ['baselineHrBelow50'] },
    { hr: 50, ids: ['baselineHr50to59'] },
    { hr: 59, ids: ['baselineHr50to59'] },
    { hr: 59.5, ids: ['baselineHr50to59'] },
    { hr: 60, ids: [] },
    { hr: 61, ids: [] },
  ])('baseline HR $hr → $ids', ({ hr, ids }) => {
    expect(expectAssessment(run({ baselineHr: hr })).factors.map((f) => f.id)).toEqual(ids);
  });

  it.each([
    { age: 0, ids: [] },
    { age: 64, ids: [] },
    { age: 64.9, ids: [] },
    { age: 65, ids: ['age65to74'] },
    { age: 74, ids: ['age65to74'] },
    { age: 75, ids: ['age75plus'] },
    { age: 76, ids: ['age75plus'] },
    { age: 120, ids: ['age75plus'] },
  ])('age $age → $ids', ({ age, ids }) => {
    expect(expectAssessment(run({ age })).factors.map((f) => f.id)).toEqual(ids);
  });

  it.each([
    { percent: 0.1, band: 'LOW', colour: 'green' },
    { percent: 4.9, band: 'LOW', colour: 'green' },
    { percent: 5.0, band: 'MODERATE', colour: 'yellow' },
    { percent: 5.1, band: 'MODERATE', colour: 'yellow' },
    { percent: 14.9, band: 'MODERATE', colour: 'yellow' },
    { percent: 15.0, band: 'HIGH', colour: 'red' },
    { percent: 15.1, band: 'HIGH', colour: 'red' },
    { percent: 99.9, band: 'HIGH', colour: 'red' },
  ])('$percent% → $band ($colour)', ({ percent, band, colour }) => {
    expect(riskBandFor(percent)).toEqual({ band, colour });
  });

  it('the band follows the displayed percent', () => {
    // HR 45 (× 2.5) + pacemaker (× 0.5) + vagal (× 2) = × 2.5 → 4.85 → 4.9 LOW
    expect(expectAssessment(run({ baselineHr: 45, cardiacHistory: 'pacemaker', vagalStimulus: true }))).toMatchObject({
      riskPercent: 4.9,
      riskBand: 'LOW',
    });
    // av block × 3 → 5.77 → 5.8 MODERATE
    expect(expectAssessment(run({ cardiacHistory: 'av_block' }))).toMatchObject({
      riskPercent: 5.8,
      riskBand: 'MODERATE',
      riskColour: 'yellow',
    });
  });
});

describe('dose by depth, by actual body weight', () => {
  it.each([
    { depth: 'tof_2_plus', weight: 70, mgPerKg: 2, doseMg: 140, doseMl: 1.4 }, // 2 × 70
    { depth: 'ptc_1_2', weight: 70, mgPerKg: 4, doseMg: 280, doseMl: 2.8 }, // 4 × 70
    { depth: 'immediate', weight: 80, mgPerKg: 16, doseMg: 1280, doseMl: 12.8 }, // 16 × 80
    { depth: 'tof_2_plus', weight: 65.3, mgPerKg: 2, doseMg: 131, doseMl: 1.3 }, // 2 × 65.3 = 130.6 → 131
    { depth: 'ptc_1_2', weight: 123.4, mgPerKg: 4, doseMg: 494, doseMl: 4.9 }, // 4 × 123.4 = 493.6 → 494
  ])('$depth × $weight kg → $doseMg mg, $doseMl mL', ({ depth, weight, mgPerKg, doseMg, doseMl }) => {
    const result = expectAssessment(run({ depth, weight }));
    expect([result.doseMgPerKg, result.doseMg, result.doseMl]).toEqual([mgPerKg, doseMg, doseMl]);
    expect(result.recommendations.preparation[0]).toBe(
      `${doseMg} mg (${doseMl.toFixed(1)} mL) single IV bolus over about 10 seconds`,
    );
  });

  it.each([
    { changes: { depth: 'tof_2_plus', dose: 2 }, ok: true },
    { changes: { depth: 'ptc_1_2', dose: 4 }, ok: true },
    { changes: { depth: 'immediate', dose: 16 }, ok: true },
    { changes: { depth: 'tof_2_plus', dose: 4 }, ok: false },
    { changes: { depth: 'immediate', dose: 2 }, ok: false },
    { changes: { cardiacHistory: 'av_block', conductionDisease: true }, ok: true },
    { changes: { cardiacHistory: 'none', conductionDisease: false }, ok: true },
    { changes: { cardiacHistory: 'none', conductionDisease: true }, ok: false },
    { changes: { cardiacHistory: 'av_block', conductionDisease: false }, ok: false },
  ])('a browser-derived field that disagrees is refused: $changes', ({ changes, ok }) => {
    expect(run(changes).kind).toBe(ok ? 'assessment' : 'invalid_input');
  });

  it('names the mismatch', () => {
    expect(run({ depth: 'tof_2_plus', dose: 16 })).toEqual({
      kind: 'invalid_input',
      issues: [
        {
          field: 'dose',
          message: 'Dose does not match the block depth (TOF 2 or more: 2, PTC 1-2: 4, immediate: 16 mg/kg)',
        },
      ],
    });
  });
});

describe('required fields and ranges', () => {
  it('a missing required field says "Please fill in all required fields"', () => {
    const { weight: _w, age: _a, baselineHr: _h, creatinine: _c, ...rest } = base;
    expect(assessBradycardia(rest)).toEqual({
      kind: 'invalid_input',
      issues: ['weight', 'age', 'baselineHr', 'creatinine'].map((field) => ({
        field,
        message: 'Please fill in all required fields',
      })),
    });
  });
  it.each([
    { changes: { weight: 0 }, field: 'weight', message: 'Weight must be between 1 and 200 kg' },
    { changes: { weight: 201 }, field: 'weight', message: 'Weight must be between 1 and 200 kg' },
    { changes: { age: -1 }, field: 'age', message: 'Age must be between 0 and 120 years' },
    { changes: { age: 121 }, field: 'age', message: 'Age must be between 0 and 120 years' },
    { changes: { baselineHr: 19 }, field: 'baselineHr', message: 'Baseline heart rate must be between 20 and 250 bpm' },
    {
      changes: { baselineHr: 251 },
      field: 'baselineHr',
      message: 'Baseline heart rate must be between 20 and 250 bpm',
    },
    {
      changes: { creatinine: 9 },
      field: 'creatinine',
      message: 'Creatinine clearance must be between 10 and 200 mL/min',
    },
    {
      changes: { cardiacHistory: 'mi' },
      field: 'cardiacHistory',
      message: 'Choose a cardiac history: none, bradycardia, AV block or pacemaker',
    },
    { changes: { nmba: 'other' }, field: 'nmba', message: 'Choose the blocking agent: rocuronium or vecuronium' },
    {
      changes: { betaBlocker: 'yes' },
      field: 'betaBlocker',
      message: 'Beta-blocker must be ticked or unticked (true or false)',
    },
    { changes: { riskPercent: 1 }, field: 'riskPercent', message: 'Unknown field "riskPercent"' },
  ])('$field: $message', ({ changes, field, message }) => {
    expect(run(changes)).toEqual({ kind: 'invalid_input', issues: [{ field, message }] });
  });
});

describe('management plan', () => {
  it('LOW, adult: the full plan', () => {
    expect(expectAssessment(run({})).recommendations).toEqual({
      preparation: [
        '140 mg (1.4 mL) single IV bolus over about 10 seconds',
        'Quantitative neuromuscular monitoring: confirm TOF ratio ≥ 0.9 before extubation',
        'Continuous ECG, heart rate and blood pressure from injection until at ' +
          'least 30 min after (68.9% of reported reactions occur within 30 min)',
        'Atropine 1 mg available in the room',
      ],
      treatment: [
        'Atropine 1 mg IV, repeated every 3-5 min to a total of 3 mg',
        'If no response: adrenaline (epinephrine) 10 micrograms IV boluses or a 2-10 micrograms/min infusion ' +
          '(or dopamine 5-20 micrograms/kg/min)',
        'Transcutaneous pacing for persistent bradycardia with poor perfusion',
        'Pulseless or asystole: start CPR and follow ACLS',
        'Consider anaphylaxis or coronary spasm (rash, bronchospasm, ST change): give adrenaline and send tryptase',
        'Report the event to the national pharmacovigilance centre (SFDA in Saudi Arabia)',
      ],
    });
  });
  it('MODERATE: atropine drawn up, adrenaline available', () => {
    const plan = expectAssessment(run({ betaBlocker: true, dexmedetomidine: true })).recommendations.preparation;
    expect(plan.slice(3)).toEqual([
      'Atropine 1 mg drawn up before injection; adrenaline (epinephrine) 10 micrograms/mL available',
      'Dexmedetomidine: review the infusion before injection',
    ]);
  });
  it('HIGH with AV block: both drawn up, pads on, a second clinician, pacing ready', () => {
    const plan = expectAssessment(run({ cardiacHistory: 'av_block', betaBlocker: true, baselineHr: 45 }))
      .recommendations.preparation;
    expect(plan.slice(3)).toEqual([
      'Atropine 1 mg and adrenaline (epinephrine) 10 micrograms/mL drawn up before injection',
      'Transcutaneous pacing pads applied before injection',
      'A second anaesthesia clinician present',
      'AV block: atropine may fail in high-grade AV block; have pacing ready',
    ]);
  });
  it('pacemaker and severe renal impairment add their lines and warnings', () => {
    const result = expectAssessment(run({ cardiacHistory: 'pacemaker', creatinine: 25 }));
    expect(result.recommendations.preparation.slice(4)).toEqual([
      'Pacemaker: confirm the pacing mode and capture before injection',
      'CrCl < 30 mL/min: not recommended in severe renal impairment; if ' +
        'given, wait 24 h before re-paralysis with rocuronium or vecuronium',
    ]);
    expect(result.warnings).toEqual([
      'Not recommended in severe renal impairment (CrCl <30 mL/min) or dialysis patients',
    ]);
    // CrCl does not change the risk
    expect(result.riskPercent).toBe(expectAssessment(run({ cardiacHistory: 'pacemaker', creatinine: 90 })).riskPercent);
  });
  it('a child: weight-based atropine and adrenaline', () => {
    // atropine 0.02 mg/kg × 20 kg = 0.4 mg; adrenaline 0.01 mg/kg × 20 kg = 0.2 mg = 200 micrograms
    const result = expectAssessment(run({ age: 8, weight: 20 }));
    expect(result.recommendations.treatment.slice(0, 2)).toEqual([
      'Atropine 0.4 mg IV (0.02 mg/kg, min 0.1 mg, max 0.5 mg); may be repeated once',
      'If no response: adrenaline (epinephrine) 200 micrograms (0.01 mg/kg, max 1 mg) IV every 3-5 min',
    ]);
  });
  it('a child of 120 kg: the adrenaline is capped at 1 mg (PALS 2020), as on the emergency card', () => {
    const result = expectAssessment(run({ age: 16, weight: 120 }));
    expect(result.recommendations.treatment[1]).toBe(
      'If no response: adrenaline (epinephrine) 1 mg (0.01 mg/kg, max 1 mg) IV every 3-5 min',
    );
    expect([pediatricAdrenalineMicrograms(99.9), pediatricAdrenalineMicrograms(100)]).toEqual([999, 1000]);
    expect(pediatricAdrenalineMicrograms(200)).toBe(1000);
  });
  it.each([
    { age: 18, weight: 3, mg: 1 }, // adult: 1 mg whatever the weight
    { age: 17, weight: 20, mg: 0.4 }, // 0.02 × 20
    { age: 17, weight: 3, mg: 0.1 }, // 0.02 × 3 = 0.06 → minimum 0.1
    { age: 10, weight: 25, mg: 0.5 }, // 0.02 × 25 = 0.5
    { age: 10, weight: 40, mg: 0.5 }, // 0.02 × 40 = 0.8 → maximum 0.5
    { age: 5, weight: 12.5, mg: 0.25 }, // 0.02 × 12.5
  ])('atropine at $age y, $weight kg = $mg mg', ({ age, weight, mg }) => {
    expect(atropineDoseMg(age, weight)).toBe(mg);
  });
  it.each([
    { changes: { age: 1 }, warnings: ['Use in children under 2 years of age is not established'] },
    {
      changes: { age: 10, depth: 'immediate' },
      warnings: ['16 mg/kg immediate reversal is not established in pediatrics'],
    },
    {
      changes: { depth: 'immediate', nmba: 'vecuronium' },
      warnings: ['16 mg/kg immediate reversal has been studied only after rocuronium 1.2 mg/kg.'],
    },
    { changes: { depth: 'immediate' }, warnings: [] },
  ])('warnings for $changes', ({ changes, warnings }) => {
    expect(expectAssessment(run(changes)).warnings).toEqual(warnings);
  });
});

describe('re-paralysis guidance (docs/clinical-reference.md §3)', () => {
  const nonSteroidal =
    'If block is needed before the wait is over: use a non-steroidal NMBA ' +
    '(e.g. cisatracurium); a depolarising NMBA may have a slower onset.';
  it.each([
    {
      name: '≤ 4 mg/kg, normal renal function',
      changes: { depth: 'ptc_1_2', creatinine: 90 },
      lines: [
        'Rocuronium 1.2 mg/kg: wait at least 5 min (onset about 3 min; shorter duration, about 18 min).',
        'Rocuronium 0.6 mg/kg or vecuronium 0.1 mg/kg: wait at least 4 h.',
        nonSteroidal,
      ],
    },
    {
      name: '≤ 4 mg/kg, CrCl 30-80',
      changes: { depth: 'tof_2_plus', creatinine: 50 },
      lines: [
        'Rocuronium 1.2 mg/kg: wait at least 5 min (onset about 3 min; shorter duration, about 18 min).',
        'Rocuronium 0.6 mg/kg or vecuronium 0.1 mg/kg: wait at least 4 h.',
        'Mild or moderate renal impairment (CrCl 30-80 mL/min): wait 24 h ' +
          'before rocuronium 0.6 mg/kg or vecuronium 0.1 mg/kg; if a shorter ' +
          'wait is needed, use rocuronium 1.2 mg/kg.',
        nonSteroidal,
      ],
    },
    {
      name: '16 mg/kg',
      changes: { depth: 'immediate', creatinine: 90 },
      lines: ['After 16 mg/kg: wait 24 h before giving rocuronium or vecuronium again.', nonSteroidal],
    },
    {
      name: 'CrCl < 30, any dose',
      changes: { depth: 'tof_2_plus', creatinine: 29 },
      lines: [
        'Severe renal impairment (CrCl < 30 mL/min), any dose: wait 24 h before giving rocuronium or vecuronium again.',
        nonSteroidal,
      ],
    },
  ])('$name', ({ changes, lines }) => {
    expect(expectAssessment(run(changes)).reparalysis).toEqual(lines);
  });
});

it('names the model and says it is an unvalidated heuristic', () => {
  expect(expectAssessment(run({})).model).toEqual({
    name: 'Sugammadex bradycardia risk heuristic',
    version: 1,
    unvalidatedHeuristic: true,
  });
});
