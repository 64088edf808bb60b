/**
 * The emergency card's labels (docs/clinical-reference.md §7): the button that opens it, its controls and the
 * words around each line's dose. The lines, doses and sources come from clinical/ (texts: `emergency`); units are
 * written as in English in every language (docs/arabic-glossary.md).
 */
export const emergency = {
  button: 'Emergency',
  title: 'Emergency: bradycardia and anaphylaxis',
  ageGroup: 'Patient',
  ageGroups: { adult: 'Adult', child: 'Child (under 18)' },
  weight: 'Weight',
  weightHint: "1-200 kg; a child's doses are by weight",
  fromPatient: (name: string) => `The chosen patient's weight (${name})`,
  source: 'Source',
  of: 'of',
  capped: (computed: string) => `Capped at the maximum (${computed} by weight)`,
  raisedToMinimum: (computed: string) => `Raised to the minimum (${computed} by weight)`,
  noWeight: 'No weight entered',
  sources: 'Sources',
  print: 'Print',
  close: 'Close',
  loadFailed: 'The emergency card could not be loaded. Check the connection and try again.',
} as const;
