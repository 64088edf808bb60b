import { describe, expect, it } from 'vitest';
import { withoutIsolates } from '../bidi.ts';
import { digitRuns, hasArabicLetters, isolationProblems } from './checks.ts';
import { CLINICAL_TEXTS_AR, CLINICAL_TEXTS_EN, clinicalTextsFor, isLang, LANGS, type ClinicalTexts } from './index.ts';

type TextFunction = (...args: never[]) => string;

/**
 * Sample arguments for every text function, by path: each function is called with each list, in both
 * languages (a text function added without samples fails the test below).
 */
const SAMPLES: Record<string, (texts: ClinicalTexts) => unknown[][]> = {
  'dose.countTofReason': () => [[3], [15]],
  'dose.moreThanOneBoxWarning': () => [
    [11, 2],
    [21, 3],
  ],
  'dose.smallVolumeWarning': () => [[35], [7], [99]],
  'dose.moderateIndication': () => [['2'], ['3'], ['4']],
  'dose.deepIndication': () => [['0'], ['1'], [undefined]],
  'fields.required': () => [['bodyWeight']],
  'fields.unknown': () => [['weight2']],
  'plan.atropine': () => [[1], [0.35]],
  'plan.dose': () => [
    [280, 2.8],
    [1280, 12.8],
  ],
  'plan.lowRiskAtropine': (t) => [[t.plan.atropine(1)]],
  'plan.moderateRiskAtropine': (t) => [[t.plan.atropine(1)]],
  'plan.highRiskDrugs': (t) => [[t.plan.atropine(0.5)]],
  'plan.adultAtropine': (t) => [[t.plan.atropine(1), 3]],
  'plan.pediatricAtropine': (t) => [[t.plan.atropine(0.1)]],
  'plan.pediatricEpinephrine': () => [[300], [45], [1000]],
  'patient.yearOfBirth': () => [[2026]],
};

/** Every entry of a catalogue as [path, text], functions called with their samples. */
function entries(texts: ClinicalTexts): [string, string][] {
  const walk = (value: unknown, path: string): [string, string][] => {
    if (typeof value === 'string') return [[path, value]];
    if (typeof value === 'function') {
      const samples = SAMPLES[path];
      if (!samples) throw new Error(`no sample arguments for the text function ${path}`);
      return samples(texts).map((args, index) => [
        `${path} #${index + 1}`,
        (value as TextFunction)(...(args as never[])),
      ]);
    }
    return Object.entries(value as object).flatMap(([key, child]) => walk(child, path ? `${path}.${key}` : key));
  };
  return walk(texts, '');
}

const english = new Map(entries(CLINICAL_TEXTS_EN));
const arabic = entries(CLINICAL_TEXTS_AR);

describe('the Arabic clinical texts (CLINICAL_TEXTS_AR)', () => {
  it('has exactly the English entries (the type checks this too)', () => {
    expect(arabic.map(([path]) => path)).toEqual([...english.keys()]);
    expect(arabic.length).toBeGreaterThan(140);
  });

  it.each(arabic)('%s is Arabic, with the English numbers, each in an isolate', (path, text) => {
    expect(hasArabicLetters(text)).toBe(true);
    expect(isolationProblems(text)).toEqual([]);
    expect(digitRuns(text)).toEqual(digitRuns(english.get(path)!));
    expect(withoutIsolates(text)).toBe(withoutIsolates(text).trim());
  });

  it('the English catalogue is English: no Arabic letters, no isolation marks', () => {
    for (const [path, text] of english) {
      expect(hasArabicLetters(text), path).toBe(false);
      expect(withoutIsolates(text), path).toBe(text);
    }
  });

  it('uses the glossary for the drugs and the block', () => {
    const all = arabic.map(([, text]) => withoutIsolates(text)).join('\n');
    for (const term of [
      'روكورونيوم (rocuronium)',
      'فيكورونيوم (vecuronium)',
      'سوغاماديكس (sugammadex)',
      'الإحصار العصبي العضلي',
      'عدد سلسلة الأربع (TOF)',
      'العدّ بعد التنبيه الكزازي (PTC)',
      'إحصار شديد العمق',
      'إحصار عميق',
      'إحصار متوسط',
      'بطء القلب',
      'عودة الإحصار (recurarization)',
      'التأق (anaphylaxis)',
      'تصفية الكرياتينين (CrCl)',
      'الغسيل الكلوي',
      'التحريض السريع المتتابع (RSI)',
      'جهاز تنظيم ضربات القلب',
      'إحصار أذيني بطيني (AV block)',
      'أتروبين (atropine)',
      'أدرينالين (epinephrine)',
      'دوبامين (dopamine)',
      'ديكسميديتوميدين (dexmedetomidine)',
      'الإنعاش القلبي الرئوي (CPR)',
      'ACLS',
      'التريبتاز (tryptase)',
      'الهيئة العامة للغذاء والدواء',
      'نيوستيغمين (neostigmine)',
      'قارورة',
      'علبة',
      'جرعة',
    ]) {
      expect(all, term).toContain(term);
    }
  });
});

describe('clinicalTextsFor', () => {
  it('gives each language its catalogue; English is the default everywhere', () => {
    expect(clinicalTextsFor('en')).toBe(CLINICAL_TEXTS_EN);
    expect(clinicalTextsFor('ar')).toBe(CLINICAL_TEXTS_AR);
    expect(LANGS).toEqual(['en', 'ar']);
  });

  it.each([
    ['en', true],
    ['ar', true],
    ['AR', false],
    ['ar-SA', false],
    ['fr', false],
    ['', false],
    [undefined, false],
    [['ar'], false],
  ])('isLang(%j) is %s', (value, expected) => {
    expect(isLang(value)).toBe(expected);
  });
});
