import { describe, expect, it } from 'vitest';
import { withoutIsolates } from '../../../../../clinical/bidi.ts';
import { messagesEn } from '../index.ts';
import { messagesAr } from './index.ts';

// The Arabic catalogue against the English one: every text is Arabic (units and figure-only formats
// aside), every Western digit sits in a left-to-right isolate, and no number differs between the two.

/** Entries kept as in English on purpose: units, and formats that show only figures with their units. */
const KEPT_LATIN = new Set([
  'doseCalculator.unitMgPerKg',
  'doseCalculator.unitMg',
  'doseCalculator.unitMl',
  'doseCalculator.unitSar',
  'doseCalculator.unitKg',
  'doseCalculator.unitMlPerMin',
  'advisor.doseLine',
  'advisor.dosePerKg',
  'advisor.percent',
  'advisor.units.kg',
  'advisor.units.bpm',
  'advisor.units.mlPerMin',
  'advisor.multiplier',
  'roi.unitSar',
  'roi.unitSarPerMin',
  'roi.unitMin',
  'roi.unitPercent',
  'roi.minutes',
  'account.kg',
]);

type Args = readonly unknown[];

/** Sample arguments for every message that is a function; several lists where the text has branches. */
const SAMPLE_ARGS: Record<string, readonly Args[]> = {
  'common.moreInformation': [['Sara']],
  'doseCalculator.unknownAgeGroupPreset': [['bogus'], ['group 7']],
  'doseCalculator.crclResult': [[70]],
  'doseCalculator.crclOutOfRange': [[140]],
  'doseCalculator.medianRecovery': [[3]],
  'doseCalculator.vialCount': [[1], [2], [7], [14]],
  'advisor.successDescription': [
    ['LOW', 3.9],
    ['HIGH', 23.4],
  ],
  'advisor.doseLine': [[140, '1.4']],
  'advisor.dosePerKg': [[16]],
  'advisor.percent': [['7.5']],
  'advisor.multiplier': [[2.5]],
  'advisor.heuristic': [['Sugammadex bradycardia risk heuristic', 1]],
  'advisor.linkedTo': [['Sara']],
  'roi.sarPerMinute': [[45]],
  'roi.percentValue': [[10]],
  'roi.hoursFreed': [['20.0']],
  'roi.resultsAnnouncement': [['1200', '20.0', '54,000', '3.8']],
  'roi.impactSummary': [[100, '20.0', '54,000', '3.8']],
  'roi.chartLabel': [[15, 3]],
  'roi.minutes': [[15]],
  'roi.report.generated': [['2025-08-05 14:30']],
  'roi.report.numberOfCases': [[140]],
  'roi.report.orCostPerMinute': [[45]],
  'roi.report.timeNeostigmine': [[15]],
  'roi.report.timeProduct': [[3]],
  'roi.report.baselinePpcRate': [[10]],
  'roi.report.riskRatio': [[0.62]],
  'roi.report.timeSaved': [[1200, '20.0']],
  'roi.report.costSaved': [['54,000']],
  'roi.report.ppcsAvoided': [['3.8']],
  'portal.welcome': [['Sara']],
  'portal.accountCreatedDescription': [['Sara']],
  'account.confirmDelete': [['Sara']],
  'account.patientSummary': [
    ['A12345', 70],
    ['A12345', null],
  ],
  'account.deleteExport': [['dose-20250805-1430.pdf']],
  'account.confirmDeleteExport': [['dose-20250805-1430.pdf']],
  'account.fhirDownloaded': [['sugammadex-dose-2026-11-22-3f2c1b7e.fhir.json']],
  'records.patientLine': [
    ['Sara', 'A12345'],
    ['Sara', null],
  ],
  'account.activityRecord': [['3f2c1b7e-0a1b-4c2d-8e3f-112233445566']],
  'account.activityFrom': [['203.0.113.7'], ['2001:db8::1']],
  'account.activityRequest': [['3f2c1b7e-0a1b-4c2d-8e3f-112233445566']],
  'account.downloadProgress': [['3.4 MB']],
  'account.downloadedDescription': [['512 KB']],
  'portal.deletionPending': [['2026-12-22']],
  'emergency.fromPatient': [['Sara']],
  'emergency.capped': [['0.6 mg'], ['1200 mL']],
  'emergency.raisedToMinimum': [['0.06 mg']],
  'patientSheetDialog.hospital': [['King Fahad Hospital'], ['مستشفى الملك فهد']],
  'patientSheetDialog.printedOn': [['الثلاثاء \u20661\u2069 ديسمبر \u20662026\u2069']],
};

interface Text {
  path: string;
  ar: string;
  en: string;
}

/** Every text of the two catalogues side by side, functions called with their sample arguments. */
function texts(ar: unknown, en: unknown, path: string, functionPaths: string[]): Text[] {
  if (typeof ar === 'string') return [{ path, ar, en: String(en) }];
  if (typeof ar === 'function') {
    functionPaths.push(path);
    return (SAMPLE_ARGS[path] ?? []).map((args) => ({
      path: `${path}(${args.map((arg) => JSON.stringify(arg)).join(', ')})`,
      ar: (ar as (...a: Args) => string)(...args),
      en: (en as (...a: Args) => string)(...args),
    }));
  }
  return Object.entries(ar as Record<string, unknown>).flatMap(([key, value]) =>
    texts(value, (en as Record<string, unknown>)[key], path ? `${path}.${key}` : key, functionPaths),
  );
}

const functionPaths: string[] = [];
const all = texts(messagesAr, messagesEn, '', functionPaths);
const keyOf = (text: Text) => text.path.replace(/\(.*$/, '');

const ARABIC_LETTER = /[\u0600-\u06ff]/;

/** One and two vials are written as words in Arabic («قارورة واحدة», «قارورتان»), not as "1 قارورة". */
const NUMBERS_AS_WORDS: Record<string, string> = {
  'doseCalculator.vialCount(1)': '1',
  'doseCalculator.vialCount(2)': '2',
};
function expectedNumbers(text: Text): string[] {
  const expected: string[] = numbers(text.en);
  const word = NUMBERS_AS_WORDS[text.path];
  if (word) expected.splice(expected.indexOf(word), 1);
  return expected;
}
/** Numbers as written: digit runs with their decimal points and thousands separators ("1.4", "54,000"). */
const numbers = (text: string) => (withoutIsolates(text).match(/\d+(?:[.,]\d+)*/g) ?? []).sort();

/** Western digits outside any isolate (U+2066, U+2067, U+2068 open one; U+2069 closes it). */
function digitsOutsideIsolates(text: string): string[] {
  const outside: string[] = [];
  let depth = 0;
  for (const char of text) {
    if (char >= '\u2066' && char <= '\u2068') depth += 1;
    else if (char === '\u2069') depth = Math.max(0, depth - 1);
    else if (depth === 0 && /[0-9]/.test(char)) outside.push(char);
  }
  return outside;
}

describe('the Arabic catalogue', () => {
  it('has sample arguments for exactly the messages that are functions', () => {
    expect(functionPaths.sort()).toEqual(Object.keys(SAMPLE_ARGS).sort());
    expect(all.length).toBeGreaterThan(300);
  });

  it('keeps Latin only the entries listed as units or figure formats', () => {
    const keys = new Set(all.map(keyOf));
    expect([...KEPT_LATIN].filter((key) => !keys.has(key))).toEqual([]);
  });

  it('writes every other text in Arabic', () => {
    const notArabic = all.filter((text) => !KEPT_LATIN.has(keyOf(text)) && text.ar && !ARABIC_LETTER.test(text.ar));
    expect(notArabic.map((text) => text.path)).toEqual([]);
  });

  it('puts every Western digit inside a left-to-right isolate', () => {
    const offenders = all.filter((text) => digitsOutsideIsolates(text.ar).length > 0);
    expect(offenders.map((text) => `${text.path}: ${text.ar}`)).toEqual([]);
  });

  it('balances its isolates', () => {
    const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;
    const offenders = all.filter((text) => count(text.ar, /[\u2066-\u2068]/g) !== count(text.ar, /\u2069/g));
    expect(offenders.map((text) => text.path)).toEqual([]);
  });

  it('shows the same numbers as the English text, for every function and every fixed text', () => {
    const offenders = all
      .filter((text) => numbers(text.ar).join(' ') !== expectedNumbers(text).join(' '))
      .map((text) => `${text.path}: ${numbers(text.en).join(' ')} -> ${numbers(text.ar).join(' ')}`);
    expect(offenders).toEqual([]);
  });

  it('uses Western digits only (no Arabic-Indic digits)', () => {
    expect(all.filter((text) => /[\u0660-\u0669\u06f0-\u06f9]/.test(text.ar)).map((text) => text.path)).toEqual([]);
  });

  it('writes one and two vials as words', () => {
    expect([1, 2, 3, 11].map((vials) => withoutIsolates(messagesAr.doseCalculator.vialCount(vials)))).toEqual([
      'قارورة واحدة',
      'قارورتان',
      '3 قوارير',
      '11 قارورة',
    ]);
  });

  it('names each risk band in the success toast by its Arabic name', () => {
    expect(withoutIsolates(messagesAr.advisor.successDescription('MODERATE', 7.5))).toBe('خطر بطء القلب: متوسط (7.5%)');
  });
});
