import type { Identifier, Observation, Patient as FhirPatient } from '@medplum/fhirtypes';
import * as v from 'valibot';
import type { AgeGroup } from '../../clinical/index.ts';
import { newPatientSchema } from '../../clinical/patient-record.ts';
import type { EhrContext, EhrWeight } from '../../contracts/smart.ts';
import { CODES } from '../../fhir/codes.ts';

/**
 * What a launch from the EHR gives the local patient record (docs/API.md#smart-app-launch): the name, the MRN
 * (the identifier the EHR types MR, else the one in the hospital's MRN namespace, FHIR_MRN_SYSTEM; never any
 * other identifier, which may be a national id or an insurance number), the year of birth, the age group from
 * the birth date, and the body weight the EHR holds now, when it is usable. Pure: the EHR's resources, the
 * date and the hospital's settings come in. A value the patient form would refuse (a weight out of range) is
 * left out rather than stored: the clinician types it.
 */
export interface EhrPatientFields {
  displayName: string;
  mrn: string | null;
  /** The MRN's identifier, when the EHR names its system: what a later launch may match the record by. */
  mrnIdentifier: { system: string; value: string } | null;
  yearOfBirth: number | null;
  ageGroup: AgeGroup | null;
  /** The weight to fill in: the EHR's, read by this launch and recent enough; else null (see `weight`). */
  weightKg: number | null;
  weight: EhrWeight;
}

/** The body weight search as the launch ran it: the newest Observation found, none, or the search failed. */
export type WeightSearch = { kind: 'found'; observation: Observation } | { kind: 'none' } | { kind: 'failed' };

export interface EhrPatientSettings {
  /** FHIR_MRN_SYSTEM: the hospital's MRN namespace, taken as the MRN when the EHR types no identifier MR. */
  mrnSystem?: string;
  /** SMART_WEIGHT_MAX_AGE_DAYS: an EHR weight recorded longer ago than this is not filled in. */
  weightMaxAgeDays: number;
}

const MR_TYPE_SYSTEM = 'http://terminology.hl7.org/CodeSystem/v2-0203';
const UCUM = 'http://unitsofmeasure.org';
/** kg per unit, for the UCUM units an EHR records body weight in. */
const KG_PER_UNIT: Record<string, number> = { kg: 1, g: 0.001, '[lb_av]': 0.45359237 };
/** docs/clinical-reference.md: children are 2–17 years; under 2 years the dose is not established. */
const CHILD_FROM_YEARS = 2;
const ADULT_FROM_YEARS = 18;
const MS_PER_DAY = 24 * 60 * 60 * 1000;
/** A weight dated further ahead than this (a clock or a data-entry error) is not used. */
const FUTURE_TOLERANCE_MS = MS_PER_DAY;

export function nameOf(patient: FhirPatient): string {
  const names = patient.name ?? [];
  const name = names.find((candidate) => candidate.use === 'official') ?? names[0];
  const text =
    name?.text?.trim() || [...(name?.given ?? []), name?.family ?? ''].filter(Boolean).join(' ').trim() || '';
  return text.replace(/\s+/g, ' ').slice(0, 100) || `Patient ${patient.id ?? ''}`.trim();
}

/** The identifier that is the patient's MRN here: typed MR by the EHR, else in the hospital's MRN system. */
export function mrnIdentifierOf(patient: FhirPatient, mrnSystem?: string): Identifier | undefined {
  const identifiers = (patient.identifier ?? []).filter((identifier) => identifier.value?.trim());
  return (
    identifiers.find((identifier) =>
      identifier.type?.coding?.some((coding) => coding.system === MR_TYPE_SYSTEM && coding.code === 'MR'),
    ) ?? (mrnSystem ? identifiers.find((identifier) => identifier.system === mrnSystem) : undefined)
  );
}

export function mrnOf(patient: FhirPatient, mrnSystem?: string): string | null {
  return mrnIdentifierOf(patient, mrnSystem)?.value?.trim() ?? null;
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

/** When the weight was taken: its effective time, else when it was issued; undefined when it says neither. */
export function recordedAtOf(observation: Observation): string | undefined {
  return (
    observation.effectiveDateTime ??
    observation.effectiveInstant ??
    observation.effectivePeriod?.end ??
    observation.effectivePeriod?.start ??
    observation.issued
  );
}

/** The newest of the weights a search answered (not every EHR honours `_sort`), leaving out those in error. */
export function newestWeight(found: readonly Observation[]): Observation | undefined {
  const time = (observation: Observation) => Date.parse(recordedAtOf(observation) ?? '') || Number.NEGATIVE_INFINITY;
  return found
    .filter((observation) => observation.status !== 'entered-in-error' && observation.status !== 'cancelled')
    .reduce<Observation | undefined>(
      (newest, next) => (!newest || time(next) > time(newest) ? next : newest),
      undefined,
    );
}

/**
 * The EHR's weight as this launch may fill it in: read now, a body weight in a mass unit, in the patient form's
 * range, dated, and no older than `maxAgeDays`. Otherwise why not, with what the EHR had (so the page can say
 * "the EHR's newest weight, 72 kg, is from 2 March").
 */
export function ehrWeightOf(search: WeightSearch, now: Date, maxAgeDays: number): EhrWeight {
  if (search.kind === 'failed') return { source: 'none', reason: 'unreadable', ehrKg: null, recordedAt: null };
  if (search.kind === 'none') return { source: 'none', reason: 'not_recorded', ehrKg: null, recordedAt: null };
  const kg = weightKgOf(search.observation);
  const dated = recordedAtOf(search.observation);
  const at = dated === undefined ? Number.NaN : Date.parse(dated);
  const recordedAt = Number.isNaN(at) ? null : new Date(at).toISOString();
  const inRange =
    kg !== null && v.safeParse(newPatientSchema(now.getUTCFullYear()), { displayName: 'x', weightKg: kg }).success;
  if (!inRange || at > now.getTime() + FUTURE_TOLERANCE_MS)
    return { source: 'none', reason: 'unusable', ehrKg: kg, recordedAt };
  if (recordedAt === null) return { source: 'none', reason: 'undated', ehrKg: kg, recordedAt: null };
  if (now.getTime() - at > maxAgeDays * MS_PER_DAY) return { source: 'none', reason: 'too_old', ehrKg: kg, recordedAt };
  return { source: 'ehr', kg, recordedAt };
}

export function patientFieldsFromEhr(
  patient: FhirPatient,
  search: WeightSearch,
  now: Date,
  settings: EhrPatientSettings,
): EhrPatientFields {
  const year = /^(\d{4})/.exec(patient.birthDate ?? '')?.[1];
  const identifier = mrnIdentifierOf(patient, settings.mrnSystem);
  const weight = ehrWeightOf(search, now, settings.weightMaxAgeDays);
  const fields: EhrPatientFields = {
    displayName: nameOf(patient),
    mrn: identifier?.value?.trim().slice(0, 64) ?? null,
    mrnIdentifier: null,
    yearOfBirth: year ? Number(year) : null,
    ageGroup: ageGroupOf(patient.birthDate, now),
    weightKg: weight.source === 'ehr' ? weight.kg : null,
    weight,
  };
  // Whatever the patient form would refuse is left empty (the clinician sees and types it).
  const schema = newPatientSchema(now.getUTCFullYear());
  for (const field of ['mrn', 'yearOfBirth'] as const) {
    if (fields[field] !== null && !v.safeParse(schema, { displayName: 'x', [field]: fields[field] }).success)
      fields[field] = null;
  }
  const system = identifier?.system?.trim();
  if (fields.mrn !== null && system) fields.mrnIdentifier = { system: system.slice(0, 500), value: fields.mrn };
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
