import type { Observation, Patient } from '@medplum/fhirtypes';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BODY_WEIGHT_MAX_KG, BODY_WEIGHT_MIN_KG } from '../../clinical/constants.ts';
import {
  ageGroupOf,
  ehrWeightOf,
  mrnIdentifierOf,
  mrnOf,
  newestWeight,
  patientFieldsFromEhr,
  weightKgOf,
  type WeightSearch,
} from './launch-context.ts';

const NOW = new Date('2026-11-25T10:00:00Z');
const DAY = 24 * 60 * 60 * 1000;
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY).toISOString();
const weight = (
  value: number,
  code: string,
  status: Observation['status'] = 'final',
  effectiveDateTime: string | undefined = daysAgo(1),
): Observation => ({
  resourceType: 'Observation',
  status,
  code: { coding: [{ system: 'http://loinc.org', code: '29463-7' }] },
  valueQuantity: { value, system: 'http://unitsofmeasure.org', code },
  ...(effectiveDateTime ? { effectiveDateTime } : {}),
});
const found = (observation: Observation): WeightSearch => ({ kind: 'found', observation });
const SETTINGS = { weightMaxAgeDays: 30 };

describe('what a launch gives the local patient', () => {
  it.each([
    ['2008-11-25', 'adult'], // 18 today
    ['2008-11-26', 'pediatric'], // 18 tomorrow
    ['2024-11-25', 'pediatric'], // 2 today
    ['2024-11-26', 'infant'],
    ['2026-01-01', 'infant'],
    ['1980', null], // the day is not known
    [undefined, null],
    ['2027-01-01', null], // not born yet
  ])('born %s: age group %s (docs/clinical-reference.md: children 2-17 years)', (birthDate, group) => {
    expect(ageGroupOf(birthDate, NOW)).toBe(group);
  });

  it.each([
    [weight(70, 'kg'), 70],
    [weight(70400, 'g'), 70.4],
    [weight(154, '[lb_av]'), 69.9],
    [weight(70, 'mg'), null],
    [weight(70, 'kg', 'entered-in-error'), null],
    [{ ...weight(70, 'kg'), code: { coding: [{ system: 'http://loinc.org', code: '8302-2' }] } }, null],
    [undefined, null],
  ])('weight %#: %s kg', (observation, kg) => {
    expect(weightKgOf(observation as Observation | undefined)).toBe(kg);
  });

  const MR = { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0203', code: 'MR' }] };
  it.each([
    ['typed MR, with its system', [{ value: 'first' }, { type: MR, system: 'urn:h', value: 'M-1' }], 'M-1', 'urn:h'],
    ['typed MR, no system: the MRN shown, nothing to match by', [{ type: MR, value: ' M-2 ' }], 'M-2', null],
    [
      'none typed MR: not an MRN (a national id or an insurance number)',
      [{ system: 'urn:ssn', value: 'X' }],
      null,
      null,
    ],
    [
      'none typed MR, one in FHIR_MRN_SYSTEM',
      [
        { system: 'urn:ssn', value: 'X' },
        { system: 'urn:h', value: 'H' },
      ],
      'H',
      'urn:h',
    ],
  ])('the MRN: %s', (_name, identifier, mrn, system) => {
    const patient: Patient = { resourceType: 'Patient', identifier, name: [{ text: 'P' }] };
    expect(mrnOf(patient, 'urn:h')).toBe(mrn);
    const fields = patientFieldsFromEhr(patient, { kind: 'none' }, NOW, { ...SETTINGS, mrnSystem: 'urn:h' });
    expect(fields.mrn).toBe(mrn);
    expect(fields.mrnIdentifier).toEqual(system ? { system, value: mrn } : null);
  });

  it('without FHIR_MRN_SYSTEM an identifier not typed MR is no MRN', () => {
    expect(mrnIdentifierOf({ resourceType: 'Patient', identifier: [{ system: 'urn:h', value: 'H' }] })).toBeUndefined();
  });

  it('fills in the EHR weight it read; never one it did not read', () => {
    const patient: Patient = {
      resourceType: 'Patient',
      name: [{ given: ['Layla'], family: 'Al-Harbi' }],
      birthDate: '1979-04-12',
    };
    expect(patientFieldsFromEhr(patient, found(weight(72, 'kg')), NOW, SETTINGS)).toMatchObject({
      displayName: 'Layla Al-Harbi',
      yearOfBirth: 1979,
      ageGroup: 'adult',
      weightKg: 72,
      weight: { source: 'ehr', kg: 72, recordedAt: daysAgo(1) },
    });
    expect(patientFieldsFromEhr(patient, found(weight(7000, 'kg')), NOW, SETTINGS)).toMatchObject({
      weightKg: null,
      weight: { source: 'none', reason: 'unusable', ehrKg: 7000 },
    });
    expect(patientFieldsFromEhr(patient, { kind: 'failed' }, NOW, SETTINGS).weightKg).toBeNull();
  });
});

describe('the EHR weight a launch may fill in (SMART_WEIGHT_MAX_AGE_DAYS)', () => {
  it.each<[string, WeightSearch, number, object]>([
    ['read, a day old', found(weight(72, 'kg')), 30, { source: 'ehr', kg: 72, recordedAt: daysAgo(1) }],
    ['read, exactly the limit old', found(weight(72, 'kg', 'final', daysAgo(30))), 30, { source: 'ehr', kg: 72 }],
    [
      'older than the limit',
      found(weight(72, 'kg', 'final', daysAgo(31))),
      30,
      { source: 'none', reason: 'too_old', ehrKg: 72, recordedAt: daysAgo(31) },
    ],
    [
      'older than a longer limit the hospital set',
      found(weight(72, 'kg', 'final', daysAgo(31))),
      90,
      { source: 'ehr' },
    ],
    [
      'the search failed',
      { kind: 'failed' },
      30,
      { source: 'none', reason: 'unreadable', ehrKg: null, recordedAt: null },
    ],
    ['none recorded', { kind: 'none' }, 30, { source: 'none', reason: 'not_recorded', ehrKg: null, recordedAt: null }],
    ['out of range', found(weight(250, 'kg')), 30, { source: 'none', reason: 'unusable', ehrKg: 250 }],
    ['in an unknown unit', found(weight(72, 'stone')), 30, { source: 'none', reason: 'unusable', ehrKg: null }],
    ['entered in error', found(weight(72, 'kg', 'entered-in-error')), 30, { source: 'none', reason: 'unusable' }],
    ['dated next week', found(weight(72, 'kg', 'final', daysAgo(-7))), 30, { source: 'none', reason: 'unusable' }],
    ['with no date', found(weight(72, 'kg', 'final', '')), 30, { source: 'none', reason: 'undated', ehrKg: 72 }],
    [
      'dated by when it was issued only',
      found({ ...weight(72, 'kg', 'final', ''), issued: daysAgo(2) }),
      30,
      { source: 'ehr', recordedAt: daysAgo(2) },
    ],
    [
      'a date-only effective time',
      found(weight(72, 'kg', 'final', '2026-11-20')),
      30,
      { source: 'ehr', recordedAt: '2026-11-20T00:00:00.000Z' },
    ],
  ])('%s', (_name, search, maxAgeDays, expected) => {
    expect(ehrWeightOf(search, NOW, maxAgeDays)).toMatchObject(expected);
  });

  it('the newest of what the search answered, whatever its order, leaving out weights in error', () => {
    const older = weight(68, 'kg', 'final', daysAgo(300));
    const newer = weight(70, 'kg', 'final', daysAgo(3));
    const wrong = weight(99, 'kg', 'entered-in-error', daysAgo(1));
    expect(newestWeight([older, wrong, newer])).toBe(newer);
    expect(newestWeight([newer, older])).toBe(newer);
    expect(newestWeight([wrong])).toBeUndefined();
    expect(newestWeight([])).toBeUndefined();
  });

  it('property: a weight is filled in only when read now, in range, dated and no older than the limit', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.constant<WeightSearch>({ kind: 'failed' }),
          fc.constant<WeightSearch>({ kind: 'none' }),
          fc
            .record({
              kg: fc.double({ min: -10, max: 400, noNaN: true }),
              ageDays: fc.option(fc.double({ min: -30, max: 4000, noNaN: true }), { nil: undefined }),
              unit: fc.constantFrom('kg', 'g', '[lb_av]', 'mg', 'stone'),
            })
            .map(({ kg, ageDays, unit }) =>
              found(weight(kg, unit, 'final', ageDays === undefined ? '' : daysAgo(ageDays))),
            ),
        ),
        fc.integer({ min: 1, max: 3650 }),
        (search, maxAgeDays) => {
          const outcome = ehrWeightOf(search, NOW, maxAgeDays);
          if (outcome.source !== 'ehr') return;
          expect(search.kind).toBe('found');
          expect(outcome.kg).toBeGreaterThanOrEqual(BODY_WEIGHT_MIN_KG);
          expect(outcome.kg).toBeLessThanOrEqual(BODY_WEIGHT_MAX_KG);
          const age = NOW.getTime() - Date.parse(outcome.recordedAt);
          expect(age).toBeLessThanOrEqual(maxAgeDays * DAY);
          expect(age).toBeGreaterThanOrEqual(-DAY);
          expect(outcome.kg).toBe(weightKgOf((search as { observation: Observation }).observation));
        },
      ),
    );
  });
});
