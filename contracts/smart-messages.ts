// The API's messages of a launch from the EHR and of "Send to EHR" (SMART_*, docs/API.md#smart-app-launch). Kept
// apart from api-messages.ts, whose every text the Arabic pack carries to every Arabic page: these travel with
// the EHR code that shows them (widgets/shared/ehr/texts.ts has their Arabic).
export const SMART_NOT_CONFIGURED_MESSAGE = 'Launch from the EHR is not set up on this server';
export const SMART_HANDOFF_EXPIRED_MESSAGE =
  'This launch from the EHR has expired or was already used. Open the app from the EHR again.';
export const SMART_HANDOFF_OTHER_BROWSER_MESSAGE =
  'This launch from the EHR went through another browser or window, so it was not used here. Open the app from ' +
  'the EHR again.';
export const SMART_NO_EHR_LINK_MESSAGE =
  'This session was not opened from the EHR, or its EHR access has ended. Open the app from the EHR again.';
export const SMART_NO_NOTES_PDF_MESSAGE = 'Export the notes PDF of this calculation first, then send it to the EHR.';
export const SMART_EHR_REFUSED_MESSAGE =
  'The EHR did not accept the document. Nothing was written; try again, or export the PDF to the notes by hand.';
export const SMART_EHR_UNREACHABLE_MESSAGE =
  "The EHR's FHIR server could not be reached. Nothing was written; please try again in a minute.";
/** The EHR took the request but did not answer in time (or the connection broke): it may have filed it. */
export const SMART_EHR_TIMEOUT_MESSAGE =
  "The EHR did not answer in time, so the document may have been filed. Check the patient's chart before you " +
  'send it again.';
/** The `code` beside each of the three: what the page may do next (docs/API.md#smart-app-launch). */
export const SMART_SEND_FAILURE_CODES = {
  refused: 'ehr_refused',
  unreachable: 'ehr_unreachable',
  timeout: 'ehr_timeout',
} as const;
export const SMART_OTHER_PATIENT_MESSAGE =
  'This calculation is not for the patient the EHR opened the app with, so it was not sent.';
