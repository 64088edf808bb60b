import {
  DEEP_BLOCK_DOSE_MG_PER_KG,
  IMMEDIATE_REVERSAL_DOSE_MG_PER_KG,
  MEDIAN_RECOVERY_MIN,
  MODERATE_BLOCK_DOSE_MG_PER_KG,
} from '../../../clinical/index.ts';
import type { MechanismContent } from '../types.ts';
import { ltr } from './bidi.ts';

const mgPerKg = (dose: number) => ltr(`${dose} mg/kg`);
const minutes = (value: number) => ltr(`${value} min`);

/** Mechanism of action in Arabic (host/content/mechanism.ts). */
export const MECHANISM_AR: MechanismContent = {
  title: 'آلية العمل',
  intro:
    'سوغاماديكس (sugammadex) جزيء غاما سيكلودكسترين (gamma-cyclodextrin) معدَّل. يعكس الإحصار مباشرةً: فهو يغلِّف المُحصِر الستيرويدي نفسه بدلًا من تثبيط إنزيم أسيتيل كولين إستراز، ولذلك يتوقف عمق الإحصار الذي يمكنه عكسه على الجرعة المعطاة.',
  steps: [
    {
      title: 'روكورونيوم الحر عند المستقبِل',
      text: 'يشغل روكورونيوم (rocuronium)، أو فيكورونيوم (vecuronium)، مستقبِلات الأسيتيل كولين النيكوتينية في الموصل العصبي العضلي، فلا يعود الأسيتيل كولين قادرًا على إحداث انقباض العضلة.',
    },
    {
      title: 'التغليف (encapsulation)',
      text: 'يُعطى سوغاماديكس (sugammadex) حقنةً وريدية واحدة (IV bolus)، فيغلِّف جزيئات روكورونيوم (rocuronium) الحرة في البلازما. ومع انخفاض روكورونيوم الحر في البلازما، ينتقل بعيدًا عن الموصل العصبي العضلي ويُغلَّف بدوره.',
    },
    {
      title: 'استعادة النقل العصبي العضلي',
      text: `بعد تحرُّر المستقبِلات يستعيد الأسيتيل كولين النقل العصبي العضلي. ويُؤكَّد التعافي بالمراقبة الكمية: نسبة سلسلة الأربع (TOF ratio) ${ltr('≥ 0.9')} قبل نزع الأنبوب الرغامي.`,
    },
  ],
  cards: [
    {
      title: 'الاحتجاز المباشر',
      text: 'يعمل على الدواء المُحصِر لا على إنزيم أسيتيل كولين إستراز: لا تأثير سقفيًّا، ولا حاجة إلى مضاد للمسكارين مثل غليكوبيرولات (glycopyrrolate) أو أتروبين (atropine).',
    },
    {
      title: 'الارتباط الانتقائي',
      text: 'صُمِّم للمُحصِرَين الستيرويديَّين روكورونيوم (rocuronium) وفيكورونيوم (vecuronium). وهو غير فعّال مع سكسينيل كولين (succinylcholine) ولا مع المُحصِرات غير الستيرويدية مثل سيساتراكوريوم (cisatracurium).',
    },
    {
      title: 'جرعات حسب الوزن',
      text: `تُحسب الجرعة حسب الوزن الفعلي للجسم، بما في ذلك مرضى السمنة: ${mgPerKg(MODERATE_BLOCK_DOSE_MG_PER_KG)} للإحصار المتوسط، و${mgPerKg(DEEP_BLOCK_DOSE_MG_PER_KG)} للإحصار العميق، و${mgPerKg(IMMEDIATE_REVERSAL_DOSE_MG_PER_KG)} للعكس الفوري لدى البالغين.`,
    },
    {
      title: 'تعافٍ سريع لسلسلة الأربع (TOF)',
      text: `الزمن الوسيط للوصول إلى نسبة سلسلة الأربع (TOF ratio) ${ltr('≥ 0.9')}: نحو ${minutes(MEDIAN_RECOVERY_MIN.moderate)} بعد ${mgPerKg(MODERATE_BLOCK_DOSE_MG_PER_KG)}، ونحو ${minutes(MEDIAN_RECOVERY_MIN.deep)} بعد ${mgPerKg(DEEP_BLOCK_DOSE_MG_PER_KG)}، ونحو ${minutes(MEDIAN_RECOVERY_MIN.immediate)} بعد ${mgPerKg(IMMEDIATE_REVERSAL_DOSE_MG_PER_KG)} (${ltr('EU SmPC 4.2')}).`,
    },
  ],
  note: 'غير فعّال مع سكسينيل كولين (succinylcholine) ولا مع المُحصِرات العصبية العضلية غير الستيرويدية، مثل سيساتراكوريوم (cisatracurium): يُستخدم فقط لعكس إحصار روكورونيوم (rocuronium) أو فيكورونيوم (vecuronium).',
};
