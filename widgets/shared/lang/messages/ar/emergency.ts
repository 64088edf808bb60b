import { ltr } from '../../../../../clinical/bidi.ts';
import type { Messages } from '../index.ts';

/** The emergency card's labels (Arabic; terms as in docs/arabic-glossary.md). */
export const emergency: Messages['emergency'] = {
  button: 'طوارئ',
  title: `طوارئ: بطء القلب والتأق (${ltr('anaphylaxis')})`,
  ageGroup: 'المريض',
  ageGroups: { adult: 'بالغ', child: `طفل (دون سن ${ltr(18)})` },
  weight: 'الوزن',
  weightHint: `${ltr('1-200 kg')}؛ جرعات الطفل حسب الوزن`,
  fromPatient: (name: string) => `وزن المريض المختار (${name})`,
  source: 'المصدر',
  of: 'من تركيز',
  capped: (computed: string) => `قُصِرت على الحد الأقصى (${ltr(computed)} حسب الوزن)`,
  raisedToMinimum: (computed: string) => `رُفِعت إلى الحد الأدنى (${ltr(computed)} حسب الوزن)`,
  noWeight: 'لم يُدخَل الوزن',
  sources: 'المصادر',
  print: 'طباعة',
  close: 'إغلاق',
  loadFailed: 'تعذّر تحميل بطاقة الطوارئ. يُرجى التحقق من الاتصال والمحاولة مرة أخرى.',
};
