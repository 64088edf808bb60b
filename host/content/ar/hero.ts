import { MEDIAN_RECOVERY_MIN, VIAL_CONTENT_MG, VIAL_VOLUME_ML, VIALS_PER_BOX } from '../../../clinical/index.ts';
import type { HeroContent } from '../types.ts';
import { ltr } from './bidi.ts';

/** The hero in Arabic (host/content/hero.ts); numbers and units isolated left to right. */
export const HERO_AR: HeroContent = {
  headline: 'عكس سريع ومتوقَّع لإحصار روكورونيوم (rocuronium) وفيكورونيوم (vecuronium)',
  subtitle: `عامل عكس من فئة سوغاماديكس (sugammadex) تُحسب جرعته حسب الوزن الفعلي للجسم وتُطابَق مع عمق الإحصار: الزمن الوسيط للوصول إلى نسبة سلسلة الأربع (TOF ratio) ${ltr('≥ 0.9')} نحو ${ltr(`${MEDIAN_RECOVERY_MIN.moderate} min`)} من الإحصار المتوسط، ونحو ${ltr(`${MEDIAN_RECOVERY_MIN.deep} min`)} من الإحصار العميق.`,
  story: {
    title: 'من الإحصار العميق إلى الجاهزية لنزع الأنبوب الرغامي',
    text: `حالة توضيحية: في نهاية عملية بالمنظار كان العدّ بعد التنبيه الكزازي (PTC) ${ltr(2)} ولا توجد استجابة لسلسلة الأربع (TOF). جرعة وريدية واحدة بمقدار ${ltr('4 mg/kg')} حسب الوزن الفعلي للجسم تُغلِّف ما تبقّى من روكورونيوم (rocuronium)؛ والزمن الوسيط للوصول إلى نسبة سلسلة الأربع ${ltr('≥ 0.9')} بهذه الجرعة نحو ${ltr(`${MEDIAN_RECOVERY_MIN.deep} min`)}. تؤكد المراقبة الكمية التعافي، ويُتحقَّق من التهوية ومنعكسات مجرى الهواء، ثم يُنزع الأنبوب الرغامي.`,
  },
  imageAlt: `قارورة سوغاماديكس ${ltr(`${VIAL_CONTENT_MG} mg / ${VIAL_VOLUME_ML} mL`)} وعلبتها التي تضم ${ltr(VIALS_PER_BOX)} قوارير`,
  calculatorButton: 'احسب الجرعة',
  guideButton: 'تنزيل دليل الممارس الصحي',
  tofLabel: 'نسبة سلسلة الأربع (TOF ratio)',
  tofTarget: `الهدف: ${ltr('≥ 0.9')} للجاهزية لنزع الأنبوب الرغامي`,
  productLabel: `${ltr(`${VIAL_CONTENT_MG} mg / ${VIAL_VOLUME_ML} mL`)} · علبة من ${ltr(VIALS_PER_BOX)} قوارير`,
  decisionSupport:
    'للدعم في اتخاذ القرار فقط: للممارسين الصحيين المرخّصين. لا يغني عن التقدير السريري ولا عن معلومات الوصف المعتمدة محليًا.',
  tofPause: 'إيقاف الحركة مؤقتًا',
  tofPlay: 'تشغيل الحركة',
};
