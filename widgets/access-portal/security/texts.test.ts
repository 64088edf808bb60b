import { describe, expect, it } from 'vitest';
import { withoutIsolates } from '../../../clinical/bidi.ts';
import { isolationProblems } from '../../../clinical/texts/checks.ts';
import { SECURITY_TEXTS } from './texts.ts';

// The sign-in and security texts in both languages: the same keys (the type checks that), every Arabic text
// Arabic (names and the provider's issuer aside), every figure in a left-to-right isolate, no number changed.

/** Sample arguments for each text that is a function. */
const SAMPLES: Record<string, unknown[][]> = {
  ssoButton: [['King Fahad Medical City']],
  linkText: [['King Fahad Medical City']],
  linkedText: [['King Fahad Medical City']],
  recoveryLeft: [[1], [7]],
  totpOn: [['\u20662026-06-01 08:00\u2069']],
  passkeyCreated: [['\u20662026-06-01 08:00\u2069']],
  lastUsed: [['\u20662026-06-01 08:00\u2069']],
  recoveryLeftCount: [[1], [9]],
  linkedTo: [['King Fahad Medical City', '\u20662026-06-01 08:00\u2069']],
  linkedToUnknown: [['https://idp.example/realms/staff', '\u20662026-06-01 08:00\u2069']],
  sessionLastUsed: [['\u20662026-06-01 08:00\u2069']],
  endedOthers: [[1], [3]],
  linkWho: [
    ['King Fahad Medical City', 'Sara Alharbi', 'dr.sara@hospital.example'],
    ['King Fahad Medical City', null, 'dr.sara@hospital.example'],
  ],
  switchText: [
    ['Sara Alharbi', 'Omar Haddad'],
    [null, 'Omar Haddad'],
  ],
  switchContinue: [['Omar Haddad']],
};

function texts(catalogue: Record<string, unknown>): [string, string][] {
  return Object.entries(catalogue).flatMap(([key, value]): [string, string][] => {
    if (typeof value === 'string') return [[key, value]];
    if (typeof value === 'function') {
      const samples = SAMPLES[key];
      if (!samples) throw new Error(`no sample arguments for ${key}`);
      return samples.map((args, index) => [`${key}#${index}`, (value as (...a: unknown[]) => string)(...args)]);
    }
    return texts(value as Record<string, unknown>).map(([inner, text]) => [`${key}.${inner}`, text]);
  });
}

describe('sign-in and security texts', () => {
  const english = new Map(texts(SECURITY_TEXTS.en));
  const arabic = new Map(texts(SECURITY_TEXTS.ar));

  it('has the same texts in both languages', () => {
    expect([...arabic.keys()].sort()).toEqual([...english.keys()].sort());
  });

  it.each([...texts(SECURITY_TEXTS.ar)])('%s is Arabic, its figures isolated and as in English', (key, text) => {
    expect(text).toMatch(/[\u0600-\u06FF]/);
    expect(isolationProblems(text)).toEqual([]);
    const figures = (value: string) => (withoutIsolates(value).match(/\d+/g) ?? []).sort();
    expect(figures(text)).toEqual(figures(english.get(key)!));
  });
});
