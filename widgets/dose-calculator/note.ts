import { calculateDose, DOSE_CALCULATOR_TEXTS_EN, type DoseCalculatorInput } from '../../clinical/index.ts';
import type { HistoryEntry } from '../shared/session/account-api.ts';
import { doseCalculator } from '../shared/lang/messages/dose-calculator.ts';
import { notesFor, notesText } from '../shared/notes/notes-content.ts';
import { DOSE_CALCULATOR_INPUTS } from '../shared/notes/inputs/dose-calculator.ts';
import type { SelectedPatient } from '../shared/session/session-state.ts';

/**
 * The calculation as "Export PDF to notes" and "Copy as note" describe it: the same inputs, worked out with the
 * English clinical texts whatever the element's language (notes go into English-language records; jsPDF has no
 * Arabic glyphs: ../shared/messages/index.ts).
 */
export function doseNotesEntry(input: DoseCalculatorInput): Pick<HistoryEntry, 'toolType' | 'inputs' | 'result'> {
  return {
    toolType: 'dose_calculator',
    inputs: input as unknown as Record<string, unknown>,
    result: calculateDose(input, DOSE_CALCULATOR_TEXTS_EN) as unknown as Record<string, unknown>,
  };
}

/**
 * The plain text "Copy as note" puts on the clipboard: the very note "Export PDF to notes" writes
 * (../shared/notes-content.ts), in English, with no bidi marks. The time is passed in.
 */
export function doseNote(
  input: DoseCalculatorInput,
  patient: Pick<SelectedPatient, 'displayName' | 'mrn' | 'yearOfBirth'> | null,
  clinicianName: string | null,
  at: Date,
): string {
  const entry = doseNotesEntry(input);
  return notesText(notesFor(entry, DOSE_CALCULATOR_INPUTS, doseCalculator.title, patient, clinicianName, at));
}
