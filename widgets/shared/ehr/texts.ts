import { ltr } from '../../../clinical/bidi.ts';
import type { Catalogue } from '../../../clinical/texts/catalogue.ts';
import * as api from '../../../contracts/smart-messages.ts';
import { useWidgetHost, useWidgetLang, type WidgetHost } from '../widget-host/widget-context.ts';

// The texts of a launch from the EHR (SMART App Launch): the patient banner, "Send to EHR" and what it
// answers, in both languages. Small, and only in the elements that show them (docs/arabic-glossary.md).

const en = {
  // The patient banner (need_patient_banner)
  bannerLabel: 'Patient from the EHR',
  bannerMrn: (mrn: string) => `MRN ${ltr(mrn)}`,
  bannerBorn: (date: string) => `Born ${ltr(date)}`,
  genders: { female: 'Female', male: 'Male', other: 'Other', unknown: 'Sex unknown' } as Record<string, string>,
  // Back from the EHR
  openedTitle: 'Opened from the EHR',
  openedText: (name: string) => `${name} is chosen, with the weight the EHR holds. Check it before you calculate.`,
  openFailedTitle: 'The launch from the EHR did not complete',
  // Send to EHR
  send: 'Send to EHR',
  sending: 'Sending to the EHR…',
  sent: (id: string) => `Sent to the EHR as document ${ltr(id)}.`,
  sentWithOrder: (id: string, orderId: string) =>
    `Sent to the EHR as document ${ltr(id)}, with draft order ${ltr(orderId)} to review and sign in the EHR.`,
  sendFailed: 'Not sent to the EHR',
};

export type EhrTexts = Catalogue<typeof en>;

const ar: EhrTexts = {
  bannerLabel: 'المريض من السجل الصحي الإلكتروني',
  bannerMrn: (mrn: string) => `رقم الملف الطبي ${ltr(mrn)}`,
  bannerBorn: (date: string) => `تاريخ الميلاد ${ltr(date)}`,
  genders: { female: 'أنثى', male: 'ذكر', other: 'آخر', unknown: 'الجنس غير معروف' },
  openedTitle: 'فُتح من السجل الصحي الإلكتروني',
  openedText: (name: string) => `تم اختيار ${name} مع الوزن المسجل في السجل الصحي. تحقق منه قبل الحساب.`,
  openFailedTitle: 'لم يكتمل الفتح من السجل الصحي الإلكتروني',
  send: 'إرسال إلى السجل الصحي',
  sending: 'جارٍ الإرسال إلى السجل الصحي…',
  sent: (id: string) => `أُرسل إلى السجل الصحي الإلكتروني كمستند ${ltr(id)}.`,
  sentWithOrder: (id: string, orderId: string) =>
    `أُرسل إلى السجل الصحي الإلكتروني كمستند ${ltr(id)}، ` +
    `مع مسودة أمر ${ltr(orderId)} لمراجعتها وتوقيعها في السجل الصحي.`,
  sendFailed: 'لم يُرسل إلى السجل الصحي الإلكتروني',
};

export const EHR_TEXTS = { en, ar } as const;

export const useEhrTexts = (): EhrTexts => EHR_TEXTS[useWidgetLang()];

/** The API's messages of a launch and of "Send to EHR", in Arabic, keyed by their exact English text. */
export const EHR_SERVER_AR: ReadonlyMap<string, string> = new Map([
  [api.SMART_NOT_CONFIGURED_MESSAGE, 'الفتح من السجل الصحي الإلكتروني غير مُعدّ على هذا الخادم'],
  [
    api.SMART_HANDOFF_EXPIRED_MESSAGE,
    'انتهت صلاحية هذا الفتح من السجل الصحي الإلكتروني أو سبق استخدامه. افتح التطبيق من السجل الصحي مرة أخرى.',
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
  [api.SMART_OTHER_PATIENT_MESSAGE, 'هذا الحساب ليس للمريض الذي فُتح التطبيق له من السجل الصحي، فلم يُرسل.'],
]);

/** A message of the API in the element's language: the EHR's messages kept here, else the element's own. */
export const ehrServerText = (host: Pick<WidgetHost, 'lang' | 'serverMessage'>, text: string): string =>
  (host.lang === 'ar' && EHR_SERVER_AR.get(text)) || host.serverMessage(text);

export function useEhrServerText(): (text: string) => string {
  const host = useWidgetHost();
  return (text) => ehrServerText(host, text);
}
