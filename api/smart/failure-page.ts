/** A refused launch from the EHR: the status, the sentence in English and in Arabic, and a code for clients. */
export interface LaunchRefusal {
  status: number;
  code: string;
  message: string;
  arabic: string;
}

/**
 * What the EHR answered, for IT: its OAuth error code (`invalid_scope`) or its FHIR server's HTTP status
 * (`HTTP 401`), never the free text beside it; and whose setting to check, in both languages.
 */
export interface EhrAnswer {
  answer: string;
  advice: { en: string; ar: string };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/**
 * The page a launch from the EHR ends on when it is refused (the launch and the callback are top-level or
 * frame navigations, so the answer is a page with the refusal's 4xx or 5xx status): what happened, in
 * English and Arabic (the server does not know the clinician's language here), what the EHR answered when it
 * answered something IT can look up, and what to do.
 */
export function launchFailurePage(refusal: LaunchRefusal, ehr?: EhrAnswer): string {
  const answer = ehr ? `<code>${escapeHtml(ehr.answer)}</code>` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>The launch from the EHR did not complete</title>
</head>
<body>
<main>
<h1>The launch from the EHR did not complete</h1>
<p id="smart-refusal" data-code="${escapeHtml(refusal.code)}">${escapeHtml(refusal.message)}</p>
${
  ehr
    ? `<p id="smart-ehr-answer">The EHR answered: ${answer}.</p>
<p id="smart-advice">${escapeHtml(ehr.advice.en)}</p>
`
    : ''
}<h2 lang="ar" dir="rtl">لم يكتمل فتح التطبيق من السجل الصحي الإلكتروني</h2>
<p lang="ar" dir="rtl">${escapeHtml(refusal.arabic)}</p>
${
  ehr
    ? `<p lang="ar" dir="rtl">أجاب السجل الصحي الإلكتروني: <bdi dir="ltr">${answer}</bdi>.</p>
<p lang="ar" dir="rtl">${escapeHtml(ehr.advice.ar)}</p>
`
    : ''
}</main>
</body>
</html>
`;
}
