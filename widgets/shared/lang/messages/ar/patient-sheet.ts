import type { Messages } from '../index.ts';

/** What an element shows of the patient sheet before its dialog has loaded: the button, and its failures. */
export const patientSheet: Messages['patientSheet'] = {
  button: 'ورقة المريضة',
  failed: 'تعذّر إنشاء ورقة المريضة',
  loadFailed: 'تعذّر تحميل الورقة. يُرجى التحقق من الاتصال والمحاولة مجددًا.',
};
