import type { jsPDF } from 'jspdf';
import type { RoiResult } from '../../clinical/index.ts';
import type { RoiInputsDetail } from '../shared/widget-host/events.ts';
import { formatDateTime } from '../shared/lang/format.ts';
import { roi } from '../shared/lang/messages/roi.ts';
import { ACCENT, MARGIN_MM, PdfFlow, withLeading } from '../shared/pdf/layout.ts';
import { pdfSafe } from '../shared/pdf/text.ts';
import { impactLines, inputLines, resultLines, type RoiMessages } from './report-text.ts';

// Only the type is imported here: jsPDF itself is loaded by "Download PDF" and passed in.

/** docs/product.md §7: a fixed file name ending .pdf, derived from the product name. */
export const ROI_REPORT_FILE_NAME = 'sugammadex-roi-report.pdf';
const LEADING = 1.4;
const BAR_X_MM = 60;
const BAR_MAX_MM = 100;
const BAR_HEIGHT_MM = 6;

const BODY = { sizePt: 11 };
const SMALL = { sizePt: 10 };
const HEADING = { sizePt: 13, bold: true };

/**
 * The A4 report (docs/product.md §7): title, generation date and time, inputs, results, a time-comparison
 * chart, the impact summary and the disclaimer. Returns the document; the caller saves it.
 */
export function buildRoiReport(
  JsPdf: typeof jsPDF,
  inputs: RoiInputsDetail,
  result: RoiResult,
  generatedAt: Date,
  t: RoiMessages = roi,
): jsPDF {
  // docs/product.md §7: A4, text wrapped at 170 mm (the shared page measures).
  const flow = new PdfFlow(JsPdf, { lineHeight: withLeading(LEADING), bottomMarginMm: MARGIN_MM });
  const { doc } = flow;
  const write = (text: string) => flow.writeBlock(text, BODY, 1.5);
  const heading = (text: string) => flow.heading(text, HEADING, { beforeMm: 4, afterMm: 2 });

  flow.writeBlock(t.report.title, { sizePt: 18, bold: true }, 2);
  flow.writeBlock(t.report.generated(formatDateTime(generatedAt)), SMALL, 1.5);

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
    flow.ensureRoom(BAR_HEIGHT_MM + 3);
    flow.font(BODY);
    doc.text(pdfSafe(label), MARGIN_MM, flow.y + BAR_HEIGHT_MM / 2, { baseline: 'middle' });
    doc.setFillColor(...ACCENT);
    const widthMm = (BAR_MAX_MM * percent) / 100;
    if (widthMm > 0) doc.rect(BAR_X_MM, flow.y, widthMm, BAR_HEIGHT_MM, 'F');
    doc.text(pdfSafe(t.minutes(minutes)), BAR_X_MM + widthMm + 3, flow.y + BAR_HEIGHT_MM / 2, { baseline: 'middle' });
    flow.y += BAR_HEIGHT_MM + 3;
  }

  heading(t.report.impact);
  for (const line of impactLines(inputs, result, t)) write(line);

  heading(t.report.disclaimer);
  flow.writeBlock(t.disclaimer, SMALL, 1.5);
  return doc;
}
