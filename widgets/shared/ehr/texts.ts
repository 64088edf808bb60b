import { ltr } from '../../../clinical/bidi.ts';
import type { Catalogue } from '../../../clinical/texts/catalogue.ts';
import * as api from '../../../contracts/smart-messages.ts';
import type { EhrContext } from '../../../contracts/smart.ts';
import { formatDate } from '../lang/format.ts';
import { useWidgetHost, useWidgetLang, type WidgetHost } from '../widget-host/widget-context.ts';

/** A date of the EHR or of the record ("2026-11-28"), left to right in either language. */
const day = (iso: string) => ltr(formatDate(new Date(iso)));
const kg = (value: number) => ltr(`${value} kg`);

// The texts of a launch from the EHR (SMART App Launch): the patient banner, "Send to EHR" and what it
// answers, in both languages. Small, and only in the elements that show them (docs/arabic-glossary.md).

const en = {
  // The patient banner (need_patient_banner)
  bannerLabel: 'Patient from the EHR',
  bannerMrn: (mrn: string) => `MRN ${ltr(mrn)}`,
  bannerBorn: (date: string) => `Born ${ltr(date)}`,
  genders: { female: 'Female', male: 'Male', other: 'Other', unknown: 'Sex unknown' } as Record<string, string>,
  // Back from the EHR. The weight is called the EHR's only when this launch read it from the EHR
  // (contracts/smart.ts EhrWeight); otherwise the field is left empty and the text says why.
  openedTitle: 'Opened from the EHR',
  openedWithWeight: (name: string, weightKg: number, recordedAt: string) =>
    `${name} is chosen, with the weight the EHR holds: ${kg(weightKg)}, recorded ${day(recordedAt)}. ` +
    'Check it before you calculate.',
  openedWithoutWeight: (name: string) => `${name} is chosen. The weight is left empty.`,
  openFailedTitle: 'The launch from the EHR did not complete',
  // Why no weight was filled in, and what to do
  weightFromEhr: (weightKg: number, recordedAt: string) =>
    `From the EHR: ${kg(weightKg)}, recorded ${day(recordedAt)}.`,
  weightUnreadable: "The EHR's weights could not be read now.",
  weightNotRecorded: 'The EHR holds no body weight for this patient.',
  weightUnusable: "The EHR's newest weight could not be used (out of range, or in a unit this app does not read).",
  weightUndated: "The EHR's newest weight has no date.",
  weightTooOld: (weightKg: number, recordedAt: string, maxAgeDays: number) =>
    `The EHR's newest weight, ${kg(weightKg)}, was recorded on ${day(recordedAt)}: more than ${ltr(
      String(maxAgeDays),
    )} days ago.`,
  weightTodo: 'Weigh the patient or type the weight.',
  keptFromLaunch: (weightKg: number, savedAt: string) =>
    `Your record of this patient holds ${kg(weightKg)}, from a launch on ${day(savedAt)}: ` +
    'not confirmed by the EHR now.',
  keptTyped: (weightKg: number, savedAt: string) =>
    `Your record of this patient holds ${kg(weightKg)}, typed in (the record last changed on ${day(
      savedAt,
    )}): not confirmed by the EHR now.`,
  // Send to EHR
  send: 'Send to EHR',
  sending: 'Sending to the EHR…',
  sent: (id: string) => `Sent to the EHR as document ${ltr(id)}.`,
  sentWithOrder: (id: string, orderId: string) =>
    `Sent to the EHR as document ${ltr(id)}, with draft order ${ltr(orderId)} to review and sign in the EHR.`,
  alreadyFiled: (id: string) =>
    `Already in the EHR as document ${ltr(id)}: an earlier try filed it. Nothing new was written.`,
  alreadyFiledWithOrder: (id: string, orderId: string) =>
    `Already in the EHR as document ${ltr(id)}, with draft order ${ltr(orderId)}: an earlier try filed them. ` +
    'Nothing new was written.',
  sendFailed: 'Not sent to the EHR',
};

export type EhrTexts = Catalogue<typeof en>;

const ar: EhrTexts = {
  bannerLabel: 'المريض من السجل الصحي الإلكتروني',
  bannerMrn: (mrn: string) => `رقم الملف الطبي ${ltr(mrn)}`,
  bannerBorn: (date: string) => `تاريخ الميلاد ${ltr(date)}`,
  genders: { female: 'أنثى', male: 'ذكر', other: 'آخر', unknown: 'الجنس غير معروف' },
  openedTitle: 'فُتح من السجل الصحي الإلكتروني',
  openedWithWeight: (name: string, weightKg: number, recordedAt: string) =>
    `تم اختيار ${name} مع وزن الجسم المسجل في السجل الصحي الإلكتروني: ${kg(weightKg)}، سُجّل في ${day(recordedAt)}. ` +
    'تحقق منه قبل الحساب.',
  openedWithoutWeight: (name: string) => `تم اختيار ${name}. تُرك حقل الوزن فارغًا.`,
  openFailedTitle: 'لم يكتمل الفتح من السجل الصحي الإلكتروني',
  weightFromEhr: (weightKg: number, recordedAt: string) =>
    `من السجل الصحي الإلكتروني: ${kg(weightKg)}، سُجّل في ${day(recordedAt)}.`,
  weightUnreadable: 'تعذّرت قراءة أوزان المريض من السجل الصحي الإلكتروني الآن.',
  weightNotRecorded: 'لا يحتوي السجل الصحي الإلكتروني على وزن جسم لهذا المريض.',
  weightUnusable: 'تعذّر استخدام أحدث وزن في السجل الصحي الإلكتروني (خارج النطاق، أو بوحدة لا يقرؤها هذا التطبيق).',
  weightUndated: 'أحدث وزن في السجل الصحي الإلكتروني بلا تاريخ.',
  weightTooOld: (weightKg: number, recordedAt: string, maxAgeDays: number) =>
    `سُجّل أحدث وزن في السجل الصحي الإلكتروني، ${kg(weightKg)}، في ${day(recordedAt)}: قبل أكثر من ${ltr(
      String(maxAgeDays),
    )} يومًا.`,
  weightTodo: 'زِن المريض أو أدخل الوزن.',
  keptFromLaunch: (weightKg: number, savedAt: string) =>
    `يحتوي سجلك لهذا المريض على ${kg(weightKg)} من فتح سابق في ${day(savedAt)}: لم يؤكده السجل الصحي الإلكتروني الآن.`,
  keptTyped: (weightKg: number, savedAt: string) =>
    `يحتوي سجلك لهذا المريض على ${kg(weightKg)} أُدخل يدويًا (آخر تعديل للسجل في ${day(
      savedAt,
    )}): لم يؤكده السجل الصحي الإلكتروني الآن.`,
  send: 'إرسال إلى السجل الصحي',
  sending: 'جارٍ الإرسال إلى السجل الصحي…',
  sent: (id: string) => `أُرسل إلى السجل الصحي الإلكتروني كمستند ${ltr(id)}.`,
  sentWithOrder: (id: string, orderId: string) =>
    `أُرسل إلى السجل الصحي الإلكتروني كمستند ${ltr(id)}، ` +
    `مع مسودة أمر ${ltr(orderId)} لمراجعتها وتوقيعها في السجل الصحي.`,
  alreadyFiled: (id: string) =>
    `موجود في السجل الصحي الإلكتروني بالفعل كمستند ${ltr(id)}: حفظته محاولة سابقة. لم يُكتب شيء جديد.`,
  alreadyFiledWithOrder: (id: string, orderId: string) =>
    `موجود في السجل الصحي الإلكتروني بالفعل كمستند ${ltr(id)}، مع مسودة أمر ${ltr(orderId)}: ` +
    'حفظتهما محاولة سابقة. لم يُكتب شيء جديد.',
  sendFailed: 'لم يُرسل إلى السجل الصحي الإلكتروني',
};

export const EHR_TEXTS = { en, ar } as const;

export const useEhrTexts = (): EhrTexts => EHR_TEXTS[useWidgetLang()];

/**
 * What to say of the weight of a launch (contracts/smart.ts): the EHR's with its date when this launch read it;
 * otherwise why none was filled in, what to do, and the weight the clinician's record kept, marked as not the
 * EHR's. Sentences in order, for the toast of the launch and the note under the weight field.
 */
export function weightSentences(t: EhrTexts, ehr: EhrContext): string[] {
  const { weight, keptWeight } = ehr;
  if (weight.source === 'ehr') return [t.weightFromEhr(weight.kg, weight.recordedAt)];
  const why =
    weight.reason === 'too_old' && weight.ehrKg !== null && weight.recordedAt !== null
      ? t.weightTooOld(weight.ehrKg, weight.recordedAt, ehr.weightMaxAgeDays)
      : {
          unreadable: t.weightUnreadable,
          not_recorded: t.weightNotRecorded,
          unusable: t.weightUnusable,
          undated: t.weightUndated,
          too_old: t.weightUnusable,
        }[weight.reason];
  const kept = keptWeight
    ? [(keptWeight.fromLaunch ? t.keptFromLaunch : t.keptTyped)(keptWeight.kg, keptWeight.savedAt)]
    : [];
  return [why, t.weightTodo, ...kept];
}

/** The toast of a launch: the patient chosen, and the weight as weightSentences tells it. */
export function openedText(t: EhrTexts, ehr: EhrContext): string {
  const name = ehr.patient.displayName;
  if (ehr.weight.source === 'ehr') return t.openedWithWeight(name, ehr.weight.kg, ehr.weight.recordedAt);
  return [t.openedWithoutWeight(name), ...weightSentences(t, ehr)].join(' ');
}

/** The API's messages of a launch and of "Send to EHR", in Arabic, keyed by their exact English text. */
export const EHR_SERVER_AR: ReadonlyMap<string, string> = new Map([
  [api.SMART_NOT_CONFIGURED_MESSAGE, 'الفتح من السجل الصحي الإلكتروني غير مُعدّ على هذا الخادم'],
  [
    api.SMART_HANDOFF_EXPIRED_MESSAGE,
    'انتهت صلاحية هذا الفتح من السجل الصحي الإلكتروني أو سبق استخدامه. افتح التطبيق من السجل الصحي مرة أخرى.',
  ],
  [
    api.SMART_HANDOFF_OTHER_BROWSER_MESSAGE,
    'مرّ هذا الفتح من السجل الصحي الإلكتروني عبر متصفح آخر أو نافذة أخرى، فلم يُستخدم هنا. ' +
      'افتح التطبيق من السجل الصحي مرة أخرى.',
  ],
  [
    api.SMART_NO_EHR_LINK_MESSAGE,
    'لم تُفتح هذه الجلسة من السجل الصحي الإلكتروني، أو انتهى الوصول إليه. افتح التطبيق من السجل الصحي مرة أخرى.',
  ],
  [api.SMART_NO_NOTES_PDF_MESSAGE, 'صدّر ملف PDF للملاحظات لهذا الحساب أولًا، ثم أرسله إلى السجل الصحي.'],
  [
    api.SMART_EHR_REFUSED_MESSAGE,
    'لم يقبل السجل الصحي الإلكتروني المستند. لم يُكتب شيء؛ حاول مرة أخرى، أو صدّر ملف PDF إلى الملاحظات يدويًا.',
  ],
  [
    api.SMART_EHR_UNREACHABLE_MESSAGE,
    'تعذّر الوصول إلى خادم FHIR في السجل الصحي الإلكتروني. لم يُكتب شيء؛ حاول مرة أخرى بعد دقيقة.',
  ],
  [
    api.SMART_EHR_TIMEOUT_MESSAGE,
    'لم يُجب السجل الصحي الإلكتروني في الوقت المحدد، فربما حُفظ المستند. راجع ملف المريض قبل إرساله مرة أخرى.',
  ],
  [api.SMART_OTHER_PATIENT_MESSAGE, 'هذا الحساب ليس للمريض الذي فُتح التطبيق له من السجل الصحي، فلم يُرسل.'],
]);

/** A message of the API in the element's language: the EHR's messages kept here, else the element's own. */
export const ehrServerText = (host: Pick<WidgetHost, 'lang' | 'serverMessage'>, text: string): string =>
  (host.lang === 'ar' && EHR_SERVER_AR.get(text)) || host.serverMessage(text);

export function useEhrServerText(): (text: string) => string {
  const host = useWidgetHost();
  return (text) => ehrServerText(host, text);
}
