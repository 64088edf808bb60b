import {
  DEEP_BLOCK_DOSE_MG_PER_KG,
  IMMEDIATE_REVERSAL_DOSE_MG_PER_KG,
  RSI_ROCURONIUM_DOSE_MG_PER_KG,
  SEVERE_RENAL_IMPAIRMENT_BELOW_CRCL_ML_PER_MIN,
  TOF_RATIO_TARGET,
} from '../../../clinical/index.ts';
import { SAFETY } from '../safety.ts';
import type { PageContent, SafetyPanel, SafetyStatements } from '../types.ts';
import { ltr } from './bidi.ts';

const CRCL = SEVERE_RENAL_IMPAIRMENT_BELOW_CRCL_ML_PER_MIN;
const mgPerKg = (dose: number | string) => ltr(`${dose} mg/kg`);
const hours = (value: number) => ltr(`${value} h`);
const minutes = (value: number) => ltr(`${value} min`);

/** The clinical statements in Arabic (host/content/safety.ts), used by the safety hub and the FAQ. */
export const STATEMENTS_AR: SafetyStatements = {
  // Never «خلال 4 h», which reads as "given over 4 h" (docs/clinical-reference.md §3).
  reparalysis: `إعادة الإحصار (re-paralysis): إذا لزمت إعادة الإحصار قبل مرور ${hours(4)} على إعطاء سوغاماديكس (sugammadex): روكورونيوم (rocuronium) ${mgPerKg(RSI_ROCURONIUM_DOSE_MG_PER_KG)} (بعد ${minutes(5)} على الأقل من جرعة العكس)؛ وبعد ${mgPerKg(IMMEDIATE_REVERSAL_DOSE_MG_PER_KG)}، أو مع تصفية الكرياتينين (CrCl) ${ltr(`< ${CRCL} mL/min`)}، انتظر ${hours(24)}.`,
  recurrence: `عودة الإحصار (recurarization): أُبلغ عنها بنسبة ${ltr('2%')} مقابل ${ltr('0%')} مع الدواء الوهمي، ومعظمها بعد جرعات دون المثلى. أعطِ الجرعة المحسوبة كاملة؛ وإذا عاد الإحصار فكرِّر ${mgPerKg(DEEP_BLOCK_DOSE_MG_PER_KG)} وحافظ على ثبات نسبة سلسلة الأربع (TOF ratio) ${ltr(`≥ ${TOF_RATIO_TARGET}`)} لمدة ${minutes(10)} على الأقل.`,
  contraception: `موانع الحمل الهرمونية: ينخفض التعرض للبروجستوجين بنحو ${ltr('34%')}، وهو ما يعادل نسيان حبة واحدة من موانع الحمل الفموية. ينبغي أن تستخدم المريضات وسيلة احتياطية غير هرمونية لمدة ${ltr(7)} أيام.`,
  displacement: `الإزاحة، التي قد تعيد الإحصار: تجنَّب حمض الفوسيديك (fusidic acid) الوريدي وتسريب فلوكلوكساسيلين (flucloxacillin) بجرعة ${ltr('≥ 500 mg')} خلال ${hours(6)} من الجرعة، وتجنَّب توريميفين (toremifene) في يوم الجراحة.`,
};

const { reparalysis, recurrence, contraception, displacement } = STATEMENTS_AR;

/** The English panel's source line: citations stay in their original language. */
const sourceOf = (id: SafetyPanel['id']): string => {
  const panel = SAFETY.panels.find((p) => p.id === id);
  if (!panel) throw new Error(`Safety panel ${id} missing`);
  return panel.source;
};

const panels: SafetyPanel[] = [
  {
    id: 'contraindications',
    title: 'موانع الاستعمال',
    items: [
      'فرط حساسية معروف لسوغاماديكس (sugammadex) أو لأيٍّ من السواغات: وهو مانع الاستعمال الوحيد في نشرات المنتج.',
      `القصور الكلوي الشديد، أي تصفية الكرياتينين (CrCl) ${ltr(`< ${CRCL} mL/min`)}، أو الغسيل الكلوي: لا يُوصى به.`,
      'غير مُستطَب للإحصار الناتج عن سكسينيل كولين (succinylcholine) أو عن المُحصِرات العصبية العضلية غير الستيرويدية، مثل سيساتراكوريوم (cisatracurium).',
    ],
    source: sourceOf('contraindications'),
  },
  {
    id: 'warnings',
    title: 'التحذيرات والاحتياطات',
    items: [
      `التخثر: ارتفاع ${ltr('aPTT')} و${ltr('PT/INR')} بما يصل إلى نحو ${ltr('25%')} لمدة تصل إلى نحو ${hours(1)} (البيانات الأوروبية: ${ltr('aPTT +17% / +22%')} و${ltr('INR +11% / +22%')} عند ${mgPerKg('4 / 16')}، خلال ${minutes(30)}).`,
      contraception,
      recurrence,
      reparalysis,
      `بالتفصيل: بعد ${ltr(`≤ ${DEEP_BLOCK_DOSE_MG_PER_KG} mg/kg`)} مع وظائف كلى طبيعية، يمكن إعطاء روكورونيوم (rocuronium) ${mgPerKg(RSI_ROCURONIUM_DOSE_MG_PER_KG)} بعد ${minutes(5)}، أو روكورونيوم ${mgPerKg(0.6)} أو فيكورونيوم (vecuronium) ${mgPerKg(0.1)} بعد ${hours(4)}؛ وبعد ${mgPerKg(IMMEDIATE_REVERSAL_DOSE_MG_PER_KG)}، أو بعد أي جرعة مع تصفية الكرياتينين (CrCl) ${ltr(`< ${CRCL} mL/min`)}، انتظر ${hours(24)}. وإذا لزم الإحصار قبل انقضاء مدة الانتظار، فاستخدم مُحصِرًا غير ستيرويدي، مثل سيساتراكوريوم (cisatracurium).`,
      'قد يحدث بطء قلب شديد، مع توقف القلب في بعض الحالات، خلال دقائق من الجرعة: راقب معدل ضربات القلب وعالِج بمضاد للفعل الكوليني (anticholinergic) مثل أتروبين (atropine).',
      `الأطفال دون سن ${ltr(2)}: لم تثبت سلامة الاستخدام وفعاليته. ولم تثبت سلامة العكس الفوري بجرعة ${mgPerKg(IMMEDIATE_REVERSAL_DOSE_MG_PER_KG)} وفعاليته لدى الأطفال، ولا بعد فيكورونيوم (vecuronium).`,
      `استخدم المراقبة العصبية العضلية الكمية، وتأكَّد من نسبة سلسلة الأربع (TOF ratio) ${ltr(`≥ ${TOF_RATIO_TARGET}`)} قبل نزع الأنبوب الرغامي.`,
    ],
    source: sourceOf('warnings'),
  },
  {
    id: 'adverse-reactions',
    title: 'التفاعلات الضائرة',
    items: [
      `بطء القلب: نحو ${ltr('1-2%')} (بطء قلب استدعى العلاج ${ltr('2.4%')} مقابل ${ltr('2.2%')} مع نيوستيغمين (neostigmine) في ${ltr('89,753')} عملية جراحية).`,
      `التأق (anaphylaxis): نحو ${ltr(1)} من كل ${ltr('3,000-5,000')} جرعة (${ltr('0.039%')}، ${ltr('Miyazaki 2018')}؛ ${ltr('0.02%')}، ${ltr('Orihara 2020')})، ويرتبط بالجرعة، وتظهر علاماته المبكرة خلال نحو ${minutes(5)}.`,
      `التفاعلات الضائرة الشائعة (${ltr('≥ 10%')} عند بعض الجرعات): القيء، والألم، والغثيان، وانخفاض ضغط الدم، والصداع.`,
      `عودة الإحصار (recurarization): ${ltr('2%')} مقابل ${ltr('0%')} مع الدواء الوهمي، ومعظمها بعد جرعات دون المثلى.`,
      'أبلِغ عن التفاعلات الضائرة المشتبه بها إلى المركز الوطني للتيقظ الدوائي في الهيئة العامة للغذاء والدواء (SFDA) بالمملكة العربية السعودية.',
    ],
    source: sourceOf('adverse-reactions'),
  },
  {
    id: 'interactions',
    title: 'التداخلات الدوائية',
    items: [
      displacement,
      contraception,
      'إعادة إعطاء المُحصِرات الستيرويدية، روكورونيوم (rocuronium) وفيكورونيوم (vecuronium): التزم بفترات الانتظار لإعادة الإحصار المذكورة في «التحذيرات والاحتياطات».',
      `رُبط حاصر بيتا (beta-blocker) وديكسميديتوميدين (dexmedetomidine) ببطء القلب بعد سوغاماديكس (sugammadex) في تقارير حالات (${ltr('Choi 2019; Gajewski 2019')}): ويعدّهما مستشار خطر بطء القلب من عوامل الخطر.`,
    ],
    source: sourceOf('interactions'),
  },
];

/** The safety hub in Arabic: the same four panels, in the same order. */
export const SAFETY_AR: PageContent['safety'] = {
  title: 'مركز السلامة',
  intro:
    'موانع الاستعمال والتحذيرات والتفاعلات الضائرة والتداخلات الدوائية، مع مصدر كلٍّ منها. افتح أي لوحة؛ ويمكن فتح عدة لوحات في الوقت نفسه.',
  panels,
  statements: STATEMENTS_AR,
};
