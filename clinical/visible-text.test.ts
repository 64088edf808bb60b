import { describe, expect, it } from 'vitest';
import { hasVisibleCharacter } from './visible-text.ts';

describe('hasVisibleCharacter', () => {
  it.each([
    ['', false],
    ['   ', false],
    ['\u200b', false], // zero width space
    ['\u202e', false], // right-to-left override
    ['\u200b\u202e \u200b', false],
    ['\u00ad', false], // soft hyphen
    ['\u3164', false], // Hangul filler
    ['\u2800', false], // braille pattern blank (server probe 4, N6)
    ['\u2800 \u2800', false],
    ['\u2801', true], // a braille pattern with a dot
    ['\ufeff\u2060', false], // byte order mark, word joiner
    ['\u0301', false], // a combining accent alone
    ['\t\n', false],
    ['A', true],
    ['A\u200b', true],
    ['أحمد', true],
    ['e\u0301', true],
    ['李', true],
    ['.', true],
    ['🩺', true],
  ])('%j → %s', (text, expected) => {
    expect(hasVisibleCharacter(text)).toBe(expected);
  });
});
