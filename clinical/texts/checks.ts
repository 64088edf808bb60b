import { LEFT_TO_RIGHT_ISOLATE, POP_DIRECTIONAL_ISOLATE, withoutIsolates } from '../bidi.ts';

/**
 * Checks for texts in two languages (used by the tests of every catalogue): a translation carries exactly the
 * English text's numbers, and in a right-to-left text every number sits in a left-to-right isolate (ltr()).
 */

/** The Western digit runs of a text, decimals and thousands kept whole ("1.2", "1,000,000"), sorted. */
export function digitRuns(text: string): string[] {
  return (withoutIsolates(text).match(/\d+(?:[.,]\d+)*/g) ?? []).sort();
}

/** Whether a text has Arabic letters (hamza to yeh; not just Arabic punctuation or digits). */
export const hasArabicLetters = (text: string): boolean => /[\u0621-\u064a]/.test(text);

/**
 * What is wrong with a right-to-left text's isolation: an isolate opened inside another or never closed, a
 * closing mark without its opening, a Western digit outside an isolate, or an Eastern Arabic digit (the product
 * writes Western digits). Empty when the text is well formed.
 */
export function isolationProblems(text: string): string[] {
  const problems: string[] = [];
  let open = false;
  let outside = '';
  for (const character of text) {
    if (character === LEFT_TO_RIGHT_ISOLATE) {
      if (open) problems.push('an isolate opened inside another');
      open = true;
    } else if (character === POP_DIRECTIONAL_ISOLATE) {
      if (!open) problems.push('a closing mark (U+2069) without its isolate');
      open = false;
    } else if (!open) {
      outside += character;
    }
  }
  if (open) problems.push('an isolate never closed');
  const bare = outside.match(/\d+/g);
  if (bare) problems.push(`digits outside an isolate: ${bare.join(', ')}`);
  if (/[\u0660-\u0669\u06f0-\u06f9]/.test(text)) problems.push('Eastern Arabic digits');
  return problems;
}
