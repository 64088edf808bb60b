/** A refused single sign-on: the status, the sentence for the clinician, and a code for clients. */
export interface SignOnRefusal {
  status: number;
  code: string;
  message: string;
}

/** A bare OAuth error code (`invalid_client`, `access_denied`): nothing else of the provider's is shown. */
export const OAUTH_ERROR_PATTERN = /^[a-z_]{1,64}$/;

/**
 * Whose setting to check, by the provider's error code (RFC 6749 section 4.1.2.1 and section 5.2, OpenID Connect Core
 * section 3.1.2.6, RFC 6750 section 3.1); a code not listed gets OTHER_ERROR_HINT.
 */
const HINTS: readonly (readonly [codes: readonly string[], hint: (provider: string) => string])[] = [
  [
    ['access_denied'],
    (provider) =>
      `If you should be able to sign in here, ask the hospital's IT to give your account access to this app at ` +
      `${provider}.`,
  ],
  [
    ['invalid_client'],
    (provider) =>
      `Ask the hospital's IT to check the app's registration at ${provider}: its client ID and secret must be ` +
      'the ones this server is set up with (OIDC_CLIENT_ID, OIDC_CLIENT_SECRET).',
  ],
  [
    ['unauthorized_client', 'unsupported_response_type'],
    (provider) =>
      `Ask the hospital's IT to check the app's registration at ${provider}: it must be allowed the ` +
      'authorization code flow.',
  ],
  [
    ['invalid_scope'],
    (provider) =>
      `Ask the hospital's IT to check the app's registration at ${provider}: it must be allowed the scopes this ` +
      'server asks for (OIDC_SCOPES, "openid profile email" by default).',
  ],
  [
    ['invalid_grant'],
    (provider) =>
      `Please start again. If it happens again, ask the hospital's IT to check the app's registration at ` +
      `${provider}: its redirect URI must be this server's.`,
  ],
  [
    ['invalid_token', 'insufficient_scope'],
    (provider) =>
      `Ask the hospital's IT to check the app's registration at ${provider}: it must be allowed to read your ` +
      'profile and e-mail address (UserInfo: the profile and email scopes).',
  ],
  [
    ['login_required', 'consent_required', 'interaction_required', 'account_selection_required'],
    (provider) => `Please start again and finish signing in at ${provider}.`,
  ],
  [
    ['server_error', 'temporarily_unavailable'],
    (provider) => `${provider} had a problem. Please try again in a minute; if it lasts, tell the hospital's IT.`,
  ],
];
/** A Map, not an object: a code such as `constructor` or `__proto__` must find nothing. */
const OAUTH_ERROR_HINTS = new Map(HINTS.flatMap(([codes, hint]) => codes.map((code) => [code, hint] as const)));
const OTHER_ERROR_HINT = (provider: string) => `Ask the hospital's IT to check the app's registration at ${provider}.`;

/** The sentence naming the provider's error code and whose setting to check (the code checked first). */
export function oauthErrorHint(oauthError: string, displayName: string): string | undefined {
  if (!OAUTH_ERROR_PATTERN.test(oauthError)) return undefined;
  const hint = (OAUTH_ERROR_HINTS.get(oauthError) ?? OTHER_ERROR_HINT)(displayName);
  return `${displayName} answered with the error code ${oauthError}. ${hint}`;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/**
 * The page a browser lands on when the provider's answer is refused (the callback is a top-level navigation,
 * so the answer is a page, with the refusal's 4xx status): what happened, the provider's error code when it
 * gave one (never its `error_description`: free text anyone can put in the callback's URL) with whose setting
 * to check, and a way back to the page the clinician came from. Arabic beside the English: the server does not
 * know the element's language here.
 */
export function failurePage(
  refusal: SignOnRefusal,
  displayName: string,
  returnTo: string,
  oauthError?: string,
): string {
  const hint = oauthError === undefined ? undefined : oauthErrorHint(oauthError, displayName);
  const hintLine = hint ? `<p>${escapeHtml(hint)}</p>\n` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign-in did not complete</title>
</head>
<body>
<main>
<h1>Sign-in with ${escapeHtml(displayName)} did not complete</h1>
<p>${escapeHtml(refusal.message)}</p>
${hintLine}<p lang="ar" dir="rtl">لم يكتمل تسجيل الدخول. ارجع إلى الصفحة وحاول مرة أخرى.</p>
<p><a href="${escapeHtml(returnTo)}">Back to the page you came from</a></p>
</main>
</body>
</html>
`;
}
