import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAgeGroupPreset, SHOWN_PRESET_MAX_LENGTH, unknownAgeGroupWarning } from './age-group-preset.ts';

// Issue 30: an age group the page writes in another case, with spaces, or spelt the British way is that age
// group; anything else is unknown (the field is left unset), never adult.
describe('parseAgeGroupPreset', () => {
  it.each([
    // no preset: the form's default (adult)
    [undefined, { kind: 'absent' }],
    [null, { kind: 'absent' }],
    ['', { kind: 'absent' }],
    ['   ', { kind: 'absent' }],
    // the three age groups, in any case, with spaces around
    ['adult', { kind: 'known', ageGroup: 'adult' }],
    ['Adult', { kind: 'known', ageGroup: 'adult' }],
    [' ADULT\n', { kind: 'known', ageGroup: 'adult' }],
    ['pediatric', { kind: 'known', ageGroup: 'pediatric' }],
    ['Pediatric', { kind: 'known', ageGroup: 'pediatric' }],
    ['\tPEDIATRIC ', { kind: 'known', ageGroup: 'pediatric' }],
    ['infant', { kind: 'known', ageGroup: 'infant' }],
    [' infant ', { kind: 'known', ageGroup: 'infant' }],
    ['\u00a0Infant\u00a0', { kind: 'known', ageGroup: 'infant' }],
    // the British spelling
    ['paediatric', { kind: 'known', ageGroup: 'pediatric' }],
    ['Paediatric', { kind: 'known', ageGroup: 'pediatric' }],
    [' PAEDIATRIC ', { kind: 'known', ageGroup: 'pediatric' }],
    // full-width letters typed on some keyboards read as the same word
    ['ｉｎｆａｎｔ', { kind: 'known', ageGroup: 'infant' }],
    // anything else is unknown, given back as written (trimmed)
    ['bogus', { kind: 'unknown', text: 'bogus' }],
    [' elderly ', { kind: 'unknown', text: 'elderly' }],
    ['child', { kind: 'unknown', text: 'child' }],
    ['pediatrics', { kind: 'unknown', text: 'pediatrics' }],
    ['paed', { kind: 'unknown', text: 'paed' }],
    ['adults', { kind: 'unknown', text: 'adults' }],
    ['pedi atric', { kind: 'unknown', text: 'pedi atric' }],
    ['adult pediatric', { kind: 'unknown', text: 'adult pediatric' }],
    ['طفل', { kind: 'unknown', text: 'طفل' }],
    ['0', { kind: 'unknown', text: '0' }],
    [18, { kind: 'unknown', text: '18' }],
    [true, { kind: 'unknown', text: 'true' }],
  ])('%j → %j', (value, expected) => {
    expect(parseAgeGroupPreset(value)).toEqual(expected);
  });

  it('shortens a long unknown value for the messages', () => {
    const preset = parseAgeGroupPreset('x'.repeat(500));
    expect(preset).toEqual({ kind: 'unknown', text: `${'x'.repeat(SHOWN_PRESET_MAX_LENGTH)}…` });
  });

  it('never reads a value as adult unless it is the word adult', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const preset = parseAgeGroupPreset(text);
        if (preset.kind === 'known' && preset.ageGroup === 'adult')
          expect(text.normalize('NFKC').trim().toLowerCase()).toBe('adult');
        if (preset.kind === 'absent') expect(text.trim()).toBe('');
      }),
    );
  });

  it('the console warning names the element, the value and the accepted ones', () => {
    expect(unknownAgeGroupWarning('bogus')).toBe(
      '<sgx-dose-calculator>: age-group="bogus" is not an age group (adult, pediatric or paediatric, infant; ' +
        'any case). The age group is left unset for the user to choose; no dose is calculated until they do.',
    );
  });
});
