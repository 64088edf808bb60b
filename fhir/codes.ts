/**
 * Every code the FHIR export writes, as data, each with the place in docs/fhir.md that gives its source
 * (docs/fhir.md#the-codes-and-their-sources). The export writes no system and code that is not here, and a
 * test holds every entry to a row of that table.
 */

export const SYSTEMS = {
  loinc: 'http://loinc.org',
  snomed: 'http://snomed.info/sct',
  atc: 'http://www.whocc.no/atc',
  ucum: 'http://unitsofmeasure.org',
  observationCategory: 'http://terminology.hl7.org/CodeSystem/observation-category',
  identifierType: 'http://terminology.hl7.org/CodeSystem/v2-0203',
  riskProbability: 'http://terminology.hl7.org/CodeSystem/risk-probability',
  provenanceParticipant: 'http://terminology.hl7.org/CodeSystem/provenance-participant-type',
  dataOperation: 'http://terminology.hl7.org/CodeSystem/v3-DataOperation',
} as const;

const TABLE = 'docs/fhir.md#the-codes-and-their-sources';

export interface CodeEntry {
  readonly system: (typeof SYSTEMS)[keyof typeof SYSTEMS];
  readonly code: string;
  readonly display: string;
  /** Where docs/fhir.md shows the source of this code (its table). */
  readonly source: typeof TABLE;
}

const entry = <const E extends CodeEntry>(value: E): E => value;

export const CODES = {
  bodyWeight: entry({ system: SYSTEMS.loinc, code: '29463-7', display: 'Body weight', source: TABLE }),
  heartRate: entry({ system: SYSTEMS.loinc, code: '8867-4', display: 'Heart rate', source: TABLE }),
  crclCockcroftGault: entry({
    system: SYSTEMS.loinc,
    code: '35591-7',
    display: 'Creatinine renal clearance predicted by Cockcroft-Gault formula',
    source: TABLE,
  }),
  procedureNote: entry({ system: SYSTEMS.loinc, code: '28570-0', display: 'Procedure note', source: TABLE }),
  vitalSigns: entry({
    system: SYSTEMS.observationCategory,
    code: 'vital-signs',
    display: 'Vital Signs',
    source: TABLE,
  }),
  medicalRecordNumber: entry({
    system: SYSTEMS.identifierType,
    code: 'MR',
    display: 'Medical record number',
    source: TABLE,
  }),
  sugammadex: entry({ system: SYSTEMS.atc, code: 'V03AB35', display: 'sugammadex', source: TABLE }),
  intravenousRoute: entry({ system: SYSTEMS.snomed, code: '47625008', display: 'Intravenous route', source: TABLE }),
  riskLow: entry({ system: SYSTEMS.riskProbability, code: 'low', display: 'Low likelihood', source: TABLE }),
  riskModerate: entry({
    system: SYSTEMS.riskProbability,
    code: 'moderate',
    display: 'Moderate likelihood',
    source: TABLE,
  }),
  riskHigh: entry({ system: SYSTEMS.riskProbability, code: 'high', display: 'High likelihood', source: TABLE }),
  author: entry({ system: SYSTEMS.provenanceParticipant, code: 'author', display: 'Author', source: TABLE }),
  assembler: entry({ system: SYSTEMS.provenanceParticipant, code: 'assembler', display: 'Assembler', source: TABLE }),
  create: entry({ system: SYSTEMS.dataOperation, code: 'CREATE', display: 'create', source: TABLE }),
} as const;

/** UCUM units (case-sensitive codes), written as `{ unit, system, code }` with unit = code. */
export const UNITS = {
  kilogram: entry({ system: SYSTEMS.ucum, code: 'kg', display: 'kilogram', source: TABLE }),
  milligram: entry({ system: SYSTEMS.ucum, code: 'mg', display: 'milligram', source: TABLE }),
  millilitrePerMinute: entry({ system: SYSTEMS.ucum, code: 'mL/min', display: 'millilitre per minute', source: TABLE }),
  perMinute: entry({ system: SYSTEMS.ucum, code: '/min', display: 'per minute', source: TABLE }),
} as const;

/** Every code and unit above, for the checks. */
export const ALL_CODES: readonly CodeEntry[] = [...Object.values(CODES), ...Object.values(UNITS)];

/** Profiles the resources claim in `meta.profile` (FHIR R4's own vital-signs profiles). */
export const PROFILES = {
  bodyWeight: 'http://hl7.org/fhir/StructureDefinition/bodyweight',
  heartRate: 'http://hl7.org/fhir/StructureDefinition/heartrate',
} as const;
