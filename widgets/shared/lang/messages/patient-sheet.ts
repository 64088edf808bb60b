/**
 * What an element shows of the patient sheet before its dialog has loaded (the dialog brings its own texts,
 * `patientSheetDialog`): the button, and its failures.
 */
export const patientSheet = {
  button: 'Patient sheet',
  failed: 'The patient sheet could not be made',
  loadFailed: 'The sheet could not be loaded. Check the connection and try again.',
};
