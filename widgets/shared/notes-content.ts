import { formatDateTime, formatOneDecimal, formatSarPrice } from './format.ts';
import type { HistoryEntry } from './account-api.ts';
import { pdfMessages } from './messages/index.ts';
import type { NotesContent } from './notes-pdf.ts';
import { pdfSafe } from './pdf/text.ts';
import type { SelectedPatient } from './session-state.ts';

type Entry = Pick<HistoryEntry, 'toolType' | 'inputs' | 'result'>;

/**
 * How an input of a stored calculation reads in the notes and the entry view, in English (notes go into
 * English-language records; results are stored in English, docs/API.md): its label, and its value with its unit
 * or in words. The labels are the English catalogue's, so the notes name a field as the form does.
 */
interface InputWording {
  label: string;
  value?: (value: unknown) => string;
  unit?: string;
  /** A detail of another field: no line at all when it was not given. */
  detail?: true;
}

const en = pdfMessages;
const yesNo = (value: unknown) => (value === true ? 'yes' : value === false ? 'no' : String(value));
const oneOf =
  (names: Readonly<Record<string, string>>) =>
  (value: unknown): string =>
    names[String(value)] ?? String(value);

const INPUTS: Record<Entry['toolType'], Readonly<Record<string, InputWording>>> = {
  dose_calculator: {
    ageGroup: { label: en.doseCalculator.ageGroup, value: oneOf(en.doseCalculator.ageGroups) },
    bodyWeight: { label: en.doseCalculator.bodyWeight, unit: en.doseCalculator.unitKg },
    nmbaType: { label: en.doseCalculator.nmbaType, value: oneOf(en.doseCalculator.nmbaTypes) },
    creatinine: { label: en.doseCalculator.creatinine, unit: en.doseCalculator.unitMlPerMin },
    // how the creatinine clearance was found, when from the Cockcroft-Gault helper (the FHIR export codes it)
    creatinineMethod: {
      label: 'Creatinine clearance from',
      value: (value) => (value === 'cockcroft_gault' ? 'Cockcroft-Gault, from serum creatinine' : String(value)),
      detail: true,
    },
    tofCount: { label: en.doseCalculator.tofCount },
    ptc: { label: en.doseCalculator.ptc },
    rsiScenario: { label: 'RSI scenario (immediate reversal)', value: yesNo },
    dialysis: { label: 'Dialysis', value: yesNo },
  },
  bradycardia_advisor: {
    weight: { label: en.advisor.weight, unit: en.advisor.units.kg },
    age: { label: en.advisor.age, unit: en.advisor.units.years },
    baselineHr: { label: en.advisor.baselineHr, unit: en.advisor.units.bpm },
    creatinine: { label: en.advisor.creatinine, unit: en.advisor.units.mlPerMin },
    cardiacHistory: { label: en.advisor.cardiacHistory, value: oneOf(en.advisor.cardiacHistories) },
    betaBlocker: { label: en.advisor.betaBlocker, value: yesNo },
    dexmedetomidine: { label: en.advisor.dexmedetomidine, value: yesNo },
    digoxin: { label: en.advisor.digoxin, value: yesNo },
    amiodarone: { label: en.advisor.amiodarone, value: yesNo },
    highDoseOpioids: { label: en.advisor.highDoseOpioids, value: yesNo },
    vagalStimulus: { label: en.advisor.vagalStimulus, value: yesNo },
    conductionDisease: { label: 'Conduction disease', value: yesNo },
    depth: { label: en.advisor.depth, value: oneOf(en.advisor.depths) },
    nmba: { label: en.advisor.nmba, value: oneOf(en.advisor.nmbas) },
    dose: { label: en.doseCalculator.dosePerKg, unit: en.doseCalculator.unitMgPerKg },
  },
  roi_calculator: {
    numberOfCases: { label: en.roi.numberOfCases },
    orCostPerMinute: { label: en.roi.orCostPerMinute, unit: en.roi.unitSarPerMin },
    timeNeostigmine: { label: 'Time to TOF ratio >= 0.9 with neostigmine', unit: en.roi.unitMin },
    timeProduct: { label: 'Time to TOF ratio >= 0.9 with sugammadex', unit: en.roi.unitMin },
    baselinePPCRate: { label: en.roi.baselinePpcRate, unit: en.roi.unitPercent },
    riskRatio: { label: 'Risk ratio of PPCs (fixed)' },
  },
};

/** "Body weight: 72 kg", "Dialysis: no", "Creatinine clearance: not entered". */
function describeInput(toolType: Entry['toolType'], key: string, value: unknown): [string, string] {
  const wording = INPUTS[toolType][key];
  if (value === null || value === undefined || value === '') return [wording?.label ?? key, 'not entered'];
  if (!wording) return [key, String(value)];
  const text = wording.value ? wording.value(value) : String(value);
  return [wording.label, wording.unit ? `${text}${wording.unit === '%' ? '' : ' '}${wording.unit}` : text];
}

/** The inputs and result of a stored calculation as lines for the notes PDF and the entry view (English). */
export function describeEntry(entry: Entry): {
  inputs: [string, string][];
  result: string[];
  warnings: string[];
} {
  const given = (key: string, value: unknown) =>
    !(INPUTS[entry.toolType][key]?.detail && (value === null || value === undefined || value === ''));
  const inputs = Object.entries(entry.inputs)
    .filter(([key, value]) => given(key, value))
    .map(([key, value]) => describeInput(entry.toolType, key, value));
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
            : [[r.title, r.indication ?? r.reason].filter(Boolean).join(': ')],
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
  entry: Entry,
  title: string,
  patient: Pick<SelectedPatient, 'displayName' | 'mrn' | 'yearOfBirth'> | null,
  clinicianName: string | null,
  at: Date,
): NotesContent {
  return { title, patient, clinicianName, generatedAt: at, ...describeEntry(entry) };
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
export function notesLines(content: NotesContent): NotesLine[] {
  const lines: NotesLine[] = [
    { kind: 'title', text: content.title },
    { kind: 'line', text: `Date and time: ${formatDateTime(content.generatedAt)}` },
    {
      kind: 'line',
      text: `Clinician: ${content.clinicianName ? `Dr. ${content.clinicianName}` : 'not signed in (Quick Use)'}`,
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
