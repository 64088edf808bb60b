import type { OidcFlowError } from '../oidc/client.ts';
import type { LaunchRefusal } from './failure-page.ts';

/** Every way a launch is refused: its status, what the page says in English and Arabic, and a code. */
export const REFUSALS: Record<
  | OidcFlowError['failure']
  | 'bad_launch'
  | 'unknown_iss'
  | 'no_patient'
  | 'no_fhir_user'
  | 'fhir_unavailable'
  | 'cookie_blocked'
  | 'not_configured',
  LaunchRefusal
> = {
  bad_launch: {
    status: 400,
    code: 'smart_bad_launch',
    message: 'This address is opened by the EHR, with its iss and launch parameters. Open the app from the EHR.',
    arabic: 'يُفتح هذا العنوان من السجل الصحي الإلكتروني مع معاملَي iss وlaunch. افتح التطبيق من السجل الصحي.',
  },
  unknown_iss: {
    status: 403,
    code: 'smart_unknown_iss',
    message:
      'This EHR is not one this app is set up to open from (its address is not in SMART_ALLOWED_ISSUERS). ' +
      'Ask IT to add it.',
    arabic:
      'هذا السجل الصحي الإلكتروني ليس من السجلات المسموح للتطبيق بالفتح منها (عنوانه ليس في SMART_ALLOWED_ISSUERS). ' +
      'اطلب من قسم تقنية المعلومات إضافته.',
  },
  unknown_state: {
    status: 400,
    code: 'smart_expired',
    message: 'This launch has expired or was already used. Open the app from the EHR again.',
    arabic: 'انتهت صلاحية هذا الفتح أو سبق استخدامه. افتح التطبيق من السجل الصحي الإلكتروني مرة أخرى.',
  },
  binding_mismatch: {
    status: 400,
    code: 'smart_other_browser',
    message: 'This launch was started in another browser or window. Open the app from the EHR again.',
    arabic: 'بدأ هذا الفتح في متصفح آخر أو نافذة أخرى. افتح التطبيق من السجل الصحي الإلكتروني مرة أخرى.',
  },
  cookie_blocked: {
    status: 400,
    code: 'smart_cookie_blocked',
    message:
      'Your browser did not keep the cookie this launch needs, so it could not be finished safely. Allow cookies ' +
      'for this app in the EHR (or open the app in its own window), then open it from the EHR again.',
    arabic:
      'لم يحتفظ متصفحك بملف تعريف الارتباط الذي يحتاجه هذا الفتح، فتعذّر إكماله بأمان. اسمح بملفات تعريف الارتباط ' +
      'لهذا التطبيق في السجل الصحي الإلكتروني (أو افتحه في نافذة مستقلة)، ثم افتحه من السجل الصحي مرة أخرى.',
  },
  provider_error: {
    status: 401,
    code: 'smart_refused',
    message: 'The EHR did not authorise the app (it was cancelled or refused).',
    arabic: 'لم يأذن السجل الصحي الإلكتروني للتطبيق (أُلغي الطلب أو رُفض).',
  },
  invalid_response: {
    status: 401,
    code: 'smart_invalid',
    message: "The EHR's answer could not be verified, so you were not signed in. Open the app from the EHR again.",
    arabic: 'تعذّر التحقق من إجابة السجل الصحي الإلكتروني، فلم يتم تسجيل دخولك. افتح التطبيق من السجل الصحي مرة أخرى.',
  },
  tenant_not_allowed: {
    status: 403,
    code: 'smart_invalid',
    message: "The EHR's answer could not be verified, so you were not signed in. Open the app from the EHR again.",
    arabic: 'تعذّر التحقق من إجابة السجل الصحي الإلكتروني، فلم يتم تسجيل دخولك. افتح التطبيق من السجل الصحي مرة أخرى.',
  },
  no_patient: {
    status: 403,
    code: 'smart_no_patient',
    message: 'The EHR opened the app without a patient. Open it from a patient\u2019s chart.',
    arabic: 'فتح السجل الصحي الإلكتروني التطبيق دون مريض. افتحه من ملف المريض.',
  },
  no_fhir_user: {
    status: 403,
    code: 'smart_no_fhir_user',
    message: 'The EHR did not say who you are (no fhirUser), so you were not signed in. Ask IT to grant fhirUser.',
    arabic:
      'لم يحدد السجل الصحي الإلكتروني هويتك (لا يوجد fhirUser)، فلم يتم تسجيل دخولك. ' +
      'اطلب من قسم تقنية المعلومات منح fhirUser.',
  },
  fhir_unavailable: {
    status: 502,
    code: 'smart_fhir_unavailable',
    message: "The patient could not be read from the EHR's FHIR server. Please open the app from the EHR again.",
    arabic: 'تعذّرت قراءة بيانات المريض من خادم FHIR في السجل الصحي الإلكتروني. افتح التطبيق من السجل الصحي مرة أخرى.',
  },
  unavailable: {
    status: 503,
    code: 'smart_unavailable',
    message: "The EHR's sign-in could not be reached or is not set up for SMART. Please try again in a minute.",
    arabic: 'تعذّر الوصول إلى تسجيل الدخول في السجل الصحي أو أنه غير مُعدّ لـ SMART. حاول مرة أخرى بعد دقيقة.',
  },
  not_configured: {
    status: 404,
    code: 'smart_not_configured',
    message: 'Launch from the EHR is not set up on this server.',
    arabic: 'الفتح من السجل الصحي الإلكتروني غير مُعدّ على هذا الخادم.',
  },
};

/** A sentence in both languages, for the refusal page's "what to check" line. */
export interface Advice {
  en: string;
  ar: string;
}

/**
 * Whose setting to check for an OAuth error code the EHR answered (RFC 6749 sections 4.1.2.1 and 5.2), on the
 * refusal
 * page beside the code, so that IT can act on it without the server's log.
 */
export function adviceForOauthError(code: string): Advice {
  switch (code) {
    case 'invalid_client':
    case 'unauthorized_client':
      return {
        en:
          "Ask IT to compare the app's settings (SMART_CLIENT_ID, its secret or key, SMART_CLIENT_AUTH) with " +
          "the app's registration at the EHR.",
        ar:
          'اطلب من قسم تقنية المعلومات مطابقة إعدادات التطبيق (SMART_CLIENT_ID والسر أو المفتاح وSMART_CLIENT_AUTH) ' +
          'مع تسجيل التطبيق في السجل الصحي الإلكتروني.',
      };
    case 'invalid_scope':
      return {
        en:
          'Ask IT to check the scopes the app is registered for at the ' +
          'EHR: they must include every scope it asks for.',
        ar:
          'اطلب من قسم تقنية المعلومات مراجعة الصلاحيات المسجلة للتطبيق ' +
          'في السجل الصحي: يجب أن تشمل كل صلاحية يطلبها.',
      };
    case 'invalid_request':
      return {
        en: "Ask IT to check the app's registration at the EHR, its redirect URI first (PUBLIC_URL/smart/callback).",
        ar:
          'اطلب من قسم تقنية المعلومات مراجعة تسجيل التطبيق في السجل الصحي، ' +
          'وأولها عنوان إعادة التوجيه (PUBLIC_URL/smart/callback).',
      };
    case 'access_denied':
      return {
        en:
          'The app was declined at the EHR. If you did not decline it, ask the ' +
          "EHR's administrators whether it is allowed for you.",
        ar: 'رُفض التطبيق في السجل الصحي. إن لم ترفضه أنت، فاسأل مسؤولي السجل الصحي هل هو مسموح لك.',
      };
    case 'invalid_grant':
      return {
        en:
          'The launch took too long or was used twice. Open the app from the EHR again; if it happens again, ask IT ' +
          "to check this server's clock and the EHR's.",
        ar:
          'استغرق الفتح وقتًا طويلًا أو استُخدم مرتين. افتح التطبيق من ' +
          'السجل الصحي مرة أخرى؛ وإن تكرر ذلك، فاطلب من قسم ' +
          'تقنية المعلومات مراجعة ساعة هذا الخادم وساعة السجل الصحي.',
      };
    case 'server_error':
    case 'temporarily_unavailable':
      return {
        en:
          "The EHR's sign-in had a problem of its own. Try again in a " +
          "minute; if it goes on, tell the EHR's administrators.",
        ar:
          'واجه تسجيل الدخول في السجل الصحي مشكلة من جهته. حاول مرة أخرى ' +
          'بعد دقيقة؛ وإن استمرت، فأبلغ مسؤولي السجل الصحي.',
      };
    default:
      return {
        en: "Ask IT to check the app's registration at the EHR.",
        ar: 'اطلب من قسم تقنية المعلومات مراجعة تسجيل التطبيق في السجل الصحي الإلكتروني.',
      };
  }
}

/** Whose setting to check when the EHR's FHIR server refused to give the launch's patient. */
export function adviceForFhirStatus(status: number | undefined): Advice {
  if (status === 401 || status === 403)
    return {
      en:
        "Ask IT to check that the app's registration at the EHR grants " +
        'patient/Patient.rs and patient/Observation.rs.',
      ar:
        'اطلب من قسم تقنية المعلومات التأكد من أن تسجيل التطبيق في السجل ' +
        'الصحي يمنح patient/Patient.rs وpatient/Observation.rs.',
    };
  if (status === 404)
    return {
      en: "The EHR did not find the patient it opened the app for. Ask the EHR's administrators.",
      ar: 'لم يجد السجل الصحي المريض الذي فتح التطبيق له. اسأل مسؤولي السجل الصحي.',
    };
  return {
    en:
      "The EHR's FHIR server had a problem of its own. Try again in a " +
      "minute; if it goes on, tell the EHR's administrators.",
    ar: 'واجه خادم FHIR في السجل الصحي مشكلة من جهته. حاول مرة أخرى بعد دقيقة؛ وإن استمرت، فأبلغ مسؤولي السجل الصحي.',
  };
}
