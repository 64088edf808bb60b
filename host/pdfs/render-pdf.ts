import type { jsPDF } from 'jspdf';
import type { PdfDocument, PdfSection } from '../content/types.ts';
import { pdfText } from './pdf-text.ts';

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

type Rgb = readonly [number, number, number];

// A4 portrait in mm: 210 x 297, 20 mm margins, so text wraps at 170 mm (as the ROI report does).
const PAGE_WIDTH_MM = 210;
const MARGIN_MM = 20;
const TEXT_WIDTH_MM = PAGE_WIDTH_MM - 2 * MARGIN_MM;
const FOOTER_RULE_FROM_BOTTOM_MM = 16;
const CONTENT_BOTTOM_FROM_EDGE_MM = 22;
const PT_TO_MM = 25.4 / 72;
const LEADING = 1.35;
const BULLET_INDENT_MM = 5;
const CELL_PADDING_MM = 1.8;
const MIN_COLUMN_MM = 18;
const MAX_NATURAL_COLUMN_MM = 90;

const STYLE = {
  title: { size: 20, colour: [15, 118, 110] as Rgb },
  subtitle: { size: 11, colour: [71, 85, 105] as Rgb },
  heading: { size: 13, colour: [15, 23, 42] as Rgb },
  body: { size: 10.5, colour: [30, 41, 59] as Rgb },
  table: { size: 9, colour: [30, 41, 59] as Rgb },
  footer: { size: 8, colour: [100, 116, 139] as Rgb },
  accent: [15, 118, 110] as Rgb,
  rule: [203, 213, 225] as Rgb,
  headerFill: [226, 232, 240] as Rgb,
} as const;

const lineHeight = (sizePt: number) => sizePt * PT_TO_MM * LEADING;

/** Renders `source` as an A4 document and returns it; the caller saves or outputs it. */
export function renderPdf(JsPdf: typeof jsPDF, source: PdfDocument, meta: PdfMeta): jsPDF {
  return renderPdfWithText(JsPdf, source, meta).doc;
}

/** renderPdf, also returning every line of text written. */
export function renderPdfWithText(JsPdf: typeof jsPDF, source: PdfDocument, meta: PdfMeta): RenderedPdf {
  const doc = new JsPdf({ unit: 'mm', format: 'a4', orientation: 'portrait' });
  const lines: string[] = [];
  const pageHeight = doc.internal.pageSize.getHeight();
  const contentBottom = pageHeight - CONTENT_BOTTOM_FROM_EDGE_MM;
  let y = MARGIN_MM;

  doc.setDocumentProperties({ title: pdfText(source.title), subject: pdfText(source.subtitle) });
  doc.setLanguage('en-GB');

  const font = (sizePt: number, style: 'normal' | 'bold', colour: Rgb) => {
    doc.setFont('helvetica', style);
    doc.setFontSize(sizePt);
    doc.setTextColor(colour[0], colour[1], colour[2]);
  };
  const split = (text: string, widthMm: number): string[] => doc.splitTextToSize(pdfText(text), widthMm) as string[];
  const newPage = () => {
    doc.addPage();
    y = MARGIN_MM;
  };
  const ensureRoom = (heightMm: number) => {
    if (y + heightMm > contentBottom && y > MARGIN_MM) newPage();
  };
  /** Wrapped text, line by line, so long paragraphs flow over pages. */
  const writeLines = (wrapped: string[], x: number, sizePt: number) => {
    const step = lineHeight(sizePt);
    for (const line of wrapped) {
      ensureRoom(step);
      doc.text(line, x, y, { baseline: 'top' });
      lines.push(line);
      y += step;
    }
  };

  // Title block.
  font(STYLE.title.size, 'bold', STYLE.title.colour);
  writeLines(split(source.title, TEXT_WIDTH_MM), MARGIN_MM, STYLE.title.size);
  y += 1;
  font(STYLE.subtitle.size, 'normal', STYLE.subtitle.colour);
  writeLines(split(source.subtitle, TEXT_WIDTH_MM), MARGIN_MM, STYLE.subtitle.size);
  y += 2;
  doc.setDrawColor(...STYLE.accent);
  doc.setLineWidth(0.6);
  doc.line(MARGIN_MM, y, PAGE_WIDTH_MM - MARGIN_MM, y);
  y += 5;

  for (const section of source.sections) renderSection(section);

  // Footer on every page, once the page count is known.
  const pages = doc.getNumberOfPages();
  for (let page = 1; page <= pages; page++) {
    doc.setPage(page);
    const ruleY = pageHeight - FOOTER_RULE_FROM_BOTTOM_MM;
    doc.setDrawColor(...STYLE.rule);
    doc.setLineWidth(0.3);
    doc.line(MARGIN_MM, ruleY, PAGE_WIDTH_MM - MARGIN_MM, ruleY);
    font(STYLE.footer.size, 'normal', STYLE.footer.colour);
    const footer = pdfText(meta.footer);
    const pageLabel = `Page ${page} of ${pages}`;
    const updated = pdfText(meta.lastUpdated);
    const title = pdfText(source.title);
    const step = lineHeight(STYLE.footer.size);
    doc.text(footer, MARGIN_MM, ruleY + 2, { baseline: 'top' });
    doc.text(pageLabel, PAGE_WIDTH_MM - MARGIN_MM, ruleY + 2, { baseline: 'top', align: 'right' });
    doc.text(updated, MARGIN_MM, ruleY + 2 + step, { baseline: 'top' });
    doc.text(title, PAGE_WIDTH_MM - MARGIN_MM, ruleY + 2 + step, { baseline: 'top', align: 'right' });
    lines.push(footer, pageLabel, updated, title);
  }
  return { doc, lines };

  function renderSection(section: PdfSection) {
    // Keep the heading with at least two lines of what follows.
    y += 3;
    font(STYLE.heading.size, 'bold', STYLE.heading.colour);
    const heading = split(section.heading, TEXT_WIDTH_MM);
    ensureRoom(heading.length * lineHeight(STYLE.heading.size) + 2 * lineHeight(STYLE.body.size) + 2);
    writeLines(heading, MARGIN_MM, STYLE.heading.size);
    y += 1.5;

    for (const paragraph of section.paragraphs ?? []) {
      font(STYLE.body.size, 'normal', STYLE.body.colour);
      writeLines(split(paragraph, TEXT_WIDTH_MM), MARGIN_MM, STYLE.body.size);
      y += 2;
    }
    if (section.table && section.table.length > 0) {
      renderTable(section.table);
      y += 3;
    }
    for (const bullet of section.bullets ?? []) {
      font(STYLE.body.size, 'normal', STYLE.body.colour);
      const wrapped = split(bullet, TEXT_WIDTH_MM - BULLET_INDENT_MM);
      const step = lineHeight(STYLE.body.size);
      ensureRoom(Math.min(wrapped.length, 2) * step);
      doc.setFillColor(...STYLE.accent);
      doc.circle(MARGIN_MM + 1.5, y + step / 2 - 0.3, 0.7, 'F');
      writeLines(wrapped, MARGIN_MM + BULLET_INDENT_MM, STYLE.body.size);
      y += 1;
    }
  }

  function renderTable(rows: string[][]) {
    const columns = Math.max(...rows.map((row) => row.length));
    const widths = columnWidths(rows, columns);
    const step = lineHeight(STYLE.table.size);
    const [header, ...body] = rows;

    const drawRow = (row: string[], bold: boolean) => {
      font(STYLE.table.size, bold ? 'bold' : 'normal', STYLE.table.colour);
      const cells = widths.map((width, index) => split(row[index] ?? '', width - 2 * CELL_PADDING_MM));
      const height = Math.max(1, ...cells.map((cell) => cell.length)) * step + 2 * CELL_PADDING_MM;
      if (y + height > contentBottom && y > MARGIN_MM) {
        newPage();
        if (!bold && header) drawRow(header, true);
        font(STYLE.table.size, bold ? 'bold' : 'normal', STYLE.table.colour);
      }
      let x = MARGIN_MM;
      cells.forEach((cell, index) => {
        const width = widths[index] ?? 0;
        doc.setDrawColor(...STYLE.rule);
        doc.setLineWidth(0.2);
        if (bold) {
          doc.setFillColor(...STYLE.headerFill);
          doc.rect(x, y, width, height, 'FD');
        } else {
          doc.rect(x, y, width, height, 'S');
        }
        cell.forEach((line, lineIndex) => {
          doc.text(line, x + CELL_PADDING_MM, y + CELL_PADDING_MM + lineIndex * step, { baseline: 'top' });
          lines.push(line);
        });
        x += width;
      });
      y += height;
    };

    if (header) drawRow(header, true);
    for (const row of body) drawRow(row, false);
  }

  /** Widths proportional to each column's longest text, within limits, filling 170 mm. */
  function columnWidths(rows: string[][], columns: number): number[] {
    const natural: number[] = [];
    for (let index = 0; index < columns; index++) {
      let widest = 0;
      rows.forEach((row, rowIndex) => {
        font(STYLE.table.size, rowIndex === 0 ? 'bold' : 'normal', STYLE.table.colour);
        widest = Math.max(widest, doc.getTextWidth(pdfText(row[index] ?? '')));
      });
      natural.push(Math.min(MAX_NATURAL_COLUMN_MM, Math.max(MIN_COLUMN_MM, widest + 2 * CELL_PADDING_MM)));
    }
    const total = natural.reduce((sum, width) => sum + width, 0);
    return natural.map((width) => (width * TEXT_WIDTH_MM) / total);
  }
}
