/**
 * The one `ltr` of every Arabic text, the page's as clinical/'s and the widgets' (clinical/bidi.ts): a number,
 * dose, unit or citation in an isolate, and nothing else. On screen the page renders each isolated run as a
 * `<bdi dir="ltr">` kept on one line (widgets/shared/ui/bidi-text.tsx), so "2-3 min" never splits across lines and
 * no invisible character (a no-break space, a word joiner) is copied with a dose.
 */
export { ltr } from '../../../clinical/bidi.ts';
