import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jsPDF } from 'jspdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withoutIsolates } from '../../../clinical/bidi.ts';
import {
  CONTRACEPTIVE_METHODS,
  generalSheet,
  patientSheet,
  sheetSentences,
  type ContraceptiveMethod,
  type SheetLanguage,
  type SheetText,
} from '../../../clinical/patient-sheet.ts';
import { requireCommand } from '../../../scripts/debian-package.mjs';
import { loadArabicFont } from './arabic-font.ts';
import { buildSheetPdf, needsArabicFont } from './sheet-pdf.ts';

// The sheet as a PDF, read back with pdftotext (poppler): the dates, each variant's words in both languages, and
// the Arabic sentences in logical order (docs/engineering-notes.md#arabic-in-pdfs).

let font: string;
let scratch: string;
let pdftotext: string;
beforeAll(async () => {
  font = await loadArabicFont();
  scratch = mkdtempSync(path.join(tmpdir(), 'sgx-sheet-'));
  pdftotext = requireCommand('pdftotext', 'poppler-utils', 'The patient sheet tests');
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const sheet = (method: ContraceptiveMethod, language: SheetLanguage, extra = {}) => {
  const outcome = patientSheet({ language, method, givenAt: '2026-12-01T14:30', printedOn: '2026-12-01', ...extra });
  if (outcome.kind !== 'sheet') throw new Error(JSON.stringify(outcome.issues));
  return outcome.texts;
};

/** pdftotext's text of the PDF, bidi marks removed (it wraps runs in LRE/RLE … PDF marks), one space between words. */
function readBack(texts: readonly SheetText[], name: string): { raw: string; text: string; pages: number } {
  const built = buildSheetPdf(jsPDF, texts, needsArabicFont(texts) ? font : null);
  const file = path.join(scratch, `${name}.pdf`);
  writeFileSync(file, Buffer.from(built.doc.output('arraybuffer')));
  const raw = execFileSync(pdftotext, [file, '-'], { encoding: 'utf8' });
  const text = raw
    .replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    .replace(/[ \t]+/g, ' ')
    .replace(/ *\n */g, '\n');
  return { raw, text, pages: built.doc.getNumberOfPages() };
}

/** A paragraph as pdftotext gives it: lines joined with spaces. */
const flat = (text: string) => text.replace(/\n+/g, ' ');

describe('the done-when example: combined pill, given 2026-12-01 at 14:30', () => {
  it('English: "use condoms … until Tuesday 8 December 2026 at 14:30", one A4 page', () => {
    const { raw, pages } = readBack(sheet('combined_pill', 'en'), 'combined-en');
    expect(raw).toContain('Use condoms (or do not have sex) until Tuesday 8 December 2026 at 14:30.');
    expect(flat(raw)).toContain('You were given a medicine called sugammadex to help you wake from anaesthesia.');
    expect(raw).toContain('Keep this sheet.');
    expect(pages).toBe(1);
  });

  it('Arabic: the same date and time, in logical order, letters unjoined for search', () => {
    const { raw, text, pages } = readBack(sheet('combined_pill', 'ar'), 'combined-ar');
    // what a reader searching the raw output finds: the words as typed, the figures in Western digits
    for (const word of ['ديسمبر', 'الثلاثاء', '2026', '14:30', 'سوغاماديكس', 'احتفظي بهذه الورقة'])
      expect([word, raw.includes(word)]).toEqual([word, true]);
    expect(flat(text)).toContain(
      'استخدمي الواقي الذكري (أو امتنعي عن الجماع) حتى يوم الثلاثاء 8 ديسمبر 2026 الساعة 14:30.',
    );
    // no presentation forms (joined-letter code points) in what is extracted
    expect(raw).not.toMatch(/[\ufb50-\ufdff\ufe70-\ufeff]/);
    expect(pages).toBe(1);
  });

  it('both on one page: the Arabic and the English dates', () => {
    const { text, pages } = readBack(
      sheet('combined_pill', 'both', { initials: 'A.B.', hospitalName: 'King Fahad Hospital' }),
      'combined-both',
    );
    expect(pages).toBe(1);
    expect(flat(text)).toContain('حتى يوم الثلاثاء 8 ديسمبر 2026 الساعة 14:30.');
    expect(flat(text)).toContain('until Tuesday 8 December 2026 at 14:30.');
    expect(text).toContain('King Fahad Hospital');
    expect(text).toContain('For: A.B.');
    expect(flat(text)).toContain('الأحرف الأولى من الاسم: A.B.');
  });
});

describe('every variant, both languages: every sentence read back in order', () => {
  const cases = CONTRACEPTIVE_METHODS.flatMap((method) =>
    (['en', 'ar'] as const).map((language) => [method, language] as const),
  );
  it.each(cases)('%s, %s', (method, language) => {
    const texts = sheet(method, language);
    const { text, pages } = readBack(texts, `${method}-${language}`);
    expect(pages).toBe(1);
    for (const sentence of sheetSentences(texts[0]!))
      expect([sentence, flat(text).includes(withoutIsolates(sentence))]).toEqual([sentence, true]);
    const nothingChanges = language === 'en' ? 'Nothing changes.' : 'لا شيء يتغير.';
    expect(` ${flat(text)}`.includes(` ${nothingChanges}`)).toBe(method === 'non_hormonal' || method === 'none');
  });

  it.each(['en', 'ar'] as const)('the general sheet (%s) reads back whole', (lang) => {
    const texts = [generalSheet(lang)];
    const { text } = readBack(texts, `general-${lang}`);
    for (const sentence of sheetSentences(texts[0]!))
      expect([sentence, flat(text).includes(withoutIsolates(sentence))]).toEqual([sentence, true]);
  });
});

describe('the Arabic font', () => {
  it('is needed for Arabic, or for Arabic letters in a name, not otherwise', () => {
    expect(needsArabicFont(sheet('none', 'en'))).toBe(false);
    expect(needsArabicFont(sheet('none', 'ar'))).toBe(true);
    expect(needsArabicFont(sheet('none', 'en', { hospitalName: 'مستشفى الملك فهد' }))).toBe(true);
    expect(() => buildSheetPdf(jsPDF, sheet('none', 'ar'), null)).toThrow('The Arabic font is needed');
  });
  it('is embedded as a subset in an Arabic sheet, and not in an English one', () => {
    const arabic = buildSheetPdf(jsPDF, sheet('none', 'ar'), font).doc.output();
    const english = buildSheetPdf(jsPDF, sheet('none', 'en'), null).doc.output();
    expect(arabic).toMatch(/\/FontFile2/);
    expect(english).not.toMatch(/\/FontFile2/);
  });
});
