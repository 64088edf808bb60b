import { readFileSync } from 'node:fs';
import { jsPDF } from 'jspdf';
import { describe, expect, it } from 'vitest';
import {
  assessBradycardia,
  calculateDose,
  CLINICAL_TEXTS_AR,
  CLINICAL_TEXTS_EN,
  emergencyCard,
  type ClinicalTexts,
} from '../clinical/index.ts';
import * as api from '../contracts/api-messages.ts';
import { CONTENT_AR, CONTENT_EN } from '../host/content/index.ts';
import { PDF_DOCUMENTS, PDF_META } from '../host/pdfs/documents.ts';
import { renderPdfWithText } from '../host/pdfs/render-pdf.ts';
import { messagesEn } from '../widgets/shared/lang/messages/index.ts';
import { messagesAr } from '../widgets/shared/lang/messages/ar/index.ts';
import { serverMessageInArabic } from '../widgets/shared/lang/messages/server.ts';
import { notesFor, notesText } from '../widgets/shared/notes/notes-content.ts';
import { TOOL_INPUTS } from '../widgets/shared/notes/inputs/index.ts';
import {
  forbiddenAbbreviationsIn,
  GLOSSARY_DOC,
  glossaryDoc,
  normalizeArabic,
  readGlossary,
  rejectedVariantsIn,
} from './glossary.mjs';

// docs/arabic-glossary.md: one Arabic term per English term, as data in docs/glossary.json. Every text a user can
// read is collected here, in both languages: the widgets' catalogues, clinical/'s texts and every outcome they
// build, the API's messages, the page content, the text of every PDF and of the notes. No Arabic text may hold a
// rejected variant; no text in either language may hold "µg" or "mcg".

const glossary = readGlossary();

interface Text {
  where: string;
  text: string;
}

/** Arguments to call a text function with: numbers and strings that reach its branches (one, two, many…). */
const SAMPLE_VALUES: readonly unknown[] = [0, 1, 2, 3, 7, 11, 0.35, 1000, 1200, '0', '1', '2', '3', 'Sara', 'LOW'];

function callWithSamples(fn: (...args: unknown[]) => unknown): string[] {
  const outputs = new Set<string>();
  const arity = Math.max(fn.length, 1);
  const lists: unknown[][] =
    arity === 1
      ? SAMPLE_VALUES.map((value) => [value])
      : SAMPLE_VALUES.flatMap((first) =>
          SAMPLE_VALUES.map((second) => [first, second, ...Array(arity - 2).fill(second)]),
        );
  for (const args of lists) {
    try {
      const output = fn(...args);
      if (typeof output === 'string') outputs.add(output);
    } catch {
      // an argument of the other type (a number where a string is read): another list reaches that branch
    }
  }
  return [...outputs];
}

/** Every string of a catalogue or content object, its functions called with the sample arguments. */
function textsOf(value: unknown, where: string): Text[] {
  if (typeof value === 'string') return [{ where, text: value }];
  if (typeof value === 'function') {
    return callWithSamples(value as (...args: unknown[]) => unknown).map((text) => ({ where: `${where}()`, text }));
  }
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, child]) => textsOf(child, `${where}.${key}`));
  }
  return [];
}

/** The outcomes clinical/ builds in one language, over every branch the clinical tests reach. */
function outcomeTexts(texts: ClinicalTexts, lang: string): Text[] {
  const dose = {
    ageGroup: 'adult',
    bodyWeight: 70,
    nmbaType: 'rocuronium',
    creatinine: 100,
    tofCount: '2',
    ptc: null,
    rsiScenario: false,
    dialysis: false,
  };
  const doseInputs: object[] = [
    dose,
    { ...dose, bodyWeight: 0 },
    { ...dose, nmbaType: 'other' },
    { ...dose, creatinine: 20 },
    { ...dose, ageGroup: 'infant' },
    { ...dose, tofCount: '' },
    { ...dose, tofCount: null, ptc: 0 },
    { ...dose, tofCount: null, ptc: 5 },
    { ...dose, tofCount: '1' },
    { ...dose, tofCount: '0', ptc: 0 },
    { ...dose, rsiScenario: true, nmbaType: 'vecuronium', bodyWeight: 150 },
    { ...dose, ageGroup: 'pediatric', rsiScenario: true, bodyWeight: 3.5, tofCount: '0', creatinine: null },
    { ...dose, creatinine: 50 },
    { ageGroup: 'old', bodyWeight: 0.5, nmbaType: 'x', creatinine: 5, tofCount: '7', ptc: 20, extra: 1 },
  ];
  const advisor = {
    weight: 70,
    age: 45,
    baselineHr: 45,
    creatinine: 25,
    cardiacHistory: 'av_block',
    betaBlocker: true,
    dexmedetomidine: true,
    digoxin: true,
    amiodarone: true,
    highDoseOpioids: true,
    vagalStimulus: true,
    depth: 'immediate',
    nmba: 'vecuronium',
    dose: 16,
    conductionDisease: true,
  };
  const advisorInputs: object[] = [
    advisor,
    { ...advisor, age: 80, baselineHr: 55, cardiacHistory: 'pacemaker', conductionDisease: false },
    { ...advisor, age: 8, weight: 120, cardiacHistory: 'bradycardia', conductionDisease: false },
    { ...advisor, age: 1, weight: 9, depth: 'tof_2_plus', dose: 2, cardiacHistory: 'none', conductionDisease: false },
    { weight: 0, age: 300, cardiacHistory: 'x', depth: 'ptc_1_2', dose: 16, conductionDisease: 'yes' },
  ];
  const emergencyInputs: object[] = [
    { ageGroup: 'adult' },
    { ageGroup: 'child' },
    ...[3, 20, 30, 120].map((weightKg) => ({ ageGroup: 'child', weightKg })),
    { ageGroup: 'infant', weightKg: 500 },
  ];
  return [
    ...doseInputs.flatMap((input, i) => textsOf(calculateDose(input, texts), `${lang} calculateDose #${i}`)),
    ...advisorInputs.flatMap((input, i) => textsOf(assessBradycardia(input, texts), `${lang} assessBradycardia #${i}`)),
    ...emergencyInputs.flatMap((input, i) => textsOf(emergencyCard(input, texts), `${lang} emergencyCard #${i}`)),
  ];
}

const apiMessages = Object.entries(api).flatMap(([name, value]) =>
  typeof value === 'string' ? [value] : typeof value === 'function' ? callWithSamples(value as never) : [],
);

/** Every Arabic text: catalogues, clinical texts and outcomes, the API's messages in Arabic, the page content. */
const ARABIC: Text[] = [
  ...textsOf(messagesAr, 'widgets ar'),
  ...textsOf(CLINICAL_TEXTS_AR, 'clinical ar'),
  ...outcomeTexts(CLINICAL_TEXTS_AR, 'ar'),
  ...apiMessages.map((text) => ({ where: 'API message in Arabic', text: serverMessageInArabic(text) })),
  ...textsOf(CONTENT_AR, 'page /ar/'),
];

/** Every English text: the same, in English. */
const ENGLISH: Text[] = [
  ...textsOf(messagesEn, 'widgets en'),
  ...textsOf(CLINICAL_TEXTS_EN, 'clinical en'),
  ...outcomeTexts(CLINICAL_TEXTS_EN, 'en'),
  ...apiMessages.map((text) => ({ where: 'API message', text })),
  ...textsOf(CONTENT_EN, 'page /'),
];

/** The text of every PDF: the page's documents as written into them, and the notes of each tool. */
const PDF: Text[] = [
  ...PDF_DOCUMENTS.flatMap((source) =>
    renderPdfWithText(jsPDF, source, PDF_META).lines.map((text) => ({ where: source.file, text })),
  ),
  ...outcomeNotes(),
];

function outcomeNotes(): Text[] {
  const entries = [
    {
      toolType: 'dose_calculator' as const,
      inputs: { ageGroup: 'pediatric', bodyWeight: 3.5, tofCount: '0', rsiScenario: true, dialysis: false },
      result: calculateDose(
        { ageGroup: 'pediatric', bodyWeight: 3.5, nmbaType: 'vecuronium', tofCount: '0', rsiScenario: true },
        CLINICAL_TEXTS_EN,
      ) as unknown as Record<string, unknown>,
    },
    {
      toolType: 'bradycardia_advisor' as const,
      inputs: { weight: 120, age: 8 },
      result: assessBradycardia(
        {
          weight: 120,
          age: 8,
          baselineHr: 45,
          creatinine: 25,
          cardiacHistory: 'av_block',
          conductionDisease: true,
          betaBlocker: true,
          dexmedetomidine: true,
          depth: 'ptc_1_2',
          nmba: 'rocuronium',
          dose: 4,
        },
        CLINICAL_TEXTS_EN,
      ) as unknown as Record<string, unknown>,
    },
  ];
  return entries.map((entry) => ({
    where: `notes PDF and "Copy as note", ${entry.toolType}`,
    text: notesText(notesFor(entry, TOOL_INPUTS[entry.toolType], entry.toolType, null, null, new Date(2026, 0, 1))),
  }));
}

describe('the glossary (docs/glossary.json)', () => {
  it('gives every term an English and one Arabic term; no accepted term holds one of its own rejected variants', () => {
    expect(glossary.terms.length).toBeGreaterThan(100);
    for (const term of glossary.terms) {
      expect(
        [term.en, term.ar].every((text) => text.trim().length > 0),
        term.en,
      ).toBe(true);
      expect(Object.keys(glossary.sections)).toContain(term.section);
      for (const variant of term.rejected) expect(rejectedVariantsIn(term.ar), term.en).not.toContain(variant);
    }
    expect(new Set(glossary.terms.map((term) => term.en)).size).toBe(glossary.terms.length);
  });

  it('docs/arabic-glossary.md holds the tables of the data (npm run glossary writes them)', () => {
    expect(readFileSync(GLOSSARY_DOC, 'utf8')).toBe(glossaryDoc());
  });

  it('finds a rejected variant whatever its diacritics and bidi marks, and not inside the accepted term', () => {
    expect(normalizeArabic('مُضادّ\u00a0استطباب')).toBe('مضاد استطباب');
    expect(rejectedVariantsIn('النتيجة: مُضادّ استطباب')).toEqual([
      'مضاد استطباب (use مانع استعمال (plural موانع الاستعمال): contraindication / contraindicated)',
    ]);
    expect(rejectedVariantsIn(`روكورونيوم \u20661.2 mg/kg\u2069 خلال \u20664 h\u2069`)).toHaveLength(1);
    expect(rejectedVariantsIn('قبل نزع الأنبوب الرغامي')).toEqual([]);
    expect(rejectedVariantsIn('قبل نزع الأنبوب.')).toHaveLength(1);
    expect(rejectedVariantsIn(`خلال \u20665\u2069 دقائق`)).toHaveLength(1);
    expect(rejectedVariantsIn('خلال دقائق من الجرعة')).toEqual([]);
    expect(forbiddenAbbreviationsIn('10 µg/mL')).toHaveLength(1);
    expect(forbiddenAbbreviationsIn('10 mcg')).toHaveLength(1);
    expect(forbiddenAbbreviationsIn('10 micrograms/mL; 40 µmol/L')).toEqual([]);
  });
});

describe('every text a user reads follows the glossary', () => {
  it('collects the texts of both languages and of the PDFs', () => {
    expect(ARABIC.length).toBeGreaterThan(1500);
    expect(ENGLISH.length).toBeGreaterThan(1500);
    expect(PDF.length).toBeGreaterThan(500);
  });

  it('no Arabic catalogue, Arabic outcome, Arabic API message or /ar/ page text holds a rejected variant', () => {
    const offenders = ARABIC.flatMap(({ where, text }) =>
      rejectedVariantsIn(text, glossary).map((found) => `${where}: ${found}`),
    );
    expect([...new Set(offenders)]).toEqual([]);
  });

  it('no PDF text (the page documents, the notes) holds a rejected variant', () => {
    const offenders = PDF.flatMap(({ where, text }) => rejectedVariantsIn(text, glossary).map((f) => `${where}: ${f}`));
    expect(offenders).toEqual([]);
  });

  it('no text in either language, and no PDF, writes "µg" or "mcg": micrograms in full', () => {
    const offenders = [...ARABIC, ...ENGLISH, ...PDF].flatMap(({ where, text }) =>
      forbiddenAbbreviationsIn(text, glossary).map((found) => `${where}: ${found} in "${text.slice(0, 80)}"`),
    );
    expect([...new Set(offenders)]).toEqual([]);
  });
});
