import { ltr } from './bidi.ts';

/*
 * The words of the patient counselling sheet on contraception, in English and Arabic
 * (docs/clinical-reference.md#8-patient-counselling-contraception). Written for the patient: English at
 * Flesch-Kincaid grade 6 or lower, Arabic in Modern Standard Arabic addressing her, sentences of at most 20
 * words, no short-vowel marks (a PDF cannot place them without a shaping engine), every figure of an Arabic
 * sentence in an ltr() isolate. clinical/patient-sheet.test.ts holds them to that.
 */

/**
 * Sugammadex binds progestogens: a dose counts as one missed day of a hormonal contraceptive, and an additional
 * non-hormonal method is needed for the next 7 days (EU SmPC 4.5 and 4.6; US PI 7 Drug Interactions).
 */
export const BACKUP_CONTRACEPTION_DAYS = 7;
/** The progestogen-only pill leaflets' extra protection after a late pill: 2 days (48 hours). */
export const POP_LATE_PILL_CONDOM_DAYS = 2;
/** Combined pill leaflets: with fewer than 7 hormone pills left, the next pack follows with no break. */
export const COMBINED_PILL_NO_BREAK_BELOW_PILLS = 7;

export type SheetLang = 'en' | 'ar';
type Hormonal = 'combined_pill' | 'progestogen_only_pill' | 'non_oral_hormonal';
type Pill = 'combined_pill' | 'progestogen_only_pill';

export interface SheetWords {
  weekdays: readonly string[];
  months: readonly string[];
  dateTime(weekday: string, day: string, month: string, year: string, time: string): string;
  date(weekday: string, day: string, month: string, year: string): string;
  title: string;
  whatHappened: string;
  youWereGiven: string;
  givenOn(when: string): string;
  givenToday: string;
  whatItMeans: string;
  hormonalMeaning(method: Hormonal): readonly string[];
  whatToDo: string;
  /** The key sentence; `until` null on the general sheet. */
  useCondoms(until: string | null): string;
  keepUsing: Record<Hormonal, readonly string[]>;
  missedPill: Record<Pill, readonly string[]>;
  emergencyHeading: string;
  emergency(until: string | null): string[];
  nothingChanges: string;
  nothingChangesWhy: Record<'non_hormonal' | 'none', readonly string[]>;
  ifHormonal(until: string | null): string;
  notAsked: readonly string[];
  questionsHeading: string;
  questions: readonly string[];
  forPatient(initials: string): string;
  keep: string;
  printedOn(date: string): string;
  generalEdition: string;
  source: string;
  issues: Record<'language' | 'method' | 'givenAt' | 'printedOn' | 'initials' | 'hospitalName', string>;
}

const DAYS = BACKUP_CONTRACEPTION_DAYS;

const EN: SheetWords = {
  weekdays: ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'],
  months: [
    'January',
    'February',
    'March',
    'April',
    'May',
    'June',
    'July',
    'August',
    'September',
    'October',
    'November',
    'December',
  ],
  dateTime: (weekday, day, month, year, time) => `${weekday} ${day} ${month} ${year} at ${time}`,
  date: (weekday, day, month, year) => `${weekday} ${day} ${month} ${year}`,
  title: 'Your birth control after your operation',
  whatHappened: 'What happened',
  youWereGiven: 'You were given a medicine called sugammadex to help you wake from anaesthesia.',
  givenOn: (when) => `You were given it on ${when}.`,
  givenToday: 'You were given it during your operation.',
  whatItMeans: 'What this means for you',
  hormonalMeaning: (method) =>
    method === 'non_oral_hormonal'
      ? [
          'This medicine can stop hormone birth control from working well for a short time.',
          'It is like missing one day of it.',
        ]
      : [
          'This medicine can stop your pill from working well for a short time.',
          'It is like missing one day of your pill.',
        ],
  whatToDo: 'What to do',
  useCondoms: (until) =>
    until
      ? `Use condoms (or do not have sex) until ${until}.`
      : `Use condoms (or do not have sex) for ${DAYS} days after you were given this medicine.`,
  keepUsing: {
    combined_pill: [
      'Keep taking your pill at the usual time each day. Do not stop.',
      'Also read the part of your pill leaflet about missed pills.',
    ],
    progestogen_only_pill: [
      'Keep taking your pill at the usual time each day. Do not stop.',
      'Also read the part of your pill leaflet about missed pills.',
    ],
    non_oral_hormonal: [
      'Keep using your ring, implant, injection, patch or hormone coil as usual.',
      'Do not take it out.',
    ],
  },
  missedPill: {
    combined_pill: [
      `If you take the combined pill and fewer than ${COMBINED_PILL_NO_BREAK_BELOW_PILLS} pills are left in the pack, finish them.`,
      'Then start the next pack the next day, with no break.',
      'Leave out any dummy pills.',
    ],
    progestogen_only_pill: [
      'If you take the mini pill (progestogen-only pill), keep taking it each day with no break.',
      `Its leaflet asks for condoms for ${POP_LATE_PILL_CONDOM_DAYS} days after a late pill. This medicine needs ${DAYS} days.`,
    ],
  },
  emergencyHeading: 'When to ask for emergency birth control',
  emergency: (until) => [
    until
      ? `Did you have sex without a condom after your operation and before ${until}?`
      : `Did you have sex without a condom in the ${DAYS} days after you were given this medicine?`,
    'Then ask a pharmacist or doctor about emergency birth control (the morning-after pill).',
    'Go as soon as you can. It works best when taken early.',
  ],
  nothingChanges: 'Nothing changes.',
  nothingChangesWhy: {
    non_hormonal: [
      'This medicine does not change how condoms or a copper coil work.',
      'Keep using your birth control as usual.',
    ],
    none: [
      'This medicine only affects hormone birth control, and you do not use any.',
      'If you want birth control, ask your doctor or nurse.',
    ],
  },
  ifHormonal: (until) =>
    until
      ? `If you use hormone birth control, use condoms (or do not have sex) until ${until}.`
      : `If you use hormone birth control, use condoms (or do not have sex) for ${DAYS} days after you were given this medicine.`,
  notAsked: [
    'Hormone birth control means a pill, a ring, an implant, an injection, a patch or a hormone coil.',
    'Keep using it as usual. Do not stop it.',
    'If you use condoms, a copper coil or no birth control, nothing changes.',
  ],
  questionsHeading: 'Questions',
  questions: ['Ask your doctor, nurse or pharmacist if you are not sure what to do.'],
  forPatient: (initials) => `For: ${initials}`,
  keep: 'Keep this sheet.',
  printedOn: (date) => `Printed on ${date}`,
  generalEdition: 'General sheet, without dates',
  source: 'Based on the sugammadex product information (EU SmPC 4.5 and 4.6; US PI).',
  issues: {
    language: 'Choose the language of the sheet.',
    method: 'Choose the contraceptive the patient uses, or "not asked".',
    givenAt: 'Enter the date and time sugammadex was given.',
    printedOn: 'The date of printing is missing.',
    initials: 'Initials: letters, dots and spaces only, at most 8 characters.',
    hospitalName: 'The hospital name is too long (at most 120 characters).',
  },
};

const AR: SheetWords = {
  weekdays: ['الأحد', 'الاثنين', 'الثلاثاء', 'الأربعاء', 'الخميس', 'الجمعة', 'السبت'],
  months: [
    'يناير',
    'فبراير',
    'مارس',
    'أبريل',
    'مايو',
    'يونيو',
    'يوليو',
    'أغسطس',
    'سبتمبر',
    'أكتوبر',
    'نوفمبر',
    'ديسمبر',
  ],
  dateTime: (weekday, day, month, year, time) => `${weekday} ${day} ${month} ${year} الساعة ${time}`,
  date: (weekday, day, month, year) => `${weekday} ${day} ${month} ${year}`,
  title: 'وسيلة منع الحمل بعد العملية',
  whatHappened: 'ماذا حدث',
  youWereGiven: 'أعطيناك دواء اسمه سوغاماديكس (sugammadex) ليساعدك على الاستيقاظ من التخدير.',
  givenOn: (when) => `تلقيت هذا الدواء يوم ${when}.`,
  givenToday: 'تلقيت هذا الدواء أثناء العملية.',
  whatItMeans: 'ماذا يعني ذلك لك',
  hormonalMeaning: (method) =>
    method === 'non_oral_hormonal'
      ? ['قد يضعف هذا الدواء مفعول وسائل منع الحمل الهرمونية لفترة قصيرة.', 'أثره يشبه التوقف عن وسيلتك يوما واحدا.']
      : ['قد يضعف هذا الدواء مفعول حبوب منع الحمل لفترة قصيرة.', 'أثره يشبه نسيان حبة منع الحمل يوما واحدا.'],
  whatToDo: 'ماذا تفعلين',
  useCondoms: (until) =>
    until
      ? `استخدمي الواقي الذكري (أو امتنعي عن الجماع) حتى يوم ${until}.`
      : `استخدمي الواقي الذكري (أو امتنعي عن الجماع) مدة ${ltr(DAYS)} أيام بعد تلقي هذا الدواء.`,
  keepUsing: {
    combined_pill: [
      'استمري في تناول حبتك كل يوم في موعدها المعتاد. لا تتوقفي عنها.',
      'واقرئي في نشرة الحبوب ما يجب فعله عند نسيان حبة.',
    ],
    progestogen_only_pill: [
      'استمري في تناول حبتك كل يوم في موعدها المعتاد. لا تتوقفي عنها.',
      'واقرئي في نشرة الحبوب ما يجب فعله عند نسيان حبة.',
    ],
    non_oral_hormonal: [
      'استمري في استخدام الحلقة أو الغرسة أو الحقنة أو اللصقة أو اللولب الهرموني كالمعتاد.',
      'لا تنزعي وسيلتك.',
    ],
  },
  missedPill: {
    combined_pill: [
      `إذا كنت تتناولين الحبوب المركبة وبقي في العلبة أقل من ${ltr(COMBINED_PILL_NO_BREAK_BELOW_PILLS)} حبات، فأكمليها.`,
      'ثم ابدئي العلبة التالية في اليوم التالي دون استراحة.',
      'ولا تتناولي الحبوب الخالية من الهرمون.',
    ],
    progestogen_only_pill: [
      'إذا كنت تتناولين الحبوب الصغيرة (حبوب البروجستين فقط)، فاستمري في تناولها كل يوم دون استراحة.',
      `تطلب نشرتها الواقي الذكري مدة ${ltr(POP_LATE_PILL_CONDOM_DAYS)} يوم بعد تأخر الحبة. أما هذا الدواء فيحتاج إلى ${ltr(DAYS)} أيام.`,
    ],
  },
  emergencyHeading: 'متى تطلبين وسيلة منع الحمل الطارئة',
  emergency: (until) => [
    until
      ? `هل مارست الجماع دون الواقي الذكري بعد العملية وقبل يوم ${until}؟`
      : `هل مارست الجماع دون الواقي الذكري خلال ${ltr(DAYS)} أيام بعد تلقي هذا الدواء؟`,
    'إذن اسألي الصيدلي أو الطبيب عن وسيلة منع الحمل الطارئة (حبة اليوم التالي).',
    'اذهبي في أقرب وقت، فمفعولها أفضل كلما أخذتها مبكرا.',
  ],
  nothingChanges: 'لا شيء يتغير.',
  nothingChangesWhy: {
    non_hormonal: ['هذا الدواء لا يغير عمل الواقي الذكري ولا اللولب النحاسي.', 'استمري في استخدام وسيلتك كالمعتاد.'],
    none: [
      'هذا الدواء يؤثر فقط في وسائل منع الحمل الهرمونية، وأنت لا تستخدمين أيا منها.',
      'إذا أردت وسيلة لمنع الحمل، فاسألي الطبيب أو الممرضة.',
    ],
  },
  ifHormonal: (until) =>
    until
      ? `إذا كنت تستخدمين وسيلة هرمونية، فاستخدمي الواقي الذكري (أو امتنعي عن الجماع) حتى ${until}.`
      : `إذا كنت تستخدمين وسيلة هرمونية، فاستخدمي الواقي الذكري (أو امتنعي عن الجماع) مدة ${ltr(DAYS)} أيام بعد تلقي هذا الدواء.`,
  notAsked: [
    'الوسائل الهرمونية هي الحبوب والحلقة والغرسة والحقنة واللصقة واللولب الهرموني.',
    'استمري في استخدام وسيلتك كالمعتاد، ولا تتوقفي عنها.',
    'إذا كنت تستخدمين الواقي الذكري أو اللولب النحاسي أو لا تستخدمين أي وسيلة، فلا شيء يتغير.',
  ],
  questionsHeading: 'أسئلة',
  questions: ['اسألي الطبيب أو الممرضة أو الصيدلي إذا لم تكوني متأكدة مما تفعلين.'],
  forPatient: (initials) => `الأحرف الأولى من الاسم: ${initials}`,
  keep: 'احتفظي بهذه الورقة.',
  printedOn: (date) => `تاريخ الطباعة: ${date}`,
  generalEdition: 'نسخة عامة دون تواريخ',
  source: `مستند إلى معلومات المستحضر (${ltr('EU SmPC 4.5, 4.6; US PI')}).`,
  issues: EN.issues,
};

export const SHEET_TEXTS: Record<SheetLang, SheetWords> = { en: EN, ar: AR };
