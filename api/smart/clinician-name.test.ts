import type { Resource } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { clinicianNameOf, fhirUserReadable } from './clinician-name.ts';

const BASE = 'https://fhir.hospital.example/R4';

describe("the clinician's name from their resource at the EHR", () => {
  it.each<[string, Resource, string]>([
    [
      'given and family, the title left for the page to print',
      { resourceType: 'Practitioner', name: [{ prefix: ['Dr.'], given: ['Faisal'], family: 'Al-Qahtani' }] },
      'Faisal Al-Qahtani',
    ],
    [
      'the text alone, its title taken off',
      { resourceType: 'Practitioner', name: [{ text: 'Dr. Faisal Al-Qahtani' }] },
      'Faisal Al-Qahtani',
    ],
    [
      'the official name first, not an old one',
      {
        resourceType: 'Practitioner',
        name: [
          { use: 'official', period: { end: '2020-01-01' }, given: ['Old'], family: 'Name' },
          { use: 'usual', given: ['Nick'] },
          { use: 'official', given: ['Faisal'], family: 'Al-Qahtani' },
        ],
      },
      'Faisal Al-Qahtani',
    ],
    [
      'a PractitionerRole: the practitioner it names',
      { resourceType: 'PractitionerRole', practitioner: { display: 'Faisal A.' } },
      'Faisal A.',
    ],
    ['no name at all', { resourceType: 'Practitioner' }, ''],
    ['not a person', { resourceType: 'Organization', name: 'King Fahad' } as Resource, ''],
  ])('%s', (_name, resource, name) => {
    expect(clinicianNameOf(resource)).toBe(name);
  });

  it.each([
    ['Practitioner/pr-9001', 'Practitioner/pr-9001'],
    [`${BASE}/Practitioner/pr-9001`, 'Practitioner/pr-9001'],
    ['https://other.example/R4/Practitioner/pr-9001', undefined], // the EHR's token goes nowhere else
    ['Practitioner/../Patient/1', undefined],
    ['Organization/1', undefined],
  ])('fhirUser %s is read as %s', (fhirUser, reference) => {
    expect(fhirUserReadable(fhirUser, BASE)).toBe(reference);
  });
});
