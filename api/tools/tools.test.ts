import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLINICAL_TEXTS_AR,
  CLINICAL_TEXTS_EN,
  digitRuns,
  hasArabicLetters,
  isolationProblems,
} from '../../clinical/index.ts';
import { startTestApi, type TestApi } from '../test-support/test-api.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const advisorInputs = {
  weight: 70,
  age: 45,
  baselineHr: 45,
  cardiacHistory: 'av_block',
  betaBlocker: true,
  dexmedetomidine: false,
  digoxin: false,
  amiodarone: false,
  highDoseOpioids: false,
  vagalStimulus: false,
  depth: 'ptc_1_2',
  nmba: 'rocuronium',
  creatinine: 90,
  dose: 4,
  conductionDisease: true,
};
const doseInputs = {
  ageGroup: 'adult',
  bodyWeight: 70,
  nmbaType: 'rocuronium',
  creatinine: 100,
  tofCount: '0',
  ptc: null,
  rsiScenario: false,
  dialysis: false,
};
const roiInputs = {
  numberOfCases: 100,
  orCostPerMinute: 45,
  timeNeostigmine: 15,
  timeProduct: 3,
  baselinePPCRate: 10,
  riskRatio: 0.62,
};
const run = (body: unknown, token?: string) => api.request('POST', '/api/tools/run', { body, token });
const dbFile = () => api.storedData();

describe('POST /api/tools/run, anonymous (Quick Use)', () => {
  it('bradycardia_advisor: the fields of docs/product.md §7, factors, re-paralysis and model info', async () => {
    const response = await run({ toolType: 'bradycardia_advisor', inputs: advisorInputs });
    expect(response.status).toBe(200);
    // av_block × 3, beta-blocker × 2, HR 45 × 2.5 → odds 2/98 × 15 = 0.306 → 23.4 % HIGH; 4 mg/kg × 70 kg = 280 mg =
    // 2.8 mL
    expect(response.body).toMatchObject({
      toolType: 'bradycardia_advisor',
      kind: 'assessment',
      riskBand: 'HIGH',
      riskPercent: 23.4,
      riskColour: 'red',
      doseMgPerKg: 4,
      doseMg: 280,
      doseMl: 2.8,
      conductionDisease: true,
      model: { name: 'Sugammadex bradycardia risk heuristic', version: 1, unvalidatedHeuristic: true },
    });
    expect(response.body.recommendations.preparation[0]).toBe('280 mg (2.8 mL) single IV bolus over about 10 seconds');
    expect(response.body.recommendations.treatment[0]).toBe(
      'Atropine 1 mg IV, repeated every 3-5 min to a total of 3 mg',
    );
    expect(
      response.body.factors.map((factor: { id: string; multiplier: number }) => [factor.id, factor.multiplier]),
    ).toEqual([
      ['betaBlocker', 2],
      ['conductionDisease', 3],
      ['baselineHrBelow50', 2.5],
    ]);
    expect(response.body.reparalysis[0]).toBe(
      'Rocuronium 1.2 mg/kg: wait at least 5 min (onset about 3 min; shorter duration, about 18 min).',
    );
    expect(response.body).not.toHaveProperty('historyId');
  });

  it('dose_calculator: the result names of docs/product.md §3 beside the richer fields', async () => {
    const response = await run({ toolType: 'dose_calculator', inputs: doseInputs });
    expect(response.status).toBe(200);
    // 4 mg/kg × 70 kg = 280 mg → 2 vials, 2.8 mL, 295.28 SAR
    expect(response.body).toMatchObject({
      toolType: 'dose_calculator',
      kind: 'dose',
      dose: 4,
      totalDose: 280,
      indication: 'Deep block (TOF count 0)',
      contraindicated: false,
      notEstablished: false,
      vials: 2,
      volumeMl: 2.8,
      costSar: 295.28,
    });
    expect(response.body.warnings).toEqual([
      'Give the full calculated dose: doses below the recommended ones raise ' +
        'the risk of recurrence of block (US PI). "One vial for everyone" is a ' +
        'known practice gap (22% of surveyed hospitals; Anesth Pain Med 2019).',
    ]);
  });

  it.each([
    {
      changes: { nmbaType: 'other' },
      expected: {
        kind: 'not_indicated',
        indication: 'Not indicated',
        dose: null,
        totalDose: null,
        contraindicated: false,
        notEstablished: false,
      },
    },
    {
      changes: { dialysis: true },
      expected: {
        kind: 'contraindicated',
        indication: 'Contraindicated',
        dose: null,
        totalDose: null,
        contraindicated: true,
        notEstablished: false,
      },
    },
    {
      changes: { ageGroup: 'infant' },
      expected: {
        kind: 'not_established',
        indication: 'Not established',
        dose: null,
        totalDose: null,
        contraindicated: false,
        notEstablished: true,
      },
    },
    {
      changes: { tofCount: '', ptc: null },
      expected: {
        kind: 'unable_to_calculate',
        indication: 'Unable to calculate',
        dose: null,
        totalDose: null,
        warnings: ['Please specify block depth (TOF count or PTC)'],
      },
    },
  ])('dose_calculator outcome $expected.kind is a 200 with its flags', async ({ changes, expected }) => {
    const response = await run({ toolType: 'dose_calculator', inputs: { ...doseInputs, ...changes } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject(expected);
  });

  it('roi_calculator: timeSaved, costSaved, ppcsAvoided, hoursFreed', async () => {
    const response = await run({ toolType: 'roi_calculator', inputs: roiInputs });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      toolType: 'roi_calculator',
      timeSaved: 1200,
      costSaved: 54000,
      ppcsAvoided: 3.8,
      hoursFreed: 20,
      neostigmineBarPercent: 75,
      productBarPercent: 15,
    });
  });

  it('stores nothing for an anonymous call', async () => {
    const before = await dbFile();
    await run({ toolType: 'dose_calculator', inputs: doseInputs });
    expect(await dbFile()).toBe(before);
  });

  it.each([
    {
      body: { toolType: 'bradycardia_advisor', inputs: { ...advisorInputs, weight: undefined } },
      message: 'Please fill in all required fields',
      field: 'inputs',
    },
    {
      body: { toolType: 'dose_calculator', inputs: { ...doseInputs, bodyWeight: 0 } },
      message: 'Please enter a valid body weight',
    },
    {
      body: { toolType: 'dose_calculator', inputs: { ...doseInputs, bodyWeight: 250 } },
      message: 'Body weight must be between 1 and 200 kg',
    },
    {
      body: { toolType: 'roi_calculator', inputs: { ...roiInputs, riskRatio: 0.5 } },
      message: 'The risk ratio is fixed at 0.62',
    },
    {
      body: { toolType: 'bradycardia_advisor', inputs: { ...advisorInputs, dose: 16 } },
      message: 'Dose does not match the block depth (TOF 2 or more: 2, PTC 1-2: 4, immediate: 16 mg/kg)',
    },
    {
      body: { toolType: 'bradycardia_advisor', inputs: { ...advisorInputs, riskPercent: 1 } },
      message: 'Unknown field "riskPercent"',
    },
    {
      body: { toolType: 'nonsense', inputs: {} },
      message: 'toolType must be one of: dose_calculator, bradycardia_advisor, roi_calculator',
    },
    { body: { toolType: 'dose_calculator' }, message: "inputs must be an object of the tool's fields" },
    { body: { toolType: 'dose_calculator', inputs: [] }, message: "inputs must be an object of the tool's fields" },
    {
      body: { toolType: 'dose_calculator', inputs: doseInputs, result: { dose: 2 } },
      message: 'Unknown field "result"',
    },
  ])('400 "$message"', async ({ body, message }) => {
    const response = await run(body);
    expect(response.status).toBe(400);
    expect(response.body.message).toBe(message);
    expect(response.body.issues[0].message).toBe(message);
  });

  it('a missing advisor field answers every missing field', async () => {
    const { weight: _w, baselineHr: _h, ...inputs } = advisorInputs;
    const response = await run({ toolType: 'bradycardia_advisor', inputs });
    expect(response.body).toEqual({
      message: 'Please fill in all required fields',
      issues: [
        { field: 'weight', message: 'Please fill in all required fields' },
        { field: 'baselineHr', message: 'Please fill in all required fields' },
      ],
    });
  });

  it('a patientId without signing in is a 401', async () => {
    const response = await run({ toolType: 'dose_calculator', inputs: doseInputs, patientId: 'abc' });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: 'Please sign in to use this feature.' });
  });
});

describe('POST /api/tools/run, signed in', () => {
  it('records the calculation in the caller history, linked to their patient', async () => {
    const clinician = await api.signUp();
    const patient = await api.request('POST', '/api/patients', {
      token: clinician.token,
      body: { displayName: 'A.B.', mrn: 'MRN-1', weightKg: 70 },
    });
    const response = await run(
      { toolType: 'bradycardia_advisor', inputs: advisorInputs, patientId: patient.body.id },
      clinician.token,
    );
    expect(response.status).toBe(200);
    expect(response.body.historyId).toEqual(expect.any(String));
    expect(response.body.patientId).toBe(patient.body.id);

    const entry = await api.request('GET', `/api/history/${response.body.historyId}`, { token: clinician.token });
    expect(entry.status).toBe(200);
    expect(entry.body).toEqual({
      id: response.body.historyId,
      patientId: patient.body.id,
      toolType: 'bradycardia_advisor',
      inputs: advisorInputs,
      result: (({ historyId: _h, patientId: _p, ...rest }) => rest)(response.body),
      createdAt: expect.any(String),
    });
  });

  it("another clinician's patient is a 404 and nothing is recorded", async () => {
    const owner = await api.signUp();
    const other = await api.signUp();
    const patient = await api.request('POST', '/api/patients', { token: owner.token, body: { displayName: 'C.D.' } });
    const before = await dbFile();
    const response = await run(
      { toolType: 'dose_calculator', inputs: doseInputs, patientId: patient.body.id },
      other.token,
    );
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'Patient not found' });
    expect(await dbFile()).toBe(before);
  });

  it('invalid input is not recorded', async () => {
    const clinician = await api.signUp();
    await run({ toolType: 'dose_calculator', inputs: { ...doseInputs, bodyWeight: -1 } }, clinician.token);
    const history = await api.request('GET', '/api/history', { token: clinician.token });
    expect(history.body.total).toBe(0);
  });
});

/** The answer's fields other than its texts (plan, factors' words, warnings, re-paralysis, indication…). */
const numbersOf = (body: Record<string, any>) => ({
  ...body,
  recommendations: undefined,
  reparalysis: undefined,
  warnings: undefined,
  indication: undefined,
  title: undefined,
  reason: undefined,
  administration: undefined,
  monitoring: undefined,
  factors: body.factors?.map(({ id, multiplier }: { id: string; multiplier: number }) => ({ id, multiplier })),
});
const digitsOf = (texts: string[]) => digitRuns(texts.join('\n'));
const planTexts = (body: Record<string, any>): string[] => [
  ...body.recommendations.preparation,
  ...body.recommendations.treatment,
  ...body.reparalysis,
  ...body.warnings,
  ...body.factors.flatMap((factor: { label: string; basis: string }) => [factor.label, factor.basis]),
];
const runIn = (headers: Record<string, string>, query: string, body: unknown, token?: string) =>
  api.request('POST', `/api/tools/run${query}`, { body, token, headers });

describe('POST /api/tools/run in Arabic (?lang=ar or Accept-Language: ar)', () => {
  const advisor = { toolType: 'bradycardia_advisor', inputs: advisorInputs };

  it('?lang=ar: the advisor answers Arabic plan texts with the same risk and dose numbers as English', async () => {
    const english = await run(advisor);
    const arabic = await runIn({}, '?lang=ar', advisor);
    expect(arabic.status).toBe(200);
    expect(arabic.body).toMatchObject({ riskBand: 'HIGH', riskPercent: 23.4, doseMg: 280, doseMl: 2.8 });
    expect(numbersOf(arabic.body)).toEqual(numbersOf(english.body));
    expect(arabic.body.recommendations.preparation[0]).toBe(CLINICAL_TEXTS_AR.plan.dose(280, 2.8));
    expect(arabic.body.recommendations.treatment[0]).toBe(
      CLINICAL_TEXTS_AR.plan.adultAtropine(CLINICAL_TEXTS_AR.plan.atropine(1), 3),
    );
    const texts = planTexts(arabic.body);
    expect(texts.length).toBe(planTexts(english.body).length);
    expect(texts.every(hasArabicLetters)).toBe(true);
    expect(texts.flatMap(isolationProblems)).toEqual([]);
    expect(digitsOf(texts)).toEqual(digitsOf(planTexts(english.body)));
    // The model's name is an identifier of the answer (contracts/tools.ts): it stays as it is.
    expect(arabic.body.model).toEqual(english.body.model);
  });

  it('Accept-Language: ar-SA,ar;q=0.9 gives the same Arabic answer', async () => {
    const byQuery = await runIn({}, '?lang=ar', advisor);
    const byHeader = await runIn({ 'Accept-Language': 'ar-SA,ar;q=0.9' }, '', advisor);
    expect(byHeader.status).toBe(200);
    expect(byHeader.body).toEqual(byQuery.body);
    expect(byHeader.headers.get('vary')).toContain('Accept-Language');
  });

  it.each([
    ['no lang, no header', {}, '', 'en'],
    ['Accept-Language: ar', { 'Accept-Language': 'ar' }, '', 'ar'],
    ['Accept-Language: en-US first, Arabic second', { 'Accept-Language': 'en-US,ar;q=0.9' }, '', 'en'],
    ['Accept-Language: *', { 'Accept-Language': '*' }, '', 'en'],
    ['?lang=en over an Arabic header', { 'Accept-Language': 'ar-SA' }, '?lang=en', 'en'],
    ['?lang=AR (any case)', {}, '?lang=AR', 'ar'],
    ['an empty ?lang= counts as not given', { 'Accept-Language': 'ar-SA' }, '?lang=', 'ar'],
    ['?lang=fr is ignored: English, not an error', { 'Accept-Language': 'ar-SA' }, '?lang=fr', 'en'],
    ['?lang given twice is ignored: English', {}, '?lang=ar&lang=en', 'en'],
  ])('%s → %s', async (_name, headers, query, lang) => {
    const response = await runIn(headers, query, advisor);
    expect(response.status).toBe(200);
    const expected = lang === 'ar' ? CLINICAL_TEXTS_AR : CLINICAL_TEXTS_EN;
    expect(response.body.recommendations.preparation[0]).toBe(expected.plan.dose(280, 2.8));
  });

  it('the dose calculator and the ROI calculator answer in Arabic with the same numbers', async () => {
    const dose = { toolType: 'dose_calculator', inputs: { ...doseInputs, creatinine: null, bodyWeight: 150 } };
    const [english, arabic] = [await run(dose), await runIn({}, '?lang=ar', dose)];
    expect(numbersOf(arabic.body)).toEqual(numbersOf(english.body));
    expect(arabic.body.indication).toBe(CLINICAL_TEXTS_AR.dose.deepIndication('0'));
    const texts = [...arabic.body.warnings, arabic.body.administration, ...arabic.body.monitoring];
    expect(texts.every(hasArabicLetters)).toBe(true);
    expect(digitsOf(texts)).toEqual(
      digitsOf([...english.body.warnings, english.body.administration, ...english.body.monitoring]),
    );
    const roi = { toolType: 'roi_calculator', inputs: roiInputs };
    expect((await runIn({}, '?lang=ar', roi)).body).toEqual((await run(roi)).body);
  });

  it('invalid inputs: the 400 names the same fields, in Arabic', async () => {
    const bad = { toolType: 'bradycardia_advisor', inputs: { ...advisorInputs, weight: undefined, dose: 16 } };
    const english = await run(bad);
    const arabic = await runIn({ 'Accept-Language': 'ar' }, '', bad);
    expect(arabic.status).toBe(400);
    expect(arabic.body.message).toBe(CLINICAL_TEXTS_AR.advisorInput.missingInformation);
    expect(arabic.body.issues.map((issue: { field: string }) => issue.field)).toEqual(
      english.body.issues.map((issue: { field: string }) => issue.field),
    );
    expect(arabic.body.issues.every((issue: { message: string }) => hasArabicLetters(issue.message))).toBe(true);
  });

  it('signed in: the answer is Arabic, the history keeps the English answer as before', async () => {
    const clinician = await api.signUp();
    const arabic = await runIn({}, '?lang=ar', advisor, clinician.token);
    expect(arabic.status).toBe(200);
    expect(arabic.body.recommendations.preparation[0]).toBe(CLINICAL_TEXTS_AR.plan.dose(280, 2.8));
    const english = await run(advisor);
    const entry = await api.request('GET', `/api/history/${arabic.body.historyId}?lang=ar`, {
      token: clinician.token,
    });
    expect(entry.status).toBe(200);
    expect(entry.body.result).toEqual(english.body);
    const list = await api.request('GET', '/api/history?lang=ar&pageSize=5', {
      token: clinician.token,
      headers: { 'Accept-Language': 'ar' },
    });
    expect(list.status).toBe(200);
    expect(list.body.items.map((item: { id: string }) => item.id)).toEqual([arabic.body.historyId]);
    expect(list.body.pageSize).toBe(5);
  });
});
