/** FHIR R4 from stored calculations (docs/fhir.md): pure, used by the API (api/fhir/). */
export * from './calculation-bundle.ts';
export { ALL_CODES, CODES, PROFILES, SYSTEMS, UNITS, type CodeEntry } from './codes.ts';
export { readCalculation, type CreatinineMethod, type ReadCalculation } from './stored-calculation.ts';
