import { ltr } from '../../../clinical/bidi.ts';
import type { Catalogue } from '../../../clinical/texts/catalogue.ts';
import { SECURITY_SERVER_AR } from '../../shared/lang/messages/ar/security-server.ts';
import { useWidgetHost, useWidgetLang, type WidgetHost } from '../../shared/widget-host/widget-context.ts';

// The texts of single sign-on, the second factor and the profile's sign-in section, in both languages, kept
// apart from the elements' catalogue (widgets/shared/lang/messages/): they travel with the code that shows them,
// which loads only when the sign-in dialog or the profile opens, so no element's first download carries them.

const en = {
  // The sign-in tab
  ssoButton: (name: string) => `Sign in with ${name}`,
  ssoOr: 'or with your e-mail and password',
  ssoOnly: 'Sign in with your hospital account.',
  ssoLoadFailed: 'The sign-in options could not be loaded. E-mail and password still work.',
  linkTitle: 'Link your hospital sign-in',
  linkText: (name: string) =>
    `An account with your e-mail is here already. Sign in with its password once to link it to ${name}; ` +
    `after that, the ${name} button signs you in.`,
  linkedTitle: 'Hospital sign-in linked',
  linkedText: (name: string) => `From now on, you can sign in with ${name}.`,
  linkWho: (provider: string, name: string | null, email: string) =>
    `To link: ${name ? `${name}, ` : ''}${email}, signed in at ${provider}.`,
  linkRefused: 'Nothing was linked.',
  ssoFailedTitle: 'Hospital sign-in failed',
  // Another session handed over while this page holds one
  switchTitle: 'Switch account?',
  switchText: (current: string | null, next: string) =>
    current
      ? `You are signed in as ${current}. Continue as ${next}?`
      : `This page is signed in with another account. Continue as ${next}?`,
  switchContinue: (next: string) => `Continue as ${next}`,
  switchStay: 'Stay as I am',

  // The second step of a password sign-in
  secondFactorLabel: 'Second factor',
  totpIntro: 'Enter the 6-digit code your authenticator app shows.',
  totpCode: 'Authenticator code',
  totpHint: '6 digits',
  recoveryIntro: 'Enter one of the recovery codes you saved. Each works once.',
  recoveryCode: 'Recovery code',
  codeRequired: 'Enter the code',
  verify: 'Verify',
  usePasskey: 'Use a passkey',
  useRecoveryCode: 'Use a recovery code',
  useAuthenticator: 'Use the authenticator app',
  back: 'Back',
  passkeyCancelled: 'The passkey was not used. Try again, or use another second factor.',
  recoveryLeft: (left: number) =>
    left === 1
      ? 'Signed in with a recovery code: 1 is left. Make new ones in your profile.'
      : `Signed in with a recovery code: ${left} are left. Make new ones in your profile when few are left.`,

  // The profile's sign-in section
  heading: 'Sign-in and security',
  loadFailed: 'Could not load the sign-in settings',
  requiredNotice:
    'Your hospital requires a second factor for accounts with a password: set one up below to open patient data.',
  secondFactors: 'Second factor',
  ssoAccount: 'You sign in with your hospital account: its second factor, if it has one, is set up at the hospital.',
  totpLabel: 'Authenticator app',
  totpOn: (date: string) => `Set up ${date}`,
  totpOff: 'Not set up',
  totpSetUp: 'Set up an authenticator app',
  totpScan:
    'Scan the QR code with your authenticator app (such as Microsoft Authenticator or Google Authenticator), ' +
    'or type the key into it, then enter the 6-digit code it shows.',
  totpKey: 'Key',
  totpQr: 'QR code for your authenticator app',
  confirm: 'Confirm',
  cancel: 'Cancel',
  remove: 'Remove',
  removeConfirm: 'Your password, to remove it',
  // Confirming it is the clinician before a second factor is added or the other sessions are signed out
  stepUpIntro: 'To confirm it is you, enter your password.',
  stepUpIntroWithFactor: 'To confirm it is you, enter your password and use your second factor.',
  stepUpPassword: 'Your password',
  stepUpPasswordRequired: 'Enter your password',
  passkeys: 'Passkeys',
  passkeysNone: 'No passkey yet',
  passkeyAdd: 'Add a passkey',
  passkeyName: 'Name (optional)',
  passkeyUnsupported: 'This browser cannot use passkeys.',
  passkeyCreated: (date: string) => `Added ${date}`,
  lastUsed: (date: string) => `Last used ${date}`,
  neverUsed: 'Not used yet',
  recoveryCodes: 'Recovery codes',
  recoveryLeftCount: (left: number) => (left === 1 ? '1 of 10 left' : `${left} of 10 left`),
  recoveryRenew: 'Make new recovery codes',
  recoveryRenewConfirm: 'Your password, to make new codes',
  recoveryShowOnce:
    'Save these codes now, somewhere safe: each signs you in once if you lose your phone or passkey. ' +
    'They are not shown again.',
  copy: 'Copy',
  copied: 'Copied',
  download: 'Download',
  saved: 'I have saved them',
  passwordToConfirm: 'Password',
  factorOnTitle: 'Second factor set up',
  factorOnText: 'Every other session of your account has been signed out.',
  factorRemoved: 'Second factor removed',
  codesRenewed: 'New recovery codes made: the old ones no longer work.',
  linkedHeading: 'Hospital sign-in',
  linkedTo: (name: string, date: string) => `Linked to ${name} since ${date}`,
  linkedToUnknown: (issuer: string, date: string) => `Linked to ${ltr(issuer)} since ${date}`,
  unlink: 'Unlink',
  unlinkConfirm: 'Unlink this sign-in',
  unlinkedTitle: 'Sign-in unlinked',
  sessions: 'Active sessions',
  unknownDevice: 'Unknown device',
  thisDevice: 'This device',
  sessionLastUsed: (date: string) => `Last used ${date}`,
  methods: {
    password: 'Password',
    'password+totp': 'Password and authenticator app',
    'password+passkey': 'Password and passkey',
    'password+recovery': 'Password and recovery code',
    oidc: 'Hospital sign-in',
    'oidc+mfa': 'Hospital sign-in with a second factor',
    smart: 'From the EHR',
    'smart+mfa': 'From the EHR with a second factor',
  } as Record<string, string>,
  endOthers: 'Sign out of all other sessions',
  endedOthers: (count: number) =>
    count === 1 ? 'The other session was signed out.' : `${count} other sessions were signed out.`,
  noOthers: 'No other session is open.',
  failed: 'Could not complete',
};

export type SecurityTexts = Catalogue<typeof en>;

const ar: SecurityTexts = {
  ssoButton: (name: string) => `تسجيل الدخول عبر ${name}`,
  ssoOr: 'أو بالبريد الإلكتروني وكلمة المرور',
  ssoOnly: 'سجّل الدخول بحسابك في المستشفى.',
  ssoLoadFailed: 'تعذّر تحميل خيارات تسجيل الدخول. ما زال الدخول بالبريد الإلكتروني وكلمة المرور متاحًا.',
  linkTitle: 'اربط تسجيل الدخول في المستشفى',
  linkText: (name: string) =>
    `يوجد هنا حساب ببريدك الإلكتروني. سجّل الدخول بكلمة مروره مرة واحدة لربطه بـ${name}؛ ` +
    `بعدها يُدخلك زر ${name} مباشرة.`,
  linkedTitle: 'رُبط تسجيل الدخول في المستشفى',
  linkedText: (name: string) => `يمكنك من الآن تسجيل الدخول عبر ${name}.`,
  linkWho: (provider: string, name: string | null, email: string) =>
    `المراد ربطه: ${name ? `${name}، ` : ''}${ltr(email)}، بتسجيل الدخول في ${provider}.`,
  linkRefused: 'لم يُربط شيء.',
  ssoFailedTitle: 'تعذّر تسجيل الدخول عبر المستشفى',
  switchTitle: 'تبديل الحساب؟',
  switchText: (current: string | null, next: string) =>
    current
      ? `أنت مسجّل الدخول باسم ${current}. هل تتابع باسم ${next}؟`
      : `هذه الصفحة مسجّلة الدخول بحساب آخر. هل تتابع باسم ${next}؟`,
  switchContinue: (next: string) => `المتابعة باسم ${next}`,
  switchStay: 'البقاء كما أنا',

  secondFactorLabel: 'العامل الثاني',
  totpIntro: `أدخل الرمز المكوّن من ${ltr('6')} أرقام الذي يعرضه تطبيق المصادقة.`,
  totpCode: 'رمز تطبيق المصادقة',
  totpHint: `${ltr('6')} أرقام`,
  recoveryIntro: 'أدخل أحد رموز الاسترداد التي حفظتها. يصلح كل رمز مرة واحدة.',
  recoveryCode: 'رمز الاسترداد',
  codeRequired: 'أدخل الرمز',
  verify: 'تحقّق',
  usePasskey: 'استخدم مفتاح مرور',
  useRecoveryCode: 'استخدم رمز استرداد',
  useAuthenticator: 'استخدم تطبيق المصادقة',
  back: 'رجوع',
  passkeyCancelled: 'لم يُستخدم مفتاح المرور. حاول مرة أخرى، أو استخدم عاملًا ثانيًا آخر.',
  recoveryLeft: (left: number) =>
    left === 1
      ? `سجّلت الدخول برمز استرداد: بقي ${ltr('1')}. أنشئ رموزًا جديدة من ملفك الشخصي.`
      : `سجّلت الدخول برمز استرداد: بقي ${ltr(String(left))}. أنشئ رموزًا جديدة من ملفك الشخصي حين تقلّ.`,

  heading: 'تسجيل الدخول والأمان',
  loadFailed: 'تعذّر تحميل إعدادات تسجيل الدخول',
  requiredNotice: 'يشترط المستشفى عاملًا ثانيًا للحسابات ذات كلمة المرور: أعدّه أدناه لفتح بيانات المرضى.',
  secondFactors: 'العامل الثاني',
  ssoAccount: 'تسجّل الدخول بحسابك في المستشفى: يُعدّ عامله الثاني، إن وُجد، لدى المستشفى.',
  totpLabel: 'تطبيق المصادقة',
  totpOn: (date: string) => `أُعدّ في ${date}`,
  totpOff: 'غير مُعدّ',
  totpSetUp: 'إعداد تطبيق مصادقة',
  totpScan:
    'امسح رمز الاستجابة السريعة بتطبيق المصادقة (مثل Microsoft Authenticator أو Google Authenticator)، ' +
    `أو اكتب المفتاح فيه، ثم أدخل الرمز المكوّن من ${ltr('6')} أرقام الذي يعرضه.`,
  totpKey: 'المفتاح',
  totpQr: 'رمز الاستجابة السريعة لتطبيق المصادقة',
  confirm: 'تأكيد',
  cancel: 'إلغاء',
  remove: 'إزالة',
  removeConfirm: 'كلمة المرور، لإزالته',
  stepUpIntro: 'للتأكد من أنك أنت، أدخل كلمة المرور.',
  stepUpIntroWithFactor: 'للتأكد من أنك أنت، أدخل كلمة المرور واستخدم عاملك الثاني.',
  stepUpPassword: 'كلمة المرور',
  stepUpPasswordRequired: 'أدخل كلمة المرور',
  passkeys: 'مفاتيح المرور',
  passkeysNone: 'لا يوجد مفتاح مرور بعد',
  passkeyAdd: 'إضافة مفتاح مرور',
  passkeyName: 'الاسم (اختياري)',
  passkeyUnsupported: 'لا يدعم هذا المتصفح مفاتيح المرور.',
  passkeyCreated: (date: string) => `أُضيف في ${date}`,
  lastUsed: (date: string) => `آخر استخدام ${date}`,
  neverUsed: 'لم يُستخدم بعد',
  recoveryCodes: 'رموز الاسترداد',
  recoveryLeftCount: (left: number) => `بقي ${ltr(String(left))} من ${ltr('10')}`,
  recoveryRenew: 'إنشاء رموز استرداد جديدة',
  recoveryRenewConfirm: 'كلمة المرور، لإنشاء رموز جديدة',
  recoveryShowOnce:
    'احفظ هذه الرموز الآن في مكان آمن: يُدخلك كل رمز مرة واحدة إن فقدت هاتفك أو مفتاح المرور. ' + 'لن تُعرض مرة أخرى.',
  copy: 'نسخ',
  copied: 'نُسخت',
  download: 'تنزيل',
  saved: 'حفظتها',
  passwordToConfirm: 'كلمة المرور',
  factorOnTitle: 'أُعدّ العامل الثاني',
  factorOnText: 'سُجّل الخروج من كل جلسة أخرى لحسابك.',
  factorRemoved: 'أُزيل العامل الثاني',
  codesRenewed: 'أُنشئت رموز استرداد جديدة: لم تعد الرموز القديمة تعمل.',
  linkedHeading: 'تسجيل الدخول في المستشفى',
  linkedTo: (name: string, date: string) => `مرتبط بـ${name} منذ ${date}`,
  linkedToUnknown: (issuer: string, date: string) => `مرتبط بـ${ltr(issuer)} منذ ${date}`,
  unlink: 'إلغاء الربط',
  unlinkConfirm: 'إلغاء ربط تسجيل الدخول هذا',
  unlinkedTitle: 'أُلغي ربط تسجيل الدخول',
  sessions: 'الجلسات النشطة',
  unknownDevice: 'جهاز غير معروف',
  thisDevice: 'هذا الجهاز',
  sessionLastUsed: (date: string) => `آخر استخدام ${date}`,
  methods: {
    password: 'كلمة المرور',
    'password+totp': 'كلمة المرور وتطبيق المصادقة',
    'password+passkey': 'كلمة المرور ومفتاح المرور',
    'password+recovery': 'كلمة المرور ورمز الاسترداد',
    oidc: 'تسجيل الدخول في المستشفى',
    'oidc+mfa': 'تسجيل الدخول في المستشفى بعامل ثانٍ',
    smart: 'من السجل الصحي الإلكتروني',
    'smart+mfa': 'من السجل الصحي الإلكتروني بعامل ثانٍ',
  },
  endOthers: 'تسجيل الخروج من كل الجلسات الأخرى',
  endedOthers: (count: number) =>
    count === 1 ? 'سُجّل الخروج من الجلسة الأخرى.' : `سُجّل الخروج من ${ltr(String(count))} جلسات أخرى.`,
  noOthers: 'لا توجد جلسة أخرى مفتوحة.',
  failed: 'تعذّر الإكمال',
};

export const SECURITY_TEXTS = { en, ar } as const;

/** The texts in the element's language. */
export const useSecurityTexts = (): SecurityTexts => SECURITY_TEXTS[useWidgetLang()];

/** A message of the API in the element's language: the sign-in messages kept here, else the element's own. */
export const serverText = (host: Pick<WidgetHost, 'lang' | 'serverMessage'>, text: string): string =>
  (host.lang === 'ar' && SECURITY_SERVER_AR.get(text)) || host.serverMessage(text);

export function useServerText(): (text: string) => string {
  const host = useWidgetHost();
  return (text) => serverText(host, text);
}
