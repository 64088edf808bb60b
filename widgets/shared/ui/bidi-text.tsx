import type { ReactNode } from 'react';

/**
 * Right-to-left text as markup (docs/arabic-glossary.md, "Numbers, units and drug names"). The texts isolate every
 * number, dose, unit and Latin term with Unicode's isolates (clinical/bidi.ts `ltr`); on screen each such run
 * becomes a `<bdi dir="ltr">` instead, the isolate marks left out:
 * - a short run (a number with its unit, a range, a dose: up to NO_WRAP_MAX characters) never breaks across lines
 *   (`white-space: nowrap`), so "0.02 mg/kg" or "2-10 micrograms/min" never ends one line with the number and
 *   starts the next with the unit; a long citation may still wrap at its spaces. In an element narrower than
 *   NARROW_PX (a 200 px column) a run longer than its lines would stick out: there the runs wrap as text
 *   (a container query on the element's own width; `display: inline-block` would keep a run whole and still fit,
 *   but Chromium then spaces it apart in accessible names: "(دون سن 18 )");
 * - a run or a bare Latin term with Latin letters is marked `lang="en"`, so that a screen reader reads
 *   "(rocuronium)" or "mg/kg" in English, not as Arabic letters;
 * - no invisible character reaches the page, so a dose copied from it into a record is only the dose (the
 *   isolates, no-break spaces and word joiners the texts used to carry did).
 * A text without isolates and without Arabic letters (every English text) is returned as it is.
 */
export function bidiText(text: string): ReactNode {
  if (!text.includes(LEFT_TO_RIGHT_ISOLATE) && !ARABIC_LETTER.test(text)) return text;
  const nodes: ReactNode[] = [];
  let at = 0;
  for (const match of text.matchAll(RUN)) {
    if (match.index > at) nodes.push(text.slice(at, match.index));
    const isolated = match[1];
    const latin = match[2];
    if (isolated !== undefined) {
      nodes.push(
        <bdi
          key={match.index}
          dir="ltr"
          lang={LATIN_LETTER.test(isolated) ? 'en' : undefined}
          data-run=""
          css={isolated.length <= NO_WRAP_MAX ? KEPT_TOGETHER : undefined}
        >
          {isolated}
        </bdi>,
      );
    } else if (latin !== undefined) {
      nodes.push(
        <span key={match.index} lang="en">
          {latin}
        </span>,
      );
    }
    at = match.index + match[0].length;
  }
  if (at < text.length) nodes.push(text.slice(at));
  if (nodes.length === 1 && typeof nodes[0] === 'string') return nodes[0];
  // One inline box for the whole text: inside a flex or grid container (a label beside its radio button), the
  // text and its runs must stay one item, as the plain string was, not become items of their own.
  return <span>{nodes}</span>;
}

/** bidiText for a node that may be a string (a label, a hint, an error): anything else as it is. */
export function bidi(node: ReactNode): ReactNode {
  return typeof node === 'string' ? bidiText(node) : node;
}

/** The same, as a component: `<BidiText text={…} />`. */
export function BidiText({ text }: { text: string }) {
  return <>{bidiText(text)}</>;
}

/** An element narrower than this holds lines shorter than the longest runs (a 24-character citation). */
const NARROW_PX = 260;
/** A short run: on one line, except in a narrow element (see above). */
const KEPT_TOGETHER = {
  whiteSpace: 'nowrap',
  [`@container (max-width: ${NARROW_PX - 1}px)`]: { whiteSpace: 'normal' },
} as const;
const LEFT_TO_RIGHT_ISOLATE = '\u2066';
const ARABIC_LETTER = /[\u0621-\u064a]/;
const LATIN_LETTER = /[A-Za-z]/;
/** Runs longer than this (citations, full references) may wrap; a dose with its unit is far shorter. */
export const NO_WRAP_MAX = 28;
/**
 * An isolated run (U+2066 … U+2069; U+2067 and U+2068 never occur in our texts), or outside one a bare Latin term
 * of one or more words ("rocuronium", "TOF ratio", "re-paralysis", "PDF").
 */
const RUN = /\u2066([^\u2066-\u2069]*)\u2069|([A-Za-z][A-Za-z0-9'’.-]*(?: [A-Za-z0-9][A-Za-z0-9'’.-]*)*)/g;
