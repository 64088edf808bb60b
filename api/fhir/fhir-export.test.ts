import type { Bundle, MedicationRequest, Observation, Resource, RiskAssessment } from '@medplum/fhirtypes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADULT_ADVISOR_INPUT } from '../../clinical/test-inputs.test-support.ts';
import { FHIR_NOT_CLINICAL_MESSAGE } from '../messages.ts';
import { fhirProblems, loadFhirDefinitions } from '../test-support/fhir-validation.ts';
import { startTestApi, type TestApi } from '../test-support/test-api.ts';
import { DOSE_INPUT, MRN_SYSTEM, NOTES_PDF_BYTES } from './fhir-fixtures.test-support.ts';
import { RELEASE_VERSION } from './release.ts';

// GET /api/history/:id/fhir over real HTTP, on the embedded store and on PostgreSQL (vitest.config.ts).
const NOW = '2026-11-22T10:00:00.000Z';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ now: () => new Date(NOW), fhir: { mrnSystem: MRN_SYSTEM } });
  loadFhirDefinitions();
}, 60_000);
afterAll(() => api.close());

const fhir = (id: string, token?: string) => api.request('GET', `/api/history/${id}/fhir`, { token });
const bundleOf = (response: { text: string }) => JSON.parse(response.text) as Bundle;
const resources = (bundle: Bundle) => (bundle.entry ?? []).map((entry) => entry.resource as Resource);
const ofType = <T extends Resource>(bundle: Bundle, type: T['resourceType']) =>
  resources(bundle).filter((resource): resource is T => resource.resourceType === type);

async function run(token: string, toolType: string, inputs: object, patientId?: string) {
  const response = await api.request('POST', '/api/tools/run', { token, body: { toolType, inputs, patientId } });
  expect(response.status).toBe(200);
  return response.body.historyId as string;
}
const stored = async (token: string, id: string) => (await api.request('GET', `/api/history/${id}`, { token })).body;

describe('GET /api/history/:id/fhir', () => {
  let clinician: Awaited<ReturnType<TestApi['signUp']>>;
  let patientId: string;
  beforeAll(async () => {
    clinician = await api.signUp('Sara Al-Harbi');
    const patient = await api.request('POST', '/api/patients', {
      token: clinician.token,
      body: { displayName: 'F.A.', mrn: 'MRN-000123', yearOfBirth: 1961, weightKg: 70 },
    });
    patientId = patient.body.id;
  });

  it('a dose with a notes PDF: a valid Bundle whose dose, weight and units are the stored result', async () => {
    const id = await run(clinician.token, 'dose_calculator', { ...DOSE_INPUT, bodyWeight: 82.5 }, patientId);
    const upload = await api.request('POST', `/api/exports?calculationId=${id}&patientId=${patientId}`, {
      token: clinician.token,
      rawBody: NOTES_PDF_BYTES,
      headers: { 'Content-Type': 'application/pdf' },
    });
    expect(upload.status).toBe(201);

    const response = await fhir(id, clinician.token);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/fhir+json; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="sugammadex-dose-${NOW.slice(0, 10)}-${id.slice(0, 8)}.fhir.json"`,
    );
    const bundle = bundleOf(response);
    expect(fhirProblems(bundle)).toEqual([]);
    expect(bundle.type).toBe('transaction');
    expect(bundle.identifier?.value).toBe(`urn:uuid:${id}`);

    const entry = await stored(clinician.token, id);
    const [request] = ofType<MedicationRequest>(bundle, 'MedicationRequest');
    expect(request!.dosageInstruction![0]!.doseAndRate![0]!.doseQuantity).toEqual({
      value: entry.result.totalDoseMg,
      unit: 'mg',
      system: 'http://unitsofmeasure.org',
      code: 'mg',
    });
    expect(entry.result.totalDoseMg).toBe(165); // 2 mg/kg × 82.5 kg
    const [weight, crcl] = ofType<Observation>(bundle, 'Observation');
    expect(weight!.valueQuantity).toEqual({
      value: entry.inputs.bodyWeight,
      unit: 'kg',
      system: 'http://unitsofmeasure.org',
      code: 'kg',
    });
    expect(crcl!.valueQuantity).toMatchObject({ value: entry.inputs.creatinine, code: 'mL/min' });
    expect(weight!.effectiveDateTime).toBe(entry.createdAt);

    // the patient by MRN in the configured namespace; the PDF as stored; the release and the clinician
    expect(ofType(bundle, 'Patient')[0]).toMatchObject({
      identifier: [{ system: MRN_SYSTEM, value: 'MRN-000123' }],
      name: [{ text: 'F.A.' }],
      birthDate: '1961',
    });
    const [document] = ofType(bundle, 'DocumentReference') as { content: { attachment: { data: string } }[] }[];
    expect(Buffer.from(document!.content[0]!.attachment.data, 'base64').equals(NOTES_PDF_BYTES)).toBe(true);
    expect(ofType(bundle, 'Device')[0]).toMatchObject({ version: [{ value: RELEASE_VERSION }] });
    expect(ofType(bundle, 'Provenance')[0]).toMatchObject({
      agent: [{ who: { display: 'Sara Al-Harbi', identifier: { value: 'SCFHS-12345' } } }, {}],
    });
  });

  it('an outcome without a dose, with no patient: no MedicationRequest, and the weight still there', async () => {
    const id = await run(clinician.token, 'dose_calculator', { ...DOSE_INPUT, creatinine: 20 });
    const response = await fhir(id, clinician.token);
    expect(response.status).toBe(200);
    const bundle = bundleOf(response);
    expect(fhirProblems(bundle)).toEqual([]);
    expect((await stored(clinician.token, id)).result.kind).toBe('contraindicated');
    expect(ofType(bundle, 'MedicationRequest')).toEqual([]);
    expect(ofType(bundle, 'DocumentReference')).toEqual([]);
    expect(ofType<Observation>(bundle, 'Observation').map((observation) => observation.valueQuantity?.value)).toEqual([
      70, 20,
    ]);
  });

  it('the advisor: a RiskAssessment with the stored risk, based on the input Observations', async () => {
    const inputs = { ...ADULT_ADVISOR_INPUT, betaBlocker: true, cardiacHistory: 'av_block', digoxin: true };
    const id = await run(clinician.token, 'bradycardia_advisor', inputs, patientId);
    const response = await fhir(id, clinician.token);
    expect(response.status).toBe(200);
    const bundle = bundleOf(response);
    expect(fhirProblems(bundle)).toEqual([]);
    const entry = await stored(clinician.token, id);
    const [assessment] = ofType<RiskAssessment>(bundle, 'RiskAssessment');
    expect(entry.result.riskBand).toBe('HIGH');
    expect(assessment!.prediction![0]!.probabilityDecimal).toBe(Number((entry.result.riskPercent / 100).toFixed(3)));
    expect(assessment!.prediction![0]!.qualitativeRisk?.coding?.[0]?.code).toBe('high');
    expect(assessment!.basis).toHaveLength(3);
    expect(response.headers.get('content-disposition')).toContain('sugammadex-bradycardia-risk-');
  });

  it('an ROI calculation has no FHIR form: 422 with a message', async () => {
    const id = await run(clinician.token, 'roi_calculator', {
      numberOfCases: 100,
      orCostPerMinute: 50,
      timeNeostigmine: 20,
      timeProduct: 5,
      baselinePPCRate: 5,
    });
    const response = await fhir(id, clinician.token);
    expect(response.status).toBe(422);
    expect(JSON.parse(response.text)).toEqual({ message: FHIR_NOT_CLINICAL_MESSAGE });
  });

  it('a deleted patient: the calculation is exported without them', async () => {
    const patient = await api.request('POST', '/api/patients', {
      token: clinician.token,
      body: { displayName: 'Gone', mrn: 'MRN-GONE' },
    });
    const id = await run(clinician.token, 'dose_calculator', DOSE_INPUT, patient.body.id);
    await api.request('DELETE', `/api/patients/${patient.body.id}`, { token: clinician.token });
    const bundle = bundleOf(await fhir(id, clinician.token));
    expect(fhirProblems(bundle)).toEqual([]);
    expect(JSON.stringify(bundle)).not.toContain('MRN-GONE');
  });

  it('only the owner: another clinician gets 404, as for an id that does not exist; no token is 401', async () => {
    const id = await run(clinician.token, 'dose_calculator', DOSE_INPUT, patientId);
    const other = await api.signUp('Other Clinician');
    const foreign = await fhir(id, other.token);
    expect(foreign.status).toBe(404);
    expect(JSON.parse(foreign.text)).toEqual({ message: 'History entry not found' });
    expect(foreign.text).not.toContain('MRN-000123');
    const missing = await fhir('0b8f2c1e-4d3a-4b2c-9a1f-0e9d8c7b6a5f', clinician.token);
    expect([missing.status, missing.text]).toEqual([404, foreign.text]);
    const malformed = await fhir('not-an-id', clinician.token);
    expect([malformed.status, malformed.text]).toEqual([404, foreign.text]);
    const anonymous = await fhir(id);
    expect(anonymous.status).toBe(401);
    expect(JSON.parse(anonymous.text)).toEqual({ message: 'Please sign in to use this feature.' });
    expect((await api.request('POST', `/api/history/${id}/fhir`, { token: clinician.token })).status).toBe(405);
  });

  it('writes an audit line for each export and each refusal, without patient values', async () => {
    const id = await run(clinician.token, 'dose_calculator', DOSE_INPUT, patientId);
    const other = await api.signUp('Auditor Check');
    await fhir(id, clinician.token);
    await fhir(id, other.token);
    const lines = (await api.auditLines()).filter((line) => line.action === 'calculation.export_fhir');
    expect(lines.filter((line) => line.recordId === id)).toEqual([
      expect.objectContaining({ actor: clinician.user.id, recordType: 'calculation', outcome: 'success' }),
      expect.objectContaining({ actor: other.user.id, recordType: 'calculation', outcome: 'failure' }),
    ]);
    expect(JSON.stringify(lines)).not.toContain('MRN-000123');
  });
});
