import {
  DEEP_BLOCK_DOSE_MG_PER_KG,
  IMMEDIATE_REVERSAL_DOSE_MG_PER_KG,
  MEDIAN_RECOVERY_MIN,
  MODERATE_BLOCK_DOSE_MG_PER_KG,
  RSI_ROCURONIUM_DOSE_MG_PER_KG,
} from '../../../clinical/index.ts';
import type { PageContent } from '../types.ts';
import { ltr } from './bidi.ts';

const mgPerKg = (dose: number) => ltr(`${dose} mg/kg`);
const minutes = (value: number | string) => ltr(`${value} min`);
const TOF_TARGET = ltr('≥ 0.9');

/** Competitive edge in Arabic (host/content/advantage.ts); study names and citations stay in English. */
export const ADVANTAGE_AR: PageContent['advantage'] = {
  title: 'الميزة التنافسية',
  intro:
    'العكس المباشر يزيل روكورونيوم (rocuronium) أو فيكورونيوم (vecuronium) من الدوران عند أي عمق للإحصار؛ أما العكس غير المباشر بنيوستيغمين (neostigmine) فيرفع الأسيتيل كولين فقط ولا يستطيع التغلب على الإحصار العميق.',
  comparison: {
    direct: {
      title: 'العكس المباشر: سوغاماديكس (sugammadex)',
      text: 'يغلِّف المُحصِر نفسه، بجرعة تُطابَق مع عمق الإحصار.',
      points: [
        'لا تأثير سقفيًّا: الجرعة الأعلى تعكس إحصارًا أعمق',
        'لا حاجة إلى مضاد للمسكارين',
        `يعكس الإحصار المتوسط والعميق، ويتيح العكس الفوري بعد روكورونيوم (rocuronium) ${mgPerKg(RSI_ROCURONIUM_DOSE_MG_PER_KG)}`,
        `الزمن الوسيط للوصول إلى نسبة سلسلة الأربع (TOF ratio) ${TOF_TARGET} نحو ${minutes(`${MEDIAN_RECOVERY_MIN.moderate}-${MEDIAN_RECOVERY_MIN.deep}`)}`,
      ],
    },
    indirect: {
      title: 'العكس غير المباشر: نيوستيغمين (neostigmine)',
      text: 'يثبِّط إنزيم أسيتيل كولين إستراز، فيتنافس مزيد من الأسيتيل كولين مع المُحصِر.',
      points: [
        'تأثير سقفي: بعد تثبيط أسيتيل كولين إستراز لا تضيف الجرعة الإضافية شيئًا',
        'يحتاج إلى غليكوبيرولات (glycopyrrolate) أو أتروبين (atropine) لمعاكسة تأثيراته المسكارينية',
        'لا يستطيع عكس الإحصار العميق',
        `الإحصار العميق (${ltr('Jones 2008')}): التعافي في ${minutes('50.4')} مع نيوستيغمين مقابل ${minutes('2.9')} مع سوغاماديكس`,
      ],
    },
  },
  depthCoverage: {
    title: 'تغطية أعماق الإحصار',
    text: 'عامل واحد لكل أعماق إحصار روكورونيوم (rocuronium) أو فيكورونيوم (vecuronium)، تُحسب جرعته حسب الوزن الفعلي للجسم.',
    rows: [
      {
        depth: `إحصار متوسط: عدد سلسلة الأربع (TOF) ${ltr('≥ 2')}، أي عادت الاستجابة ${ltr('T2')}`,
        dose: mgPerKg(MODERATE_BLOCK_DOSE_MG_PER_KG),
        note: `الزمن الوسيط نحو ${minutes(MEDIAN_RECOVERY_MIN.moderate)} للوصول إلى نسبة سلسلة الأربع ${TOF_TARGET}`,
      },
      {
        depth: `إحصار عميق: العدّ بعد التنبيه الكزازي (PTC) ${ltr('1-2')} ولا استجابة لسلسلة الأربع`,
        dose: mgPerKg(DEEP_BLOCK_DOSE_MG_PER_KG),
        note: `الزمن الوسيط نحو ${minutes(MEDIAN_RECOVERY_MIN.deep)} للوصول إلى نسبة سلسلة الأربع ${TOF_TARGET}`,
      },
      {
        depth: `العكس الفوري، بعد نحو ${minutes(3)} من روكورونيوم (rocuronium) ${mgPerKg(RSI_ROCURONIUM_DOSE_MG_PER_KG)}`,
        dose: mgPerKg(IMMEDIATE_REVERSAL_DOSE_MG_PER_KG),
        note: `للبالغين، وبعد روكورونيوم فقط؛ الزمن الوسيط نحو ${minutes(MEDIAN_RECOVERY_MIN.immediate)} للوصول إلى نسبة سلسلة الأربع ${TOF_TARGET}`,
      },
    ],
  },
  cards: [
    {
      title: 'سرعة الجاهزية',
      text: `الزمن الوسيط للوصول إلى نسبة سلسلة الأربع (TOF ratio) ${TOF_TARGET} نحو ${minutes(MEDIAN_RECOVERY_MIN.moderate)} من الإحصار المتوسط ونحو ${minutes(MEDIAN_RECOVERY_MIN.deep)} من الإحصار العميق. ولا يُوفَّر وقت غرفة العمليات إلا عند التحقق من نسبة سلسلة الأربع ${TOF_TARGET} قبل نزع الأنبوب الرغامي.`,
    },
    {
      title: 'النتائج الرئوية',
      text: `مضاعفات رئوية بعد الجراحة (PPCs) أقل مقارنةً بنيوستيغمين (neostigmine): في دراسة ${ltr('STRONGER')} (${ltr('22,856')} زوجًا متطابقًا) بلغت المضاعفات الكبرى ${ltr('3.5%')} مقابل ${ltr('4.8%')}، ونسبة الأرجحية المعدَّلة (adjusted OR) ${ltr('0.70')} (${ltr('Kheterpal 2020')}).`,
    },
    {
      title: 'المراقبة أولًا',
      text: `مراقبة عصبية عضلية كمية، مع تأكيد نسبة سلسلة الأربع (TOF ratio) ${TOF_TARGET} قبل نزع الأنبوب الرغامي، كما توصي إرشادات الممارسة ${ltr('ASA 2023')} (${ltr('Thilen 2023')}).`,
    },
  ],
  depthColumns: { depth: 'عمق الإحصار', dose: 'الجرعة', when: 'التوقيت' },
};
