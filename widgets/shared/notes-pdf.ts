import type { jsPDF as JsPdf } from 'jspdf';
import { pdfSafe } from '../roi-calculator/pdf-report.ts';
import { saveBlob, uploadExport, type ExportRecord } from './account-api.ts';
import { isAuthenticated, sessionStore, type SelectedPatient } from './session-store.ts';

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

export const NOTES_TEXT_WIDTH_MM = 170;
const DECISION_SUPPORT = 'Decision support only: confirm the dose against the product information and clinical judgement.';

/** A4, one page: the text shrinks to fit rather than spilling onto a second page. */
export function buildNotesPdf(JsPDF: typeof JsPdf, content: NotesContent): JsPdf {
  for (const fontSize of [10, 9, 8, 7]) {
    const doc = new JsPDF({ unit: 'mm', format: 'a4' });
    if (layout(doc, content, fontSize) <= 280) return doc;
  }
  const doc = new JsPDF({ unit: 'mm', format: 'a4' });
  layout(doc, content, 7);
  return doc;
}

function layout(doc: JsPdf, content: NotesContent, fontSize: number): number {
  const line = fontSize * 0.45;
  let y = 18;
  const write = (text: string, options: { bold?: boolean; size?: number; gap?: number } = {}) => {
    doc.setFont('helvetica', options.bold ? 'bold' : 'normal');
    doc.setFontSize(options.size ?? fontSize);
    const lines = doc.splitTextToSize(pdfSafe(text), NOTES_TEXT_WIDTH_MM) as string[];
    doc.text(lines, 20, y);
    y += lines.length * ((options.size ?? fontSize) * 0.45) + (options.gap ?? 1.5);
  };
  doc.setDocumentProperties({ title: pdfSafe(content.title) });
  write(content.title, { bold: true, size: fontSize + 6, gap: 3 });
  write(`Date and time: ${formatDateTime(content.generatedAt)}`);
  write(`Clinician: ${content.clinicianName ? `Dr. ${content.clinicianName}` : 'not signed in (Quick Use)'}`, { gap: 4 });
  write('Patient', { bold: true, size: fontSize + 2 });
  if (content.patient) {
    write(`Name / initials: ${content.patient.displayName}`);
    write(`MRN / hospital number: ${content.patient.mrn ?? 'not recorded'}`);
    write(`Year of birth: ${content.patient.yearOfBirth ?? 'not recorded'}`, { gap: 4 });
  } else {
    write('No patient record linked.', { gap: 4 });
  }
  write('Inputs', { bold: true, size: fontSize + 2 });
  for (const [label, value] of content.inputs) write(`${label}: ${value}`, { gap: 0.5 });
  y += line;
  write('Result', { bold: true, size: fontSize + 2 });
  for (const item of content.result) write(item, { gap: 0.5 });
  y += line;
  if (content.warnings.length) {
    write('Warnings', { bold: true, size: fontSize + 2 });
    for (const warning of content.warnings) write(`- ${warning}`, { gap: 0.5 });
    y += line;
  }
  write(DECISION_SUPPORT, { bold: true });
  return y;
}

function formatDateTime(at: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

export function notesFileName(at: Date, what: string): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${what}-${at.getFullYear()}${pad(at.getMonth() + 1)}${pad(at.getDate())}-${pad(at.getHours())}${pad(at.getMinutes())}.pdf`;
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
  const { jsPDF } = await import('jspdf');
  const blob = buildNotesPdf(jsPDF, content).output('blob');
  const stored = isAuthenticated(sessionStore().getState()) ? await uploadExport(apiBase, blob, meta) : null;
  saveBlob(blob, meta.fileName);
  return { stored };
}
