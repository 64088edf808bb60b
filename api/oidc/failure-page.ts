/** A refused single sign-on: the status, the sentence for the clinician, and a code for clients. */
export interface SignOnRefusal {
  status: number;
  code: string;
  message: string;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/**
 * The page a browser lands on when the provider's answer is refused (the callback is a top-level navigation,
 * so the answer is a page, with the refusal's 4xx status): what happened and a way back to the page the
 * clinician came from. Arabic beside the English: the server does not know the element's language here.
 */
export function failurePage(refusal: SignOnRefusal, displayName: string, returnTo: string): string {
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
<p lang="ar" dir="rtl">لم يكتمل تسجيل الدخول. ارجع إلى الصفحة وحاول مرة أخرى.</p>
<p><a href="${escapeHtml(returnTo)}">Back to the page you came from</a></p>
</main>
</body>
</html>
`;
}
