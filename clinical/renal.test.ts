import { describe, expect, it } from 'vitest';
import { cockcroftGault, renalFunctionBand } from './renal.ts';

describe('renal function bands', () => {
  it.each([
    [10, 'severe'],
    [29, 'severe'],
    [29.99, 'severe'],
    [30, 'mild_moderate'],
    [31, 'mild_moderate'],
    [79, 'mild_moderate'],
    [80, 'mild_moderate'],
    [80.1, 'normal'],
    [81, 'normal'],
    [200, 'normal'],
  ])('CrCl %d mL/min → %s', (crcl, band) => {
    expect(renalFunctionBand(crcl)).toBe(band);
  });
});

describe('Cockcroft-Gault', () => {
  it.each([
    // (140 − age) × weight [× 0.85 if female] / (72 × SCr mg/dL)
    // 100 × 70 / 72 = 97.2
    { input: { ageYears: 40, weightKg: 70, sex: 'male', serumCreatinine: 1, unit: 'mg/dL' }, crcl: 97 },
    // 97.2 × 0.85 = 82.6
    { input: { ageYears: 40, weightKg: 70, sex: 'female', serumCreatinine: 1, unit: 'mg/dL' }, crcl: 83 },
    // 88.4 µmol/L = 1 mg/dL
    { input: { ageYears: 40, weightKg: 70, sex: 'male', serumCreatinine: 88.4, unit: 'umol/L' }, crcl: 97 },
    // 60 × 60 × 0.85 / 144 = 21.25
    { input: { ageYears: 80, weightKg: 60, sex: 'female', serumCreatinine: 2, unit: 'mg/dL' }, crcl: 21 },
    // 70 × 80 / (72 × 1.5045) = 51.7
    { input: { ageYears: 70, weightKg: 80, sex: 'male', serumCreatinine: 133, unit: 'umol/L' }, crcl: 52 },
    // 122 × 100 / 36 = 338.9
    { input: { ageYears: 18, weightKg: 100, sex: 'male', serumCreatinine: 0.5, unit: 'mg/dL' }, crcl: 339 },
  ])('$input → $crcl mL/min', ({ input, crcl }) => {
    const outcome = cockcroftGault(input);
    expect(outcome.kind).toBe('estimate');
    if (outcome.kind !== 'estimate') return;
    expect(outcome.creatinineClearanceMlPerMin).toBe(crcl);
    expect(outcome.withinCalculatorRange).toBe(crcl >= 10 && crcl <= 200);
  });

  it.each([
    {
      changes: { ageYears: 17 },
      field: 'ageYears',
      message: 'Cockcroft-Gault applies to adults: age must be 18-120 years',
    },
    { changes: { weightKg: 0 }, field: 'weightKg', message: 'Weight must be between 1 and 200 kg' },
    { changes: { sex: 'x' }, field: 'sex', message: 'Choose female or male' },
    {
      changes: { serumCreatinine: 0 },
      field: 'serumCreatinine',
      message: 'Serum creatinine must be between 0.1 and 20 mg/dL (9-1768 µmol/L)',
    },
    {
      changes: { serumCreatinine: 21 },
      field: 'serumCreatinine',
      message: 'Serum creatinine must be between 0.1 and 20 mg/dL (9-1768 µmol/L)',
    },
    {
      changes: { serumCreatinine: 2000, unit: 'umol/L' },
      field: 'serumCreatinine',
      message: 'Serum creatinine must be between 0.1 and 20 mg/dL (9-1768 µmol/L)',
    },
    { changes: { unit: 'mmol/L' }, field: 'unit', message: 'Choose the creatinine unit: µmol/L or mg/dL' },
    { changes: { unit: undefined }, field: 'unit', message: 'Choose the creatinine unit: µmol/L or mg/dL' },
  ])('refuses $changes', ({ changes, field, message }) => {
    const valid = { ageYears: 40, weightKg: 70, sex: 'male', serumCreatinine: 1, unit: 'mg/dL' };
    expect(cockcroftGault({ ...valid, ...changes })).toEqual({ kind: 'invalid_input', issues: [{ field, message }] });
  });

  it('does not guess the unit: a mg/dL-sized number in µmol/L is refused', () => {
    // 1.0 "µmol/L" is 0.011 mg/dL, below any real value
    expect(cockcroftGault({ ageYears: 40, weightKg: 70, sex: 'male', serumCreatinine: 1, unit: 'umol/L' }).kind).toBe(
      'invalid_input',
    );
  });
});
