import { ltr } from '../../../../../clinical/bidi.ts';
import type { Messages } from '../index.ts';

/**
 * The ROI and safety calculator's strings (Arabic; docs/product.md §2, §3, §5, §8, §9), including the
 * e-mail report. Amounts keep the code SAR next to them; "ريال سعودي" is for running text.
 */
export const roi: Messages['roi'] = {
  title: 'حاسبة العائد على الاستثمار والسلامة (ROI)',
  subtitle:
    'قدّر فوائد سوغاماديكس (sugammadex) مقارنةً بنيوستيغمين (neostigmine) في وقت غرفة العمليات وسعتها ' +
    'وفي المضاعفات الرئوية، بحسب عدد حالاتك.',

  // Inputs card (docs/product.md §3, §5)
  inputsTitle: 'المُدخلات',
  numberOfCases: 'عدد الحالات',
  numberOfCasesHint:
    'الحالات في الفترة التي تقدّرها (مثل سنة)؛ عدد صحيح، والقيمة غير الصالحة أو الفارغة تُحتسب ' + ltr(0),
  wholeNumberHint: `عدد صحيح؛ القيمة غير الصالحة أو الفارغة تُحتسب ${ltr(0)}`,
  orCostPerMinute: 'تكلفة غرفة العمليات في الدقيقة',
  timeNeostigmine: `الوقت حتى بلوغ نسبة سلسلة الأربع (TOF ratio) ${ltr('≥ 0.9')} مع نيوستيغمين (neostigmine)`,
  timeProduct: `الوقت حتى بلوغ نسبة سلسلة الأربع (TOF ratio) ${ltr('≥ 0.9')} مع سوغاماديكس (sugammadex)`,
  baselinePpcRate: 'المعدل الأساسي للمضاعفات الرئوية بعد الجراحة (PPCs)',
  baselinePpcRateHint: 'المضاعفات الرئوية بعد الجراحة دون سوغاماديكس (sugammadex)',
  riskRatio:
    'نسبة الخطر (RR) للمضاعفات الرئوية بعد الجراحة (PPCs): سوغاماديكس (sugammadex) مقابل نيوستيغمين (neostigmine)',
  riskRatioNote: `ثابتة عند ${ltr('0.62')}، من مراجعة منهجية عام ${ltr(2025)}؛ غير قابلة للتعديل.`,
  // Units stay Latin, as in English: they sit next to a number (docs/arabic-glossary.md).
  unitSar: 'SAR',
  unitSarPerMin: 'SAR/min',
  unitMin: 'min',
  unitPercent: '%',
  // Slider values as read aloud: the amount with its code, the percentage with its word.
  sarPerMinute: (value: number) => `${ltr(`${value} SAR`)} في الدقيقة`,
  percentValue: (value: number) => `${ltr(value)} بالمئة`,

  // Result cards (docs/product.md §3 ROI results)
  resultsLabel: 'النتائج',
  timeSaved: 'الوقت المُوفَّر',
  hoursFreed: (hours: string) => `إتاحة ${ltr(`${hours} h`)} من وقت غرفة العمليات`,
  costSaved: 'التكلفة المُوفَّرة',
  costSavedNote: 'سعة غرفة العمليات المُتاحة، وليست نقدًا',
  ppcsAvoided: 'المضاعفات الرئوية المُتجنَّبة (PPCs)',
  ppcsAvoidedNote: `المضاعفات الرئوية بعد الجراحة (PPCs) التي جرى تجنّبها (نسبة الخطر (RR) ${ltr('0.62')})`,
  resultsAnnouncement: (time: string, hours: string, cost: string, ppcs: string) =>
    `الوقت المُوفَّر ${ltr(`${time} min`)} (${ltr(`${hours} h`)})؛ التكلفة المُوفَّرة ${ltr(`${cost} SAR`)}؛ ` +
    `المضاعفات الرئوية المُتجنَّبة (PPCs) ${ltr(ppcs)}.`,

  // Impact summary and the time-comparison chart (docs/product.md §2, §5; docs/clinical-reference.md §5)
  impactTitle: 'ملخص الأثر',
  impactSummary: (cases: number, hours: string, cost: string, ppcs: string) =>
    `لعدد حالات قدره ${ltr(cases)}، يُتيح عكس الإحصار بسوغاماديكس (sugammadex) بدلًا من نيوستيغمين (neostigmine) ` +
    `نحو ${ltr(`${hours} h`)} من وقت غرفة العمليات (${ltr(`${cost} SAR`)} من سعة غرفة العمليات)، ` +
    `ويجنّب ما يُقدَّر بـ ${ltr(ppcs)} من المضاعفات الرئوية بعد الجراحة (PPCs).`,
  fixedCostNote:
    'معظم تكلفة غرفة العمليات ثابتة، لذا فإن «التكلفة المُوفَّرة» هي سعة في غرفة العمليات تُتاح لحالات أخرى، ' +
    'وليست مبالغ نقدية تعود إلى الميزانية.',
  tofNote:
    'لا يتحقق توفير وقت غرفة العمليات إلا عند التأكد من بلوغ نسبة سلسلة الأربع (TOF ratio) ' +
    `${ltr('≥ 0.9')} بالمراقبة الكمية قبل نزع الأنبوب الرغامي.`,
  chartTitle: 'الوقت حتى الجاهزية لنزع الأنبوب الرغامي',
  chartLabel: (neostigmine: number, product: number) =>
    `الوقت حتى بلوغ نسبة سلسلة الأربع (TOF ratio) ${ltr('≥ 0.9')}: ` +
    `نيوستيغمين (neostigmine) ${ltr(`${neostigmine} min`)}، سوغاماديكس (sugammadex) ${ltr(`${product} min`)}`,
  neostigmine: 'نيوستيغمين (neostigmine)',
  product: 'سوغاماديكس (sugammadex)',
  // A figure with its unit only, as in English, isolated as one left-to-right run.
  minutes: (value: number) => ltr(`${value} min`),

  // Actions (docs/product.md §4, §7, §8)
  downloadPdf: 'تنزيل ملف PDF',
  emailReport: 'إرسال التقرير بالبريد الإلكتروني',
  pdfError: 'حدث خطأ أثناء إنشاء ملف PDF. يُرجى المحاولة مرة أخرى.',

  // Call to action (docs/product.md §2)
  ctaTitle: 'هل أنت مستعد لعكس الإحصار بثقة؟',
  ctaText: 'احسب الجرعة المبنية على الوزن لمريضك، أو احتفظ بدليل الجرعات للممارس الصحي في متناول يدك.',
  calculateDose: 'احسب الجرعة',
  downloadGuide: 'تنزيل دليل الممارس الصحي',

  disclaimer:
    'تقديرات لأغراض التخطيط فقط. تعتمد النتائج على الأرقام المُدخلة وعلى الممارسة المحلية، ولا تُعدّ ضمانًا ' +
    'لتحقيق وفورات أو نتائج. للدعم في اتخاذ القرار فقط: يجب التحقق من كل قرار مقابل معلومات المستحضر ' +
    'والتقدير السريري.',

  // The report's lines (docs/product.md §7: inputs, results, impact summary, date of generation)
  report: {
    title: 'تقرير العائد على الاستثمار (ROI) والسلامة لسوغاماديكس (sugammadex)',
    generated: (when: string) => `تاريخ الإنشاء: ${ltr(when)}`,
    inputs: 'المُدخلات',
    results: 'النتائج',
    impact: 'ملخص الأثر',
    chart: `الوقت حتى بلوغ نسبة سلسلة الأربع (TOF ratio) ${ltr('>= 0.9')}`,
    disclaimer: 'إخلاء المسؤولية',
    numberOfCases: (value: number) => `عدد الحالات: ${ltr(value)}`,
    orCostPerMinute: (value: number) => `تكلفة غرفة العمليات في الدقيقة: ${ltr(`${value} SAR`)}`,
    timeNeostigmine: (value: number) =>
      `الوقت حتى بلوغ نسبة سلسلة الأربع (TOF ratio) ${ltr('>= 0.9')} مع نيوستيغمين (neostigmine): ` +
      ltr(`${value} min`),
    timeProduct: (value: number) =>
      `الوقت حتى بلوغ نسبة سلسلة الأربع (TOF ratio) ${ltr('>= 0.9')} مع سوغاماديكس (sugammadex): ` +
      ltr(`${value} min`),
    baselinePpcRate: (value: number) => `المعدل الأساسي للمضاعفات الرئوية بعد الجراحة (PPCs): ${ltr(`${value}%`)}`,
    riskRatio: (value: number) =>
      `نسبة الخطر (RR) للمضاعفات الرئوية بعد الجراحة (PPCs) (ثابتة، مراجعة منهجية ${ltr(2025)}): ${ltr(value)}`,
    timeSaved: (minutes: number, hours: string) =>
      `الوقت المُوفَّر: ${ltr(`${minutes} min`)} (إتاحة ${ltr(`${hours} h`)} من وقت غرفة العمليات)`,
    costSaved: (cost: string) => `التكلفة المُوفَّرة: ${ltr(`${cost} SAR`)} (سعة غرفة العمليات المُتاحة، وليست نقدًا)`,
    ppcsAvoided: (ppcs: string) => `المضاعفات الرئوية المُتجنَّبة (PPCs): ${ltr(ppcs)}`,
  },

  // The e-mail report (docs/product.md §7: mail client, no recipient)
  mail: {
    subject: 'حاسبة العائد على الاستثمار والسلامة (ROI) لسوغاماديكس (sugammadex) - تقدير',
    intro: 'تقدير حاسبة العائد على الاستثمار والسلامة (ROI): سوغاماديكس (sugammadex) مقابل نيوستيغمين (neostigmine)',
  },
};
