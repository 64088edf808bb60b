import { ltr } from '../../../../../clinical/bidi.ts';
import type { Messages } from '../index.ts';

/**
 * The dose calculator's strings (Arabic; docs/product.md §2, §3, §5, §8, §9). Every number, and every
 * number with its unit, is an ltr() run so that "140 mg" never reads "mg 140" (docs/arabic-glossary.md).
 */
export const doseCalculator: Messages['doseCalculator'] = {
  title: 'حاسبة الجرعة',
  subtitle: 'حاسبة تفاعلية للجرعات مبنية على منطق طبي',
  formLabel: 'بيانات المريض والإحصار',
  ageGroup: 'الفئة العمرية',
  ageGroups: {
    adult: `بالغ (${ltr(18)} سنة فأكثر)`,
    pediatric: `طفل (${ltr('2-17')} سنة)`,
    infant: `رضيع (دون سن ${ltr(2)})`,
  },
  ageGroupUnset: 'اختر الفئة العمرية',
  unknownAgeGroupPreset: (value: string) =>
    `حدّدت الصفحة الفئة العمرية بالقيمة «${ltr(value)}»، وهي ليست من الفئات المعروفة (بالغ أو طفل أو رضيع): ` +
    'يُرجى اختيار الفئة العمرية.',
  bodyWeight: 'وزن الجسم',
  bodyWeightHint: `وزن الجسم الفعلي، ${ltr('1-200 kg')}`,
  nmbaType: 'المُحصِر العصبي العضلي (NMBA)',
  nmbaTypes: { rocuronium: 'روكورونيوم (rocuronium)', vecuronium: 'فيكورونيوم (vecuronium)', other: 'غير ذلك' },
  creatinine: 'تصفية الكرياتينين (CrCl)',
  creatinineHint: `${ltr('10-200 mL/min')}؛ يُترك فارغًا إذا كانت القيمة غير معروفة`,
  creatinineInfo:
    'تقدّر تصفية الكرياتينين (CrCl) وظيفة الكلى. لا يُوصى بالمستحضر إذا كانت أقل من ' +
    `${ltr('30 mL/min')} أو كان المريض على الغسيل الكلوي.`,
  crclHelperToggle: 'الحساب من كرياتينين المصل',
  crclHelperTitle: 'تقدير تصفية الكرياتينين (CrCl) بمعادلة كوكروفت-غولت (Cockcroft-Gault)',
  crclAge: 'العمر',
  crclSex: 'الجنس',
  crclSexes: { female: 'أنثى', male: 'ذكر' },
  crclWeight: 'الوزن',
  crclSerumCreatinine: 'كرياتينين المصل',
  crclUnit: 'الوحدة',
  crclUse: 'احسب واستخدم القيمة',
  crclResult: (value: number) => `تصفية الكرياتينين المقدّرة: ${ltr(`${value} mL/min`)}`,
  crclOutOfRange: (value: number) =>
    `تصفية الكرياتينين (CrCl) المقدّرة ${ltr(`${value} mL/min`)} خارج نطاق الحقل ${ltr('10-200 mL/min')}: ` +
    'يُرجى إدخال القيمة يدويًا إذا أردت استخدامها.',
  tofCount: 'عدد سلسلة الأربع (TOF)',
  tofCountHint: `عدد الارتعاشات في سلسلة الأربع، ${ltr('0-4')}`,
  tofNotCounted: 'لم يُعَدّ',
  tofInfo:
    `عدد سلسلة الأربع (TOF): عدد الارتعاشات (${ltr('0-4')}) بعد أربعة منبّهات. ` +
    `${ltr('TOF 2')} أو أكثر: إحصار متوسط؛ ${ltr('TOF 0-1')}: إحصار عميق.`,
  ptc: 'العدّ بعد التنبيه الكزازي (PTC)',
  ptcHint: `${ltr('0-15')}؛ يُستخدم عند غياب الاستجابة لسلسلة الأربع (TOF)`,
  ptcInfo:
    'العدّ بعد التنبيه الكزازي (PTC): عدد الارتعاشات بعد منبّه كزازي، ويُستخدم لتصنيف الإحصار العميق عندما يكون ' +
    `عدد سلسلة الأربع (TOF) ${ltr(0)}. ${ltr('PTC 1-2')} يعني إحصارًا عميقًا.`,
  rsiScenario:
    'عكس الإحصار الفوري بعد التحريض السريع المتتابع (RSI) باستخدام روكورونيوم (rocuronium) ' + ltr('1.2 mg/kg'),
  rsiInfo:
    `التحريض السريع المتتابع (RSI): جرعة ${ltr('16 mg/kg')} تعكس روكورونيوم (rocuronium) ` +
    `${ltr('1.2 mg/kg')} بعد نحو ${ltr('3 min')} من إعطائه. للبالغين فقط.`,
  dialysis: 'المريض على الغسيل الكلوي',
  calculate: 'احسب الجرعة',
  presetChanged: 'غيّرت الصفحة الوزن أو الفئة العمرية المحدّدين مسبقًا: يعرض النموذج القيم الجديدة.',
  patientChanged: 'تغيّر المريض المختار: يُرجى التحقق من الوزن والفئة العمرية.',
  resultCleared: 'كانت النتيجة السابقة للقيم القديمة وقد أُزيلت. يُرجى مراجعة النموذج وإعادة الحساب.',
  invalidInputTitle: 'إدخال غير صالح',
  invalidWeight: 'يُرجى إدخال وزن جسم صالح',
  checkFields: 'يُرجى تصحيح الحقول المميّزة',
  resultHeading: 'النتيجة',
  dosePerKg: 'الجرعة',
  totalDose: 'الجرعة الإجمالية',
  vials: `القوارير (${ltr('200 mg / 2 mL')})`,
  volume: `الحجم (${ltr('100 mg/mL')})`,
  cost: 'التكلفة',
  medianRecovery: (minutes: number) =>
    `الزمن الوسيط حتى بلوغ نسبة سلسلة الأربع (TOF ratio) ${ltr('≥ 0.9')}: نحو ${ltr(`${minutes} min`)}`,
  administration: 'طريقة الإعطاء',
  monitoring: 'قائمة تحقق المراقبة',
  warnings: 'تحذيرات',
  byActualWeight: 'الجرعة حسب وزن الجسم الفعلي',
  copyNote: 'نسخ كملاحظة',
  noteCopied: 'نُسخ الملخص إلى الحافظة.',
  // Units stay Latin, as in English: they sit next to a number (docs/arabic-glossary.md).
  unitMgPerKg: 'mg/kg',
  unitMg: 'mg',
  unitMl: 'mL',
  unitSar: 'SAR',
  unitKg: 'kg',
  unitMlPerMin: 'mL/min',
  unitYears: 'سنة',
  vialCount: (vials: number) => arabicVialCount(vials),
};

/**
 * A number of vials in Arabic: one and two as words (قارورة واحدة، قارورتان), 3-10 قوارير, 11 and more
 * (and 0) قارورة, the number in digits.
 */
export function arabicVialCount(vials: number): string {
  if (Number(vials) === 1) return 'قارورة واحدة';
  if (Number(vials) === 2) return 'قارورتان';
  return `${ltr(vials)} ${vials >= 3 && vials <= 10 ? 'قوارير' : 'قارورة'}`;
}
