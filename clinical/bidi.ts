/**
 * Bidirectional-text isolation for texts that mix Arabic with numbers, units and drug names.
 *
 * `ltr("140 mg")` wraps a run in Unicode's LEFT-TO-RIGHT ISOLATE (U+2066) … POP DIRECTIONAL ISOLATE
 * (U+2069): inside a right-to-left sentence the run keeps its own order ("140 mg", never "mg 140") and
 * neither reorders nor is reordered by its neighbours. The marks are invisible, survive plain strings
 * (toasts, attributes, e-mail bodies), and are the text equivalent of `<bdi dir="ltr">`.
 */
export const LEFT_TO_RIGHT_ISOLATE = '\u2066';
export const POP_DIRECTIONAL_ISOLATE = '\u2069';

export const ltr = (run: string | number): string => `${LEFT_TO_RIGHT_ISOLATE}${run}${POP_DIRECTIONAL_ISOLATE}`;

/** The text without isolation marks (for comparing numbers across languages, or searching). */
export const withoutIsolates = (text: string): string => text.replace(/[\u2066-\u2069]/g, '');
