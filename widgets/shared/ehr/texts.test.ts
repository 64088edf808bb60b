import { describe, expect, it } from 'vitest';
import { withoutIsolates } from '../../../clinical/bidi.ts';
import { isolationProblems } from '../../../clinical/texts/checks.ts';
import * as api from '../../../contracts/smart-messages.ts';
import { EHR_SERVER_AR, EHR_TEXTS } from './texts.ts';

// The texts of a launch from the EHR in both languages: the same keys, every Arabic text Arabic, every figure
// and id in a left-to-right isolate, no number changed; and an Arabic text for every message of the launch.

const SAMPLES: Record<string, unknown[][]> = {
  bannerMrn: [['MRN-447120']],
  bannerBorn: [['1979-04-12']],
  openedWithWeight: [['Layla Al-Harbi', 72.5, '2026-11-28T08:00:00Z']],
  openedWithoutWeight: [['Layla Al-Harbi']],
  weightFromEhr: [[72.5, '2026-11-28T08:00:00Z']],
  weightTooOld: [[72.5, '2026-03-02T08:00:00Z', 30]],
  keptFromLaunch: [[72.5, '2026-03-02T08:00:00Z']],
  keptTyped: [[66, '2026-03-02T08:00:00Z']],
  sent: [['doc-1001']],
  sentWithOrder: [['doc-1002', 'medreq-1001']],
  alreadyFiled: [['doc-1001']],
  alreadyFiledWithOrder: [['doc-1002', 'medreq-1001']],
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

describe('the texts of a launch from the EHR', () => {
  const english = new Map(texts(EHR_TEXTS.en));

  it('has the same texts in both languages', () => {
    expect(
      texts(EHR_TEXTS.ar)
        .map(([key]) => key)
        .sort(),
    ).toEqual([...english.keys()].sort());
  });

  it.each(texts(EHR_TEXTS.ar))('%s is Arabic, its figures isolated and as in English', (key, text) => {
    expect(text).toMatch(/[\u0600-\u06FF]/);
    expect(isolationProblems(text)).toEqual([]);
    const figures = (value: string) => (withoutIsolates(value).match(/\d+/g) ?? []).sort();
    expect(figures(text)).toEqual(figures(english.get(key)!));
  });

  it('says the id the EHR gave in both languages', () => {
    expect(withoutIsolates(EHR_TEXTS.en.sent('doc-1001'))).toBe('Sent to the EHR as document doc-1001.');
    expect(withoutIsolates(EHR_TEXTS.ar.sent('doc-1001'))).toBe('أُرسل إلى السجل الصحي الإلكتروني كمستند doc-1001.');
  });

  it('has an Arabic text for each of the launch’s API messages', () => {
    // every exported text (SMART_SEND_FAILURE_CODES is the codes beside them, not a message)
    const messages = Object.values(api).filter((value): value is string => typeof value === 'string');
    expect(messages.length).toBe(9);
    expect([...EHR_SERVER_AR.keys()].sort()).toEqual([...messages].sort());
    for (const text of EHR_SERVER_AR.values()) expect(text).toMatch(/[\u0600-\u06FF]/);
  });
});
