import { formatOneDecimal, formatSarPrice } from './format.ts';
import type { HistoryEntry } from './account-api.ts';
import type { NotesContent } from './notes-pdf.ts';
import type { SelectedPatient } from './session-state.ts';

/** The inputs and result of a stored calculation as lines for the notes PDF and the entry view. */
export function describeEntry(entry: Pick<HistoryEntry, 'toolType' | 'inputs' | 'result'>): {
  inputs: [string, string][];
  result: string[];
  warnings: string[];
} {
  const inputs = Object.entries(entry.inputs).map(([key, value]): [string, string] => [
    key,
    value === null || value === '' ? 'not entered' : String(value),
  ]);
  const r = entry.result;
  const warnings = Array.isArray(r.warnings) ? (r.warnings as string[]) : [];
  switch (entry.toolType) {
    case 'dose_calculator':
      return {
        inputs,
        result:
          r.kind === 'dose'
            ? [
                `${r.indication}`,
                `Dose: ${r.doseMgPerKg} mg/kg = ${r.totalDoseMg} mg`,
                `Volume: ${formatOneDecimal(Number(r.volumeMl))} mL at 100 mg/mL (${r.vials} x 200 mg/2 mL)`,
                `Cost: ${formatSarPrice(Number(r.costSar))} SAR`,
                `${r.administration}`,
              ]
            : [`${r.indication}`],
        warnings,
      };
    case 'bradycardia_advisor':
      return {
        inputs,
        result: [
          `Bradycardia risk: ${r.riskBand} (${formatOneDecimal(Number(r.riskPercent))}%)`,
          `Dose: ${r.doseMgPerKg} mg/kg = ${r.doseMg} mg (${formatOneDecimal(Number(r.doseMl))} mL)`,
          ...((r.recommendations as { preparation?: string[] } | undefined)?.preparation ?? []),
        ],
        warnings,
      };
    case 'roi_calculator':
      return {
        inputs,
        result: [
          `Time saved: ${r.timeSaved} min (${r.hoursFreed} h)`,
          `Cost saved: ${r.costSaved} SAR`,
          `PPCs avoided: ${r.ppcsAvoided}`,
        ],
        warnings,
      };
  }
}

export function notesFor(
  entry: Pick<HistoryEntry, 'toolType' | 'inputs' | 'result'>,
  title: string,
  patient: Pick<SelectedPatient, 'displayName' | 'mrn' | 'yearOfBirth'> | null,
  clinicianName: string | null,
  at: Date,
): NotesContent {
  return { title, patient, clinicianName, generatedAt: at, ...describeEntry(entry) };
}
