import { fleschKincaid } from 'flesch-kincaid';
import { syllable } from 'syllable';
import { withoutIsolates } from './bidi.ts';

/*
 * Plain-language measures for the patient counselling sheet
 * (docs/clinical-reference.md#8-patient-counselling-contraception): the Flesch-Kincaid grade of English text
 * (the `flesch-kincaid` formula over `syllable`'s syllable counts) and the length of Arabic sentences in words.
 */

/** Words as a reader counts them: letters or digits, with inner apostrophes, hyphens, colons and dots (14:30, U.S.). */
export function wordsOf(sentence: string): string[] {
  return withoutIsolates(sentence).match(/[\p{L}\p{N}](?:[\p{L}\p{N}'’:.-]*[\p{L}\p{N}])?/gu) ?? [];
}

/** The Flesch-Kincaid grade level of a list of sentences (1975 formula). */
export function fleschKincaidGrade(sentences: readonly string[]): number {
  const words = sentences.flatMap(wordsOf);
  return fleschKincaid({
    sentence: sentences.length,
    word: words.length,
    syllable: words.reduce((total, word) => total + Math.max(1, syllable(word)), 0),
  });
}

/** The longest sentence, by its number of words. */
export function longestSentence(sentences: readonly string[]): { sentence: string; words: number } {
  return sentences
    .map((sentence) => ({ sentence, words: wordsOf(sentence).length }))
    .reduce((longest, next) => (next.words > longest.words ? next : longest), { sentence: '', words: 0 });
}
