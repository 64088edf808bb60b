import type { jsPDF as JsPdf } from 'jspdf';
import { loadJsPdf } from '../pdf/load-jspdf.ts';
import { saveBlob, uploadExport, type ExportRecord } from '../session/account-api.ts';
import { newIdempotencyKey } from '../api/idempotency-key.ts';
import { formatFileStamp } from '../lang/format.ts';
import { notesLines, type NotesContent, type NotesLine } from './notes-content.ts';
import { PdfFlow, type TextStyle } from '../pdf/layout.ts';
import { pdfSafe } from '../pdf/text.ts';
import { existingSessionStore, isAuthenticated, NO_SESSION } from '../session/session-state.ts';

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
  flow.doc.setDocumentProperties({ title: pdfSafe(content.title) });
  // The same lines "Copy as note" puts on the clipboard (notes-content.ts), each kind in its style.
  for (const line of notesLines(content)) {
    const { style, gapAfterMm } = LINE_STYLES[line.kind](fontSize, line.endsBlock === true);
    flow.writeBlock(line.text, style, gapAfterMm);
    if (line.kind === 'item' && line.endsBlock) flow.y += flow.lineHeight(fontSize);
  }
  return flow;
}

/** Each kind of line: its style and the space after it (more after the last line of a block). */
const LINE_STYLES: Record<NotesLine['kind'], (fontSize: number, endsBlock: boolean) => LineStyle> = {
  title: (size) => ({ style: { sizePt: size + 6, bold: true }, gapAfterMm: 3 }),
  line: (size, endsBlock) => ({ style: { sizePt: size }, gapAfterMm: endsBlock ? 4 : 1.5 }),
  heading: (size) => ({ style: { sizePt: size + 2, bold: true }, gapAfterMm: 1.5 }),
  item: (size) => ({ style: { sizePt: size }, gapAfterMm: 0.5 }),
  closing: (size) => ({ style: { sizePt: size, bold: true }, gapAfterMm: 1.5 }),
};
interface LineStyle {
  style: TextStyle;
  gapAfterMm: number;
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
  meta: { fileName: string; patientId?: string | null; calculationId?: string | null; download?: boolean },
): Promise<{ stored: ExportRecord | null }> {
  const { jsPDF } = await loadJsPdf();
  const blob = buildNotesPdf(jsPDF, content).output('blob');
  const stored = isAuthenticated(existingSessionStore()?.getState() ?? NO_SESSION)
    ? await uploadExport(
        apiBase,
        blob,
        { fileName: meta.fileName, patientId: meta.patientId, calculationId: meta.calculationId },
        newIdempotencyKey(),
      )
    : null;
  // "Send to EHR" stores it for the EHR without a download (download: false).
  if (meta.download !== false) saveBlob(blob, meta.fileName);
  return { stored };
}
