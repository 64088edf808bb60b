import type { HumanName, Resource } from '@medplum/fhirtypes';

/**
 * The launched clinician's name from their own resource at the EHR (`fhirUser`: a Practitioner, most often),
 * for an EHR whose ID token carries `fhirUser` and no `name` (SMART's reference launcher, many EHRs): the page
 * greets them, the notes PDF filed in the chart and the DocumentReference's author name them. Pure.
 */

/** The name an earlier release gave an account the EHR named no one for; such an account is renamed later. */
export const LEGACY_UNNAMED = 'EHR user';

const RESOURCE_ID = /^(Practitioner|PractitionerRole|Person|Patient|RelatedPerson)\/[A-Za-z0-9\-.]{1,64}$/;

/**
 * `fhirUser` as a reference relative to the launch's FHIR base, when it is one there; undefined when it names a
 * resource on another server (the EHR's access token is never sent anywhere but the launch's FHIR base).
 */
export function fhirUserReadable(fhirUser: string, fhirBase: string): string | undefined {
  const relative = fhirUser.startsWith(`${fhirBase}/`) ? fhirUser.slice(fhirBase.length + 1) : fhirUser;
  return RESOURCE_ID.test(relative) ? relative : undefined;
}

/** A title written before the name ("Dr. Faisal …"): the page and the PDF print "Dr." themselves. */
const TITLE = /^(dr|doctor|prof|professor|mr|mrs|ms|miss)\.?\s+/i;

function humanNameText(name: HumanName | undefined): string {
  if (!name) return '';
  const parts = [...(name.given ?? []), name.family ?? ''].map((part) => part.trim()).filter(Boolean);
  const text = parts.length > 0 ? parts.join(' ') : (name.text ?? '');
  return text.replace(/\s+/g, ' ').trim().replace(TITLE, '');
}

/** The person's name in a Practitioner, Person, Patient or RelatedPerson (its official one first), or ''. */
export function clinicianNameOf(resource: Resource): string {
  if (resource.resourceType === 'PractitionerRole') return (resource.practitioner?.display ?? '').trim().slice(0, 100);
  const names: HumanName[] =
    resource.resourceType === 'Practitioner' ||
    resource.resourceType === 'Person' ||
    resource.resourceType === 'Patient' ||
    resource.resourceType === 'RelatedPerson'
      ? (resource.name ?? [])
      : [];
  const name = names.find((candidate) => candidate.use === 'official' && !candidate.period?.end) ?? names[0];
  return humanNameText(name).slice(0, 100);
}
