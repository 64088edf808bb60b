import type { jsPDF } from 'jspdf';
import type { RoiResult } from '../../clinical/index.ts';
import type { RoiInputsDetail } from '../shared/events.ts';
import { roi } from '../shared/messages/roi.ts';
import { formatDateTime } from './format.ts';
import { impactLines, inputLines, resultLines, type RoiMessages } from './report-text.ts';

// Only the type is imported here: jsPDF itself is loaded by "Download PDF" and passed in.

/** Spec §7: a fixed file name ending .pdf, derived from the product name. */
export const ROI_REPORT_FILE_NAME = 'sugammadex-roi-report.pdf';
/** Spec §7: text wrapped at 170 units (mm on A4: 210 mm less two 20 mm margins). */
export const ROI_REPORT_TEXT_WIDTH = 170;
const MARGIN_MM = 20;
const PT_TO_MM = 25.4 / 72;
const LEADING = 1.4;
const BAR_X_MM = 60;
const BAR_MAX_MM = 100;
const BAR_HEIGHT_MM = 6;

const PDF_REPLACEMENTS: readonly [RegExp, string][] = [
  [/≥/g, '>='],
  [/≤/g, '<='],
  [/[—–]/g, '-'],
  [/×/g, 'x'],
  [/μ/g, 'µ'], // Greek mu → micro sign, which the built-in fonts have
];

/** jsPDF's built-in fonts garble ≥, ≤ and Greek μ (shared/design/widgets.md): write safe characters. */
export function pdfSafe(text: string): string {
  return PDF_REPLACEMENTS.reduce((safe, [pattern, replacement]) => safe.replace(pattern, replacement), text);
}

/**
 * The A4 report (spec §7): title, generation date and time, inputs, results, a time-comparison
 * chart, the impact summary and the disclaimer. Returns the document; the caller saves it.
 */
export function buildRoiReport(JsPdf: typeof jsPDF, inputs: RoiInputsDetail, result: RoiResult, generatedAt: Date, t: RoiMessages = roi): jsPDF {
  const doc = new JsPdf({ unit: 'mm', format: 'a4', orientation: 'portrait' });
  const pageHeight = doc.internal.pageSize.getHeight();
  let y = MARGIN_MM;

  const ensureRoom = (heightMm: number) => {
    if (y + heightMm > pageHeight - MARGIN_MM) {
      doc.addPage();
      y = MARGIN_MM;
    }
  };
  const write = (text: string, sizePt = 11, style: 'normal' | 'bold' = 'normal', gapAfterMm = 1.5) => {
    doc.setFont('helvetica', style);
    doc.setFontSize(sizePt);
    const lines = doc.splitTextToSize(pdfSafe(text), ROI_REPORT_TEXT_WIDTH) as string[];
    const lineHeight = sizePt * PT_TO_MM * LEADING;
    ensureRoom(lines.length * lineHeight);
    doc.text(lines, MARGIN_MM, y, { baseline: 'top' });
    y += lines.length * lineHeight + gapAfterMm;
  };
  const heading = (text: string) => {
    y += 4;
    write(text, 13, 'bold', 2);
  };

  write(t.report.title, 18, 'bold', 2);
  write(t.report.generated(formatDateTime(generatedAt)), 10);

  heading(t.report.inputs);
  for (const line of inputLines(inputs, t)) write(line);

  heading(t.report.results);
  for (const line of resultLines(result, t)) write(line);

  heading(t.report.chart);
  const bars: [string, number, number][] = [
    [t.neostigmine, inputs.timeNeostigmine, result.neostigmineBarPercent],
    [t.product, inputs.timeProduct, result.productBarPercent],
  ];
  for (const [label, minutes, percent] of bars) {
    ensureRoom(BAR_HEIGHT_MM + 3);
    doc.setFont('helvetica', 'normal');
    doc.setFontSize(11);
    doc.text(pdfSafe(label), MARGIN_MM, y + BAR_HEIGHT_MM / 2, { baseline: 'middle' });
    doc.setFillColor(15, 118, 110);
    const widthMm = (BAR_MAX_MM * percent) / 100;
    if (widthMm > 0) doc.rect(BAR_X_MM, y, widthMm, BAR_HEIGHT_MM, 'F');
    doc.text(pdfSafe(t.minutes(minutes)), BAR_X_MM + widthMm + 3, y + BAR_HEIGHT_MM / 2, { baseline: 'middle' });
    y += BAR_HEIGHT_MM + 3;
  }

  heading(t.report.impact);
  for (const line of impactLines(inputs, result, t)) write(line);

  heading(t.report.disclaimer);
  write(t.disclaimer, 10);
  return doc;
}
