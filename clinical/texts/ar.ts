import { ltr } from '../bidi.ts';
import { groupThousands } from '../digits.ts';
import {
  ADULT_MIN_AGE_YEARS,
  ADVISOR_AGE_MAX_YEARS,
  BASELINE_HR_MAX_BPM,
  BASELINE_HR_MIN_BPM,
  BODY_WEIGHT_MAX_KG,
  BODY_WEIGHT_MIN_KG,
  COCKCROFT_GAULT_AGE_MAX_YEARS,
  CRCL_MAX_ML_PER_MIN,
  CRCL_MIN_ML_PER_MIN,
  PATIENT_EARLIEST_BIRTH_YEAR,
  PATIENT_MRN_MAX_LENGTH,
  PATIENT_NAME_MAX_LENGTH,
  PATIENT_NOTES_MAX_LENGTH,
  PTC_MAX,
  ROI_MAX_NUMBER_OF_CASES,
  ROI_MAX_TIME_MIN,
  ROI_OR_COST_MAX_SAR_PER_MIN,
  ROI_OR_COST_MIN_SAR_PER_MIN,
  ROI_OR_COST_STEP_SAR_PER_MIN,
  ROI_PPC_RATE_MAX_PERCENT,
  ROI_PPC_RATE_MIN_PERCENT,
  ROI_RISK_RATIO,
  SERUM_CREATININE_MAX_MG_PER_DL,
  SERUM_CREATININE_MAX_UMOL_PER_L,
  SERUM_CREATININE_MIN_MG_PER_DL,
  SERUM_CREATININE_MIN_UMOL_PER_L,
} from '../constants.ts';
import * as E from '../emergency-constants.ts';
import type { ClinicalTexts } from './en.ts';

/*
 * Medical Arabic (MSA as written in Saudi hospitals). Every number with its unit, dose, range, ratio or percentage,
 * and every Latin term or citation, is an isolated left-to-right run (ltr(), bidi.ts): Western digits and Latin
 * units, so "140 mg" never renders as "mg 140". The numbers are the English texts' own, never changed: a test
 * compares the digit runs of both languages for every outcome.
 */

/** An English term in brackets after its Arabic name, as Saudi practice uses it: "روكورونيوم (rocuronium)". */
const also = (english: string) => `(${ltr(english)})`;
const trueOrFalse = `(${ltr('true')} أو ${ltr('false')})`;
const mustBeTicked = (what: string) => `يجب تحديد «${what}» أو إلغاء تحديده ${trueOrFalse}`;
const weightRange = `يجب أن يكون الوزن ضمن المدى ${ltr(`${BODY_WEIGHT_MIN_KG}-${BODY_WEIGHT_MAX_KG} kg`)}`;
const wholeMinutes = (what: string) =>
  `يجب أن يكون ${what} عددًا صحيحًا من الدقائق ضمن المدى ${ltr(`0-${ROI_MAX_TIME_MIN} min`)}`;

/** A number of vials: one and two as words, 3-10 قوارير, 11 and more قارورة (the glossary's "vial"). */
const vialCount = (vials: number) =>
  Number(vials) === 1
    ? 'قارورة واحدة'
    : Number(vials) === 2
      ? 'قارورتان'
      : `${ltr(vials)} ${vials >= 3 && vials <= 10 ? 'قوارير' : 'قارورة'}`;

const ROCURONIUM = `روكورونيوم ${also('rocuronium')}`;
const VECURONIUM = `فيكورونيوم ${also('vecuronium')}`;
const EPINEPHRINE = `أدرينالين ${also('epinephrine')}`;
const TOF_RATIO = `نسبة سلسلة الأربع ${also('TOF ratio')}`;
const PTC = `العدّ بعد التنبيه الكزازي ${also('PTC')}`;

const ATROPINE = `أتروبين ${also('atropine')}`;
const BETA_BLOCKER = `حاصر بيتا ${also('beta-blocker')}`;
const NMBA = `المُحصِر العصبي العضلي ${also('NMBA')}`;
const HIGH_GRADE_AV_BLOCK = 'الإحصار الأذيني البطيني عالي الدرجة';
const CPR = `الإنعاش القلبي الرئوي ${also('CPR')}`;
const NO_IV_ACCESS = 'إذا لم يتوفر خط وريدي';
const ADRENALINE_INFUSION = `تسريب ${EPINEPHRINE}`;
const REFRACTORY = `حالة معنّدة (بعد ${ltr(E.REFRACTORY_AFTER_BOLUSES)} جرعات من الأدرينالين)`;
const REPEAT_AS_NEEDED = 'تُكرَّر عند الحاجة';
const MONITORED = `تحت المراقبة، بيد طبيب متمرّس؛ يُعايَر ويُكرَّر كل ${ltr(`${E.ADRENALINE_IV_REPEAT_MIN} min`)}`;

/** Anaphylaxis lines worded alike for adults and children. */
const EMERGENCY_ANAPHYLAXIS_SHARED = {
  firstActions: {
    action: 'اطلب المساعدة',
    detail:
      `أوقف الدواء المشتبه به ولا تُعطِ مزيدًا من سوغاماديكس ${also('sugammadex')}؛ أكسجين ` +
      `${ltr(`${E.OXYGEN_PERCENT}%`)}؛ ارفع الساقين`,
  },
  tryptase: {
    action: `تريبتاز الخلايا البدينة ${also('tryptase')}`,
    detail: `في أقرب وقت ممكن، ثم بعد ${ltr('1-2 h')} من بدء التفاعل، ثم بعد ${ltr('24 h')} منه على الأقل`,
  },
  report: {
    action: 'الإبلاغ',
    detail: `إلى المركز الوطني للتيقظ الدوائي (الهيئة العامة للغذاء والدواء، ${ltr('SFDA')})`,
  },
  allergyReferral: { action: 'الإحالة', detail: 'لإجراء اختبارات الحساسية' },
};

export const CLINICAL_TEXTS_AR: ClinicalTexts = {
  dose: {
    outcomeTitles: {
      not_indicated: 'غير مُستطَب',
      contraindicated: 'مانع استعمال',
      not_established: 'لم تثبت السلامة والفعالية',
      unable_to_calculate: 'تعذّر الحساب',
    },
    notIndicatedWarning: `مُستطَب فقط لعكس الإحصار العصبي العضلي الناتج عن ${ROCURONIUM} أو ${VECURONIUM}`,
    renalWarning:
      `لا يُوصى به في القصور الكلوي الشديد (تصفية الكرياتينين ${ltr('CrCl < 30 mL/min')}) ` + 'ولا لمرضى الغسيل الكلوي',
    renalLabelNote:
      'تذكر نشرات المنتج فرط الحساسية المعروف بوصفه مانع الاستعمال الوحيد؛ أما القصور الكلوي الشديد والغسيل ' +
      `الكلوي فهما «غير مُوصى بهما» (${ltr('US PI 8.6; EU SmPC 4.2')}).`,
    infantWarning: `لم تثبت سلامة الاستخدام وفعاليته لدى الأطفال دون سن ${ltr(2)}`,
    pediatricRsiWarning: `لم تثبت سلامة العكس الفوري بجرعة ${ltr('16 mg/kg')} وفعاليته لدى الأطفال`,
    specifyDepth: `يُرجى تحديد عمق الإحصار: عدد سلسلة الأربع ${also('TOF')} أو ${PTC}`,
    profoundBlockReason:
      `إحصار شديد العمق (${ltr('PTC 0')}، ولا استجابة في سلسلة الأربع ${also('TOF')}): لا توجد جرعة معتمدة ` +
      `في النشرة. انتظر حتى يبلغ العدّ بعد التنبيه الكزازي ${ltr(1)} على الأقل؛ وبعد ${ROCURONIUM} بجرعة ` +
      `${ltr('1.2 mg/kg')} للتحريض السريع المتتابع لدى بالغ، اختر التحريض السريع المتتابع ${also('RSI')} ` +
      `(العكس الفوري بجرعة ${ltr('16 mg/kg')}).`,
    countTofReason: (ptc: number) =>
      `${ltr(`PTC ${ptc}`)} دون إدخال عدد سلسلة الأربع ${also('TOF')}: عُدّ سلسلة الأربع. عند عودة الارتعاشات ` +
      `تتبع الجرعة عدد سلسلة الأربع (${ltr('0-1')}: ${ltr('4 mg/kg')}؛ ${ltr(2)} أو أكثر: ${ltr('2 mg/kg')}).`,
    profoundWithTofWarning:
      `يدل ${ltr('PTC 0')} على إحصار شديد العمق: جرعة ${ltr('4 mg/kg')} معتمدة في النشرة عند عدّ بعد الكزازي ` +
      `${ltr('1-2')}. فكّر في الانتظار حتى ${ltr('PTC ≥ 1')}.`,
    rsiVecuroniumWarning:
      `لم يُدرَس العكس الفوري بجرعة ${ltr('16 mg/kg')} إلا بعد ${ROCURONIUM} ` + `بجرعة ${ltr('1.2 mg/kg')}.`,
    crclNotEnteredWarning:
      `لم تُدخَل تصفية الكرياتينين ${also('CrCl')}: تأكّد قبل الإعطاء من أن ${ltr('CrCl ≥ 30 mL/min')} ` +
      `وأن المريض لا يخضع للغسيل الكلوي (لا يُوصى به دون ${ltr('30 mL/min')}).`,
    crclNoAdjustmentNote: `تصفية الكرياتينين ${ltr('30-80 mL/min')}: لا حاجة إلى تعديل الجرعة.`,
    underDosingWarning:
      'أعطِ الجرعة المحسوبة كاملة: الجرعات الأقل من الموصى بها تزيد خطر عودة الإحصار ' +
      `${also('recurarization')} وفق ${ltr('US PI')}. إعطاء «قارورة واحدة للجميع» فجوة معروفة في الممارسة ` +
      `(${ltr('22%')} من المستشفيات المشمولة بالمسح؛ ${ltr('Anesth Pain Med 2019')}).`,
    moreThanOneBoxWarning: (vials: number, boxes: number) =>
      `تحتاج هذه الجرعة إلى ${vialCount(vials)}: أكثر من علبة واحدة من ${ltr(10)} قوارير ` +
      `(عدد العلب: ${ltr(boxes)}). حضّر القوارير كلها ولا تُنقص الجرعة.`,
    smallVolumeWarning: (totalMg: number) =>
      `حجم صغير: ${ltr(`${totalMg} mg`)} تعادل ${ltr(`${totalMg / 100} mL`)} بتركيز ${ltr('100 mg/mL')}. ` +
      `قِسها بمحقنة سعتها ${ltr('1 mL')}، أو خفّفها إلى ${ltr('10 mg/mL')} (${ltr(`${totalMg / 10} mL`)}) ` +
      `لدقة أكبر (${ltr('EU SmPC 4.2')}).`,
    immediateIndication:
      `العكس الفوري بعد ${ROCURONIUM} بجرعة ${ltr('1.2 mg/kg')} ` + `للتحريض السريع المتتابع ${also('RSI')}`,
    moderateIndication: (tofCount: string) =>
      tofCount === '2'
        ? `إحصار متوسط (عدد سلسلة الأربع ${ltr(2)}: ظهرت ${ltr('T2')} مجددًا)`
        : `إحصار متوسط (عدد سلسلة الأربع ${ltr(tofCount)}: ظهرت ${ltr('T2')} مجددًا؛ ` +
          `تنطبق جرعة الإحصار المتوسط ${ltr('2 mg/kg')})`,
    deepIndication: (tofCount: string | undefined) => {
      if (tofCount === '1') {
        return (
          `إحصار عميق (عدد سلسلة الأربع ${ltr(1)}: لا جرعة معتمدة في النشرة؛ ` +
          `${ltr('4 mg/kg')} هي جرعة الإحصار العميق)`
        );
      }
      if (tofCount === '0') return `إحصار عميق (عدد سلسلة الأربع ${ltr(0)})`;
      return `إحصار عميق (العدّ بعد التنبيه الكزازي ${ltr('1-2')}، ولا استجابة في سلسلة الأربع)`;
    },
    administration:
      `حقنة وريدية واحدة سريعة ${also('IV bolus')} خلال نحو ${ltr('10 s')}؛ راقب ${TOF_RATIO} ` +
      `كل ${ltr('15-30 s')} حتى تبلغ ${ltr('0.9')} على الأقل.`,
    monitoring: [
      'المراقبة العصبية العضلية الكمية',
      `تأكّد من أن ${TOF_RATIO} ${ltr('≥ 0.9')} قبل نزع الأنبوب الرغامي`,
      'قيّم التهوية ومنعكسات مجرى الهواء',
      `راقب احتمال عودة الإحصار ${also('recurarization')}`,
    ],
  },

  doseInput: {
    invalidWeight: 'يُرجى إدخال وزن جسم صحيح',
    weightRange: `يجب أن يكون وزن الجسم ضمن المدى ${ltr(`${BODY_WEIGHT_MIN_KG}-${BODY_WEIGHT_MAX_KG} kg`)}`,
    crclRange:
      `يجب أن تكون تصفية الكرياتينين ${also('CrCl')} ضمن المدى ` +
      `${ltr(`${CRCL_MIN_ML_PER_MIN}-${CRCL_MAX_ML_PER_MIN} mL/min`)} (اتركها فارغة إن لم تكن معروفة)`,
    tofCount:
      `يجب أن يكون عدد سلسلة الأربع ${also('TOF')} إحدى القيم ${ltr('0, 1, 2, 3, 4')} ` + '(اتركه فارغًا إن لم يُعَدّ)',
    ptc:
      `يجب أن يكون العدّ بعد التنبيه الكزازي ${also('PTC')} عددًا صحيحًا من ${ltr(0)} إلى ${ltr(PTC_MAX)} ` +
      '(اتركه فارغًا إن لم يُعَدّ)',
    ageGroup: `اختر الفئة العمرية: بالغ ${also('adult')} أو طفل ${also('pediatric')} أو رضيع ${also('infant')}`,
    nmbaType: `اختر ${NMBA}: ${ROCURONIUM} أو ${VECURONIUM} أو غيرهما ${also('other')}`,
    rsiScenario: mustBeTicked(`التحريض السريع المتتابع ${also('RSI')}`),
    dialysis: mustBeTicked('الغسيل الكلوي'),
    creatinineMethod:
      `يجب أن تكون طريقة تقدير تصفية الكرياتينين ${also('CrCl')} في ${ltr('creatinineMethod')} ` +
      `هي ${ltr('"cockcroft_gault"')}، أو أن تُترك فارغة`,
  },

  fields: {
    required: (field: string) => `الحقل ${ltr(field)} مطلوب`,
    unknown: (field: string) => `حقل غير معروف: ${ltr(`"${field}"`)}`,
    notAnObject: `يجب أن تكون المدخلات كائن ${ltr('JSON')}`,
  },

  advisor: {
    modelName: `نموذج تقديري لخطر بطء القلب مع سوغاماديكس ${also('sugammadex')}`,
    factors: {
      betaBlocker: {
        label: BETA_BLOCKER,
        basis: `مُستمَد من سياق آخر: حصر مستقبلات بيتا حول الجراحة (${ltr('POISE')})؛ تقرير حالة ${ltr('Choi 2019')}`,
      },
      dexmedetomidine: {
        label: `ديكسميديتوميدين ${also('dexmedetomidine')}`,
        basis:
          `مُستمَد من سياق آخر: تحليل تلوي ${ltr('RR 1.98')}؛ و${ltr('RR 2.81')} في الجراحة بالمنظار ` +
          `(${ltr('De Cassai 2022')})؛ تقرير حالة ${ltr('Gajewski 2019')}`,
      },
      digoxin: { label: `ديجوكسين ${also('digoxin')}`, basis: 'افتراض: دواء يثبّط العقدة الأذينية البطينية' },
      amiodarone: { label: `أميودارون ${also('amiodarone')}`, basis: 'افتراض: دواء يثبّط العقدة الأذينية البطينية' },
      highDoseOpioids: { label: 'أفيونيات بجرعات عالية', basis: 'افتراض: تأثير مُنبِّه للعصب المبهم' },
      vagalStimulus: {
        label: 'تنبيه العصب المبهم',
        basis: 'افتراض: استرواح الصفاق والمنعكسات المبهمية تُحدث بطء قلب شديدًا',
      },
      historyBradycardia: { label: 'سوابق بطء القلب', basis: 'افتراض' },
      conductionDisease: {
        label: `إحصار أذيني بطيني ${also('AV block')}: اضطراب التوصيل`,
        basis:
          `تقارير حالات (${ltr('Choi 2019')})؛ قد يفشل أتروبين ${also('atropine')} في ${HIGH_GRADE_AV_BLOCK} ` +
          `(${ltr('AHA 2020')})`,
      },
      pacemaker: {
        label: 'جهاز تنظيم ضربات القلب',
        basis: 'افتراض: جهاز تنظيم ضربات القلب العامل يحمي معدل النبض؛ تحقّق من النمط والالتقاط',
      },
      baselineHrBelow50: { label: `معدل ضربات القلب الأساسي أقل من ${ltr('50 bpm')}`, basis: 'افتراض' },
      baselineHr50to59: { label: `معدل ضربات القلب الأساسي ${ltr('50-59 bpm')}`, basis: 'افتراض' },
      age75plus: {
        label: `العمر ${ltr(75)} سنة فأكثر`,
        basis: `تتركّز تقارير الوفيات القلبية فوق سن ${ltr(65)} (${ltr('VigiBase')})`,
      },
      age65to74: {
        label: `العمر ${ltr('65-74')} سنة`,
        basis: `تتركّز تقارير الوفيات القلبية فوق سن ${ltr(65)} (${ltr('VigiBase')})`,
      },
      dose16: {
        label: `جرعة ${ltr('16 mg/kg')}`,
        basis: 'افتراض: تقارير حالات عند الجرعات العالية؛ فرط الحساسية مرتبط بالجرعة',
      },
    },
  },

  advisorInput: {
    missingInformation: 'يُرجى تعبئة جميع الحقول المطلوبة',
    weight: weightRange,
    age: `يجب أن يكون العمر ضمن المدى ${ltr(`0-${ADVISOR_AGE_MAX_YEARS}`)} سنة`,
    baselineHr:
      'يجب أن يكون معدل ضربات القلب الأساسي ضمن المدى ' + ltr(`${BASELINE_HR_MIN_BPM}-${BASELINE_HR_MAX_BPM} bpm`),
    creatinine:
      `يجب أن تكون تصفية الكرياتينين ${also('CrCl')} ضمن المدى ` +
      `${ltr(`${CRCL_MIN_ML_PER_MIN}-${CRCL_MAX_ML_PER_MIN} mL/min`)}`,
    cardiacHistory:
      `اختر السوابق القلبية: لا شيء ${also('none')} أو بطء القلب ${also('bradycardia')} أو إحصار أذيني بطيني ` +
      `${also('AV block')} أو جهاز تنظيم ضربات القلب ${also('pacemaker')}`,
    betaBlocker: mustBeTicked('حاصر بيتا'),
    dexmedetomidine: mustBeTicked('ديكسميديتوميدين'),
    digoxin: mustBeTicked('ديجوكسين'),
    amiodarone: mustBeTicked('أميودارون'),
    highDoseOpioids: mustBeTicked('أفيونيات بجرعات عالية'),
    vagalStimulus: mustBeTicked('تنبيه العصب المبهم'),
    depth:
      `اختر عمق الإحصار: عدد سلسلة الأربع ${ltr('≥ 2')}، أو العدّ بعد التنبيه الكزازي ${ltr('1-2')}، ` +
      'أو العكس الفوري',
    nmba: `اختر ${NMBA}: ${ROCURONIUM} أو ${VECURONIUM}`,
    dose: `يجب أن تكون الجرعة ${ltr(2)} أو ${ltr(4)} أو ${ltr('16 mg/kg')}`,
    conductionDisease: `يجب أن تكون قيمة ${ltr('conductionDisease')} إما ${ltr('true')} أو ${ltr('false')}`,
    doseMismatch:
      `الجرعة لا تطابق عمق الإحصار (عدد سلسلة الأربع ${ltr('≥ 2')}: ${ltr(2)}، العدّ بعد التنبيه الكزازي ` +
      `${ltr('1-2')}: ${ltr(4)}، العكس الفوري: ${ltr('16 mg/kg')})`,
    conductionDiseaseMismatch:
      `يجب أن تكون قيمة ${ltr('conductionDisease')} ${ltr('true')} فقط عندما تكون السوابق القلبية ` +
      `إحصارًا أذينيًا بطينيًا ${also('AV block')}`,
  },

  plan: {
    atropine: (mg: number) => `أتروبين ${also('atropine')} ${ltr(`${mg} mg`)}`,
    dose: (doseMg: number, doseMl: number) =>
      `${ltr(`${doseMg} mg`)} (${ltr(`${doseMl.toFixed(1)} mL`)}) حقنة وريدية واحدة سريعة ${also('IV bolus')} ` +
      `خلال نحو ${ltr('10 s')}`,
    quantitativeMonitoring:
      `المراقبة العصبية العضلية الكمية: تأكّد من أن ${TOF_RATIO} ${ltr('≥ 0.9')} ` + 'قبل نزع الأنبوب الرغامي',
    continuousMonitoring:
      `مراقبة مستمرة لتخطيط القلب ${also('ECG')} ومعدل ضربات القلب وضغط الدم من الحقن حتى ${ltr('30 min')} ` +
      `بعده على الأقل (${ltr('68.9%')} من التفاعلات المُبلَّغ عنها تحدث خلال ${ltr('30 min')})`,
    lowRiskAtropine: (atropine: string) => `${atropine} متوفّر في الغرفة`,
    moderateRiskAtropine: (atropine: string) =>
      `${atropine} مسحوب في محقنة قبل الحقن؛ و${EPINEPHRINE} ${ltr('10 micrograms/mL')} متوفّر`,
    highRiskDrugs: (atropine: string) =>
      `${atropine} و${EPINEPHRINE} ${ltr('10 micrograms/mL')} مسحوبان في محاقن قبل الحقن`,
    highRiskPacingPads: 'لصائق تنظيم ضربات القلب عبر الجلد مثبّتة قبل الحقن',
    highRiskSecondClinician: 'حضور طبيب تخدير ثانٍ',
    pacemaker: 'جهاز تنظيم ضربات القلب: تحقّق من نمط التنظيم والالتقاط قبل الحقن',
    avBlock:
      `إحصار أذيني بطيني ${also('AV block')}: قد يفشل ${ATROPINE} في ${HIGH_GRADE_AV_BLOCK}؛ ` +
      'جهّز تنظيم ضربات القلب',
    dexmedetomidine: `ديكسميديتوميدين ${also('dexmedetomidine')}: راجِع التسريب قبل الحقن`,
    severeRenal:
      `${ltr('CrCl < 30 mL/min')}: لا يُوصى به في القصور الكلوي الشديد؛ وإن أُعطي، فانتظر ${ltr('24 h')} ` +
      `قبل إعادة الإحصار العصبي العضلي باستخدام ${ROCURONIUM} أو ${VECURONIUM}`,
    adultAtropine: (atropine: string, maxTotalMg: number) =>
      `${atropine} وريديًا، يُكرَّر كل ${ltr('3-5 min')} حتى جرعة إجمالية ${ltr(`${maxTotalMg} mg`)}`,
    adultEpinephrine:
      `إن لم تحدث استجابة: ${EPINEPHRINE} دفعات وريدية ${ltr('10 micrograms')} أو تسريب ` +
      `${ltr('2-10 micrograms/min')} (أو دوبامين ${also('dopamine')} ${ltr('5-20 micrograms/kg/min')})`,
    pediatricAtropine: (atropine: string) =>
      `${atropine} وريديًا (${ltr('0.02 mg/kg')}، بحد أدنى ${ltr('0.1 mg')} وحد أقصى ` +
      `${ltr('0.5 mg')})؛ يمكن تكراره مرة واحدة`,
    pediatricEpinephrine: (micrograms: number) =>
      `إن لم تحدث استجابة: ${EPINEPHRINE} ` +
      `${ltr(micrograms >= 1000 ? `${micrograms / 1000} mg` : `${micrograms} micrograms`)} ` +
      `(${ltr('0.01 mg/kg')}، بحد أقصى ${ltr('1 mg')}) وريديًا ` +
      `كل ${ltr('3-5 min')}`,
    pacing: 'تنظيم ضربات القلب عبر الجلد لبطء القلب المستمر مع ضعف التروية',
    pulseless:
      `انعدام النبض أو توقف الانقباض: ابدأ الإنعاش القلبي الرئوي ${also('CPR')} ` + `واتّبع بروتوكول ${ltr('ACLS')}`,
    anaphylaxis:
      `فكّر في التأق ${also('anaphylaxis')} أو تشنّج الشريان التاجي (طفح جلدي، تشنّج قصبي، تغيّر مقطع ` +
      `${ltr('ST')}): أعطِ أدرينالين ${also('epinephrine')} وأرسل عيّنة لقياس التريبتاز ${also('tryptase')}`,
    report:
      'أبلِغ المركز الوطني للتيقظ الدوائي عن الحدث (في المملكة العربية السعودية: الهيئة العامة للغذاء والدواء، ' +
      `${ltr('SFDA')})`,
  },

  reparalysis: {
    severeRenal:
      `قصور كلوي شديد (${ltr('CrCl < 30 mL/min')})، أيًّا كانت الجرعة: انتظر ${ltr('24 h')} قبل إعطاء ` +
      `${ROCURONIUM} أو ${VECURONIUM} مجددًا.`,
    afterImmediateDose:
      `بعد جرعة ${ltr('16 mg/kg')}: انتظر ${ltr('24 h')} قبل إعطاء ${ROCURONIUM} ` + `أو ${VECURONIUM} مجددًا.`,
    rocuroniumHighDose:
      `${ROCURONIUM} ${ltr('1.2 mg/kg')}: انتظر ${ltr('5 min')} على الأقل (يبدأ التأثير خلال نحو ` +
      `${ltr('3 min')}؛ ومدته أقصر، نحو ${ltr('18 min')}).`,
    standardDoses:
      `${ROCURONIUM} ${ltr('0.6 mg/kg')} أو ${VECURONIUM} ${ltr('0.1 mg/kg')}: ` + `انتظر ${ltr('4 h')} على الأقل.`,
    mildModerateRenal:
      `قصور كلوي خفيف أو متوسط (${ltr('CrCl 30-80 mL/min')}): انتظر ${ltr('24 h')} قبل ${ROCURONIUM} ` +
      `${ltr('0.6 mg/kg')} أو ${VECURONIUM} ${ltr('0.1 mg/kg')}؛ وإن لزم انتظار أقصر، فاستخدم روكورونيوم ` +
      `${ltr('1.2 mg/kg')}.`,
    nonSteroidal:
      `إن لزم الإحصار قبل انقضاء مدة الانتظار: استخدم مُحصِرًا عصبيًا عضليًا ${also('NMBA')} غير ستيرويدي، ` +
      `مثل سيساتراكوريوم ${also('cisatracurium')}؛ وقد يكون بدء تأثير المُحصِر المُزيل للاستقطاب أبطأ.`,
  },

  cockcroftGault: {
    note:
      `تقدير بمعادلة كوكروفت-غولت ${also('Cockcroft-Gault')} بالوزن الفعلي للجسم؛ قد يبالغ في تقدير ` +
      'التصفية لدى المصابين بالسمنة، وتقلّ موثوقيته حين لا يكون الكرياتينين مستقرًا.',
    age:
      `تنطبق معادلة كوكروفت-غولت ${also('Cockcroft-Gault')} على البالغين: يجب أن يكون العمر ` +
      `${ltr(`${ADULT_MIN_AGE_YEARS}-${COCKCROFT_GAULT_AGE_MAX_YEARS}`)} سنة`,
    weight: weightRange,
    sex: `اختر الجنس: أنثى ${also('female')} أو ذكر ${also('male')}`,
    serumCreatinine:
      'يجب أن يكون كرياتينين المصل ضمن المدى ' +
      `${ltr(`${SERUM_CREATININE_MIN_MG_PER_DL}-${SERUM_CREATININE_MAX_MG_PER_DL} mg/dL`)} ` +
      `(${ltr(`${SERUM_CREATININE_MIN_UMOL_PER_L}-${SERUM_CREATININE_MAX_UMOL_PER_L} µmol/L`)})`,
    unit: `اختر وحدة الكرياتينين: ${ltr('µmol/L')} أو ${ltr('mg/dL')}`,
    missingAge: 'أدخل العمر بالسنوات',
    missingWeight: `أدخل الوزن بوحدة ${ltr('kg')}`,
    missingSerumCreatinine: 'أدخل كرياتينين المصل',
  },

  roiInput: {
    numberOfCases:
      `يجب أن يكون عدد الحالات عددًا صحيحًا من ${ltr(0)} إلى ` + ltr(groupThousands(ROI_MAX_NUMBER_OF_CASES)),
    orCostPerMinute:
      'يجب أن تكون تكلفة الدقيقة في غرفة العمليات ' +
      `${ltr(`${ROI_OR_COST_MIN_SAR_PER_MIN}-${ROI_OR_COST_MAX_SAR_PER_MIN} SAR`)} بخطوات مقدارها ` +
      ltr(ROI_OR_COST_STEP_SAR_PER_MIN),
    timeNeostigmine: wholeMinutes(`الوقت مع نيوستيغمين ${also('neostigmine')}`),
    timeProduct: wholeMinutes('الوقت مع المنتج'),
    baselinePPCRate:
      `يجب أن يكون المعدل الأساسي للمضاعفات الرئوية بعد الجراحة ${also('PPC')} نسبة مئوية صحيحة ضمن المدى ` +
      ltr(`${ROI_PPC_RATE_MIN_PERCENT}-${ROI_PPC_RATE_MAX_PERCENT}%`),
    riskRatio: `نسبة الخطر ${also('RR')} ثابتة عند ${ltr(ROI_RISK_RATIO)}`,
  },

  patient: {
    displayName: `أدخل اسمًا للعرض أو الأحرف الأولى (${ltr(`1-${PATIENT_NAME_MAX_LENGTH}`)} حرفًا)`,
    mrn: `يجب ألا يتجاوز رقم الملف الطبي ${also('MRN')} / رقم المستشفى ${ltr(PATIENT_MRN_MAX_LENGTH)} حرفًا`,
    notes: `يجب ألا تتجاوز الملاحظات ${ltr(PATIENT_NOTES_MAX_LENGTH)} حرف`,
    weight: weightRange,
    ageGroup:
      `يجب أن تكون الفئة العمرية إحدى القيم: بالغ ${also('adult')} أو طفل ${also('pediatric')} ` +
      `أو رضيع ${also('infant')}`,
    yearOfBirth: (currentYear: number) =>
      `يجب أن تكون سنة الميلاد من ${ltr(PATIENT_EARLIEST_BIRTH_YEAR)} إلى ${ltr(currentYear)}`,
  },

  emergency: {
    checkLocalProtocol: 'تحقَّق من البروتوكول المحلي',
    sections: {
      bradycardia: 'بطء القلب مع ضعف التروية',
      anaphylaxis: `التأق ${also('anaphylaxis')}`,
    },
    steps: {
      adult: {
        atropine: {
          action: `${ATROPINE} وريديًا`,
          detail:
            `يُكرَّر كل ${ltr(`${E.ATROPINE_REPEAT_MIN} min`)} حتى جرعة إجمالية ` +
            `${ltr(`${E.ATROPINE_ADULT_MAX_TOTAL_MG} mg`)}`,
        },
        secondLine: {
          action: `إذا فشل ${ATROPINE}`,
          detail:
            `${ADRENALINE_INFUSION} ${ltr(`${E.ADRENALINE_INFUSION_ADULT_MICROGRAMS_PER_MIN} micrograms/min`)}، ` +
            `أو دوبامين ${also('dopamine')} ` +
            `${ltr(`${E.DOPAMINE_INFUSION_ADULT_MICROGRAMS_PER_KG_PER_MIN} micrograms/kg/min`)}؛ ` +
            'تنظيم ضربات القلب عبر الجلد',
        },
        pulseless: { action: 'انعدام النبض', detail: `ابدأ ${CPR} واتّبع بروتوكول ${ltr('ACLS')}` },
        firstActions: EMERGENCY_ANAPHYLAXIS_SHARED.firstActions,
        adrenalineIv: { action: `${EPINEPHRINE} وريديًا`, detail: MONITORED },
        adrenalineIm: { action: `${EPINEPHRINE} عضليًا`, detail: NO_IV_ACCESS },
        fluids: { action: `دفعة محلول بلوري ${also('crystalloid')}`, detail: REPEAT_AS_NEEDED },
        refractory: {
          action: REFRACTORY,
          detail: `${ADRENALINE_INFUSION}؛ فكّر في غلوكاغون ${also('glucagon')} إذا كان المريض يتناول ${BETA_BLOCKER}`,
        },
        tryptase: EMERGENCY_ANAPHYLAXIS_SHARED.tryptase,
        report: EMERGENCY_ANAPHYLAXIS_SHARED.report,
        allergyReferral: EMERGENCY_ANAPHYLAXIS_SHARED.allergyReferral,
      },
      child: {
        atropine: {
          action: `${ATROPINE} وريديًا`,
          detail:
            `${ltr(`${E.ATROPINE_CHILD_MG_PER_KG} mg/kg`)} (بحد أدنى ${ltr(`${E.ATROPINE_CHILD_MIN_MG} mg`)} ` +
            `وحد أقصى ${ltr(`${E.ATROPINE_CHILD_MAX_MG} mg`)})؛ يمكن تكراره مرة واحدة`,
        },
        secondLine: {
          action: `إذا فشل ${ATROPINE}: ${EPINEPHRINE} وريديًا`,
          detail:
            `${ltr(`${E.ADRENALINE_BRADYCARDIA_CHILD_MG_PER_KG} mg/kg`)} ` +
            `(${ltr(`${E.ADRENALINE_BRADYCARDIA_CHILD_MICROGRAMS_PER_KG} micrograms/kg`)}؛ ` +
            `${ltr(`${E.ADRENALINE_BRADYCARDIA_CHILD_ML_PER_KG} mL/kg`)} من تركيز ` +
            `${ltr(`${E.ADRENALINE_BRADYCARDIA_STRENGTH_MG_PER_ML} mg/mL`)})، ` +
            `بحد أقصى ${ltr(`${E.ADRENALINE_BRADYCARDIA_CHILD_MAX_MG} mg`)} للجرعة (${ltr('PALS 2020')})، ` +
            `كل ${ltr(`${E.ADRENALINE_BRADYCARDIA_REPEAT_MIN} min`)}`,
        },
        childCpr: {
          action: `ابدأ ${CPR}`,
          detail:
            `إذا بقي معدل ضربات القلب أقل من ${ltr(`${E.CHILD_CPR_HEART_RATE_BELOW_BPM} bpm`)} مع ضعف التروية ` +
            'رغم الأكسجة والتهوية',
        },
        pulseless: { action: 'انعدام النبض', detail: `ابدأ ${CPR} واتّبع بروتوكول ${ltr('PALS')}` },
        firstActions: EMERGENCY_ANAPHYLAXIS_SHARED.firstActions,
        adrenalineIv: {
          action: `${EPINEPHRINE} وريديًا`,
          detail:
            `${ltr(`${E.ADRENALINE_IV_ANAPHYLAXIS_CHILD_MICROGRAMS_PER_KG} microgram/kg`)}، دون تجاوز جرعة البالغ ` +
            `${ltr(`${E.ADRENALINE_IV_ANAPHYLAXIS_CHILD_MAX_MICROGRAMS} micrograms`)}؛ ${MONITORED}`,
        },
        adrenalineIm: {
          action: `${EPINEPHRINE} عضليًا`,
          detail:
            `${ltr(`${E.ADRENALINE_IM_CHILD_MG_PER_KG} mg/kg`)}، ` +
            `بحد أقصى ${ltr(`${E.ADRENALINE_IM_CHILD_MAX_MG} mg`)}؛ ` +
            NO_IV_ACCESS,
        },
        fluids: {
          action: `دفعة محلول بلوري ${also('crystalloid')}`,
          detail:
            `${ltr(`${E.CRYSTALLOID_CHILD_ML_PER_KG} mL/kg`)}، دون تجاوز حجم البالغ ` +
            `${ltr(`${E.CRYSTALLOID_CHILD_MAX_ML} mL`)}؛ ${REPEAT_AS_NEEDED}`,
        },
        refractory: { action: REFRACTORY, detail: ADRENALINE_INFUSION },
        tryptase: EMERGENCY_ANAPHYLAXIS_SHARED.tryptase,
        report: EMERGENCY_ANAPHYLAXIS_SHARED.report,
        allergyReferral: EMERGENCY_ANAPHYLAXIS_SHARED.allergyReferral,
      },
    },
    atropineNoStrength:
      `يُعرَض ${ATROPINE} بوحدة ${ltr('mg')} فقط: تختلف تراكيزه بين المستشفيات ` +
      `(${ltr(`${E.ATROPINE_STRENGTHS_MG_PER_ML.join(', ')} mg/mL`)})، لذا لا يُذكر حجم. تحقّق من الأمبولة.`,
    sugammadexContext:
      `بعد سوغاماديكس ${also('sugammadex')} يحدث التأق ${also('anaphylaxis')} في نحو ${ltr(1)} من كل ` +
      `${ltr(groupThousands(E.SUGAMMADEX_ANAPHYLAXIS_ONE_IN_MIYAZAKI_2018))} إعطاء (${ltr('Miyazaki 2018')}) ` +
      `إلى ${ltr(1)} من كل ${ltr(groupThousands(E.SUGAMMADEX_ANAPHYLAXIS_ONE_IN_ORIHARA_2020))} إعطاء ` +
      `(${ltr('Orihara 2020')})، ومعظمه خلال ${ltr(`${E.SUGAMMADEX_ANAPHYLAXIS_WITHIN_MIN} min`)} من الحقن.`,
    needsWeight: `يُرجى إدخال وزن الطفل بوحدة ${ltr('kg')} لعرض الجرعات.`,
    sources: {
      aha2020: {
        short: `إرشادات ${ltr('AHA 2020')}`,
        full:
          `جمعية القلب الأمريكية ${also('American Heart Association')} ${ltr(2020)}: ` +
          'خوارزمية بطء القلب لدى البالغين',
      },
      pals2020: {
        short: `إرشادات ${ltr('PALS 2020')}`,
        full: `جمعية القلب الأمريكية ${ltr(2020)}: دعم الحياة المتقدم لدى الأطفال ${also('PALS')}، بطء القلب`,
      },
      nap6Rcuk2021: {
        short: `توصيات ${ltr('NAP6 2018')} و${ltr('RCUK 2021')}`,
        full:
          `${ltr('Harper NJN et al. Br J Anaesth 2018;121:172-188')} (تدبير ${ltr('NAP6')})؛ ` +
          'مجلس الإنعاش في المملكة المتحدة ' +
          ltr('Resuscitation Council UK, Emergency treatment of anaphylaxis, 2021'),
      },
      miyazaki2018Orihara2020: {
        short: `دراستا ${ltr('Miyazaki 2018')} و${ltr('Orihara 2020')}`,
        full:
          `${ltr('Miyazaki Y et al. Anesth Analg 2018 (doi:10.1213/ANE.0000000000002562)')}، مركز ياباني واحد؛ ` +
          `${ltr('Orihara M et al. BJA 2020;124:154 (doi:10.1016/j.bja.2019.10.016)')}، أربعة مراكز يابانية`,
      },
      sfda: {
        short: `الهيئة العامة للغذاء والدواء ${also('SFDA')}`,
        full: `الهيئة العامة للغذاء والدواء ${also('SFDA')}: المركز الوطني للتيقظ الدوائي`,
      },
    },
    input: {
      ageGroup: `اختر الفئة العمرية: بالغ أو طفل (دون سن ${ltr(ADULT_MIN_AGE_YEARS)})`,
      weightRange,
    },
  },
};
