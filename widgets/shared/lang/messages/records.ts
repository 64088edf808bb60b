/**
 * What the tools and the history say of a calculation's records: saved to the history or not, the patient it is
 * for, and "Export PDF to notes" with its outcome. A section of its own, so that an element carries it without
 * the account area's strings (./account.ts).
 */
export const records = {
  exportNotes: 'Export PDF to notes',
  exportedTitle: 'PDF exported',
  exportedStored: 'Downloaded and stored with your exports.',
  exportedQuickUse: 'Downloaded. Quick Use: nothing is stored.',
  exportFailed: 'Export failed',
  savedToHistory: 'Saved to your history',
  notSavedTitle: 'Not saved to history',
  patientLine: (name: string, mrn: string | null) => (mrn ? `Patient: ${name} (${mrn})` : `Patient: ${name}`),
} as const;
