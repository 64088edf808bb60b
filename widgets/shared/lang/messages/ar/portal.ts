import { ltr } from '../../../../../clinical/bidi.ts';
import type { Messages } from '../index.ts';

/** The access portal's strings (Arabic; docs/product.md §2, §4, §5, §8). Names are left bare. */
export const portal: Messages['portal'] = {
  // The control in the top navigation bar
  barLabel: 'الحساب',
  // Short, like the English: it shares the bar's first row with the menu button on a 360 px phone.
  openAccess: 'دخول / استخدام سريع',
  openAccessDuringQuickUse: 'تسجيل الدخول',
  checkingSession: 'جارٍ التحقق من تسجيل الدخول…',
  welcome: (name: string) => (name ? `مرحبًا، د. ${name}` : 'مرحبًا'),
  profile: 'الملف الشخصي',
  logout: 'تسجيل الخروج',

  // "Choose Access Mode" dialog (docs/product.md §1, §2, §6)
  chooserTitle: 'اختر طريقة الوصول',
  chooserIntro: 'سجّل الدخول لحفظ عملك، أو استخدم الأدوات دون حساب.',
  accountCardTitle: 'الوصول بالحساب',
  accountCardText:
    'للممارسين الصحيين المسجّلين: حفظ بيانات المرضى، وعرض سجل الحسابات، والبحث عن المرضى، ' +
    'وتصدير ملف PDF إلى الملاحظات.',
  quickUseCardTitle: 'الاستخدام السريع',
  quickUseCardText: 'لا حاجة إلى حساب. لا يُحفظ أي شيء: تبقى بياناتك لهذه الجلسة فقط. التصدير متاح لكنه لا يُخزَّن.',
  chooseSignIn: 'تسجيل الدخول',
  chooseSignUp: 'إنشاء حساب',
  chooseQuickUse: 'الاستخدام السريع',

  // "HCP Access Portal" dialog
  portalTitle: 'بوابة دخول الممارسين الصحيين',
  tabsLabel: 'تسجيل الدخول أو إنشاء حساب',
  signInTab: 'تسجيل الدخول',
  signUpTab: 'إنشاء حساب',
  signInFormLabel: 'تسجيل الدخول',
  signUpFormLabel: 'إنشاء حساب',
  email: 'البريد الإلكتروني',
  password: 'كلمة المرور',
  fullName: 'الاسم الكامل',
  licence: 'رقم الترخيص الطبي',
  passwordHint: `${ltr('8–128')} حرفًا`,
  licenceHint: 'اختياري',
  terms: 'أُقرّ بأنني ممارس صحي مرخّص، وأوافق على استخدام هذه الأدوات للدعم في اتخاذ القرار فقط',
  signInSubmit: 'تسجيل الدخول',
  signUpSubmit: 'إنشاء الحساب',

  // Field validation before anything is sent
  emailRequired: 'البريد الإلكتروني مطلوب',
  emailInvalid: 'يُرجى إدخال عنوان بريد إلكتروني صالح',
  passwordRequired: 'كلمة المرور مطلوبة',
  passwordLength: `يجب أن تتكوّن كلمة المرور من ${ltr('8-128')} حرفًا`,
  nameRequired: 'الاسم الكامل مطلوب',

  // Sign up (docs/product.md §5, §8)
  agreementTitle: 'الموافقة مطلوبة',
  agreementDescription: 'يُرجى الموافقة على الشروط والأحكام',
  signUpFailedTitle: 'تعذّر التسجيل',
  signUpFailedToast: 'يُرجى المحاولة مرة أخرى',
  signUpFailedInline: 'تعذّر التسجيل',
  accountCreatedTitle: 'تم إنشاء الحساب',
  accountCreatedDescription: (name: string) =>
    name ? `مرحبًا بك في بوابة الممارسين الصحيين، د. ${name}.` : 'مرحبًا بك في بوابة الممارسين الصحيين.',

  // Sign in (docs/product.md §8)
  signInFailedTitle: 'تعذّر تسجيل الدخول',
  signInFailedToast: 'يُرجى التحقق من بيانات الدخول',
  signInFailedInline: 'تعذّر تسجيل الدخول',
  welcomeBackTitle: 'مرحبًا بعودتك',
  deletionPending: (date: string) =>
    `هذا الحساب مُجدول للحذف في ${ltr(date)}. أبقِ عليه وعلى كل ما فيه بتسجيل الدخول باختيار «الإبقاء على حسابي».`,
  keepAccount: 'الإبقاء على حسابي',
  accountKeptTitle: 'تم الإبقاء على حسابك',
  accountKeptDescription: 'أُلغي الحذف وتم تسجيل دخولك.',
  welcomeBackDescription: 'تم تسجيل الدخول بنجاح',

  sessionEndedTitle: 'سُجّل خروجك',
  sessionEndedKept: 'ما كتبته محفوظ. سجّل الدخول مرة أخرى للمتابعة.',
};
