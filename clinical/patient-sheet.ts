import { ltr } from './bidi.ts';
import { BACKUP_CONTRACEPTION_DAYS, SHEET_TEXTS, type SheetLang, type SheetWords } from './patient-sheet-texts.ts';
import type { FieldIssue } from './validation.ts';

/*
 * The patient counselling sheet on contraception (docs/clinical-reference.md#8-patient-counselling-contraception):
 * which words a patient gets for her contraceptive, in English or Arabic, with her own dates. Pure: the time
 * sugammadex was given and the day the sheet is printed are inputs; nothing here reads a clock.
 */

export { BACKUP_CONTRACEPTION_DAYS } from './patient-sheet-texts.ts';

/** What the patient uses, as the dialog asks it (docs/clinical-reference.md#8-patient-counselling-contraception). */
export const CONTRACEPTIVE_METHODS = [
  'combined_pill',
  'progestogen_only_pill',
  'non_oral_hormonal',
  'non_hormonal',
  'none',
  'not_asked',
] as const;
export type ContraceptiveMethod = (typeof CONTRACEPTIVE_METHODS)[number];

/** Arabic, English, or both on one page (Arabic first). */
export const SHEET_LANGUAGES = ['ar', 'en', 'both'] as const;
export type SheetLanguage = (typeof SHEET_LANGUAGES)[number];
export type { SheetLang } from './patient-sheet-texts.ts';

/** Initials only: letters (Latin or Arabic), dots, hyphens and spaces, at most this many characters. */
export const INITIALS_MAX_CHARS = 8;
/** The hospital's name as configured (HOSPITAL_NAME), at most this many characters on the sheet. */
export const HOSPITAL_NAME_MAX_CHARS = 120;

/** A wall-clock date and time as the clinician reads it (no time zone: the sheet prints what was entered). */
export interface LocalDateTime {
  year: number;
  /** 1-12 */
  month: number;
  /** 1-31 */
  day: number;
  /** 0-23 */
  hour: number;
  /** 0-59 */
  minute: number;
}

/** The untrusted input: a form's values or a JSON body. */
export interface PatientSheetInput {
  language: SheetLanguage;
  method: ContraceptiveMethod;
  /** When sugammadex was given, `YYYY-MM-DDTHH:MM` (an `<input type="datetime-local">` value). */
  givenAt: string;
  /** The day the sheet is made, `YYYY-MM-DD` (or a datetime-local value: the date is kept). */
  printedOn: string;
  /** Printed only when given (the clinician ticked the box); never the MRN. */
  initials?: string | null;
  /** HOSPITAL_NAME, when the page is configured with one. */
  hospitalName?: string | null;
}

export interface SheetSection {
  heading: string;
  /** The sentence that matters most, printed large (the condom date, or "Nothing changes."). */
  key?: string;
  paragraphs: string[];
}

/** One language's sheet, every text final (dates filled in, Arabic numbers isolated with ltr()). */
export interface SheetText {
  lang: SheetLang;
  title: string;
  hospital: string | null;
  /** "For: A.B." when initials are printed. */
  patient: string | null;
  sections: SheetSection[];
  keep: string;
  printed: string;
  source: string;
}

export type PatientSheetOutcome =
  | { kind: 'invalid_input'; issues: FieldIssue[] }
  | {
      kind: 'sheet';
      method: ContraceptiveMethod;
      /** Until when an additional non-hormonal method is needed; null when nothing changes. */
      backupUntil: LocalDateTime | null;
      /** Arabic first when both. */
      texts: SheetText[];
    };

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::\d{2}(?:\.\d{1,3})?)?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T.*)?$/;

/** `YYYY-MM-DDTHH:MM` as a real calendar date and time, or null. */
export function parseLocalDateTime(text: unknown): LocalDateTime | null {
  if (typeof text !== 'string') return null;
  const match = DATE_TIME.exec(text.trim());
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1, 6).map(Number) as [number, number, number, number, number];
  const value = { year, month, day, hour, minute };
  return isRealDate(value) && hour <= 23 && minute <= 59 ? value : null;
}

/** `YYYY-MM-DD` (anything after a T is ignored) as a calendar date at 00:00, or null. */
export function parseLocalDate(text: unknown): LocalDateTime | null {
  if (typeof text !== 'string') return null;
  const match = DATE.exec(text.trim());
  if (!match) return null;
  const [year, month, day] = match.slice(1, 4).map(Number) as [number, number, number];
  const value = { year, month, day, hour: 0, minute: 0 };
  return isRealDate(value) ? value : null;
}

function isRealDate({ year, month, day }: LocalDateTime): boolean {
  return year >= 1900 && year <= 9999 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

/** The calendar date `days` after 1970-01-01 (civil_from_days). */
function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const dayOfEra = z - era * 146097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

/** The same wall-clock time `days` calendar days later (a clock change in between does not move it). */
export function addDays(at: LocalDateTime, days: number): LocalDateTime {
  return { ...civilFromDays(daysFromCivil(at.year, at.month, at.day) + days), hour: at.hour, minute: at.minute };
}

/** 0 = Sunday … 6 = Saturday. */
export function weekdayOf(at: LocalDateTime): number {
  return (((daysFromCivil(at.year, at.month, at.day) + 4) % 7) + 7) % 7; // 1970-01-01 was a Thursday
}

const pad = (value: number) => String(value).padStart(2, '0');

/** "Tuesday 8 December 2026 at 14:30"; in Arabic «الثلاثاء 8 ديسمبر 2026 الساعة 14:30», figures in ltr() isolates. */
export function formatSheetDateTime(at: LocalDateTime, lang: SheetLang): string {
  const words = SHEET_TEXTS[lang];
  const time = `${pad(at.hour)}:${pad(at.minute)}`;
  return words.dateTime(
    weekdayName(at, words),
    figure(lang, at.day),
    words.months[at.month - 1]!,
    figure(lang, at.year),
    figure(lang, time),
  );
}

/** "Tuesday 1 December 2026" (the printed date). */
export function formatSheetDate(at: LocalDateTime, lang: SheetLang): string {
  const words = SHEET_TEXTS[lang];
  return words.date(weekdayName(at, words), figure(lang, at.day), words.months[at.month - 1]!, figure(lang, at.year));
}

const weekdayName = (at: LocalDateTime, words: SheetWords) => words.weekdays[weekdayOf(at)]!;
/** Western digits; inside an Arabic sentence each figure is an isolated left-to-right run (docs/arabic-glossary.md). */
const figure = (lang: SheetLang, value: string | number) => (lang === 'ar' ? ltr(value) : String(value));

/** True for the methods whose protection sugammadex lowers. */
export function isHormonal(method: ContraceptiveMethod): boolean {
  return method === 'combined_pill' || method === 'progestogen_only_pill' || method === 'non_oral_hormonal';
}

const INITIALS = /^[\p{L}][\p{L}. \-]*$/u;

/**
 * The sheet for one patient, or the fields that are wrong. Every field is checked before anything is written:
 * bad input changes nothing.
 */
export function patientSheet(input: unknown): PatientSheetOutcome {
  const body = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  const issues: FieldIssue[] = [];
  const words = SHEET_TEXTS.en.issues;
  const language = body.language;
  if (!SHEET_LANGUAGES.includes(language as SheetLanguage)) issues.push({ field: 'language', message: words.language });
  const method = body.method;
  if (!CONTRACEPTIVE_METHODS.includes(method as ContraceptiveMethod))
    issues.push({ field: 'method', message: words.method });
  const givenAt = parseLocalDateTime(body.givenAt);
  if (!givenAt) issues.push({ field: 'givenAt', message: words.givenAt });
  const printedOn = parseLocalDate(body.printedOn);
  if (!printedOn) issues.push({ field: 'printedOn', message: words.printedOn });
  const initials = optionalText(body.initials);
  if (initials === undefined || (initials && (initials.length > INITIALS_MAX_CHARS || !INITIALS.test(initials))))
    issues.push({ field: 'initials', message: words.initials });
  const hospitalName = optionalText(body.hospitalName);
  if (hospitalName === undefined || (hospitalName && hospitalName.length > HOSPITAL_NAME_MAX_CHARS))
    issues.push({ field: 'hospitalName', message: words.hospitalName });
  if (issues.length || !givenAt || !printedOn) return { kind: 'invalid_input', issues };

  const chosen = method as ContraceptiveMethod;
  const backupUntil =
    chosen === 'non_hormonal' || chosen === 'none' ? null : addDays(givenAt, BACKUP_CONTRACEPTION_DAYS);
  const langs: SheetLang[] = language === 'both' ? ['ar', 'en'] : [language as SheetLang];
  return {
    kind: 'sheet',
    method: chosen,
    backupUntil,
    texts: langs.map((lang) =>
      sheetText(lang, chosen, {
        givenAt,
        until: backupUntil,
        printedOn,
        initials: initials ?? null,
        hospitalName: hospitalName ?? null,
      }),
    ),
  };
}

/** Trimmed text, null when empty or absent, undefined when not text at all (an invalid field). */
function optionalText(value: unknown): string | null | undefined {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') return undefined;
  const trimmed = value.replace(/\s+/g, ' ').trim();
  // control characters and bidirectional marks would reorder the printed line
  if (/[\u0000-\u001f\u007f\u200e\u200f\u202a-\u202e\u2066-\u2069]/.test(trimmed)) return undefined;
  return trimmed || null;
}

/**
 * The general sheet, for any patient (no dates, no name): what the static resource
 * contraception-patient-counselling.pdf prints, from the same words as a patient's sheet.
 */
export function generalSheet(lang: SheetLang): SheetText {
  return sheetText(lang, 'not_asked', {
    givenAt: null,
    until: null,
    printedOn: null,
    initials: null,
    hospitalName: null,
  });
}

function sheetText(
  lang: SheetLang,
  method: ContraceptiveMethod,
  facts: {
    givenAt: LocalDateTime | null;
    until: LocalDateTime | null;
    printedOn: LocalDateTime | null;
    initials: string | null;
    hospitalName: string | null;
  },
): SheetText {
  const words = SHEET_TEXTS[lang];
  const until = facts.until ? formatSheetDateTime(facts.until, lang) : null;
  const given = facts.givenAt ? formatSheetDateTime(facts.givenAt, lang) : null;
  const sections: SheetSection[] = [
    { heading: words.whatHappened, paragraphs: [words.youWereGiven, given ? words.givenOn(given) : words.givenToday] },
  ];
  switch (method) {
    case 'combined_pill':
    case 'progestogen_only_pill':
    case 'non_oral_hormonal':
      sections.push({ heading: words.whatItMeans, paragraphs: [...words.hormonalMeaning(method)] });
      sections.push({
        heading: words.whatToDo,
        key: words.useCondoms(until),
        paragraphs: [...words.keepUsing[method], ...(method === 'non_oral_hormonal' ? [] : words.missedPill[method])],
      });
      sections.push({ heading: words.emergencyHeading, paragraphs: words.emergency(until) });
      break;
    case 'non_hormonal':
    case 'none':
      sections.push({
        heading: words.whatItMeans,
        key: words.nothingChanges,
        paragraphs: [...words.nothingChangesWhy[method]],
      });
      break;
    case 'not_asked':
      sections.push({
        heading: words.whatToDo,
        key: words.ifHormonal(until),
        paragraphs: [...words.notAsked, ...words.missedPill.combined_pill, ...words.missedPill.progestogen_only_pill],
      });
      sections.push({ heading: words.emergencyHeading, paragraphs: words.emergency(until) });
      break;
  }
  sections.push({ heading: words.questionsHeading, paragraphs: [...words.questions] });
  return {
    lang,
    title: words.title,
    hospital: facts.hospitalName,
    patient: facts.initials ? words.forPatient(lang === 'ar' ? ltrIfLatin(facts.initials) : facts.initials) : null,
    sections,
    keep: words.keep,
    printed: facts.printedOn ? words.printedOn(formatSheetDate(facts.printedOn, lang)) : words.generalEdition,
    source: words.source,
  };
}

/** Latin initials inside an Arabic line keep their order (A.B., never .B.A). */
const ltrIfLatin = (text: string) => (/[A-Za-z]/.test(text) ? ltr(text) : text);

/** Every sentence of a sheet, in reading order (for the readability and sentence-length checks). */
export function sheetSentences(sheet: SheetText): string[] {
  const blocks = [
    sheet.title,
    ...sheet.sections.flatMap((s) => [s.heading, ...(s.key ? [s.key] : []), ...s.paragraphs]),
  ];
  blocks.push(sheet.keep);
  return blocks.flatMap(splitSentences);
}

/** Sentences end with . ? ! or ؟ followed by a space (or the end); a heading is a sentence of its own. */
export function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.?!؟])\s+/u)
    .map((sentence) => sentence.trim())
    .filter(Boolean);
}
