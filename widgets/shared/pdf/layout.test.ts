import { jsPDF } from 'jspdf';
import { describe, expect, it } from 'vitest';
import { A4_WIDTH_MM, drawFooters, MARGIN_MM, PdfFlow, PT_TO_MM, TEXT_WIDTH_MM, withLeading } from './layout.ts';
import { pdfText } from './text.ts';

const body = { sizePt: 10 };
// 10 pt at 1.5 leading: 10 × 25.4 / 72 × 1.5 = 5.29 mm a line.
const step = withLeading(1.5)(10);

describe('page measures', () => {
  it('A4 with 20 mm margins wraps text at 170 mm; a 10 pt line at 1.5 leading is 5.29 mm', () => {
    expect([A4_WIDTH_MM, MARGIN_MM, TEXT_WIDTH_MM]).toEqual([210, 20, 170]);
    expect(PT_TO_MM * 72).toBeCloseTo(25.4, 10);
    expect(step).toBeCloseTo(5.2917, 4);
  });
});

describe('PdfFlow', () => {
  it('writes line by line from the top margin and breaks to a new page at the bottom margin', () => {
    const flow = new PdfFlow(jsPDF, { lineHeight: withLeading(1.5), bottomMarginMm: 20 });
    expect(flow.y).toBe(MARGIN_MM);
    flow.font(body);
    // 297 - 20 - 20 = 257 mm of text: 48 lines of 5.29 mm fit (254 mm), the 49th goes over.
    const lines = Array.from({ length: 49 }, (_, index) => `line ${index + 1}`);
    flow.writeLines(lines, body.sizePt);
    expect(flow.doc.getNumberOfPages()).toBe(2);
    expect(flow.y).toBeCloseTo(MARGIN_MM + step, 6);
    expect(flow.lines).toEqual(lines);
  });

  it('keeps a block on one page: it moves whole to the next page', () => {
    const flow = new PdfFlow(jsPDF, { lineHeight: withLeading(1.5), bottomMarginMm: 20 });
    flow.y = 250;
    flow.writeBlock('one '.repeat(200), body, 1.5);
    expect(flow.doc.getNumberOfPages()).toBe(2);
    expect(flow.lines.length).toBeGreaterThan(2);
    expect(flow.y).toBeCloseTo(MARGIN_MM + flow.lines.length * step + 1.5, 6);
  });

  it('never leaves a page empty, even for something taller than a page', () => {
    const flow = new PdfFlow(jsPDF, { lineHeight: withLeading(1.5), bottomMarginMm: 20 });
    flow.ensureRoom(400);
    expect(flow.doc.getNumberOfPages()).toBe(1);
    flow.y += 1;
    flow.ensureRoom(400);
    expect(flow.doc.getNumberOfPages()).toBe(2);
  });

  it('without a bottom margin it never breaks (a one-page document that shrinks to fit)', () => {
    const flow = new PdfFlow(jsPDF, { lineHeight: (sizePt) => sizePt * 0.45, topMm: 18, baseline: 'alphabetic' });
    expect(flow.y).toBe(18);
    for (let index = 0; index < 100; index++) flow.writeBlock(`paragraph ${index}`, body, 1.5);
    expect(flow.doc.getNumberOfPages()).toBe(1);
    expect(flow.y).toBeCloseTo(18 + 100 * (4.5 + 1.5), 6);
  });

  it('keeps a heading with what follows it', () => {
    const flow = new PdfFlow(jsPDF, { lineHeight: withLeading(1.5), bottomMarginMm: 20 });
    flow.y = 260;
    flow.heading('Heading', { sizePt: 13, bold: true }, { beforeMm: 3, afterMm: 1.5, keepWithNextMm: 2 * step });
    expect(flow.doc.getNumberOfPages()).toBe(2);
    expect(flow.y).toBeCloseTo(MARGIN_MM + withLeading(1.5)(13) + 1.5, 6);
  });

  it('writes text made safe, and footers on every page once the count is known', () => {
    const flow = new PdfFlow(jsPDF, { lineHeight: withLeading(1.35), bottomMarginMm: 22, safe: pdfText });
    flow.font(body);
    flow.writeLines(flow.wrap('TOF ratio ≥ 0.9 — “verified”'), body.sizePt);
    flow.newPage();
    drawFooters(flow, 16, { sizePt: 8 }, { colour: [203, 213, 225], widthMm: 0.3 }, (page, pages) => [
      [`Page ${page} of ${pages}`, 'Guide → PDF'],
    ]);
    expect(flow.lines).toEqual([
      'TOF ratio >= 0.9 - "verified"',
      'Page 1 of 2',
      'Guide -> PDF',
      'Page 2 of 2',
      'Guide -> PDF',
    ]);
  });
});
