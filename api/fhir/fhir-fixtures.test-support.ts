import { assessBradycardia, calculateDose } from '../../clinical/index.ts';
import { ADULT_ADVISOR_INPUT } from '../../clinical/test-inputs.test-support.ts';
import type { BundleOptions, ExportPdf, StoredCalculation } from '../../fhir/index.ts';
import { bradycardiaResponse, doseResponse } from '../tools/tool-responses.ts';

/** Stored calculations and export options for the FHIR export's tests, made as the API makes them. */

export const CREATED_AT = '2026-11-22T09:30:00.000Z';
export const CALCULATION_ID = '3f2c1b7e-5d4a-4c3b-9a21-0e8f7d6c5b4a';

/** A history entry exactly as POST /api/tools/run stores it: the inputs and the English response. */
export function storedDose(inputs: Record<string, unknown>): StoredCalculation {
  const response = doseResponse(calculateDose(inputs));
  if (response.status !== 200) throw new Error(`invalid dose inputs: ${JSON.stringify(response.issues)}`);
  return {
    id: CALCULATION_ID,
    toolType: 'dose_calculator',
    inputs,
    result: { toolType: 'dose_calculator', ...response.body },
    createdAt: CREATED_AT,
  };
}

export function storedAdvisor(inputs: Record<string, unknown>): StoredCalculation {
  const response = bradycardiaResponse(assessBradycardia(inputs));
  if (response.status !== 200) throw new Error(`invalid advisor inputs: ${JSON.stringify(response.issues)}`);
  return {
    id: CALCULATION_ID,
    toolType: 'bradycardia_advisor',
    inputs,
    result: { toolType: 'bradycardia_advisor', ...response.body },
    createdAt: CREATED_AT,
  };
}

export const DOSE_INPUT = {
  ageGroup: 'adult',
  bodyWeight: 70,
  nmbaType: 'rocuronium',
  creatinine: 95,
  tofCount: '2',
  ptc: null,
  rsiScenario: false,
  dialysis: false,
};

/** One case per dose outcome (docs/product.md §5), each with the kind it must give. */
export const DOSE_CASES: readonly [string, Record<string, unknown>, string][] = [
  ['2 mg/kg, TOF 2', DOSE_INPUT, 'dose'],
  [
    '4 mg/kg, PTC 1, CrCl from Cockcroft-Gault',
    { ...DOSE_INPUT, tofCount: '', ptc: 1, creatinineMethod: 'cockcroft_gault' },
    'dose',
  ],
  ['16 mg/kg, RSI, vecuronium (warning)', { ...DOSE_INPUT, nmbaType: 'vecuronium', rsiScenario: true }, 'dose'],
  ['2 mg/kg, 150 kg, no CrCl (warnings)', { ...DOSE_INPUT, bodyWeight: 150, creatinine: null }, 'dose'],
  [
    '4 mg/kg, 3.5 kg paediatric, small volume',
    { ...DOSE_INPUT, ageGroup: 'pediatric', bodyWeight: 3.5, tofCount: '0' },
    'dose',
  ],
  ['not indicated (other NMBA)', { ...DOSE_INPUT, nmbaType: 'other' }, 'not_indicated'],
  ['contraindicated (CrCl 20)', { ...DOSE_INPUT, creatinine: 20 }, 'contraindicated'],
  ['contraindicated (dialysis)', { ...DOSE_INPUT, dialysis: true }, 'contraindicated'],
  ['not established (infant)', { ...DOSE_INPUT, ageGroup: 'infant', bodyWeight: 8 }, 'not_established'],
  ['unable to calculate (no block depth)', { ...DOSE_INPUT, tofCount: '', ptc: null }, 'unable_to_calculate'],
];

/** One case per risk band (docs/clinical-reference.md §4). */
export const ADVISOR_CASES: readonly [string, Record<string, unknown>, 'LOW' | 'MODERATE' | 'HIGH'][] = [
  ['LOW', { ...ADULT_ADVISOR_INPUT }, 'LOW'],
  ['MODERATE', { ...ADULT_ADVISOR_INPUT, betaBlocker: true, baselineHr: 55 }, 'MODERATE'],
  [
    'HIGH',
    { ...ADULT_ADVISOR_INPUT, cardiacHistory: 'av_block', betaBlocker: true, digoxin: true, depth: 'ptc_1_2' },
    'HIGH',
  ],
];

/** A small, real PDF (as the notes export stores it) and its metadata. */
export const NOTES_PDF_BYTES = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> ' +
    'endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
  'latin1',
);
export const NOTES_PDF: ExportPdf = {
  fileName: 'dose-calculator-notes.pdf',
  createdAt: '2026-11-22T09:31:12.000Z',
  sizeBytes: NOTES_PDF_BYTES.length,
  base64: NOTES_PDF_BYTES.toString('base64'),
};

export const PATIENTS = {
  'with MRN and MRN system': { displayName: 'F.A.', mrn: 'MRN-000123', yearOfBirth: 1961 },
  'with MRN, no MRN system': { displayName: 'F.A.', mrn: 'MRN-000123', yearOfBirth: null },
  'without MRN': { displayName: 'Bed 4', mrn: null, yearOfBirth: null },
  // opened from the EHR (SMART launch): the Bundle refers to the EHR's Patient and writes none
  'launched patient': {
    displayName: 'F.A.',
    mrn: 'MRN-000123',
    yearOfBirth: 1961,
    ehrPatient: { fhirBase: 'https://fhir.hospital.example/api/FHIR/R4', patientId: 'eXk2Lm9.8812' },
  },
  'no patient': null,
} as const;

export const MRN_SYSTEM = 'urn:oid:2.16.840.1.113883.3.1234.1';
/** The reference every resource of a launched patient's Bundle has for them. */
export const LAUNCHED_PATIENT_REFERENCE = 'https://fhir.hospital.example/api/FHIR/R4/Patient/eXk2Lm9.8812';

/** Ids 00000000-0000-4000-8000-000000000001, …002, …: the same Bundle every time. */
export function counterIds(): () => string {
  let next = 0;
  return () => `00000000-0000-4000-8000-${String(++next).padStart(12, '0')}`;
}

export function options(overrides: Partial<BundleOptions> = {}): BundleOptions {
  return {
    patient: PATIENTS['with MRN and MRN system'],
    clinician: { name: 'Sara Al-Harbi', license: 'SCFHS-998877' },
    pdf: null,
    software: { name: 'Sugammadex reversal decision support', version: '0.1.0' },
    mrnSystem: MRN_SYSTEM,
    newId: counterIds(),
    ...overrides,
  };
}
