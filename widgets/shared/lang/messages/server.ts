import * as api from '../../../../contracts/api-messages.ts';
import { ltr } from '../../../../clinical/bidi.ts';
import { NETWORK_ERROR_MESSAGE, UNREADABLE_RESPONSE_MESSAGE } from '../../api/api-client.ts';

/**
 * The API's own messages (api/messages.ts: sign-in, sessions, limits, not found…) and the API client's,
 * in Arabic, keyed by their exact English text, which is part of the API (docs/API.md). An element speaking
 * Arabic shows a server message it finds here in Arabic; any other text is shown as the server wrote it.
 */
const EXACT_AR: ReadonlyMap<string, string> = new Map([
  [NETWORK_ERROR_MESSAGE, 'تعذّر الوصول إلى الخادم. تحقّق من الاتصال وحاول مرة أخرى.'],
  [UNREADABLE_RESPONSE_MESSAGE, 'أرسل الخادم ردًّا لا تستطيع هذه الصفحة قراءته. حاول مرة أخرى.'],
  [api.INVALID_INPUT_MESSAGE, 'مُدخلات غير صالحة'],
  [api.BAD_REQUEST_MESSAGE, 'طلب غير صالح'],
  [api.INTERNAL_ERROR_MESSAGE, 'حدث خطأ في الخادم. حاول مرة أخرى.'],
  [api.MALFORMED_JSON_MESSAGE, 'نص الطلب ليس JSON صالحًا'],
  [api.UNSTORABLE_TEXT_MESSAGE, 'يحتوي الطلب على محرف لا يمكن حفظه'],
  [api.JSON_BODY_TYPE_MESSAGE, 'أرسل نص الطلب بصيغة application/json'],
  [api.CHANGES_OBJECT_MESSAGE, `أرسل التغييرات كائن ${ltr('JSON')}، مثل ${ltr('{"weightKg": 70}')}`],
  [
    api.JSON_TOO_DEEP_MESSAGE,
    `يتداخل نص الطلب في كائنات ومصفوفات أعمق من المسموح (الحد ${ltr(String(api.JSON_BODY_MAX_DEPTH))} مستوى)`,
  ],
  [api.NO_ACCEPTABLE_ENCODING_MESSAGE, `يرفض الترويس ${ltr('Accept-Encoding')} كل ترميز يستطيع الخادم إرساله`],
  [api.SESSION_INVALID_MESSAGE, 'انتهت جلستك أو لم تعد صالحة. يُرجى تسجيل الدخول مرة أخرى.'],
  [api.SIGN_IN_REQUIRED_MESSAGE, 'يُرجى تسجيل الدخول لاستخدام هذه الميزة.'],
  [api.INVALID_CREDENTIALS_MESSAGE, 'البريد الإلكتروني أو كلمة المرور غير صحيحة'],
  [api.DUPLICATE_EMAIL_MESSAGE, 'يوجد حساب بهذا البريد الإلكتروني. سجّل الدخول بدلًا من ذلك.'],
  [api.CURRENT_PASSWORD_WRONG_MESSAGE, 'كلمة المرور الحالية غير صحيحة'],
  [api.NEW_PASSWORD_UNCHANGED_MESSAGE, 'يجب أن تختلف كلمة المرور الجديدة عن الحالية'],
  [api.COMMON_PASSWORD_MESSAGE, 'كلمة المرور شائعة جدًّا: إنها في قوائم كلمات المرور المسرّبة، فتخمينها سهل. اختر غيرها.'],
  [
    api.COMMON_NEW_PASSWORD_MESSAGE,
    'كلمة المرور الجديدة شائعة جدًّا: إنها في قوائم كلمات المرور المسرّبة، فتخمينها سهل. اختر غيرها.',
  ],
  [api.CONFIRM_PASSWORD_REQUIRED_MESSAGE, 'أدخل كلمة المرور للتأكيد'],
  [
    api.CONFIRM_BY_HOSPITAL_SIGN_IN_MESSAGE,
    `سجّل الخروج، ثم سجّل الدخول مرة أخرى بحسابك في المستشفى، ثم احذف الحساب قبل مضيّ ${ltr('10 min')}`,
  ],
  [
    api.ACCOUNT_DELETION_PENDING_MESSAGE,
    'هذا الحساب مُجدول للحذف. سجّل الدخول باختيار «الإبقاء على حسابي» لإلغاء الحذف.',
  ],
  [api.TOO_MANY_FROM_ADDRESS_MESSAGE, 'طلبات كثيرة جدًّا من هذا العنوان. انتظر دقيقة ثم حاول مرة أخرى.'],
  [api.TOO_MANY_REQUESTS_MESSAGE, 'طلبات كثيرة جدًّا. انتظر دقيقة ثم حاول مرة أخرى.'],
  [api.PATIENT_NOT_FOUND_MESSAGE, 'لم يُعثر على المريض'],
  [api.HISTORY_ENTRY_NOT_FOUND_MESSAGE, 'لم يُعثر على سجل الحساب'],
  [api.EXPORT_NOT_FOUND_MESSAGE, 'لم يُعثر على الملف المُصدَّر'],
  [api.EXPORT_TOO_LARGE_MESSAGE, `ملف PDF كبير جدًّا (الحد ${ltr('2 MB')})`],
  [api.EXPORT_WRONG_TYPE_MESSAGE, 'أرسل الملف بصيغة application/pdf'],
  [api.EXPORT_BUSY_CLINICIAN_MESSAGE, 'يجري الآن تجهيز تصدير لبياناتك. انتظر حتى ينتهي، ثم حاول مرة أخرى.'],
  [
    api.EXPORT_BUSY_INSTANCE_MESSAGE,
    'يجهّز الخادم الآن أكبر عدد ممكن من عمليات تصدير البيانات في وقت واحد. يُرجى المحاولة مرة أخرى بعد دقيقة.',
  ],
  [api.NOT_A_PDF_MESSAGE, 'الملف ليس بصيغة PDF'],
  [
    api.IDEMPOTENCY_KEY_INVALID_MESSAGE,
    `يجب أن يكون ${ltr('Idempotency-Key')} نصًّا بين علامتَي اقتباس من ${ltr('1')} إلى ${ltr('255')} محرفًا ` +
      `مرئيًّا من ${ltr('ASCII')}، مثل ${ltr('"8e03978e-40d5"')}`,
  ],
  [api.IDEMPOTENCY_KEY_IN_USE_MESSAGE, `ما زال طلب بهذا ${ltr('Idempotency-Key')} قيد المعالجة. حاول بعد لحظة.`],
  [
    api.IDEMPOTENCY_KEY_REUSED_MESSAGE,
    `استُخدم ${ltr('Idempotency-Key')} هذا لطلب مختلف. أرسل مفتاحًا جديدًا لكل طلب جديد.`,
  ],
  [
    api.FHIR_NOT_CLINICAL_MESSAGE,
    'لا يحوي حساب العائد على الاستثمار بيانات مريض، فلا تصدير له بصيغة FHIR. صدِّره بصيغة PDF بدلًا من ذلك.',
  ],
  [
    api.SECOND_FACTOR_REQUIRED_MESSAGE,
    'يشترط المستشفى عاملًا ثانيًا للحسابات ذات كلمة المرور. أعدّ تطبيق مصادقة أو مفتاح مرور في ملفك الشخصي ' +
      'لفتح بيانات المرضى.',
  ],
  [
    api.PROVIDER_SECOND_FACTOR_REQUIRED_MESSAGE,
    'يشترط المستشفى عاملًا ثانيًا، ولم يُستخدم عامل ثانٍ في تسجيل الدخول هذا. سجّل الدخول مرة أخرى بالعامل الثاني ' +
      'لدى المستشفى؛ وإن لم يوفّره، فاسأل قسم تقنية المعلومات.',
  ],
  ...Object.values(api.UNMATCHED_MESSAGES).map((text) => [text, 'الطلب غير متاح'] as const),
]);

/** A message built from one value, as a pattern capturing that value: `sample` is where the value went. */
function builtFrom(message: string, sample: string, value: string): RegExp {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escape(message).replace(escape(sample), value)}$`);
}

/** The messages that carry a value (minutes, a size, a length), with the value kept left to right. */
const BUILT_AR: readonly (readonly [RegExp, (value: string) => string])[] = [
  [
    builtFrom(api.signInLockedMessage(997 * 60), '997', '(\\d+)'),
    (minutes) => `محاولات دخول فاشلة كثيرة. حاول مرة أخرى بعد ${ltr(`${minutes} min`)}.`,
  ],
  [
    builtFrom(api.bodyTooLargeMessage('997kb'), '997 KB', '(\\d+ KB)'),
    (limit) => `نص الطلب كبير جدًّا (الحد ${ltr(limit)})`,
  ],
  [
    builtFrom(api.sessionIdleMessage(997), '997', '(\\d+)'),
    (minutes) => `سُجّل خروجك بعد ${ltr(`${minutes} min`)} دون نشاط. يُرجى تسجيل الدخول مرة أخرى.`,
  ],
  [
    builtFrom(api.searchTooLongMessage(997), '997', '(\\d+)'),
    (length) => `يجب ألّا يزيد عدد أحرف نص البحث على ${ltr(length)}`,
  ],
];

/** A server or API-client message in Arabic when it is one of the known ones; else the text unchanged. */
export function serverMessageInArabic(text: string): string {
  const exact = EXACT_AR.get(text);
  if (exact) return exact;
  for (const [pattern, arabic] of BUILT_AR) {
    const value = pattern.exec(text)?.[1];
    if (value !== undefined) return arabic(value);
  }
  return text;
}
