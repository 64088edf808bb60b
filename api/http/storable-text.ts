/**
 * Text every store can keep exactly: no U+0000 (PostgreSQL's text type refuses it) and no half of a
 * surrogate pair (it would come back as U+FFFD). Neither is anything a person types.
 */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const isStorableText = (text: string): boolean => !UNSTORABLE.test(text);

/** Whether any string in a parsed JSON value (keys included) cannot be stored as it is. */
export function holdsUnstorableText(value: unknown): boolean {
  if (typeof value === 'string') return !isStorableText(value);
  if (Array.isArray(value)) return value.some(holdsUnstorableText);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).some(([key, item]) => !isStorableText(key) || holdsUnstorableText(item));
  }
  return false;
}
