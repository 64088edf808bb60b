import * as v from 'valibot';
import type { ClinicalTextsOf } from './texts/en.ts';
import { FIELDS_TEXTS_EN } from './texts/sections-en.ts';

export { hasVisibleCharacter } from './visible-text.ts';

/** One problem with one input field, in words a clinician can act on. */
export interface FieldIssue {
  field: string;
  message: string;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; issues: FieldIssue[] };

/**
 * Runs a tool's schema over untrusted input (a form or a JSON body) and turns valibot's issues
 * into `{ field, message }`, ordered as the schema lists its fields so the first issue is the one
 * the spec checks first. One issue per field.
 */
export function parseWith<S extends v.GenericSchema>(
  schema: S,
  input: unknown,
  fieldOrder: readonly string[] = [],
): Parsed<v.InferOutput<S>> {
  const result = v.safeParse(schema, input, { abortPipeEarly: true });
  if (result.success) return { ok: true, value: result.output };
  const seen = new Set<string>();
  const issues: FieldIssue[] = [];
  for (const issue of result.issues) {
    const field = v.getDotPath(issue) ?? 'input';
    if (seen.has(field)) continue;
    seen.add(field);
    issues.push({ field, message: issue.message });
  }
  const rank = (field: string) => {
    const index = fieldOrder.indexOf(field);
    return index === -1 ? fieldOrder.length : index;
  };
  issues.sort((a, b) => rank(a.field) - rank(b.field));
  return { ok: false, issues };
}

/**
 * A strict object whose messages name the field: a missing required field gets that field's own
 * message, and a field the tool does not know is refused ("Unknown field"), so a typo in an API
 * call cannot silently drop an input. `texts` gives the words of the generic messages.
 */
export function strictFields<E extends v.ObjectEntries>(
  entries: E,
  missingMessages: { [K in keyof E]?: string },
  texts: ClinicalTextsOf<'fields'> = { fields: FIELDS_TEXTS_EN },
) {
  return v.strictObject(entries, (issue) => {
    const key = issue.path?.[issue.path.length - 1]?.key;
    if (typeof key === 'string' && Object.hasOwn(entries, key)) {
      return missingMessages[key] ?? texts.fields.required(key);
    }
    if (typeof key === 'string') return texts.fields.unknown(key);
    return texts.fields.notAnObject;
  });
}

/**
 * A schema built once per catalogue of texts: valibot fixes a schema's messages when it is built, so each
 * language has its own schema, made on first use and kept. Called without texts: the English one (`english`, the
 * sections `build` reads).
 */
export function schemaForTexts<T extends object, S>(build: (texts: T) => S, english: NoInfer<T>): (texts?: T) => S {
  const built = new WeakMap<T, S>();
  return (texts = english) => {
    let schema = built.get(texts);
    if (schema === undefined) {
      schema = build(texts);
      built.set(texts, schema);
    }
    return schema;
  };
}

/** A finite number within [min, max]; `message` is used for every failure of the field. */
export function numberInRange(min: number, max: number, message: string) {
  return v.pipe(v.number(message), v.finite(message), v.minValue(min, message), v.maxValue(max, message));
}

/** A whole number within [min, max]. */
export function integerInRange(min: number, max: number, message: string) {
  return v.pipe(v.number(message), v.integer(message), v.minValue(min, message), v.maxValue(max, message));
}
