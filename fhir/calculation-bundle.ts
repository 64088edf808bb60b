import type {
  Bundle,
  BundleEntry,
  CodeableConcept,
  Coding,
  Device,
  DocumentReference,
  Encounter,
  Identifier,
  MedicationRequest,
  Observation,
  Patient,
  Practitioner,
  Provenance,
  Quantity,
  Reference,
  Resource,
  RiskAssessment,
} from '@medplum/fhirtypes';
import { CONCENTRATION_MG_PER_ML, VIAL_CONTENT_MG, VIAL_VOLUME_ML } from '../clinical/constants.ts';
import { CODES, PROFILES, UNITS, type CodeEntry } from './codes.ts';
import {
  readCalculation,
  type AdvisorCalculation,
  type ClinicalCalculation,
  type DoseCalculation,
} from './stored-calculation.ts';

/**
 * A stored calculation as a FHIR R4 transaction Bundle (docs/fhir.md#what-is-exported): the patient, the
 * inputs as Observations, the dose as a draft MedicationRequest or the advisor's RiskAssessment, the notes
 * PDF as a DocumentReference, and a Provenance naming the software and the clinician. Pure: ids and every
 * value come in; the same input gives the same Bundle. The pieces are exported on their own too, so a later
 * "Send to EHR" can write the DocumentReference or the MedicationRequest alone.
 */

/** A stored calculation as history keeps it (api/storage/records.ts CalculationRecord). */
export interface StoredCalculation {
  id: string;
  toolType: string;
  inputs: unknown;
  result: unknown;
  createdAt: string;
}

/** The calculation's patient as the account area keeps them (only what identifies them). */
export interface ExportPatient {
  displayName: string;
  mrn: string | null;
  yearOfBirth: number | null;
  /**
   * The EHR's own Patient, for a patient opened from the EHR (SMART launch): the EHR's FHIR base URL and the
   * Patient's logical id there. Set, the Bundle carries no Patient of its own: every reference to the patient
   * is `<fhirBase>/Patient/<id>` (docs/fhir.md#patient).
   */
  ehrPatient?: EhrPatient | null;
}

/** A Patient on an EHR's FHIR server: its base URL (the SMART launch's `iss`) and the Patient's logical id. */
export interface EhrPatient {
  fhirBase: string;
  patientId: string;
}

export interface ExportClinician {
  name: string;
  license: string | null;
}

/** The notes PDF exported for the calculation (the newest one). */
export interface ExportPdf {
  fileName: string;
  /** When it was stored (ISO instant). */
  createdAt: string;
  sizeBytes: number;
  /** The PDF's bytes, base64. */
  base64: string;
  /** SHA-1 of the bytes, base64 (FHIR Attachment.hash), when known. */
  sha1Base64?: string;
}

export interface ExportSoftware {
  name: string;
  version: string;
}

export interface BundleOptions {
  patient: ExportPatient | null;
  clinician: ExportClinician;
  pdf: ExportPdf | null;
  software: ExportSoftware;
  /** FHIR_MRN_SYSTEM: the namespace of the hospital's MRNs; without it the identifier has its type only. */
  mrnSystem?: string;
  /** A new UUID (v4, lower case) for each resource of the Bundle; fullUrl is `urn:uuid:<it>`. */
  newId: () => string;
}

export type CalculationBundleOutcome =
  { kind: 'bundle'; bundle: Bundle } | { kind: 'not_clinical' } | { kind: 'unreadable'; problem: string };

/** The name the software gives itself in a Provenance and a Device (docs/fhir.md#provenance). */
export const SOFTWARE_NAME = 'Sugammadex reversal decision support';
/** The product as the MedicationRequest names it beside its ATC code. */
export const MEDICATION_TEXT =
  `Sugammadex ${CONCENTRATION_MG_PER_ML} mg/mL solution for injection ` +
  `(${VIAL_CONTENT_MG} mg/${VIAL_VOLUME_ML} mL vial)`;
export const UNVALIDATED_HEURISTIC_NOTE = 'unvalidated heuristic';
export const NOTES_PDF_DESCRIPTION = 'Sugammadex reversal calculation: notes PDF (decision support only)';

const coding = ({ system, code, display }: CodeEntry): Coding => ({ system, code, display });
const concept = (entry: CodeEntry, text?: string): CodeableConcept => ({
  coding: [coding(entry)],
  ...(text ? { text } : {}),
});
const quantity = (value: number, unit: CodeEntry): Quantity => ({
  value,
  unit: unit.code,
  system: unit.system,
  code: unit.code,
});
const urn = (id: string) => `urn:uuid:${id}`;
/** The exact volume of a dose in mL (the stored volume is to one decimal: 0.0 mL for 2 mg). */
const exactVolumeMl = (doseMg: number) => Number((doseMg / CONCENTRATION_MG_PER_ML).toFixed(2));
const ref = <T extends Resource>(entry: BundleEntry<T>): Reference<T> => ({ reference: entry.fullUrl });

/** The calculation's own id as an identifier: the same calculation exported twice is recognisable. */
export const calculationIdentifier = (calculationId: string): Identifier => ({
  system: 'urn:ietf:rfc:3986',
  value: urn(calculationId),
});

/**
 * The search that finds what was written for a calculation (its identifier), as an If-None-Exist header: a
 * conditional create with it files a resource once, however often it is sent (FHIR R4 section 3.1.0.8.1).
 */
export const calculationIdentifierSearch = (calculationId: string): string => {
  const { system, value } = calculationIdentifier(calculationId);
  return `identifier=${encodeURIComponent(system!)}|${encodeURIComponent(value!)}`;
};

/** A transaction entry that creates `resource` (conditionally, with `ifNoneExist`). */
function created<T extends Resource>(id: string, resource: T, ifNoneExist?: string): BundleEntry<T> {
  return {
    fullUrl: urn(id),
    resource,
    request: { method: 'POST', url: resource.resourceType, ...(ifNoneExist ? { ifNoneExist } : {}) },
  };
}

/**
 * The EHR's Patient as a Reference (docs/fhir.md#patient). Written to that EHR's own FHIR server (`on` = its
 * base, as "Send to EHR" does): relative, `Patient/<id>`. Anywhere else (the export's Bundle, which may be
 * posted to another server): absolute, `<fhirBase>/Patient/<id>`, which a transaction leaves as it is.
 */
export function ehrPatientReference(patient: EhrPatient, on?: string): Reference<Patient> {
  const relative = `Patient/${patient.patientId}`;
  return { reference: on === patient.fhirBase ? relative : `${patient.fhirBase.replace(/\/+$/, '')}/${relative}` };
}

/** The patient: identified by MRN when there is one (docs/fhir.md#patient). */
export function patientResource(patient: ExportPatient | null, mrnSystem: string | undefined): Patient {
  if (!patient) {
    return {
      resourceType: 'Patient',
      text: {
        status: 'generated',
        div:
          '<div xmlns="http://www.w3.org/1999/xhtml">No patient was chosen for this calculation: ' +
          'link it to the right patient.</div>',
      },
    };
  }
  return {
    resourceType: 'Patient',
    ...(patient.mrn
      ? {
          identifier: [
            {
              use: 'usual',
              type: concept(CODES.medicalRecordNumber),
              ...(mrnSystem ? { system: mrnSystem } : {}),
              value: patient.mrn,
            },
          ],
        }
      : {}),
    name: [{ text: patient.displayName }],
    ...(patient.yearOfBirth != null ? { birthDate: String(patient.yearOfBirth) } : {}),
  };
}

/** Body weight in kg (FHIR R4's bodyweight vital-signs profile). */
export function bodyWeightObservation(subject: Reference<Patient>, weightKg: number, effective: string): Observation {
  return {
    resourceType: 'Observation',
    meta: { profile: [PROFILES.bodyWeight] },
    status: 'final',
    category: [concept(CODES.vitalSigns)],
    code: concept(CODES.bodyWeight, 'Body weight'),
    subject,
    effectiveDateTime: effective,
    valueQuantity: quantity(weightKg, UNITS.kilogram),
  };
}

/** Heart rate in beats per minute (FHIR R4's heartrate vital-signs profile). */
export function heartRateObservation(
  subject: Reference<Patient>,
  beatsPerMinute: number,
  effective: string,
): Observation {
  return {
    resourceType: 'Observation',
    meta: { profile: [PROFILES.heartRate] },
    status: 'final',
    category: [concept(CODES.vitalSigns)],
    code: concept(CODES.heartRate, 'Baseline heart rate'),
    subject,
    effectiveDateTime: effective,
    valueQuantity: quantity(beatsPerMinute, UNITS.perMinute),
  };
}

/**
 * Creatinine clearance in mL/min. From the Cockcroft-Gault helper: LOINC's Cockcroft-Gault code. Typed in:
 * how it was obtained is not known, so it is named in words only (docs/fhir.md#creatinine-clearance).
 */
export function creatinineClearanceObservation(
  subject: Reference<Patient>,
  mlPerMin: number,
  method: 'cockcroft_gault' | null | undefined,
  effective: string,
): Observation {
  return {
    resourceType: 'Observation',
    status: 'final',
    code:
      method === 'cockcroft_gault'
        ? concept(CODES.crclCockcroftGault, 'Creatinine clearance (Cockcroft-Gault estimate)')
        : { text: 'Creatinine clearance, as entered by the clinician (method not recorded)' },
    subject,
    effectiveDateTime: effective,
    valueQuantity: quantity(mlPerMin, UNITS.millilitrePerMinute),
  };
}

/** The dose as a draft proposal (docs/fhir.md#medicationrequest): never an order. */
export function medicationRequestResource(options: {
  calculationId: string;
  result: Extract<DoseCalculation['result'], { kind: 'dose' }>;
  subject: Reference<Patient>;
  requester: Reference<Practitioner>;
  supportingInformation: Reference[];
  authoredOn: string;
  /** The encounter the EHR launched the app in (SMART's `encounter` context), when it named one. */
  encounter?: Reference<Encounter>;
}): MedicationRequest {
  const { result } = options;
  return {
    resourceType: 'MedicationRequest',
    identifier: [calculationIdentifier(options.calculationId)],
    status: 'draft',
    intent: 'proposal',
    medicationCodeableConcept: concept(CODES.sugammadex, MEDICATION_TEXT),
    subject: options.subject,
    ...(options.encounter ? { encounter: options.encounter } : {}),
    authoredOn: options.authoredOn,
    requester: options.requester,
    reasonCode: [{ text: result.indication }],
    supportingInformation: options.supportingInformation,
    dosageInstruction: [
      {
        text:
          `${result.doseMgPerKg} mg/kg x ${result.weightKg} kg = ${result.totalDoseMg} mg ` +
          `(${exactVolumeMl(result.totalDoseMg)} mL of ${CONCENTRATION_MG_PER_ML} mg/mL) IV. ${result.administration}`,
        route: concept(CODES.intravenousRoute),
        doseAndRate: [{ doseQuantity: quantity(result.totalDoseMg, UNITS.milligram) }],
      },
    ],
    ...(result.warnings.length ? { note: result.warnings.map((text) => ({ text })) } : {}),
  };
}

const RISK_CODES = { LOW: CODES.riskLow, MODERATE: CODES.riskModerate, HIGH: CODES.riskHigh } as const;

/** The advisor's assessment (docs/fhir.md#riskassessment). */
export function riskAssessmentResource(options: {
  calculationId: string;
  result: AdvisorCalculation['result'];
  subject: Reference<Patient>;
  performer: Reference<Practitioner>;
  basis: Reference[];
  occurrence: string;
}): RiskAssessment {
  const { result } = options;
  const factors = result.factors.map((factor) => `${factor.label} x${factor.multiplier}`);
  return {
    resourceType: 'RiskAssessment',
    identifier: [calculationIdentifier(options.calculationId)],
    status: 'final',
    subject: options.subject,
    occurrenceDateTime: options.occurrence,
    performer: options.performer,
    method: { text: `${result.model.name}, version ${result.model.version}` },
    basis: options.basis,
    prediction: [
      {
        outcome: { text: 'Bradycardia after sugammadex' },
        // the displayed percent has one decimal: as a fraction, three decimals, written exactly
        probabilityDecimal: Math.round(result.riskPercent * 10) / 1000,
        qualitativeRisk: concept(RISK_CODES[result.riskBand], result.riskBand),
        rationale: factors.length ? `Applied factors: ${factors.join('; ')}` : 'No risk factor applied',
      },
    ],
    mitigation: [
      `Sugammadex ${result.doseMgPerKg} mg/kg = ${result.doseMg} mg (${exactVolumeMl(result.doseMg)} mL)`,
      ...result.recommendations.preparation,
      ...result.recommendations.treatment,
    ].join('\n'),
    note: [{ text: UNVALIDATED_HEURISTIC_NOTE }, ...result.warnings.map((text) => ({ text }))],
  };
}

/** The notes PDF, inline (docs/fhir.md#documentreference). */
export function documentReferenceResource(options: {
  pdf: ExportPdf;
  subject: Reference<Patient>;
  author: Reference<Practitioner>;
  related: Reference[];
  /** The calculation the notes are of, as the document's identifier (Send to EHR files it once). */
  calculationId?: string;
  /** The encounter the EHR launched the app in, when it named one: many EHRs file notes against it. */
  encounter?: Reference<Encounter>;
}): DocumentReference {
  const { pdf } = options;
  const context = {
    ...(options.encounter ? { encounter: [options.encounter] } : {}),
    ...(options.related.length ? { related: options.related } : {}),
  };
  return {
    resourceType: 'DocumentReference',
    ...(options.calculationId ? { identifier: [calculationIdentifier(options.calculationId)] } : {}),
    status: 'current',
    docStatus: 'final',
    type: concept(CODES.procedureNote),
    subject: options.subject,
    date: pdf.createdAt,
    author: [options.author],
    description: NOTES_PDF_DESCRIPTION,
    content: [
      {
        attachment: {
          contentType: 'application/pdf',
          data: pdf.base64,
          size: pdf.sizeBytes,
          ...(pdf.sha1Base64 ? { hash: pdf.sha1Base64 } : {}),
          title: pdf.fileName,
          creation: pdf.createdAt,
        },
      },
    ],
    ...(Object.keys(context).length ? { context } : {}),
  };
}

/** The software that computed the result, with its release version. */
export function softwareDevice(software: ExportSoftware): Device {
  return {
    resourceType: 'Device',
    deviceName: [{ name: software.name, type: 'user-friendly-name' }],
    type: { text: 'Clinical decision support software' },
    version: [{ value: software.version }],
  };
}

/** The clinician as a reference by name (and licence number): the EHR matches them to its own Practitioner. */
export function clinicianReference(clinician: ExportClinician): Reference<Practitioner> {
  return {
    display: clinician.name,
    ...(clinician.license ? { identifier: { type: { text: 'Licence number' }, value: clinician.license } } : {}),
  };
}

/** Builds the transaction Bundle of a stored calculation. */
export function buildCalculationBundle(stored: StoredCalculation, options: BundleOptions): CalculationBundleOutcome {
  const read = readCalculation(stored);
  if (read.kind !== 'clinical') return read;
  return { kind: 'bundle', bundle: bundleOf(stored, read.calculation, options) };
}

function bundleOf(stored: StoredCalculation, calculation: ClinicalCalculation, options: BundleOptions): Bundle {
  const entries: BundleEntry[] = [];
  const add = <T extends Resource>(entry: BundleEntry<T>) => {
    entries.push(entry as BundleEntry);
    return entry;
  };
  const at = stored.createdAt;
  const ehrPatient = options.patient?.ehrPatient;
  const patientEntry = ehrPatient ? null : add(patientEntryOf(options));
  const subject: Reference<Patient> = ehrPatient ? ehrPatientReference(ehrPatient) : ref(patientEntry!);
  const clinician = clinicianReference(options.clinician);

  const clinical: BundleEntry[] = [];
  if (calculation.toolType === 'dose_calculator') {
    const { inputs, result } = calculation;
    const weight = add(created(options.newId(), bodyWeightObservation(subject, inputs.bodyWeight, at)));
    const crcl =
      inputs.creatinine != null
        ? add(
            created(
              options.newId(),
              creatinineClearanceObservation(subject, inputs.creatinine, inputs.creatinineMethod, at),
            ),
          )
        : null;
    if (result.kind === 'dose') {
      const request = medicationRequestResource({
        calculationId: stored.id,
        result,
        subject,
        requester: clinician,
        supportingInformation: [ref(weight), ...(crcl ? [ref(crcl)] : [])],
        authoredOn: at,
      });
      clinical.push(add(created(options.newId(), request)));
    }
  } else {
    const { inputs, result } = calculation;
    const weight = add(created(options.newId(), bodyWeightObservation(subject, inputs.weight, at)));
    const heartRate = add(created(options.newId(), heartRateObservation(subject, inputs.baselineHr, at)));
    const crcl = add(
      created(options.newId(), creatinineClearanceObservation(subject, inputs.creatinine, undefined, at)),
    );
    const assessment = riskAssessmentResource({
      calculationId: stored.id,
      result,
      subject,
      performer: clinician,
      basis: [ref(weight), ref(heartRate), ref(crcl)],
      occurrence: at,
    });
    clinical.push(add(created(options.newId(), assessment)));
  }

  if (options.pdf) {
    const notes = documentReferenceResource({
      pdf: options.pdf,
      subject,
      author: clinician,
      related: clinical.map((entry) => ref(entry)),
    });
    add(created(options.newId(), notes));
  }
  const device = add(created(options.newId(), softwareDevice(options.software)));
  const provenance: Provenance = {
    resourceType: 'Provenance',
    target: entries.map((entry) => ref(entry)),
    recorded: at,
    activity: concept(CODES.create),
    agent: [
      { type: concept(CODES.author), who: clinician },
      { type: concept(CODES.assembler), who: ref(device) },
    ],
  };
  add(created(options.newId(), provenance));
  return {
    resourceType: 'Bundle',
    identifier: calculationIdentifier(stored.id),
    type: 'transaction',
    entry: entries,
  };
}

function patientEntryOf(options: BundleOptions): BundleEntry<Patient> {
  const resource = patientResource(options.patient, options.mrnSystem);
  const mrn = options.patient?.mrn;
  // Created only if the EHR has no patient with this MRN in this namespace yet.
  const ifNoneExist =
    mrn && options.mrnSystem
      ? `identifier=${encodeURIComponent(options.mrnSystem)}|${encodeURIComponent(mrn)}`
      : undefined;
  return created(options.newId(), resource, ifNoneExist);
}
