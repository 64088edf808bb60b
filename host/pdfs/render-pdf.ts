import type { jsPDF } from 'jspdf';
import {
  ACCENT,
  drawFooters,
  drawRule,
  MARGIN_MM,
  PdfFlow,
  TEXT_WIDTH_MM,
  withLeading,
  type Rgb,
} from '../../widgets/shared/pdf/layout.ts';
import { pdfText } from '../../widgets/shared/pdf/text.ts';
import type { PdfDocument, PdfSection } from '../content/types.ts';

/** What every page's footer shows besides the page number. */
export interface PdfMeta {
  /** e.g. "Last updated: August 5, 2025". */
  lastUpdated: string;
  /** e.g. "Decision support only - for licensed healthcare professionals". */
  footer: string;
}

export interface RenderedPdf {
  doc: jsPDF;
  /** Every line of text written, in order, as written (after pdfText): for tests and checks. */
  lines: string[];
}

// The page measures (A4, 20 mm margins, 170 mm text) are shared with the widgets' PDFs.
const FOOTER_RULE_FROM_BOTTOM_MM = 16;
const CONTENT_BOTTOM_FROM_EDGE_MM = 22;
const LEADING = 1.35;
const BULLET_INDENT_MM = 5;
const CELL_PADDING_MM = 1.8;
const MIN_COLUMN_MM = 18;
const MAX_NATURAL_COLUMN_MM = 90;

const STYLE = {
  title: { sizePt: 20, bold: true, colour: ACCENT },
  subtitle: { sizePt: 11, colour: [71, 85, 105] as Rgb },
  heading: { sizePt: 13, bold: true, colour: [15, 23, 42] as Rgb },
  body: { sizePt: 10.5, colour: [30, 41, 59] as Rgb },
  table: { sizePt: 9, colour: [30, 41, 59] as Rgb },
  tableHeader: { sizePt: 9, bold: true, colour: [30, 41, 59] as Rgb },
  footer: { sizePt: 8, colour: [100, 116, 139] as Rgb },
  rule: [203, 213, 225] as Rgb,
  headerFill: [226, 232, 240] as Rgb,
} as const;

/** Renders `source` as an A4 document and returns it; the caller saves or outputs it. */
export function renderPdf(JsPdf: typeof jsPDF, source: PdfDocument, meta: PdfMeta): jsPDF {
  return renderPdfWithText(JsPdf, source, meta).doc;
}

/** renderPdf, also returning every line of text written. */
export function renderPdfWithText(
  JsPdf: typeof jsPDF,
  source: PdfDocument,
  meta: PdfMeta,
  options: { compress?: boolean } = {},
): RenderedPdf {
  const flow = new PdfFlow(JsPdf, {
    lineHeight: withLeading(LEADING),
    bottomMarginMm: CONTENT_BOTTOM_FROM_EDGE_MM,
    safe: pdfText,
    compress: options.compress ?? false,
  });
  const { doc } = flow;
  const lineHeight = flow.lineHeight;

  doc.setDocumentProperties({ title: pdfText(source.title), subject: pdfText(source.subtitle) });
  doc.setLanguage('en-GB');

  // Title block.
  flow.font(STYLE.title);
  flow.writeLines(flow.wrap(source.title), STYLE.title.sizePt);
  flow.y += 1;
  flow.font(STYLE.subtitle);
  flow.writeLines(flow.wrap(source.subtitle), STYLE.subtitle.sizePt);
  flow.y += 2;
  drawRule(doc, ACCENT, 0.6, flow.y);
  flow.y += 5;

  for (const section of source.sections) renderSection(section);

  drawFooters(flow, FOOTER_RULE_FROM_BOTTOM_MM, STYLE.footer, { colour: STYLE.rule, widthMm: 0.3 }, (page, pages) => [
    [meta.footer, `Page ${page} of ${pages}`],
    [meta.lastUpdated, source.title],
  ]);
  return { doc, lines: flow.lines };

  function renderSection(section: PdfSection) {
    // Keep the heading with at least two lines of what follows.
    flow.heading(section.heading, STYLE.heading, {
      beforeMm: 3,
      afterMm: 1.5,
      keepWithNextMm: 2 * lineHeight(STYLE.body.sizePt) + 2,
    });

    for (const paragraph of section.paragraphs ?? []) {
      flow.font(STYLE.body);
      flow.writeLines(flow.wrap(paragraph), STYLE.body.sizePt);
      flow.y += 2;
    }
    if (section.table && section.table.length > 0) {
      renderTable(section.table, section.columnShares);
      flow.y += 3;
    }
    for (const bullet of section.bullets ?? []) {
      flow.font(STYLE.body);
      const wrapped = flow.wrap(bullet, TEXT_WIDTH_MM - BULLET_INDENT_MM);
      const step = lineHeight(STYLE.body.sizePt);
      flow.ensureRoom(Math.min(wrapped.length, 2) * step);
      doc.setFillColor(...ACCENT);
      doc.circle(MARGIN_MM + 1.5, flow.y + step / 2 - 0.3, 0.7, 'F');
      flow.writeLines(wrapped, STYLE.body.sizePt, MARGIN_MM + BULLET_INDENT_MM);
      flow.y += 1;
    }
  }

  function renderTable(rows: string[][], shares?: number[]) {
    const columns = Math.max(...rows.map((row) => row.length));
    const widths = shares ? sharedWidths(shares, columns) : columnWidths(rows, columns);
    const step = lineHeight(STYLE.table.sizePt);
    const [header, ...body] = rows;

    const drawRow = (row: string[], bold: boolean) => {
      const style = bold ? STYLE.tableHeader : STYLE.table;
      flow.font(style);
      const cells = widths.map((width, index) => flow.wrap(row[index] ?? '', width - 2 * CELL_PADDING_MM));
      const height = Math.max(1, ...cells.map((cell) => cell.length)) * step + 2 * CELL_PADDING_MM;
      if (flow.overflows(height)) {
        flow.newPage();
        if (!bold && header) drawRow(header, true);
        flow.font(style);
      }
      let x = MARGIN_MM;
      cells.forEach((cell, index) => {
        const width = widths[index] ?? 0;
        doc.setDrawColor(...STYLE.rule);
        doc.setLineWidth(0.2);
        if (bold) {
          doc.setFillColor(...STYLE.headerFill);
          doc.rect(x, flow.y, width, height, 'FD');
        } else {
          doc.rect(x, flow.y, width, height, 'S');
        }
        cell.forEach((line, lineIndex) =>
          flow.textAt(line, x + CELL_PADDING_MM, flow.y + CELL_PADDING_MM + lineIndex * step),
        );
        x += width;
      });
      flow.y += height;
    };

    if (header) drawRow(header, true);
    for (const row of body) drawRow(row, false);
  }

  /** Widths in the given proportions, filling 170 mm. */
  function sharedWidths(shares: number[], columns: number): number[] {
    if (shares.length !== columns) throw new Error(`${shares.length} column widths for ${columns} columns`);
    const total = shares.reduce((sum, share) => sum + share, 0);
    return shares.map((share) => (share * TEXT_WIDTH_MM) / total);
  }

  /** Widths proportional to each column's longest text, within limits, filling 170 mm. */
  function columnWidths(rows: string[][], columns: number): number[] {
    const natural: number[] = [];
    for (let index = 0; index < columns; index++) {
      let widest = 0;
      rows.forEach((row, rowIndex) => {
        flow.font(rowIndex === 0 ? STYLE.tableHeader : STYLE.table);
        widest = Math.max(widest, doc.getTextWidth(pdfText(row[index] ?? '')));
      });
      natural.push(Math.min(MAX_NATURAL_COLUMN_MM, Math.max(MIN_COLUMN_MM, widest + 2 * CELL_PADDING_MM)));
    }
    const total = natural.reduce((sum, width) => sum + width, 0);
    return natural.map((width) => (width * TEXT_WIDTH_MM) / total);
  }
}
