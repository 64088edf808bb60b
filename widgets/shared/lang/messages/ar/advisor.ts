import { ltr } from '../../../../../clinical/bidi.ts';
import type { Messages } from '../index.ts';

/** The risk bands by the API's codes (LOW, MODERATE, HIGH): shown on the card and in the success toast. */
const riskBands: Messages['advisor']['riskBands'] = { LOW: 'منخفض', MODERATE: 'متوسط', HIGH: 'مرتفع' };
const riskBandNames: ReadonlyMap<string, string> = new Map(Object.entries(riskBands));

/**
 * The bradycardia advisor's strings (Arabic; docs/product.md §2, §4, §5, §8). "Re-paralysis" here is
 * giving a blocking agent again after reversal (re-NMBA): إعادة الإحصار, not عودة الإحصار, which is
 * recurarization (docs/arabic-glossary.md).
 */
export const advisor: Messages['advisor'] = {
  title: 'سوغاماديكس (sugammadex) — مستشار خطر بطء القلب وإعادة الإحصار (re-NMBA)',
  hcpOnly: 'للممارسين الصحيين فقط',
  intro:
    'احسب خطر بطء القلب، واحصل على خطط تدبير خطوة بخطوة، وتوجيهات إعادة الإحصار (re-paralysis) ' +
    'استنادًا إلى الإرشادات الحالية.',
  inputCard: 'معلومات المريض والحالة',
  demographics: 'البيانات الديموغرافية',
  cardiac: 'القلب والأدوية',
  block: 'تقييم الإحصار',
  weight: 'الوزن',
  age: 'العمر',
  baselineHr: 'معدل ضربات القلب الأساسي',
  creatinine: 'تصفية الكرياتينين (CrCl)',
  cardiacHistory: 'السوابق القلبية',
  cardiacHistories: {
    none: 'لا يوجد',
    bradycardia: 'بطء القلب',
    av_block: 'إحصار أذيني بطيني (AV block) - اضطراب في التوصيل',
    pacemaker: 'جهاز تنظيم ضربات القلب',
  },
  betaBlocker: 'حاصر بيتا (beta-blocker)',
  dexmedetomidine: 'ديكسميديتوميدين (dexmedetomidine)',
  digoxin: 'ديجوكسين (digoxin)',
  amiodarone: 'أميودارون (amiodarone)',
  highDoseOpioids: 'أفيونيات بجرعات عالية',
  vagalStimulus: 'تنبيه العصب المبهم (مثل استرواح الصفاق)',
  depth: 'عمق الإحصار',
  depths: {
    tof_2_plus: `عدد سلسلة الأربع (TOF) ${ltr(2)} أو أكثر (${ltr('2 mg/kg')})`,
    ptc_1_2: `العدّ بعد التنبيه الكزازي (PTC) ${ltr('1-2')} (${ltr('4 mg/kg')})`,
    immediate: `عكس الإحصار الفوري (${ltr('16 mg/kg')})`,
  },
  nmba: 'المُحصِر العصبي العضلي (NMBA)',
  nmbas: { rocuronium: 'روكورونيوم (rocuronium)', vecuronium: 'فيكورونيوم (vecuronium)' },
  patient: 'المريض',
  noPatient: 'بدون مريض (غير مرتبط)',
  assess: 'قيّم الخطر',
  assessing: 'جارٍ التقييم…',
  missingTitle: 'معلومات ناقصة',
  invalidTitle: 'إدخال غير صالح',
  missingDescription: 'يُرجى تعبئة جميع الحقول المطلوبة',
  successTitle: 'اكتمل تقييم الخطر',
  // The band arrives as the API's code (LOW, MODERATE, HIGH): shown by its Arabic name, or as is if unknown.
  successDescription: (band: string, percent: number) =>
    `خطر بطء القلب: ${riskBandNames.get(band) ?? band} (${ltr(`${percent.toFixed(1)}%`)})`,
  failureTitle: 'تعذّر الحساب',
  failureFallback: 'يُرجى المحاولة مرة أخرى',
  riskCard: 'تقييم خطر بطء القلب',
  riskBands,
  riskPercentLabel: 'الخطر المقدّر',
  recommendedDose: 'الجرعة الموصى بها',
  // Figures with their units only, as in English, isolated as one left-to-right run.
  doseLine: (mg: number, ml: string) => ltr(`${mg} mg (${ml} mL)`),
  dosePerKg: (mgPerKg: number) => ltr(`${mgPerKg} mg/kg`),
  percent: (value: string) => ltr(`${value}%`),
  // Units stay Latin (bpm included); "years" is a word.
  units: { kg: 'kg', years: 'سنة', bpm: 'bpm', mlPerMin: 'mL/min' },
  byActualWeight: 'الجرعة حسب وزن الجسم الفعلي',
  concentrationNote: `التركيز ${ltr('100 mg/mL')} (قارورة ${ltr('200 mg / 2 mL')})`,
  planCard: 'خطة التدبير',
  preparation: 'التحضير',
  treatment: 'بروتوكول العلاج',
  reparalysis: 'توجيهات إعادة الإحصار (re-paralysis)',
  factors: 'العوامل المطبّقة',
  noFactors: 'لم يُطبَّق أي عامل خطر: الخطر الأساسي.',
  multiplier: (value: number) => ltr(`× ${value}`),
  // The model's name in Arabic (clinical/'s texts: advisor.modelName).
  heuristic: (name: string, version: number) =>
    `${name}، الإصدار ${ltr(version)}: أداة تقدير استدلالية غير مُتحقَّق من صحتها، ` + 'وليست نموذج تنبؤ مُتحقَّقًا من صحته.',
  warnings: 'تحذيرات',
  linkedTo: (name: string) => `مرتبط بالمريض ${name}`,
  // Counts as "the number of …: {count}", which needs no agreement of the noun with the number.
  offlineComputed: 'حُسبت على هذا الجهاز؛ لم تُحفظ',
  offlineKept: 'محفوظة مؤقتًا على هذا الجهاز: ستُحفظ في سجلّك عندما يمكن الوصول إلى الخادم مجددًا.',
  offlineNotKept: 'تعذّر الاحتفاظ بها على هذا الجهاز (التخزين محظور أو ممتلئ): لن تُحفظ في سجلّك.',
  offlineTitle: 'حُسبت على هذا الجهاز',
  offlineDescription: 'تعذّر الوصول إلى الخادم: حُسب الخطر في هذا المتصفح.',
  offlineSavedTitle: 'حُفظت الحسابات المُجراة دون اتصال',
  offlineSavedOne: 'حُفظ حساب واحد أُجري دون اتصال',
  offlineSavedMany: 'عدد الحسابات المُجراة دون اتصال التي حُفظت: {count}',
  offlineRefusedTitle: 'لم تُحفظ الحسابات المُجراة دون اتصال',
  offlineRefusedOne: 'رفض الخادم حسابًا واحدًا أُجري دون اتصال، فحُذف من هذا الجهاز',
  offlineRefusedMany: 'عدد الحسابات المُجراة دون اتصال التي رفضها الخادم فحُذفت من هذا الجهاز: {count}',
};
