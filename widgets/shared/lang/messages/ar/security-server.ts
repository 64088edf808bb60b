import * as api from '../../../../../contracts/api-messages.ts';

/**
 * The API's messages of signing in with the hospital, the second factor and the profile's sign-in section, in
 * Arabic, keyed by their exact English text. Only the code that shows them imports this (the sign-in dialog
 * and the profile load it; widgets/access-portal/security/), so the Arabic chunk every Arabic page fetches
 * (server.ts) stays as small as it was. Messages any element may show (the idle sign-out, a second factor
 * required) are in server.ts.
 */
export const SECURITY_SERVER_AR: ReadonlyMap<string, string> = new Map([
  [api.SESSION_NOT_FOUND_MESSAGE, 'لم يُعثر على الجلسة'],
  [
    api.PASSWORD_SIGN_IN_OFF_MESSAGE,
    'تسجيل الدخول بالبريد الإلكتروني وكلمة المرور متوقف هنا. استخدم زر تسجيل الدخول الموحّد.',
  ],
  [api.SIGN_UP_OFF_MESSAGE, 'لا تُنشأ الحسابات هنا بالبريد الإلكتروني وكلمة المرور. استخدم زر تسجيل الدخول الموحّد.'],
  [api.SSO_NOT_CONFIGURED_MESSAGE, 'تسجيل الدخول الموحّد غير مُعدّ على هذا الخادم'],
  [api.SSO_UNAVAILABLE_MESSAGE, 'تعذّر الوصول إلى خدمة تسجيل الدخول في المستشفى. حاول مرة أخرى بعد دقيقة.'],
  [api.SSO_HANDOFF_EXPIRED_MESSAGE, 'انتهت صلاحية تسجيل الدخول هذا أو سبق استخدامه. يُرجى تسجيل الدخول مرة أخرى.'],
  [
    api.SSO_LINK_EXPIRED_MESSAGE,
    'انتهت صلاحية ربط حسابك بتسجيل الدخول في المستشفى. استخدم زر المستشفى مرة أخرى، ثم كلمة المرور.',
  ],
  [
    api.SSO_LINK_OTHER_ACCOUNT_MESSAGE,
    'البريد الإلكتروني لهذا الحساب ليس الذي أعطاه تسجيل الدخول في المستشفى. سجّل الدخول بحساب ذلك البريد.',
  ],
  [api.SSO_LINK_TAKEN_MESSAGE, 'تسجيل الدخول في المستشفى مرتبط بحساب آخر.'],
  [
    api.SSO_START_CHALLENGE_MESSAGE,
    'زر تسجيل الدخول في هذه الصفحة قديم، فلم يبدأ تسجيل الدخول. أعد تحميل الصفحة وحاول مرة أخرى.',
  ],
  [
    api.SSO_HANDOFF_OTHER_PAGE_MESSAGE,
    'بدأ تسجيل الدخول هذا في صفحة أخرى أو في متصفح آخر، فلم يُستخدم هنا. يُرجى تسجيل الدخول مرة أخرى من هذه الصفحة.',
  ],
  [
    api.SSO_LINK_OTHER_BROWSER_MESSAGE,
    'بدأ ربط تسجيل الدخول في المستشفى هذا في صفحة أخرى أو في متصفح آخر، فلم يُربط شيء. ' +
      'استخدم زر المستشفى مرة أخرى في هذه الصفحة.',
  ],
  [api.IDENTITY_NOT_FOUND_MESSAGE, 'لم يُعثر على تسجيل الدخول المرتبط هذا. أعد تحميل ملفك الشخصي.'],
  [api.IDENTITY_ONLY_WAY_IN_MESSAGE, 'هذه هي الطريقة الوحيدة لتسجيل دخولك إلى هذا الحساب، فلا يمكن إلغاء ربطها.'],
  [api.RETURN_TO_INVALID_MESSAGE, 'يجب أن يكون returnTo صفحة من هذا الموقع أو من أصل مسموح به'],
  [api.SECOND_FACTOR_EXPIRED_MESSAGE, 'انتهت صلاحية تسجيل الدخول هذا. أدخل بريدك الإلكتروني وكلمة المرور مرة أخرى.'],
  [api.TOTP_CODE_WRONG_MESSAGE, 'الرمز غير صحيح أو سبق استخدامه. أدخل الرمز الحالي.'],
  [api.RECOVERY_CODE_WRONG_MESSAGE, 'رمز الاسترداد غير صحيح أو سبق استخدامه.'],
  [api.PASSKEY_FAILED_MESSAGE, 'تعذّر التحقق من مفتاح المرور. حاول مرة أخرى.'],
  [api.PASSKEY_NONE_MESSAGE, 'لا مفتاح مرور لهذا الحساب. استخدم عاملًا ثانيًا آخر.'],
  [
    api.RECOVERY_CODE_REQUIRED_MESSAGE,
    'محاولات خاطئة كثيرة متتالية للعامل الثاني. لحماية حسابك، سجّل الدخول بأحد رموز الاسترداد؛ ' +
      'وبعدها يعمل تطبيق المصادقة ومفاتيح المرور من جديد.',
  ],
  [
    api.SECOND_FACTOR_LOCKED_MESSAGE,
    'محاولات خاطئة كثيرة متتالية للعامل الثاني، ولم يبقَ لهذا الحساب رمز استرداد. اطلب من قسم تقنية المعلومات ' +
      'فتح العامل الثاني له.',
  ],
  [api.CONFIRM_SECOND_FACTOR_MESSAGE, 'أكّد بعاملك الثاني أيضًا: رمز من تطبيق المصادقة، أو مفتاح مرور، أو رمز استرداد.'],
  [api.PASSKEY_DUPLICATE_MESSAGE, 'مفتاح المرور هذا مسجّل من قبل.'],
  [api.TOTP_ALREADY_ON_MESSAGE, 'تطبيق المصادقة مُعدّ من قبل. أزِله أولًا لإعداد تطبيق آخر.'],
  [api.SETUP_EXPIRED_MESSAGE, 'انتهت صلاحية هذا الإعداد. ابدأ من جديد.'],
  [api.PASSWORD_WRONG_MESSAGE, 'كلمة المرور غير صحيحة'],
  [
    api.SECOND_FACTORS_NEED_PASSWORD_MESSAGE,
    'العوامل الثانية للحسابات ذات كلمة المرور؛ لتسجيل الدخول في المستشفى عامله الخاص.',
  ],
]);
