import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ltr, withoutIsolates } from './bidi.ts';
import {
  addDays,
  BACKUP_CONTRACEPTION_DAYS,
  CONTRACEPTIVE_METHODS,
  formatSheetDate,
  formatSheetDateTime,
  generalSheet,
  parseLocalDateTime,
  patientSheet,
  sheetSentences,
  weekdayOf,
  type ContraceptiveMethod,
  type LocalDateTime,
  type SheetText,
} from './patient-sheet.ts';
import { fleschKincaidGrade, longestSentence } from './readability.test-support.ts';
import { hasArabicLetters, isolationProblems } from './texts/checks.ts';

// docs/clinical-reference.md#8-patient-counselling-contraception: the sheet's dates, variants and plain language.

const at = (text: string) => parseLocalDateTime(text) as LocalDateTime;
const GIVEN = '2026-12-01T14:30';
const sheetFor = (method: ContraceptiveMethod, language: 'ar' | 'en' | 'both' = 'both', extra = {}) => {
  const outcome = patientSheet({ language, method, givenAt: GIVEN, printedOn: '2026-12-01', ...extra });
  if (outcome.kind !== 'sheet') throw new Error(JSON.stringify(outcome.issues));
  return outcome;
};
const textIn = (sheet: SheetText) =>
  withoutIsolates(
    [
      sheet.title,
      sheet.hospital ?? '',
      sheet.patient ?? '',
      ...sheet.sections.flatMap((s) => [s.heading, s.key ?? '', ...s.paragraphs]),
      sheet.keep,
      sheet.printed,
    ].join('\n'),
  );

describe('dates: given + 7 calendar days, same wall-clock time', () => {
  // [given, 7 days later, English, Arabic (isolates removed)]
  const cases: [string, string, string, string][] = [
    [GIVEN, '2026-12-08T14:30', 'Tuesday 8 December 2026 at 14:30', 'الثلاثاء 8 ديسمبر 2026 الساعة 14:30'],
    ['2026-12-28T09:05', '2027-01-04T09:05', 'Monday 4 January 2027 at 09:05', 'الاثنين 4 يناير 2027 الساعة 09:05'],
    ['2028-02-25T00:00', '2028-03-03T00:00', 'Friday 3 March 2028 at 00:00', 'الجمعة 3 مارس 2028 الساعة 00:00'],
    ['2027-02-25T23:59', '2027-03-04T23:59', 'Thursday 4 March 2027 at 23:59', 'الخميس 4 مارس 2027 الساعة 23:59'],
    ['2026-03-26T08:00', '2026-04-02T08:00', 'Thursday 2 April 2026 at 08:00', 'الخميس 2 أبريل 2026 الساعة 08:00'],
    ['2100-02-25T12:00', '2100-03-04T12:00', 'Thursday 4 March 2100 at 12:00', 'الخميس 4 مارس 2100 الساعة 12:00'],
  ];
  it.each(cases)('%s + 7 days = %s (%s)', (given, later, english, arabic) => {
    const until = addDays(at(given), BACKUP_CONTRACEPTION_DAYS);
    expect(until).toEqual(at(later));
    expect(formatSheetDateTime(until, 'en')).toBe(english);
    expect(withoutIsolates(formatSheetDateTime(until, 'ar'))).toBe(arabic);
  });

  it('the Arabic date keeps Western digits, each figure in a left-to-right isolate', () => {
    expect(formatSheetDateTime(at('2026-12-08T14:30'), 'ar')).toBe(
      `الثلاثاء ${ltr(8)} ديسمبر ${ltr(2026)} الساعة ${ltr('14:30')}`,
    );
    expect(formatSheetDate(at('2026-12-01T00:00'), 'en')).toBe('Tuesday 1 December 2026');
  });

  it('agrees with the calendar for any date and any number of days (property)', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2199-12-31T23:59:00Z'), noInvalidDate: true }),
        fc.integer({ min: -400, max: 400 }),
        (date, days) => {
          const start = {
            year: date.getUTCFullYear(),
            month: date.getUTCMonth() + 1,
            day: date.getUTCDate(),
            hour: date.getUTCHours(),
            minute: date.getUTCMinutes(),
          };
          const later = new Date(date.getTime() + days * 86_400_000);
          expect(addDays(start, days)).toEqual({
            year: later.getUTCFullYear(),
            month: later.getUTCMonth() + 1,
            day: later.getUTCDate(),
            hour: start.hour,
            minute: start.minute,
          });
          expect(weekdayOf(start)).toBe(date.getUTCDay());
        },
      ),
    );
  });

  it.each(['', '2026-02-30T10:00', '2026-13-01T10:00', '2026-12-01T24:00', '2026-12-01T10:60', '1/12/2026 14:30', 42])(
    'refuses %j as the time given',
    (givenAt) => {
      expect(patientSheet({ language: 'en', method: 'combined_pill', givenAt, printedOn: '2026-12-01' })).toEqual({
        kind: 'invalid_input',
        issues: [{ field: 'givenAt', message: 'Enter the date and time sugammadex was given.' }],
      });
    },
  );
});

describe('the done-when example: combined pill, given 2026-12-01 at 14:30', () => {
  it('English: use condoms until Tuesday 8 December 2026 at 14:30', () => {
    const [english] = sheetFor('combined_pill', 'en').texts;
    expect(english!.sections.find((s) => s.key)?.key).toBe(
      'Use condoms (or do not have sex) until Tuesday 8 December 2026 at 14:30.',
    );
  });
  it('Arabic: the same date and time', () => {
    const [arabic] = sheetFor('combined_pill', 'ar').texts;
    expect(arabic!.lang).toBe('ar');
    expect(withoutIsolates(arabic!.sections.find((s) => s.key)!.key!)).toBe(
      'استخدمي الواقي الذكري (أو امتنعي عن الجماع) حتى يوم الثلاثاء 8 ديسمبر 2026 الساعة 14:30.',
    );
  });
  it('both: Arabic first, then English, one sheet', () => {
    expect(sheetFor('combined_pill', 'both').texts.map((text) => text.lang)).toEqual(['ar', 'en']);
  });
});

describe('every variant in both languages', () => {
  // [method, key sentence EN, key sentence AR (isolates removed), EN text present, AR text present, condoms?]
  const UNTIL_EN = 'Tuesday 8 December 2026 at 14:30';
  const UNTIL_AR = 'الثلاثاء 8 ديسمبر 2026 الساعة 14:30';
  const variants: [ContraceptiveMethod, string, string, string, string, boolean][] = [
    [
      'combined_pill',
      `Use condoms (or do not have sex) until ${UNTIL_EN}.`,
      `استخدمي الواقي الذكري (أو امتنعي عن الجماع) حتى يوم ${UNTIL_AR}.`,
      'If you take the combined pill and fewer than 7 pills are left in the pack, finish them.',
      'فأكمليها',
      true,
    ],
    [
      'progestogen_only_pill',
      `Use condoms (or do not have sex) until ${UNTIL_EN}.`,
      `استخدمي الواقي الذكري (أو امتنعي عن الجماع) حتى يوم ${UNTIL_AR}.`,
      'Its leaflet asks for condoms for 2 days after a late pill. This medicine needs 7 days.',
      'حبوب البروجستين فقط',
      true,
    ],
    [
      'non_oral_hormonal',
      `Use condoms (or do not have sex) until ${UNTIL_EN}.`,
      `استخدمي الواقي الذكري (أو امتنعي عن الجماع) حتى يوم ${UNTIL_AR}.`,
      'Keep using your ring, implant, injection, patch or hormone coil as usual.',
      'اللولب الهرموني',
      true,
    ],
    [
      'non_hormonal',
      'Nothing changes.',
      'لا شيء يتغير.',
      'This medicine does not change how condoms or a copper coil work.',
      'اللولب النحاسي',
      false,
    ],
    [
      'none',
      'Nothing changes.',
      'لا شيء يتغير.',
      'This medicine only affects hormone birth control, and you do not use any.',
      'لا تستخدمين',
      false,
    ],
    [
      'not_asked',
      `If you use hormone birth control, use condoms (or do not have sex) until ${UNTIL_EN}.`,
      `إذا كنت تستخدمين وسيلة هرمونية، فاستخدمي الواقي الذكري (أو امتنعي عن الجماع) حتى ${UNTIL_AR}.`,
      'If you use condoms, a copper coil or no birth control, nothing changes.',
      'فلا شيء يتغير',
      true,
    ],
  ];

  it('covers every method', () => {
    expect(variants.map(([method]) => method).sort()).toEqual([...CONTRACEPTIVE_METHODS].sort());
  });

  it.each(variants)('%s', (method, keyEn, keyAr, textEn, textAr, condoms) => {
    const outcome = sheetFor(method);
    const [arabic, english] = outcome.texts as [SheetText, SheetText];
    expect(english.sections.find((s) => s.key)?.key).toBe(keyEn);
    expect(withoutIsolates(arabic.sections.find((s) => s.key)?.key ?? '')).toBe(keyAr);
    expect(textIn(english)).toContain(textEn);
    expect(textIn(arabic)).toContain(textAr);
    // the sentence every patient gets, and the date only where something changes
    expect(textIn(english)).toContain('You were given a medicine called sugammadex to help you wake from anaesthesia.');
    expect(textIn(english)).toContain('You were given it on Tuesday 1 December 2026 at 14:30.');
    expect(textIn(arabic)).toContain('تلقيت هذا الدواء يوم الثلاثاء 1 ديسمبر 2026 الساعة 14:30.');
    expect(textIn(english).includes(UNTIL_EN)).toBe(condoms);
    expect(textIn(arabic).includes(UNTIL_AR)).toBe(condoms);
    expect(outcome.backupUntil).toEqual(condoms ? at('2026-12-08T14:30') : null);
    // emergency contraception is explained whenever a hormonal method may be in use
    expect(textIn(english).includes('emergency birth control')).toBe(condoms);
    expect(textIn(arabic).includes('وسيلة منع الحمل الطارئة')).toBe(condoms);
    for (const text of [english, arabic]) {
      expect(text.keep).toBe(text.lang === 'en' ? 'Keep this sheet.' : 'احتفظي بهذه الورقة.');
      expect(withoutIsolates(text.printed)).toBe(
        text.lang === 'en' ? 'Printed on Tuesday 1 December 2026' : 'تاريخ الطباعة: الثلاثاء 1 ديسمبر 2026',
      );
    }
  });

  it('pill variants give their own leaflet rule, others none', () => {
    const en = (method: ContraceptiveMethod) => textIn(sheetFor(method, 'en').texts[0]!);
    expect(en('combined_pill')).toContain('Leave out any dummy pills.');
    expect(en('combined_pill')).not.toContain('mini pill');
    expect(en('progestogen_only_pill')).toContain('mini pill');
    expect(en('progestogen_only_pill')).not.toContain('dummy pills');
    expect(en('non_oral_hormonal')).not.toMatch(/dummy pills|mini pill/);
    expect(en('not_asked')).toMatch(/dummy pills[\s\S]*mini pill/);
  });
});

describe('what is printed about the patient and the hospital', () => {
  it('initials only when given; never anything else', () => {
    const [arabic, english] = sheetFor('combined_pill', 'both', { initials: ' A.B. ' }).texts as [SheetText, SheetText];
    expect(english.patient).toBe('For: A.B.');
    expect(arabic.patient).toBe(`الأحرف الأولى من الاسم: ${ltr('A.B.')}`);
    expect(sheetFor('combined_pill', 'en').texts[0]!.patient).toBeNull();
    expect(sheetFor('combined_pill', 'ar', { initials: 'م. ع.' }).texts[0]!.patient).toBe(
      'الأحرف الأولى من الاسم: م. ع.',
    );
  });
  it.each(['123456', 'A.B.C.D.E.', 'A\u202eB', { value: 'A' }])(
    'refuses %j as initials (an MRN, too long, marks)',
    (initials) => {
      const outcome = patientSheet({
        language: 'en',
        method: 'none',
        givenAt: GIVEN,
        printedOn: '2026-12-01',
        initials,
      });
      expect(outcome.kind === 'invalid_input' && outcome.issues.map((issue) => issue.field)).toEqual(['initials']);
    },
  );
  it('the hospital name when configured, at most 120 characters', () => {
    expect(sheetFor('none', 'en', { hospitalName: ' King Fahad  Hospital ' }).texts[0]!.hospital).toBe(
      'King Fahad Hospital',
    );
    expect(sheetFor('none', 'en').texts[0]!.hospital).toBeNull();
    const outcome = patientSheet({
      language: 'en',
      method: 'none',
      givenAt: GIVEN,
      printedOn: '2026-12-01',
      hospitalName: 'x'.repeat(121),
    });
    expect(outcome.kind === 'invalid_input' && outcome.issues.map((issue) => issue.field)).toEqual(['hospitalName']);
  });
  it('every bad field is named at once; nothing is made', () => {
    expect(patientSheet({ language: 'fr', method: 'pill', givenAt: '', printedOn: 'today' })).toEqual({
      kind: 'invalid_input',
      issues: [
        { field: 'language', message: 'Choose the language of the sheet.' },
        { field: 'method', message: 'Choose the contraceptive the patient uses, or "not asked".' },
        { field: 'givenAt', message: 'Enter the date and time sugammadex was given.' },
        { field: 'printedOn', message: 'The date of printing is missing.' },
      ],
    });
    expect(patientSheet(null).kind).toBe('invalid_input');
    expect(patientSheet('combined_pill').kind).toBe('invalid_input');
  });
});

describe('the general sheet (the static resource)', () => {
  it('has no dates and says 7 days, in both languages', () => {
    const english = textIn(generalSheet('en'));
    expect(english).toContain(
      'If you use hormone birth control, use condoms (or do not have sex) for 7 days ' +
        'after you were given this medicine.',
    );
    expect(english).toContain('General sheet, without dates');
    expect(english).not.toMatch(/\b20\d\d\b/);
    expect(textIn(generalSheet('ar'))).toContain('مدة 7 أيام بعد تلقي هذا الدواء');
  });
});

const ALL_SHEETS: [string, SheetText][] = [
  ...CONTRACEPTIVE_METHODS.flatMap((method) =>
    sheetFor(method, 'both', { initials: 'A.B.' }).texts.map((text): [string, SheetText] => [
      `${method} ${text.lang}`,
      text,
    ]),
  ),
  ['general en', generalSheet('en')],
  ['general ar', generalSheet('ar')],
];

describe('plain language', () => {
  const english = ALL_SHEETS.filter(([, text]) => text.lang === 'en');
  const arabic = ALL_SHEETS.filter(([, text]) => text.lang === 'ar');

  it.each(english)('%s: Flesch-Kincaid grade 6 or lower', (_, text) => {
    expect(fleschKincaidGrade(sheetSentences(text))).toBeLessThanOrEqual(6);
  });

  it.each(arabic)('%s: every sentence 20 words or fewer, well isolated, no vowel marks', (_, text) => {
    const sentences = sheetSentences(text);
    expect(longestSentence(sentences).words).toBeLessThanOrEqual(20);
    for (const sentence of [...sentences, text.printed, text.patient ?? '', text.source]) {
      expect([sentence, isolationProblems(sentence)]).toEqual([sentence, []]);
      // short vowels and shadda cannot be placed without a shaping engine: the sheet has none
      expect([sentence, /[\u064b-\u0652\u0670]/.test(sentence)]).toEqual([sentence, false]);
    }
    expect(sentences.every((sentence) => hasArabicLetters(sentence))).toBe(true);
  });

  it('the measures fail when a long sentence is put in', () => {
    const [, sheet] = ALL_SHEETS.find(([name]) => name === 'combined_pill en')!;
    const long =
      'Sugammadex encapsulates steroidal neuromuscular blocking agents and, through an analogous interaction, ' +
      'progestogens, consequently diminishing systemic exposure, which necessitates supplementary non-hormonal ' +
      'contraceptive precautions throughout the subsequent seven-day interval.';
    expect(fleschKincaidGrade([...sheetSentences(sheet), long])).toBeGreaterThan(6);
    const [, arabicSheet] = ALL_SHEETS.find(([name]) => name === 'combined_pill ar')!;
    const longArabic =
      'إذا كنت تستخدمين أي وسيلة هرمونية لمنع الحمل مثل الحبوب أو الحلقة أو الغرسة ' +
      'أو الحقنة أو اللصقة أو اللولب فعليك أن تستخدمي الواقي الذكري.';
    expect(longestSentence([...sheetSentences(arabicSheet), longArabic]).words).toBeGreaterThan(20);
  });
});
