import type { Messages } from '../index.ts';

/** Strings every element shares (Arabic; terms as in docs/arabic-glossary.md). */
export const common: Messages['common'] = {
  notifications: 'الإشعارات',
  dismiss: 'إغلاق الإشعار',
  close: 'إغلاق',
  moreInformation: (field: string) => `معلومات عن ${field}`,
  required: 'مطلوب',
  optional: 'اختياري',
  loading: 'جارٍ التنفيذ…',
  decisionSupport: 'للدعم في اتخاذ القرار فقط. يجب التحقق من كل جرعة مقابل معلومات المستحضر والتقدير السريري.',
  copied: 'تم النسخ',
  copyFailed: 'تعذّر النسخ',
  copyFailedDetail: 'يُرجى تحديد النص ونسخه يدويًا.',
  checkConnection: 'يُرجى التحقق من الاتصال والمحاولة مرة أخرى.',
  quickUseBadge: 'الاستخدام السريع - لا يُحفظ أي شيء',
};
