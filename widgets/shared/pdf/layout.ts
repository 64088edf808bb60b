import type { jsPDF } from 'jspdf';
import { pdfSafe } from './text.ts';

// Only jsPDF's type is imported: the widgets load jsPDF on click and pass the constructor in, so no
// bundle holds it statically (e2e/size-budgets.e2e.ts).

export type Rgb = readonly [number, number, number];

/** A4 portrait is 210 x 297 mm; every document is laid out in mm. */
export const A4_WIDTH_MM = 210;
/** Left, right and top margin. */
export const MARGIN_MM = 20;
/** docs/product.md §7: text wraps at 170 mm (A4 less two 20 mm margins). */
export const TEXT_WIDTH_MM = A4_WIDTH_MM - 2 * MARGIN_MM;
export const PT_TO_MM = 25.4 / 72;
/** The product teal: titles, rules, bullets and chart bars. */
export const ACCENT: Rgb = [15, 118, 110];

/** Line heights at `leading` times the font size (1.35: 135 %). */
export const withLeading =
  (leading: number) =>
  (sizePt: number): number =>
    sizePt * PT_TO_MM * leading;

export interface TextStyle {
  sizePt: number;
  bold?: boolean;
  /** Omitted: the colour stays as it is (black unless set). */
  colour?: Rgb;
}

export interface FlowOptions {
  /** Line height in mm for a font size (see withLeading). */
  lineHeight: (sizePt: number) => number;
  /** Where text starts on every page, mm from the top edge. */
  topMm?: number;
  /** Room left free at the bottom of every page. Omitted: no page breaks (a document that fits itself to one page). */
  bottomMarginMm?: number;
  /** Makes text safe for the built-in fonts before wrapping. */
  safe?: (text: string) => string;
  baseline?: 'top' | 'alphabetic';
  /** Deflate the page contents (a long document: a tenth of the size). */
  compress?: boolean;
}

/**
 * A new A4 document with text flowing down its pages from `y`: fonts, wrapping, page breaks, rules
 * and footers, in one set of measures for every PDF the product writes.
 */
export class PdfFlow {
  readonly doc: jsPDF;
  y: number;
  /** Every line of text written, in order, as written (after `safe`): for tests and checks. */
  readonly lines: string[] = [];
  readonly lineHeight: (sizePt: number) => number;
  private readonly top: number;
  private readonly bottom: number;
  readonly safe: (text: string) => string;
  private readonly baseline: 'top' | 'alphabetic';

  constructor(JsPdf: typeof jsPDF, options: FlowOptions) {
    this.doc = new JsPdf({ unit: 'mm', format: 'a4', orientation: 'portrait', compress: options.compress ?? false });
    this.lineHeight = options.lineHeight;
    this.top = options.topMm ?? MARGIN_MM;
    this.bottom = options.bottomMarginMm === undefined ? Infinity : this.pageHeight - options.bottomMarginMm;
    this.safe = options.safe ?? pdfSafe;
    this.baseline = options.baseline ?? 'top';
    this.y = this.top;
  }

  get pageHeight(): number {
    return this.doc.internal.pageSize.getHeight();
  }

  newPage(): void {
    this.doc.addPage();
    this.y = this.top;
  }

  /** True when `heightMm` does not fit below y on a page that already holds something. */
  overflows(heightMm: number): boolean {
    return this.y + heightMm > this.bottom && this.y > this.top;
  }

  /** A new page unless `heightMm` fits below y (a page that is still empty is kept). */
  ensureRoom(heightMm: number): void {
    if (this.overflows(heightMm)) this.newPage();
  }

  font(style: TextStyle): void {
    this.doc.setFont('helvetica', style.bold ? 'bold' : 'normal');
    this.doc.setFontSize(style.sizePt);
    if (style.colour) this.doc.setTextColor(style.colour[0], style.colour[1], style.colour[2]);
  }

  /** `text` made safe and wrapped to `widthMm`, in the current font. */
  wrap(text: string, widthMm: number = TEXT_WIDTH_MM): string[] {
    return this.doc.splitTextToSize(this.safe(text), widthMm) as string[];
  }

  /** One line, already safe (wrap made it so), recorded for tests. */
  textAt(line: string, x: number, y: number, align?: 'right'): void {
    this.doc.text(line, x, y, align ? { baseline: this.baseline, align } : { baseline: this.baseline });
    this.lines.push(line);
  }

  /** Wrapped lines one at a time, so a long paragraph flows over pages. */
  writeLines(wrapped: string[], sizePt: number, x: number = MARGIN_MM): void {
    const step = this.lineHeight(sizePt);
    for (const line of wrapped) {
      this.ensureRoom(step);
      this.textAt(line, x, this.y);
      this.y += step;
    }
  }

  /**
   * A paragraph kept on one page, its lines spaced by jsPDF; y then moves on by this flow's line
   * height per line and `gapAfterMm`.
   */
  writeBlock(text: string, style: TextStyle, gapAfterMm: number): void {
    this.font(style);
    const wrapped = this.wrap(text);
    const height = wrapped.length * this.lineHeight(style.sizePt);
    this.ensureRoom(height);
    this.doc.text(wrapped, MARGIN_MM, this.y, { baseline: this.baseline });
    this.lines.push(...wrapped);
    this.y += height + gapAfterMm;
  }

  /** A heading kept on the page with `keepWithNextMm` of what follows. */
  heading(text: string, style: TextStyle, space: { beforeMm: number; afterMm: number; keepWithNextMm?: number }): void {
    this.y += space.beforeMm;
    this.font(style);
    const wrapped = this.wrap(text);
    this.ensureRoom(wrapped.length * this.lineHeight(style.sizePt) + (space.keepWithNextMm ?? 0));
    this.writeLines(wrapped, style.sizePt);
    this.y += space.afterMm;
  }
}

/** A rule from margin to margin. */
export function drawRule(doc: jsPDF, colour: Rgb, widthMm: number, y: number): void {
  doc.setDrawColor(colour[0], colour[1], colour[2]);
  doc.setLineWidth(widthMm);
  doc.line(MARGIN_MM, y, A4_WIDTH_MM - MARGIN_MM, y);
}

/**
 * On every page, once the page count is known: a rule `ruleFromBottomMm` above the bottom edge,
 * and under it rows of text at the left and right margins.
 */
export function drawFooters(
  flow: PdfFlow,
  ruleFromBottomMm: number,
  style: TextStyle,
  rule: { colour: Rgb; widthMm: number },
  rows: (page: number, pages: number) => [left: string, right: string][],
): void {
  const pages = flow.doc.getNumberOfPages();
  for (let page = 1; page <= pages; page++) {
    flow.doc.setPage(page);
    const ruleY = flow.pageHeight - ruleFromBottomMm;
    drawRule(flow.doc, rule.colour, rule.widthMm, ruleY);
    flow.font(style);
    const step = flow.lineHeight(style.sizePt);
    rows(page, pages).forEach(([left, right], row) => {
      const y = ruleY + 2 + row * step;
      flow.textAt(flow.safe(left), MARGIN_MM, y);
      flow.textAt(flow.safe(right), A4_WIDTH_MM - MARGIN_MM, y, 'right');
    });
  }
}
