import type { Observation, Patient as FhirPatient } from '@medplum/fhirtypes';
import * as v from 'valibot';
import type { AgeGroup } from '../../clinical/index.ts';
import { newPatientSchema } from '../../clinical/patient-record.ts';
import type { EhrContext } from '../../contracts/smart.ts';
import { CODES } from '../../fhir/codes.ts';

/**
 * What a launch from the EHR gives the local patient record (docs/API.md#smart-app-launch): the name, the MRN
 * (the identifier the EHR types MR, else its first), the year of birth, the age group from the birth date,
 * and the latest body weight in kg. Pure: the EHR's resources and the date come in. A value the patient form
 * would refuse (a weight out of range) is left out rather than stored: the clinician types it.
 */
export interface EhrPatientFields {
  displayName: string;
  mrn: string | null;
  yearOfBirth: number | null;
  ageGroup: AgeGroup | null;
  weightKg: number | null;
}

const MR_TYPE_SYSTEM = 'http://terminology.hl7.org/CodeSystem/v2-0203';
const UCUM = 'http://unitsofmeasure.org';
/** kg per unit, for the UCUM units an EHR records body weight in. */
const KG_PER_UNIT: Record<string, number> = { kg: 1, g: 0.001, '[lb_av]': 0.45359237 };
/** docs/clinical-reference.md: children are 2–17 years; under 2 years the dose is not established. */
const CHILD_FROM_YEARS = 2;
const ADULT_FROM_YEARS = 18;

export function nameOf(patient: FhirPatient): string {
  const names = patient.name ?? [];
  const name = names.find((candidate) => candidate.use === 'official') ?? names[0];
  const text =
    name?.text?.trim() || [...(name?.given ?? []), name?.family ?? ''].filter(Boolean).join(' ').trim() || '';
  return text.replace(/\s+/g, ' ').slice(0, 100) || `Patient ${patient.id ?? ''}`.trim();
}

export function mrnOf(patient: FhirPatient): string | null {
  const identifiers = (patient.identifier ?? []).filter((identifier) => identifier.value?.trim());
  const typed = identifiers.find((identifier) =>
    identifier.type?.coding?.some((coding) => coding.system === MR_TYPE_SYSTEM && coding.code === 'MR'),
  );
  return (typed ?? identifiers[0])?.value?.trim() ?? null;
}

/** Whole years between the birth date (YYYY, YYYY-MM or YYYY-MM-DD) and `now`; null when not known to the day. */
export function ageInYears(birthDate: string | undefined, now: Date): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(birthDate ?? '');
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const birthdayPassed = now.getUTCMonth() + 1 > month || (now.getUTCMonth() + 1 === month && now.getUTCDate() >= day);
  return now.getUTCFullYear() - year - (birthdayPassed ? 0 : 1);
}

export function ageGroupOf(birthDate: string | undefined, now: Date): AgeGroup | null {
  const years = ageInYears(birthDate, now);
  if (years === null || years < 0) return null;
  if (years >= ADULT_FROM_YEARS) return 'adult';
  return years >= CHILD_FROM_YEARS ? 'pediatric' : 'infant';
}

/** The body weight of an Observation in kg (LOINC 29463-7 with a UCUM mass unit), else null. */
export function weightKgOf(observation: Observation | undefined): number | null {
  if (!observation || observation.status === 'entered-in-error' || observation.status === 'cancelled') return null;
  const isWeight = observation.code?.coding?.some(
    (coding) => coding.system === CODES.bodyWeight.system && coding.code === CODES.bodyWeight.code,
  );
  const quantity = observation.valueQuantity;
  const perUnit = quantity?.code !== undefined ? KG_PER_UNIT[quantity.code] : undefined;
  if (!isWeight || quantity?.value === undefined || quantity.system !== UCUM || perUnit === undefined) return null;
  return Math.round(quantity.value * perUnit * 10) / 10;
}

export function patientFieldsFromEhr(patient: FhirPatient, weight: Observation | undefined, now: Date) {
  const year = /^(\d{4})/.exec(patient.birthDate ?? '')?.[1];
  const fields: EhrPatientFields = {
    displayName: nameOf(patient),
    mrn: mrnOf(patient)?.slice(0, 64) ?? null,
    yearOfBirth: year ? Number(year) : null,
    ageGroup: ageGroupOf(patient.birthDate, now),
    weightKg: weightKgOf(weight),
  };
  // Whatever the patient form would refuse is left empty (the clinician sees and types it).
  const schema = newPatientSchema(now.getUTCFullYear());
  for (const field of ['mrn', 'yearOfBirth', 'weightKg'] as const) {
    if (fields[field] !== null && !v.safeParse(schema, { displayName: 'x', [field]: fields[field] }).success)
      fields[field] = null;
  }
  return fields;
}

/** The banner's text of the EHR's patient (`need_patient_banner`). */
export function bannerOf(patient: FhirPatient, fields: EhrPatientFields): NonNullable<EhrContext['banner']> {
  return {
    name: fields.displayName,
    mrn: fields.mrn,
    birthDate: patient.birthDate ?? null,
    gender: patient.gender ?? null,
  };
}
