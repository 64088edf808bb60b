import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assessBradycardia } from '../bradycardia-advisor.ts';
import { calculateDose } from '../dose-calculator.ts';
import { newPatientSchema, PATIENT_FIELD_ORDER, patientChangesSchema } from '../patient-record.ts';
import { cockcroftGault } from '../renal.ts';
import { calculateRoi } from '../roi.ts';
import { ADULT_ADVISOR_INPUT, validAdvisorInput, validDoseInput } from '../test-inputs.test-support.ts';
import { parseWith } from '../validation.ts';
import { digitRuns, hasArabicLetters, isolationProblems } from './checks.ts';
import { CLINICAL_TEXTS_AR, CLINICAL_TEXTS_EN, clinicalTextsFor, type ClinicalTexts } from './index.ts';

/**
 * The same inputs give the same numbers in both languages: for every branch of the dose calculator and the
 * advisor (and every validation path), the Arabic outcome is the English one with other words. Texts are the
 * values under these keys; everything else (kinds, ids, fields, numbers, flags) must be equal.
 */
const TEXT_KEYS = new Set([
  'title',
  'reason',
  'indication',
  'administration',
  'monitoring',
  'warnings',
  'message',
  'recommendations',
  'reparalysis',
  'label',
  'basis',
  'note',
]);

/** Every text of an outcome with its path ("warnings.0", "recommendations.treatment.2"). */
function textsOf(value: unknown, path = '', inText = false): [string, string][] {
  if (typeof value === 'string') return inText ? [[path, value]] : [];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) =>
    textsOf(child, path ? `${path}.${key}` : key, inText || TEXT_KEYS.has(key)),
  );
}

/** The outcome with every text replaced by a placeholder: what must not depend on the language. */
function withoutTexts(value: unknown, inText = false): unknown {
  if (typeof value === 'string') return inText ? '<text>' : value;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => withoutTexts(item, inText));
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) => [key, withoutTexts(child, inText || TEXT_KEYS.has(key))]),
  );
}

/** The English and Arabic outcomes agree but for their words, and the Arabic words are well formed. */
function expectSameNumbers(english: unknown, arabic: unknown) {
  expect(withoutTexts(arabic)).toEqual(withoutTexts(english));
  const englishTexts = new Map(textsOf(english));
  const arabicTexts = textsOf(arabic);
  expect(arabicTexts.map(([path]) => path)).toEqual([...englishTexts.keys()]);
  for (const [path, text] of arabicTexts) {
    const englishText = englishTexts.get(path)!;
    expect(digitRuns(text), `${path}: ${text}`).toEqual(digitRuns(englishText));
    expect(hasArabicLetters(text), `${path}: ${text}`).toBe(true);
    expect(isolationProblems(text), `${path}: ${text}`).toEqual([]);
    expect(hasArabicLetters(englishText), englishText).toBe(false);
  }
  return arabicTexts.length;
}

const dose = {
  ageGroup: 'adult',
  bodyWeight: 70,
  nmbaType: 'rocuronium',
  creatinine: 100,
  tofCount: '2',
  ptc: null,
  rsiScenario: false,
  dialysis: false,
};

/** Every outcome kind and every warning of calculateDose (docs/product.md §5; docs/clinical-reference.md §1). */
const DOSE_CASES: [string, unknown, string][] = [
  ['weight missing', { ...dose, bodyWeight: undefined }, 'invalid_input'],
  ['weight 0', { ...dose, bodyWeight: 0 }, 'invalid_input'],
  ['weight above the range', { ...dose, bodyWeight: 250 }, 'invalid_input'],
  [
    'every field wrong',
    {
      ageGroup: 'old',
      bodyWeight: 0.5,
      nmbaType: 'x',
      creatinine: 5,
      tofCount: '7',
      ptc: 20,
      rsiScenario: 'yes',
      dialysis: null,
    },
    'invalid_input',
  ],
  ['a required field missing, an unknown field', { bodyWeight: 70, extra2: 1 }, 'invalid_input'],
  ['not an object', 42, 'invalid_input'],
  ['nmba other', { ...dose, nmbaType: 'other' }, 'not_indicated'],
  ['CrCl below 30', { ...dose, creatinine: 20 }, 'contraindicated'],
  ['dialysis', { ...dose, dialysis: true }, 'contraindicated'],
  ['infant', { ...dose, ageGroup: 'infant' }, 'not_established'],
  ['no TOF, no PTC', { ...dose, tofCount: '' }, 'unable_to_calculate'],
  ['PTC 0 (profound)', { ...dose, tofCount: null, ptc: 0 }, 'unable_to_calculate'],
  ['PTC 5, no TOF', { ...dose, tofCount: null, ptc: 5 }, 'unable_to_calculate'],
  [
    'paediatric RSI, no depth',
    { ...dose, ageGroup: 'pediatric', rsiScenario: true, tofCount: null },
    'unable_to_calculate',
  ],
  ['TOF 2', dose, 'dose'],
  ['TOF 3', { ...dose, tofCount: '3' }, 'dose'],
  ['TOF 4', { ...dose, tofCount: '4' }, 'dose'],
  ['TOF 1', { ...dose, tofCount: '1' }, 'dose'],
  ['TOF 0 with PTC 0', { ...dose, tofCount: '0', ptc: 0 }, 'dose'],
  ['PTC 1', { ...dose, tofCount: null, ptc: 1 }, 'dose'],
  ['PTC 2, 65.3 kg', { ...dose, tofCount: '', ptc: 2, bodyWeight: 65.3 }, 'dose'],
  ['RSI adult, rocuronium, 80 kg', { ...dose, rsiScenario: true, bodyWeight: 80 }, 'dose'],
  ['RSI adult, vecuronium', { ...dose, rsiScenario: true, nmbaType: 'vecuronium' }, 'dose'],
  ['RSI adult 150 kg: more than one box', { ...dose, rsiScenario: true, bodyWeight: 150 }, 'dose'],
  ['paediatric RSI with TOF 2', { ...dose, ageGroup: 'pediatric', rsiScenario: true, bodyWeight: 20 }, 'dose'],
  ['CrCl not entered', { ...dose, creatinine: null }, 'dose'],
  ['CrCl 30-80', { ...dose, creatinine: 50 }, 'dose'],
  ['small volume (10 kg child)', { ...dose, ageGroup: 'pediatric', bodyWeight: 10 }, 'dose'],
  ['small volume, 3.5 kg child', { ...dose, ageGroup: 'pediatric', bodyWeight: 3.5, tofCount: '0' }, 'dose'],
];

const advisor = ADULT_ADVISOR_INPUT;

/** Every risk band, every factor, every plan and re-paralysis branch, every warning of the advisor. */
const ADVISOR_CASES: [string, unknown, string][] = [
  ['no factor: LOW', advisor, 'LOW'],
  ['beta-blocker + dexmedetomidine: MODERATE', { ...advisor, betaBlocker: true, dexmedetomidine: true }, 'MODERATE'],
  [
    'AV block + beta-blocker + HR 45: HIGH',
    { ...advisor, cardiacHistory: 'av_block', betaBlocker: true, baselineHr: 45, dose: 2, conductionDisease: true },
    'HIGH',
  ],
  ['pacemaker', { ...advisor, cardiacHistory: 'pacemaker' }, 'LOW'],
  [
    'history of bradycardia, vagal stimulus',
    { ...advisor, cardiacHistory: 'bradycardia', vagalStimulus: true },
    'MODERATE',
  ],
  [
    'digoxin, amiodarone, opioids, HR 55, age 70',
    { ...advisor, digoxin: true, amiodarone: true, highDoseOpioids: true, baselineHr: 55, age: 70 },
    'MODERATE',
  ],
  ['age 80, deep block', { ...advisor, age: 80, depth: 'ptc_1_2' }, 'LOW'],
  ['immediate reversal, adult', { ...advisor, depth: 'immediate' }, 'LOW'],
  ['immediate reversal, vecuronium', { ...advisor, depth: 'immediate', nmba: 'vecuronium' }, 'LOW'],
  ['child 30 kg, immediate', { ...advisor, age: 10, weight: 30, depth: 'immediate' }, 'LOW'],
  ['infant 1 year, 8 kg', { ...advisor, age: 1, weight: 8 }, 'LOW'],
  ['child 4 kg (atropine minimum)', { ...advisor, age: 0, weight: 4 }, 'LOW'],
  ['severe renal impairment', { ...advisor, creatinine: 20 }, 'LOW'],
  ['mild renal impairment', { ...advisor, creatinine: 50 }, 'LOW'],
  [
    'everything at once',
    {
      ...advisor,
      cardiacHistory: 'av_block',
      betaBlocker: true,
      dexmedetomidine: true,
      digoxin: true,
      amiodarone: true,
      highDoseOpioids: true,
      vagalStimulus: true,
      baselineHr: 40,
      age: 90,
      depth: 'immediate',
      nmba: 'vecuronium',
      creatinine: 15,
    },
    'HIGH',
  ],
  ['required fields missing', { ...advisor, weight: undefined, age: undefined }, 'invalid_input'],
  [
    'every field wrong',
    { ...advisor, weight: 0, age: 130, baselineHr: 10, creatinine: 5, depth: 'x' },
    'invalid_input',
  ],
  ['flags not booleans', { ...advisor, betaBlocker: 'yes', vagalStimulus: 1, cardiacHistory: 'x' }, 'invalid_input'],
  ['dose disagrees with the depth', { ...advisor, dose: 4 }, 'invalid_input'],
  ['dose not 2, 4 or 16', { ...advisor, dose: 3, conductionDisease: 'no' }, 'invalid_input'],
  ['conductionDisease disagrees', { ...advisor, conductionDisease: true }, 'invalid_input'],
  ['unknown field', { ...advisor, nmba: 'other', extra: 1 }, 'invalid_input'],
];

describe('dose calculator in Arabic: the same numbers as in English, for every outcome', () => {
  it.each(DOSE_CASES.map(([name, input, kind]) => ({ name, input, kind })))('$name → $kind', ({ input, kind }) => {
    const english = calculateDose(input);
    const arabic = calculateDose(input, CLINICAL_TEXTS_AR);
    expect(english.kind).toBe(kind);
    expect(arabic.kind).toBe(kind);
    expect(expectSameNumbers(english, arabic)).toBeGreaterThan(0);
  });

  it('the cases reach every warning and reason of the dose texts', () => {
    const shown = new Set(
      DOSE_CASES.flatMap(([, input]) => textsOf(calculateDose(input, CLINICAL_TEXTS_AR)).map(([, text]) => text)),
    );
    const ar = CLINICAL_TEXTS_AR.dose;
    const expected = [
      ...Object.values(ar.outcomeTitles),
      ar.notIndicatedWarning,
      ar.renalWarning,
      ar.renalLabelNote,
      ar.infantWarning,
      ar.pediatricRsiWarning,
      ar.specifyDepth,
      ar.profoundBlockReason,
      ar.countTofReason(5),
      ar.profoundWithTofWarning,
      ar.rsiVecuroniumWarning,
      ar.crclNotEnteredWarning,
      ar.crclNoAdjustmentNote,
      ar.underDosingWarning,
      ar.moreThanOneBoxWarning(12, 2),
      ar.smallVolumeWarning(20),
      ar.immediateIndication,
      ...['2', '3', '4'].map(ar.moderateIndication),
      ...['0', '1', undefined].map(ar.deepIndication),
      ar.administration,
      ...ar.monitoring,
    ];
    expect(expected.filter((text) => !shown.has(text))).toEqual([]);
  });

  it('English stays as it was: the default is the English catalogue', () => {
    for (const [, input] of DOSE_CASES) {
      expect(calculateDose(input, CLINICAL_TEXTS_EN)).toEqual(calculateDose(input));
      expect(calculateDose(input, clinicalTextsFor('en'))).toEqual(calculateDose(input));
    }
  });
});

describe('bradycardia advisor in Arabic: the same risk, dose and plan numbers as in English', () => {
  it.each(ADVISOR_CASES.map(([name, input, band]) => ({ name, input, band })))('$name → $band', ({ input, band }) => {
    const english = assessBradycardia(input);
    const arabic = assessBradycardia(input, clinicalTextsFor('ar'));
    expect(english.kind === 'assessment' ? english.riskBand : english.kind).toBe(band);
    expect(expectSameNumbers(english, arabic)).toBeGreaterThan(0);
  });

  it('the cases reach every factor and every line of the plan and the re-paralysis guidance', () => {
    const arabic = ADVISOR_CASES.map(([, input]) => assessBradycardia(input, CLINICAL_TEXTS_AR));
    const shown = new Set(arabic.flatMap((outcome) => textsOf(outcome).map(([, text]) => text)));
    const applied = new Set(
      arabic.flatMap((outcome) => (outcome.kind === 'assessment' ? outcome.factors.map((factor) => factor.id) : [])),
    );
    expect([...applied].sort()).toEqual(Object.keys(CLINICAL_TEXTS_AR.advisor.factors).sort());
    const { plan, reparalysis } = CLINICAL_TEXTS_AR;
    const lines = [
      plan.quantitativeMonitoring,
      plan.continuousMonitoring,
      plan.highRiskPacingPads,
      plan.highRiskSecondClinician,
      plan.pacemaker,
      plan.avBlock,
      plan.dexmedetomidine,
      plan.severeRenal,
      plan.adultEpinephrine,
      plan.pacing,
      plan.pulseless,
      plan.anaphylaxis,
      plan.report,
      ...Object.values(reparalysis),
    ];
    expect(lines.filter((line) => !shown.has(line))).toEqual([]);
    const starts = (make: (atropine: string) => string) =>
      [...shown].some((text) => text === make(plan.atropine(1)) || text === make(plan.atropine(0.2)));
    expect([plan.lowRiskAtropine, plan.moderateRiskAtropine, plan.highRiskDrugs].every(starts)).toBe(true);
    expect([...shown].some((text) => text.startsWith(plan.pediatricAtropine(plan.atropine(0.1))))).toBe(true);
  });

  it('English stays as it was: the default is the English catalogue', () => {
    for (const [, input] of ADVISOR_CASES) {
      expect(assessBradycardia(input, CLINICAL_TEXTS_EN)).toEqual(assessBradycardia(input));
    }
  });
});

describe('the other tools in Arabic: validation messages and notes carry the same numbers', () => {
  const cg = { ageYears: 60, weightKg: 70, sex: 'female', serumCreatinine: 90, unit: 'umol/L' };
  it.each([
    ['estimate', cg],
    ['estimate in mg/dL', { ...cg, serumCreatinine: 1.1, unit: 'mg/dL', sex: 'male' }],
    ['serum creatinine out of range', { ...cg, serumCreatinine: 5000 }],
    ['every field wrong', { ageYears: 10, weightKg: 0, sex: 'x', serumCreatinine: -1, unit: 'g' }],
    ['fields missing', {}],
  ])('Cockcroft-Gault: %s', (_name, input) => {
    expectSameNumbers(cockcroftGault(input), cockcroftGault(input, CLINICAL_TEXTS_AR));
  });

  const roi = { numberOfCases: 100, orCostPerMinute: 45, timeNeostigmine: 15, timeProduct: 3, baselinePPCRate: 10 };
  it.each([
    ['every field wrong', { numberOfCases: -1, orCostPerMinute: 47, timeNeostigmine: 300, timeProduct: 1.5 }],
    ['risk ratio changed', { ...roi, riskRatio: 0.5, baselinePPCRate: 30 }],
    ['fields missing', {}],
  ])('ROI: %s', (_name, input) => {
    expectSameNumbers(calculateRoi(input), calculateRoi(input, CLINICAL_TEXTS_AR));
  });

  it('ROI: a valid calculation has no texts and is the same', () => {
    expect(calculateRoi(roi, CLINICAL_TEXTS_AR)).toEqual(calculateRoi(roi));
  });

  it.each([
    ['every field wrong', { displayName: '', mrn: 'x'.repeat(41), yearOfBirth: 1800, ageGroup: 'x', weightKg: 0 }],
    ['notes too long, unknown field', { displayName: 'A', notes: 'x'.repeat(501), other: 1 }],
    ['not an object', 'Sara'],
  ])('patient record: %s', (_name, input) => {
    for (const schema of [newPatientSchema, patientChangesSchema]) {
      const english = parseWith(schema(2026), input, PATIENT_FIELD_ORDER);
      const arabic = parseWith(schema(2026, CLINICAL_TEXTS_AR), input, PATIENT_FIELD_ORDER);
      expect(english.ok).toBe(false);
      expectSameNumbers(english, arabic);
    }
  });
});

describe('properties: Arabic and English agree on every field that is not a text', () => {
  it('dose calculator: every valid input', () => {
    fc.assert(
      fc.property(validDoseInput, (input) => {
        expectSameNumbers(calculateDose(input), calculateDose(input, CLINICAL_TEXTS_AR));
      }),
      { numRuns: 1000 },
    );
  });

  it('advisor: every valid input', () => {
    fc.assert(
      fc.property(validAdvisorInput, (input) => {
        expectSameNumbers(assessBradycardia(input), assessBradycardia(input, CLINICAL_TEXTS_AR));
      }),
      { numRuns: 1000 },
    );
  });

  it('any input at all: the same outcome kind, the same fields in error', () => {
    const languages: ClinicalTexts[] = [CLINICAL_TEXTS_EN, CLINICAL_TEXTS_AR];
    fc.assert(
      fc.property(fc.oneof(fc.anything(), validDoseInput, validAdvisorInput), (input) => {
        const [doseEn, doseAr] = languages.map((texts) => withoutTexts(calculateDose(input, texts)));
        const [advisorEn, advisorAr] = languages.map((texts) => withoutTexts(assessBradycardia(input, texts)));
        expect(doseAr).toEqual(doseEn);
        expect(advisorAr).toEqual(advisorEn);
      }),
    );
  });
});
