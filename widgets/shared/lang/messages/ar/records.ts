import { ltr } from '../../../../../clinical/bidi.ts';
import type { Messages } from '../index.ts';

/** What the tools and the history say of a calculation's records (Arabic); the MRN is a left-to-right run. */
export const records: Messages['records'] = {
  exportNotes: 'تصدير PDF إلى الملاحظات',
  exportedTitle: 'تم تصدير ملف PDF',
  exportedStored: 'تم التنزيل والحفظ ضمن ملفاتك المُصدَّرة.',
  exportedQuickUse: 'تم التنزيل. الاستخدام السريع: لا يُخزَّن أي شيء.',
  exportFailed: 'تعذّر التصدير',
  savedToHistory: 'تم الحفظ في سجلك',
  notSavedTitle: 'لم يُحفظ في السجل',
  patientLine: (name: string, mrn: string | null) => (mrn ? `المريض: ${name} (${ltr(mrn)})` : `المريض: ${name}`),
};
