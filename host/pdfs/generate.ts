import type { jsPDF as JsPdf } from 'jspdf';
import { generalSheet } from '../../clinical/patient-sheet.ts';
import arabicFontDataUrl from '../../widgets/shared/patient-sheet/NotoNaskhArabic-sheet.ttf?inline';
import { buildSheetPdf } from '../../widgets/shared/patient-sheet/sheet-pdf.ts';
import {
  CONTRACEPTION_SHEET_FILE,
  HCP_GUIDE_FILE,
  HCP_GUIDE_SOURCE_FILE,
  PDF_DOCUMENTS,
  PDF_META,
} from './documents.ts';
import { renderPdf } from './render-pdf.ts';

/** Fixed so that builds are reproducible (the content's last-updated date). */
export const PDF_CREATION_DATE = new Date('2025-08-05T00:00:00Z');

export interface GeneratedPdf {
  file: string;
  bytes: Uint8Array;
}

/**
 * Renders every document in PDF_DOCUMENTS, plus hcp-guide.pdf (the same bytes as the HCP dosing
 * guide). jsPDF is loaded here, so importing this module costs nothing until it is called; a
 * caller whose module loader is gone by then (scripts/build-pdfs.mjs: Vite's runnerImport closes its
 * runner after the import) passes jsPDF in instead.
 */
export async function generatePdfs(jsPdf?: typeof JsPdf): Promise<GeneratedPdf[]> {
  const jsPDF = jsPdf ?? (await import('jspdf')).jsPDF;
  const out: GeneratedPdf[] = [];
  for (const source of PDF_DOCUMENTS) {
    const doc = renderPdf(jsPDF, source, PDF_META);
    doc.setCreationDate(PDF_CREATION_DATE);
    doc.setFileId(fileIdFor(source.file));
    out.push({ file: source.file, bytes: new Uint8Array(doc.output('arraybuffer')) });
  }
  const sheet = buildSheetPdf(jsPDF, [generalSheet('ar'), generalSheet('en')], arabicFontBase64()).doc;
  sheet.setCreationDate(PDF_CREATION_DATE);
  sheet.setFileId(fileIdFor(CONTRACEPTION_SHEET_FILE));
  out.push({ file: CONTRACEPTION_SHEET_FILE, bytes: new Uint8Array(sheet.output('arraybuffer')) });
  const guide = out.find((pdf) => pdf.file === HCP_GUIDE_SOURCE_FILE);
  if (!guide) throw new Error(`${HCP_GUIDE_SOURCE_FILE} is not among the PDF documents`);
  out.push({ file: HCP_GUIDE_FILE, bytes: guide.bytes });
  return out;
}

/** The patient sheet's Arabic font, imported statically: build-pdfs.mjs's module runner is gone by call time. */
const arabicFontBase64 = () => arabicFontDataUrl.slice(arabicFontDataUrl.indexOf(',') + 1);

/** A stable 32-hex-digit file identifier from the file name (jsPDF's default is random). */
function fileIdFor(file: string): string {
  let hex = '';
  for (let round = 0; round < 4; round++) {
    // FNV-1a, 32 bits, seeded per round.
    let hash = 0x811c9dc5 ^ round;
    for (const char of `${round}:${file}`) {
      hash ^= char.charCodeAt(0);
      hash = Math.imul(hash, 0x01000193) >>> 0;
    }
    hex += hash.toString(16).padStart(8, '0');
  }
  return hex.toUpperCase();
}
