import { formatDateTime, formatOneDecimal, formatSarPrice } from '../lang/format.ts';
import type { HistoryEntry } from '../session/account-api.ts';
import { pdfSafe } from '../pdf/text.ts';
import type { SelectedPatient } from '../session/session-state.ts';

type Entry = Pick<HistoryEntry, 'toolType' | 'inputs' | 'result'>;

/**
 * How an input of a stored calculation reads in the notes and the entry view, in English (notes go into
 * English-language records; results are stored in English, docs/API.md): its label, and its value with its unit
 * or in words. The labels are the English catalogue's, so the notes name a field as the form does. Each tool's
 * wording is a module of its own (./note-inputs/), so that an element carries only its own tool's.
 */
export interface InputWording {
  label: string;
  value?: (value: unknown) => string;
  unit?: string;
  /** A detail of another field: no line at all when it was not given. */
  detail?: true;
}

/** One tool's inputs, by name, as the notes word them. */
export type ToolInputs = Readonly<Record<string, InputWording>>;

export const yesNo = (value: unknown) => (value === true ? 'yes' : value === false ? 'no' : String(value));
export const oneOf =
  (names: Readonly<Record<string, string>>) =>
  (value: unknown): string =>
    names[String(value)] ?? String(value);

/** "Body weight: 72 kg", "Dialysis: no", "Creatinine clearance: not entered". */
function describeInput(inputs: ToolInputs, key: string, value: unknown): [string, string] {
  const wording = inputs[key];
  if (value === null || value === undefined || value === '') return [wording?.label ?? key, 'not entered'];
  if (!wording) return [key, String(value)];
  const text = wording.value ? wording.value(value) : String(value);
  return [wording.label, wording.unit ? `${text}${wording.unit === '%' ? '' : ' '}${wording.unit}` : text];
}

/**
 * The inputs and result of a stored calculation as lines for the notes PDF and the entry view (English); `inputs`
 * words its tool's inputs (./note-inputs/).
 */
export function describeEntry(
  entry: Entry,
  inputs: ToolInputs,
): {
  inputs: [string, string][];
  result: string[];
  warnings: string[];
} {
  const given = (key: string, value: unknown) =>
    !(inputs[key]?.detail && (value === null || value === undefined || value === ''));
  const lines = Object.entries(entry.inputs)
    .filter(([key, value]) => given(key, value))
    .map(([key, value]) => describeInput(inputs, key, value));
  const r = entry.result;
  const warnings = Array.isArray(r.warnings) ? (r.warnings as string[]) : [];
  switch (entry.toolType) {
    case 'dose_calculator':
      return {
        inputs: lines,
        result:
          r.kind === 'dose'
            ? [
                `${r.indication}`,
                `Dose: ${r.doseMgPerKg} mg/kg = ${r.totalDoseMg} mg`,
                `Volume: ${formatOneDecimal(Number(r.volumeMl))} mL at 100 mg/mL (${r.vials} x 200 mg/2 mL)`,
                `Cost: ${formatSarPrice(Number(r.costSar))} SAR`,
                `${r.administration}`,
              ]
            : [[r.title, r.indication ?? r.reason].filter(Boolean).join(': ')],
        warnings,
      };
    case 'bradycardia_advisor':
      return {
        inputs: lines,
        result: [
          `Bradycardia risk: ${r.riskBand} (${formatOneDecimal(Number(r.riskPercent))}%)`,
          `Dose: ${r.doseMgPerKg} mg/kg = ${r.doseMg} mg (${formatOneDecimal(Number(r.doseMl))} mL)`,
          ...((r.recommendations as { preparation?: string[] } | undefined)?.preparation ?? []),
        ],
        warnings,
      };
    case 'roi_calculator':
      return {
        inputs: lines,
        result: [
          `Time saved: ${r.timeSaved} min (${r.hoursFreed} h)`,
          `Cost saved: ${r.costSaved} SAR`,
          `PPCs avoided: ${r.ppcsAvoided}`,
        ],
        warnings,
      };
  }
}

/** What goes into a one-page PDF for the patient's notes (issue 6). */
export interface NotesContent {
  title: string;
  patient: Pick<SelectedPatient, 'displayName' | 'mrn' | 'yearOfBirth'> | null;
  clinicianName: string | null;
  inputs: [label: string, value: string][];
  result: string[];
  warnings: string[];
  generatedAt: Date;
}

export function notesFor(
  entry: Entry,
  inputs: ToolInputs,
  title: string,
  patient: Pick<SelectedPatient, 'displayName' | 'mrn' | 'yearOfBirth'> | null,
  clinicianName: string | null,
  at: Date,
): NotesContent {
  return { title, patient, clinicianName, generatedAt: at, ...describeEntry(entry, inputs) };
}

/** One line of the notes: the PDF gives each kind its style; as plain text a heading starts a paragraph. */
export interface NotesLine {
  kind: 'title' | 'line' | 'heading' | 'item' | 'closing';
  text: string;
  /** The last line of its block: the PDF leaves more space after it, the plain text a blank line. */
  endsBlock?: boolean;
}

const DECISION_SUPPORT =
  'Decision support only: confirm the dose against the product information and clinical judgement.';

/**
 * The notes, line by line, in the order and words both "Export PDF to notes" (notes-pdf.ts) and "Copy as note"
 * write them, so the two outputs are one note.
 */
/**
 * Who signs the notes: "Dr. <name>" for a named clinician; a signed-in account with no name (an EHR that named
 * nobody) says so, never "Dr." before nothing; Quick Use has no clinician.
 */
function clinicianLine(name: string | null): string {
  if (name === null) return 'not signed in (Quick Use)';
  return name ? `Dr. ${name}` : 'name not given (signed in from the EHR)';
}

export function notesLines(content: NotesContent): NotesLine[] {
  const lines: NotesLine[] = [
    { kind: 'title', text: content.title },
    { kind: 'line', text: `Date and time: ${formatDateTime(content.generatedAt)}` },
    {
      kind: 'line',
      text: `Clinician: ${clinicianLine(content.clinicianName)}`,
      endsBlock: true,
    },
    { kind: 'heading', text: 'Patient' },
  ];
  if (content.patient) {
    lines.push(
      { kind: 'line', text: `Name / initials: ${content.patient.displayName}` },
      { kind: 'line', text: `MRN / hospital number: ${content.patient.mrn ?? 'not recorded'}` },
      { kind: 'line', text: `Year of birth: ${content.patient.yearOfBirth ?? 'not recorded'}`, endsBlock: true },
    );
  } else {
    lines.push({ kind: 'line', text: 'No patient record linked.', endsBlock: true });
  }
  const block = (heading: string, items: string[]) => {
    lines.push({ kind: 'heading', text: heading });
    items.forEach((text, index) => lines.push({ kind: 'item', text, endsBlock: index === items.length - 1 }));
  };
  block(
    'Inputs',
    content.inputs.map(([label, value]) => `${label}: ${value}`),
  );
  block('Result', content.result);
  if (content.warnings.length)
    block(
      'Warnings',
      content.warnings.map((warning) => `- ${warning}`),
    );
  lines.push({ kind: 'closing', text: DECISION_SUPPORT });
  return lines;
}

/**
 * The notes as plain text for the clipboard: the PDF's lines, with the PDF's characters (pdfSafe: ">=" for "≥"),
 * a blank line after each block, and no invisible bidi marks, so that an English or ASCII record shows exactly
 * what the PDF shows.
 */
export function notesText(content: NotesContent): string {
  return notesLines(content)
    .map((line) => pdfSafe(line.text).replace(/[\u2066-\u2069]/g, '') + (line.endsBlock ? '\n' : ''))
    .join('\n');
}
