import bidiFactory from 'bidi-js';

/*
 * Right-to-left lines for a PDF (docs/engineering-notes.md#arabic-in-pdfs). jsPDF draws glyphs left to right in
 * the order it is given, so an Arabic line is prepared here:
 * 1. shaped: each letter replaced by its joined form (initial, medial, final, isolated; lam-alef ligatures), by
 *    jsPDF's own Arabic parser (`processArabic`), on the line in logical order;
 * 2. reordered for display by the Unicode Bidirectional Algorithm (bidi-js) with a right-to-left paragraph: runs of
 *    figures and Latin words (ltr() isolates in our texts) keep their order, mirrored brackets are swapped;
 * 3. stripped of the invisible marks (isolates), which the font has no glyph for.
 * What a text extractor reads is given separately (readingOrderText), as the marked content's /ActualText.
 */

const bidi = bidiFactory();

/** Bidi marks, isolates and embeddings: invisible, and absent from the font. */
const INVISIBLE_MARKS = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const RIGHT_TO_LEFT_MARK = '\u200f';

export type Shaper = (text: string) => string;

/** The characters of `text` in display order (left to right) for a right-to-left paragraph. */
function displayOrder(text: string, mirror: boolean): string[] {
  const embedding = bidi.getEmbeddingLevels(text, 'rtl');
  const characters = [...text]; // no astral characters in our texts: one code unit each
  if (mirror)
    for (const [index, mirrored] of bidi.getMirroredCharactersMap(text, embedding.levels)) characters[index] = mirrored;
  for (const [start = 0, end = 0] of bidi.getReorderSegments(text, embedding)) {
    const reversed = characters.slice(start, end + 1).reverse();
    characters.splice(start, reversed.length, ...reversed);
  }
  return characters;
}

/** What jsPDF should draw for one right-to-left line: shaped glyphs in display order. */
export function visualLine(logical: string, shape: Shaper): string {
  return displayOrder(shape(logical), true).join('').replace(INVISIBLE_MARKS, '');
}

/** The line as it will be drawn, for measuring its width. */
export const measurableLine = (logical: string, shape: Shaper): string => shape(logical).replace(INVISIBLE_MARKS, '');

/** Latin letters and the left-to-right mark: what poppler counts as left to right. */
const STRONG_LTR = /[A-Za-z\u00c0-\u024f\u200e]/;
/**
 * Arabic letters, the Arabic question mark and semicolon (Unicode's bidirectional class AL) and the right-to-left
 * mark: what poppler counts as right to left. The Arabic comma (class CS) is not among them.
 */
const RTL_CHARACTERS = '\\u061b\\u061f\\u0620-\\u064a\\u066d-\\u06d5\\ufb50-\\ufdff\\ufe70-\\ufefc';
const STRONG_RTL = new RegExp(`[${RTL_CHARACTERS}\\u200f]`);

/** +1 per left-to-right letter, −1 per right-to-left one: how poppler decides a page's main direction. */
export function directionBalance(text: string): number {
  let balance = 0;
  for (const character of text) {
    if (STRONG_LTR.test(character)) balance += 1;
    else if (STRONG_RTL.test(character)) balance -= 1;
  }
  return balance;
}

const LEFT_TO_RIGHT_MARK = '\u200e';
/** A run of right-to-left characters, with the spaces between them (not those around it). */
const ARABIC_WORDS = new RegExp(`[${RTL_CHARACTERS}](?:[${RTL_CHARACTERS} ]*[${RTL_CHARACTERS}])?`, 'g');

/**
 * The text a PDF text extractor should read for one right-to-left line, as /ActualText: the letters unshaped (so
 * a search for «ديسمبر» finds it), laid out so that pdftotext (poppler) puts the line back in logical order.
 * Poppler takes the characters as placed left to right and rebuilds the order from their types alone: Arabic
 * letters go right to left, everything else (figures, Latin, and punctuation, Arabic commas included) left to
 * right, spaces with their neighbours. On a page whose letters are mostly right to left it reads from the right
 * end; otherwise from the left. So the line is cut into runs of Arabic words and runs of anything else, each run
 * fenced with marks of its own direction (U+200F, U+200E) so that a space or a comma stays where it was, Arabic runs
 * reversed; the runs follow each other in reading order, reversed as a whole on a right-to-left page.
 */
export function readingOrderText(logical: string, pageRightToLeft: boolean): string {
  const text = logical.replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '');
  const runs: string[] = [];
  let index = 0;
  const other = (run: string) => {
    if (run) runs.push(`${LEFT_TO_RIGHT_MARK}${run}${LEFT_TO_RIGHT_MARK}`);
  };
  for (const match of text.matchAll(ARABIC_WORDS)) {
    other(text.slice(index, match.index));
    runs.push(`${RIGHT_TO_LEFT_MARK}${[...match[0]].reverse().join('')}${RIGHT_TO_LEFT_MARK}`);
    index = match.index + match[0].length;
  }
  other(text.slice(index));
  return (pageRightToLeft ? runs.reverse() : runs).join('');
}
