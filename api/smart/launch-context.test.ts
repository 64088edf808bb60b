import type { Observation, Patient } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { ageGroupOf, mrnOf, patientFieldsFromEhr, weightKgOf } from './launch-context.ts';

const NOW = new Date('2026-11-25T10:00:00Z');
const weight = (value: number, code: string, status: Observation['status'] = 'final'): Observation => ({
  resourceType: 'Observation',
  status,
  code: { coding: [{ system: 'http://loinc.org', code: '29463-7' }] },
  valueQuantity: { value, system: 'http://unitsofmeasure.org', code },
});

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

  it('takes the MR identifier as the MRN, else the first; drops a weight the patient form refuses', () => {
    const patient: Patient = {
      resourceType: 'Patient',
      identifier: [
        { value: 'first' },
        { type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0203', code: 'MR' }] }, value: 'M-1' },
      ],
      name: [{ given: ['Layla'], family: 'Al-Harbi' }],
      birthDate: '1979-04-12',
    };
    expect(mrnOf(patient)).toBe('M-1');
    expect(mrnOf({ resourceType: 'Patient', identifier: [{ value: ' X-9 ' }] })).toBe('X-9');
    expect(patientFieldsFromEhr(patient, weight(7000, 'kg'), NOW)).toEqual({
      displayName: 'Layla Al-Harbi',
      mrn: 'M-1',
      yearOfBirth: 1979,
      ageGroup: 'adult',
      weightKg: null,
    });
  });
});
