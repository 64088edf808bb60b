/**
 * A character one can see: not a space, not an invisible format or control character (U+200B zero
 * width space, U+202E right-to-left override, U+00AD soft hyphen, U+3164 Hangul filler…), not a
 * combining mark on its own, not U+2800 (the braille pattern with no dots, a symbol that draws nothing). Text made
 * only of those would show as a blank: a name must have one.
 * A module of its own, importing nothing, so a form can check a name without the schemas.
 */
const VISIBLE_CHARACTER = /[^\p{White_Space}\p{Default_Ignorable_Code_Point}\p{Cc}\p{Cf}\p{Cs}\p{M}\u2800]/u;

export const hasVisibleCharacter = (text: string): boolean => VISIBLE_CHARACTER.test(text);
