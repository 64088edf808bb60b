/**
 * Text every store can keep exactly: no U+0000 (PostgreSQL's text type refuses it) and no half of a
 * surrogate pair (it would come back as U+FFFD). Neither is anything a person types.
 */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const isStorableText = (text: string): boolean => !UNSTORABLE.test(text);

/**
 * Whether any string in a parsed JSON value (keys included) cannot be stored as it is. A loop over a
 * list of values still to look at, not a recursion: however deep the value, the stack stays the same.
 */
export function holdsUnstorableText(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') {
      if (!isStorableText(item)) return true;
    } else if (Array.isArray(item)) {
      for (const child of item as unknown[]) pending.push(child);
    } else if (item !== null && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) {
        if (!isStorableText(key)) return true;
        pending.push(child);
      }
    }
  }
  return false;
}
