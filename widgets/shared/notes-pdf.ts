import type { jsPDF as JsPdf } from 'jspdf';
import { loadJsPdf } from './pdf/load-jspdf.ts';
import { saveBlob, uploadExport, type ExportRecord } from './account-api.ts';
import { formatDateTime, formatFileStamp } from './format.ts';
import { PdfFlow, type TextStyle } from './pdf/layout.ts';
import { pdfSafe } from './pdf/text.ts';
import { existingSessionStore, isAuthenticated, NO_SESSION, type SelectedPatient } from './session-state.ts';

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

const DECISION_SUPPORT =
  'Decision support only: confirm the dose against the product information and clinical judgement.';
/** The notes' own measures: 18 mm to the first baseline, lines of 0.45 mm per pt, one page down to 280 mm. */
const TOP_MM = 18;
const MM_PER_PT = 0.45;
const BOTTOM_MM = 280;

/** A4, one page: the text shrinks to fit rather than spilling onto a second page. */
export function buildNotesPdf(JsPDF: typeof JsPdf, content: NotesContent): JsPdf {
  let flow = layout(JsPDF, content, 10);
  for (const fontSize of [9, 8, 7]) {
    if (flow.y <= BOTTOM_MM) break;
    flow = layout(JsPDF, content, fontSize);
  }
  return flow.doc;
}

function layout(JsPDF: typeof JsPdf, content: NotesContent, fontSize: number): PdfFlow {
  // No page breaks: buildNotesPdf shrinks the text instead.
  const flow = new PdfFlow(JsPDF, {
    lineHeight: (sizePt) => sizePt * MM_PER_PT,
    topMm: TOP_MM,
    baseline: 'alphabetic',
  });
  const body = { sizePt: fontSize };
  const heading = { sizePt: fontSize + 2, bold: true };
  const write = (text: string, style: TextStyle = body, gapAfterMm = 1.5) => flow.writeBlock(text, style, gapAfterMm);
  const blankLine = () => {
    flow.y += flow.lineHeight(fontSize);
  };
  flow.doc.setDocumentProperties({ title: pdfSafe(content.title) });
  write(content.title, { sizePt: fontSize + 6, bold: true }, 3);
  write(`Date and time: ${formatDateTime(content.generatedAt)}`);
  write(`Clinician: ${content.clinicianName ? `Dr. ${content.clinicianName}` : 'not signed in (Quick Use)'}`, body, 4);
  write('Patient', heading);
  if (content.patient) {
    write(`Name / initials: ${content.patient.displayName}`);
    write(`MRN / hospital number: ${content.patient.mrn ?? 'not recorded'}`);
    write(`Year of birth: ${content.patient.yearOfBirth ?? 'not recorded'}`, body, 4);
  } else {
    write('No patient record linked.', body, 4);
  }
  write('Inputs', heading);
  for (const [label, value] of content.inputs) write(`${label}: ${value}`, body, 0.5);
  blankLine();
  write('Result', heading);
  for (const item of content.result) write(item, body, 0.5);
  blankLine();
  if (content.warnings.length) {
    write('Warnings', heading);
    for (const warning of content.warnings) write(`- ${warning}`, body, 0.5);
    blankLine();
  }
  write(DECISION_SUPPORT, { sizePt: fontSize, bold: true });
  return flow;
}

export function notesFileName(at: Date, what: string): string {
  return `${what}-${formatFileStamp(at)}.pdf`;
}

/**
 * "Export PDF to notes": builds the PDF (jsPDF loaded on demand) and downloads it. Signed in, it is
 * also stored with the clinician's exports; in Quick Use nothing is uploaded.
 */
export async function exportNotes(
  apiBase: string,
  content: NotesContent,
  meta: { fileName: string; patientId?: string | null; calculationId?: string | null },
): Promise<{ stored: ExportRecord | null }> {
  const { jsPDF } = await loadJsPdf();
  const blob = buildNotesPdf(jsPDF, content).output('blob');
  const stored = isAuthenticated(existingSessionStore()?.getState() ?? NO_SESSION)
    ? await uploadExport(apiBase, blob, meta)
    : null;
  saveBlob(blob, meta.fileName);
  return { stored };
}
