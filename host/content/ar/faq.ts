import {
  CONCENTRATION_MG_PER_ML,
  DEEP_BLOCK_DOSE_MG_PER_KG,
  doseQuantities,
  IMMEDIATE_REVERSAL_DOSE_MG_PER_KG,
  MEDIAN_RECOVERY_MIN,
  MODERATE_BLOCK_DOSE_MG_PER_KG,
  RSI_ROCURONIUM_DOSE_MG_PER_KG,
  SEVERE_RENAL_IMPAIRMENT_BELOW_CRCL_ML_PER_MIN,
  TOF_RATIO_TARGET,
  VIAL_CONTENT_MG,
} from '../../../clinical/index.ts';
import { formatOneDecimal } from '../../../widgets/shared/lang/format.ts';
import { arabicVialCount } from '../../../widgets/shared/lang/messages/ar/dose-calculator.ts';
import type { FaqContent, FaqEntry } from '../types.ts';
import { STATEMENTS_AR } from './safety.ts';
import { ltr } from './bidi.ts';

const moderate70 = doseQuantities(MODERATE_BLOCK_DOSE_MG_PER_KG, 70);
const immediate80 = doseQuantities(IMMEDIATE_REVERSAL_DOSE_MG_PER_KG, 80);
const CRCL = SEVERE_RENAL_IMPAIRMENT_BELOW_CRCL_ML_PER_MIN;
const mgPerKg = (dose: number) => ltr(`${dose} mg/kg`);
const minutes = (value: number | string) => ltr(`${value} min`);
const hours = (value: number) => ltr(`${value} h`);
const TOF_TARGET = ltr(`≥ ${TOF_RATIO_TARGET}`);

/** The twelve questions in Arabic (host/content/faq.ts), in the same order. */
const entries: FaqEntry[] = [
  {
    question: 'أيّ وزن للجسم أستخدم، بما في ذلك لدى مرضى السمنة؟',
    answer: `الوزن الفعلي للجسم، بما في ذلك مرضى السمنة (${ltr('US PI 2.1; EU SmPC 4.2')}). الجرعة الكلية هي الجرعة بوحدة ${ltr('mg/kg')} مضروبةً في الوزن الفعلي للجسم، مقرَّبةً إلى أقرب عدد صحيح بوحدة ${ltr('mg')}؛ وعدد القوارير = الجرعة الكلية ÷ ${ltr(`${VIAL_CONTENT_MG} mg`)} مقرَّبًا إلى الأعلى؛ والحجم = الجرعة الكلية ÷ ${ltr(`${CONCENTRATION_MG_PER_ML} mg/mL`)}. مثال: لمريض وزنه ${ltr('70 kg')} بجرعة ${mgPerKg(MODERATE_BLOCK_DOSE_MG_PER_KG)} تكون الجرعة ${ltr(`${moderate70.totalDoseMg} mg`)}: ${arabicVialCount(moderate70.vials)}، ${ltr(`${formatOneDecimal(moderate70.volumeMl)} mL`)}.`,
  },
  {
    question: `ما الجرعة عندما يكون عدد سلسلة الأربع (TOF) ${ltr(1)}، أو العدّ بعد التنبيه الكزازي (PTC) ${ltr(0)}؟`,
    answer: `لا توجد لأيٍّ منهما جرعة معتمدة في نشرة المنتج. عند عدد سلسلة الأربع (TOF) ${ltr(0)} أو ${ltr(1)} تعطي الحاسبة ${mgPerKg(DEEP_BLOCK_DOSE_MG_PER_KG)}، وهي جرعة الإحصار العميق؛ ومن عدد سلسلة الأربع ${ltr(2)} (أي بعد عودة الاستجابة ${ltr('T2')}) تعطي ${mgPerKg(MODERATE_BLOCK_DOSE_MG_PER_KG)}. والعدّ بعد التنبيه الكزازي (PTC) ${ltr(0)} دون استجابة لسلسلة الأربع يعني إحصارًا شديد العمق: انتظر حتى يبلغ العدّ بعد التنبيه الكزازي ${ltr(1)} على الأقل، أو استخدم لدى البالغ جرعة العكس الفوري ${mgPerKg(IMMEDIATE_REVERSAL_DOSE_MG_PER_KG)} بعد روكورونيوم (rocuronium) ${mgPerKg(RSI_ROCURONIUM_DOSE_MG_PER_KG)} في التحريض السريع المتتابع (RSI).`,
  },
  {
    question: `متى تُستخدم جرعة ${mgPerKg(IMMEDIATE_REVERSAL_DOSE_MG_PER_KG)} بعد التحريض السريع المتتابع (RSI)؟`,
    answer: `للعكس الفوري بعد نحو ${minutes(3)} من جرعة واحدة من روكورونيوم (rocuronium) ${mgPerKg(RSI_ROCURONIUM_DOSE_MG_PER_KG)}، لدى البالغين فقط. ولم تُدرَس بعد فيكورونيوم (vecuronium) ولا لدى الأطفال. والزمن الوسيط للوصول إلى نسبة سلسلة الأربع (TOF ratio) ${TOF_TARGET} نحو ${minutes(MEDIAN_RECOVERY_MIN.immediate)}. ولمريض وزنه ${ltr('80 kg')} تكون الجرعة ${ltr(`${immediate80.totalDoseMg} mg`)}: ${arabicVialCount(immediate80.vials)}، ${ltr(`${formatOneDecimal(immediate80.volumeMl)} mL`)}.`,
  },
  {
    question: 'هل يمكن إعطاؤه في حالات القصور الكلوي؟',
    answer: `لا يُوصى به عندما تكون تصفية الكرياتينين (CrCl) أقل من ${ltr(`${CRCL} mL/min`)} ولا لدى مرضى الغسيل الكلوي (${ltr('US PI 8.6; EU SmPC 4.2')})؛ وتعرض الحاسبة هذه الحالة على أنها مانع استعمال، مع أن مانع الاستعمال الوحيد في نشرات المنتج هو فرط الحساسية. ولا يلزم تعديل الجرعة مع تصفية كرياتينين ${ltr('30-80 mL/min')}. وإذا أُعطي مع تصفية كرياتينين ${ltr(`< ${CRCL} mL/min`)} فانتظر ${hours(24)} قبل إعطاء روكورونيوم (rocuronium) أو فيكورونيوم (vecuronium) مجددًا.`,
  },
  {
    question: 'هل يحتاج الأطفال وكبار السن إلى جرعة مختلفة؟',
    answer: `يتلقى الأطفال والمراهقون بعمر ${ltr('2-17')} سنة ${ltr(MODERATE_BLOCK_DOSE_MG_PER_KG)} أو ${mgPerKg(DEEP_BLOCK_DOSE_MG_PER_KG)} حسب عمق الإحصار؛ ولم تثبت سلامة الاستخدام وفعاليته دون سن ${ltr(2)}، ولا سلامة جرعة ${mgPerKg(IMMEDIATE_REVERSAL_DOSE_MG_PER_KG)} وفعاليتها لدى الأطفال. وللأحجام الصغيرة يُخفَّف إلى ${ltr('10 mg/mL')} لضمان الدقة (${ltr('EU SmPC 4.2')}). ويتلقى كبار السن الجرعة نفسها؛ فبعد ${mgPerKg(MODERATE_BLOCK_DOSE_MG_PER_KG)} عند ${ltr('T2')} يكون الزمن الوسيط للتعافي ${ltr('2.2')} و${ltr('2.6')} و${minutes('3.6')} في الأعمار ${ltr('18-64')} و${ltr('65-74')} و${ltr('≥ 75')} سنة.`,
  },
  {
    question: 'هل ما زلت بحاجة إلى المراقبة العصبية العضلية؟',
    answer: `نعم. استخدم المراقبة الكمية لاختيار الجرعة وفق عدد سلسلة الأربع (TOF) أو العدّ بعد التنبيه الكزازي (PTC)، ولتأكيد نسبة سلسلة الأربع ${TOF_TARGET} قبل نزع الأنبوب الرغامي (إرشادات الممارسة ${ltr('ASA 2023')}، ${ltr('Thilen 2023')}). راقب نسبة سلسلة الأربع كل ${ltr('15-30 s')} بعد الحقن حتى تبلغ ${ltr(TOF_RATIO_TARGET)} على الأقل، ثم قيِّم التهوية ومنعكسات مجرى الهواء وراقب عودة الإحصار (recurarization).`,
  },
  {
    question: 'متى يمكنني إعادة إحصار المريض بروكورونيوم (rocuronium) أو فيكورونيوم (vecuronium)؟',
    answer: `${STATEMENTS_AR.reparalysis} بالتفصيل: بعد جرعة تصل إلى ${mgPerKg(DEEP_BLOCK_DOSE_MG_PER_KG)} مع وظائف كلى طبيعية، يمكن إعطاء روكورونيوم ${mgPerKg(RSI_ROCURONIUM_DOSE_MG_PER_KG)} بعد ${minutes(5)} (يبدأ مفعوله خلال نحو ${minutes(3)} ومدة تأثيره أقصر)، وروكورونيوم ${mgPerKg(0.6)} أو فيكورونيوم ${mgPerKg(0.1)} بعد ${hours(4)}؛ وبعد ${mgPerKg(IMMEDIATE_REVERSAL_DOSE_MG_PER_KG)}، أو مع تصفية الكرياتينين (CrCl) ${ltr(`< ${CRCL} mL/min`)}، انتظر ${hours(24)}. وإذا لزم الإحصار قبل انقضاء مدة الانتظار، فاستخدم مُحصِرًا غير ستيرويدي مثل سيساتراكوريوم (cisatracurium).`,
  },
  {
    question: 'ماذا لو عاد الإحصار بعد العكس؟',
    answer: `أُبلغ عن عودة الإحصار (recurarization) بنسبة ${ltr('2%')} مقابل ${ltr('0%')} مع الدواء الوهمي، ومعظمها بعد جرعات دون المثلى؛ لذا أعطِ الجرعة المحسوبة كاملة بدلًا من «قارورة واحدة للجميع». وإذا عاد الإحصار فكرِّر ${mgPerKg(DEEP_BLOCK_DOSE_MG_PER_KG)} وحافظ على ثبات نسبة سلسلة الأربع (TOF ratio) ${TOF_TARGET} لمدة ${minutes(10)} على الأقل. ${STATEMENTS_AR.displacement}`,
  },
  {
    question: 'ماذا أقول للمريضات اللواتي يستخدمن موانع الحمل الهرمونية؟',
    answer: `${STATEMENTS_AR.contraception} وتشرح نشرة إرشاد المريضات في قسم المصادر ذلك بلغة مبسطة، بالعربية والإنجليزية.`,
  },
  {
    question: 'ما مدى شيوع بطء القلب، وكيف أتعامل معه؟',
    answer: `نحو ${ltr('1-2%')} (بطء قلب استدعى العلاج ${ltr('2.4%')} مقابل ${ltr('2.2%')} مع نيوستيغمين (neostigmine) في ${ltr('89,753')} عملية جراحية). وقد يحدث بطء قلب شديد، مصحوبًا أحيانًا بتوقف القلب، خلال دقائق. راقب تخطيط القلب (ECG) ومعدل ضربات القلب وضغط الدم منذ الحقن وحتى ${minutes(30)} بعده على الأقل. عالِج بأتروبين (atropine): للبالغين ${ltr('1 mg')} تُكرَّر كل ${minutes('3-5')} حتى ${ltr('3 mg')}؛ وإن لم تحدث استجابة فأدرينالين (epinephrine) بجرعات وريدية ${ltr('10 micrograms')} أو تسريب ${ltr('2-10 micrograms/min')}، وتنظيم ضربات القلب عبر الجلد لبطء القلب المستمر مع ضعف التروية. ويقدِّم مستشار خطر بطء القلب خطة خاصة بكل مريض.`,
  },
  {
    question: 'ما مدى تكرار حدوث التأق (anaphylaxis)، وما العلامات التي ينبغي مراقبتها؟',
    answer: `نحو ${ltr(1)} من كل ${ltr('3,000-5,000')} جرعة (${ltr('0.039%')} في ${ltr('Miyazaki 2018')}؛ ${ltr('0.02%')} في ${ltr('Orihara 2020')}). ويرتبط بالجرعة، وتظهر علاماته المبكرة خلال نحو ${minutes(5)}، مثل الطفح الجلدي أو التشنج القصبي. عالِج بأدرينالين (epinephrine)، وأرسِل عينة لقياس التريبتاز (tryptase)، وأبلِغ عن الحدث المركز الوطني للتيقظ الدوائي في الهيئة العامة للغذاء والدواء (SFDA) بالمملكة العربية السعودية.`,
  },
  {
    question: 'هل يؤثر في اختبارات التخثر؟',
    answer: `قد يرتفع ${ltr('aPTT')} و${ltr('PT/INR')} بما يصل إلى نحو ${ltr('25%')} لمدة تصل إلى نحو ${hours(1)} بعد الجرعة (البيانات الأوروبية: ${ltr('aPTT +17% / +22%')} و${ltr('INR +11% / +22%')} عند ${ltr('4 / 16 mg/kg')}، خلال ${minutes(30)}؛ ${ltr('de Kam 2014')}). ضع ذلك في الحسبان عند قراءة اختبارات التخثر المأخوذة خلال تلك الفترة.`,
  },
];

/** FAQ in Arabic: twelve entries, one open at a time. */
export const FAQ_AR: FaqContent = {
  title: 'الأسئلة الشائعة',
  intro:
    'إجابات عملية لأطباء التخدير، متوافقة مع نشرات المنتج ومع المصادر الواردة في قسمَي مركز السلامة والأدلة السريرية.',
  entries,
};
