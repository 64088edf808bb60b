import type { jsPDF } from 'jspdf';
import type { SheetText } from '../../../clinical/patient-sheet.ts';
import { A4_WIDTH_MM, ACCENT, MARGIN_MM, PT_TO_MM, TEXT_WIDTH_MM, type Rgb } from '../pdf/layout.ts';
import { pdfText } from '../pdf/text.ts';
import { directionBalance, measurableLine, readingOrderText, visualLine, type Shaper } from './rtl-text.ts';

/*
 * The patient counselling sheet as a one-page A4 PDF (docs/clinical-reference.md#8-patient-counselling-contraception):
 * one language, or Arabic then English on the same page. The page measures are the product's (A4, 20 mm margins,
 * ../pdf/layout.ts); the text shrinks until it fits one page. English is set in jsPDF's Helvetica; Arabic, and any
 * text with Arabic letters (a hospital name, initials), in the Noto Naskh Arabic subset the caller loads
 * (./arabic-font.ts), right to left (./rtl-text.ts). jsPDF is passed in, never imported.
 */

/** The font name the Arabic subset is registered under. */
export const ARABIC_FONT = 'NotoNaskhArabicSheet';
const ARABIC_FONT_FILE = 'NotoNaskhArabic-sheet.ttf';
const TOP_MM = 16;
const BOTTOM_MM = 281;
const SCALES = [1.3, 1.22, 1.15, 1.08, 1, 0.94, 0.88, 0.82, 0.76, 0.7, 0.64, 0.58];
const MUTED: Rgb = [71, 85, 105];
const TEXT: Rgb = [15, 23, 42];
const KEY_FILL: Rgb = [204, 251, 241];
const RULE: Rgb = [203, 213, 225];
/** The smallest size the key sentence shrinks to, to stay on one line. */
const KEY_MIN_PT = 11;

interface Style {
  sizePt: number;
  bold?: boolean;
  colour: Rgb;
}
const STYLE = {
  hospital: { sizePt: 10, bold: true, colour: MUTED },
  title: { sizePt: 19, bold: true, colour: ACCENT },
  meta: { sizePt: 9.5, colour: MUTED },
  heading: { sizePt: 12.5, bold: true, colour: ACCENT },
  key: { sizePt: 13, bold: true, colour: TEXT },
  body: { sizePt: 11, colour: TEXT },
  keep: { sizePt: 13, bold: true, colour: TEXT },
  source: { sizePt: 8, colour: MUTED },
} satisfies Record<string, Style>;

/** One line to draw, laid out before anything is written (so the page's reading direction is known). */
type Op =
  | { kind: 'text'; rtl: boolean; text: string; y: number; style: Style; align: 'start' | 'center' }
  | { kind: 'fill'; x: number; y: number; w: number; h: number; colour: Rgb }
  | { kind: 'rule'; y: number };

export interface BuiltSheet {
  doc: jsPDF;
  /** Every line written, in logical order (isolates removed): for tests. */
  lines: string[];
}

export const hasArabic = (text: string): boolean => /[\u0600-\u06ff\ufb50-\ufdff\ufe70-\ufeff]/.test(text);
/** True when the sheet needs the Arabic font: an Arabic sheet, or Arabic letters in a name. */
export const needsArabicFont = (texts: readonly SheetText[]): boolean =>
  texts.some((text) => text.lang === 'ar' || hasArabic(`${text.hospital ?? ''}${text.patient ?? ''}`));

/**
 * Builds the sheet. `arabicFontBase64` (the TTF, base64) is required when needsArabicFont(texts).
 * `title` is the document's title (its metadata).
 */
export function buildSheetPdf(
  JsPdf: typeof jsPDF,
  texts: readonly SheetText[],
  arabicFontBase64: string | null,
): BuiltSheet {
  if (needsArabicFont(texts) && !arabicFontBase64) throw new Error('The Arabic font is needed for this sheet');
  for (const scale of SCALES) {
    const built = attempt(JsPdf, texts, arabicFontBase64, scale);
    if (built) return built;
  }
  throw new Error('The sheet does not fit one page');
}

function attempt(
  JsPdf: typeof jsPDF,
  texts: readonly SheetText[],
  fontBase64: string | null,
  scale: number,
): BuiltSheet | null {
  const doc = new JsPdf({ unit: 'mm', format: 'a4', orientation: 'portrait' });
  if (fontBase64) {
    doc.addFileToVFS(ARABIC_FONT_FILE, fontBase64);
    doc.addFont(ARABIC_FONT_FILE, ARABIC_FONT, 'normal', undefined, 'Identity-H');
  }
  const shape: Shaper = (text) => (JsPdf.API as unknown as { processArabic(text: string): string }).processArabic(text);
  const sized = (style: Style): Style => ({ ...style, sizePt: style.sizePt * scale });
  const lineHeight = (style: Style) => style.sizePt * PT_TO_MM * 1.38;
  const setFont = (style: Style, rtl: boolean) => {
    if (rtl) doc.setFont(ARABIC_FONT, 'normal');
    else doc.setFont('helvetica', style.bold ? 'bold' : 'normal');
    doc.setFontSize(style.sizePt);
  };
  const width = (text: string, style: Style, rtl: boolean) => {
    setFont(style, rtl);
    return doc.getTextWidth(rtl ? measurableLine(text, shape) : pdfText(text));
  };
  const wrap = (text: string, style: Style, rtl: boolean, maxMm: number): string[] => {
    if (!rtl) {
      setFont(style, false);
      return doc.splitTextToSize(pdfText(text), maxMm) as string[];
    }
    const lines: string[] = [];
    let line = '';
    for (const word of text.split(' ')) {
      const candidate = line ? `${line} ${word}` : word;
      if (line && width(candidate, style, true) > maxMm) {
        lines.push(line);
        line = word;
      } else line = candidate;
    }
    if (line) lines.push(line);
    return lines;
  };

  const ops: Op[] = [];
  let y = TOP_MM;
  const write = (text: string, baseStyle: Style, options: { gapAfter?: number; align?: 'start' | 'center' } = {}) => {
    const style = sized(baseStyle);
    const rtl = hasArabic(text);
    for (const line of wrap(text, style, rtl, TEXT_WIDTH_MM)) {
      y += lineHeight(style);
      ops.push({ kind: 'text', rtl, text: line, y, style, align: options.align ?? 'start' });
    }
    y += (options.gapAfter ?? 0) * scale;
  };

  const hospital = texts.find((text) => text.hospital)?.hospital;
  if (hospital) write(hospital, STYLE.hospital, { gapAfter: 2, align: 'center' });
  texts.forEach((sheet, index) => {
    if (index > 0) {
      y += 3 * scale;
      ops.push({ kind: 'rule', y });
      y += 1 * scale;
    }
    write(sheet.title, STYLE.title, { gapAfter: 1 });
    if (sheet.patient) write(sheet.patient, STYLE.meta);
    write(sheet.printed, STYLE.meta, { gapAfter: 1.5 });
    for (const section of sheet.sections) {
      y += 2.2 * scale;
      write(section.heading, STYLE.heading, { gapAfter: 0.6 });
      if (section.key) {
        // the key sentence on one line if it fits at KEY_MIN_PT or larger: the date is read, and found, whole
        let style = sized(STYLE.key);
        const rtl = hasArabic(section.key);
        let lines = wrap(section.key, style, rtl, TEXT_WIDTH_MM - 6);
        while (lines.length > 1 && style.sizePt - 0.5 >= KEY_MIN_PT) {
          style = { ...style, sizePt: style.sizePt - 0.5 };
          lines = wrap(section.key, style, rtl, TEXT_WIDTH_MM - 6);
        }
        const height = lines.length * lineHeight(style) + 3 * scale;
        ops.push({
          kind: 'fill',
          x: MARGIN_MM - 1,
          y: y + 0.6 * scale,
          w: TEXT_WIDTH_MM + 2,
          h: height,
          colour: KEY_FILL,
        });
        y += 1.2 * scale;
        for (const line of lines) {
          y += lineHeight(style);
          ops.push({ kind: 'text', rtl, text: line, y, style, align: 'start' });
        }
        y += 2.6 * scale;
      }
      for (const paragraph of section.paragraphs) write(paragraph, STYLE.body, { gapAfter: 0.8 });
    }
    y += 1.5 * scale;
    write(sheet.keep, STYLE.keep, { gapAfter: 0.5 });
    write(sheet.source, STYLE.source);
  });
  if (y > BOTTOM_MM) return null;

  // pdftotext reads a page in the direction most of its letters go (rtl-text.ts readingOrderText)
  const textOps = ops.filter((op): op is Extract<Op, { kind: 'text' }> => op.kind === 'text');
  const balance = (pageRtl: boolean) =>
    textOps.reduce(
      (sum, op) => sum + directionBalance(op.rtl ? readingOrderText(op.text, pageRtl) : pdfText(op.text)),
      0,
    );
  // laid out for a left-to-right reading, the page stays one (the balance counts the marks that layout adds)
  const pageRtl = balance(false) < 0;

  const first = texts[0];
  doc.setDocumentProperties({ title: first ? stripMarks(first.title) : 'Patient sheet' });
  doc.setLanguage(first?.lang === 'ar' ? 'ar' : 'en-GB');
  const lines: string[] = [];
  for (const op of ops) {
    if (op.kind === 'fill') {
      doc.setFillColor(...op.colour);
      doc.roundedRect(op.x, op.y, op.w, op.h, 1.5, 1.5, 'F');
    } else if (op.kind === 'rule') {
      doc.setDrawColor(...RULE);
      doc.setLineWidth(0.4);
      doc.line(MARGIN_MM, op.y, A4_WIDTH_MM - MARGIN_MM, op.y);
    } else {
      setFont(op.style, op.rtl);
      doc.setTextColor(...op.style.colour);
      doc.setDrawColor(...op.style.colour);
      doc.setLineWidth(0.12 * (op.style.sizePt / 12));
      lines.push(stripMarks(op.text));
      if (!op.rtl) {
        const x = op.align === 'center' ? A4_WIDTH_MM / 2 : MARGIN_MM;
        doc.text(pdfText(op.text), x, op.y, op.align === 'center' ? { align: 'center' } : {});
        continue;
      }
      const x = op.align === 'center' ? A4_WIDTH_MM / 2 : A4_WIDTH_MM - MARGIN_MM;
      const actual = readingOrderText(op.text, pageRtl);
      raw(doc, `/Span <</ActualText <FEFF${utf16Hex(actual)}>>> BDC`);
      // already shaped and in display order: jsPDF's own bidi pass must leave it as it is
      doc.text(visualLine(op.text, shape), x, op.y, {
        align: op.align === 'center' ? 'center' : 'right',
        isInputVisual: true,
        isOutputVisual: true,
        isInputRtl: false,
        isOutputRtl: false,
        // Regular weight only: headings are drawn filled and stroked, a little heavier
        ...(op.style.bold ? { renderingMode: 'fillThenStroke' as const } : {}),
      } as Parameters<jsPDF['text']>[3]);
      raw(doc, 'EMC');
    }
  }
  return { doc, lines };
}

/** An operator written straight into the page's content stream (jsPDF's internal.write, missing from its types). */
const raw = (doc: jsPDF, operator: string) =>
  (doc.internal as unknown as { write(text: string): void }).write(operator);

const stripMarks = (text: string) => text.replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '');

function utf16Hex(text: string): string {
  let hex = '';
  for (let index = 0; index < text.length; index++) hex += text.charCodeAt(index).toString(16).padStart(4, '0');
  return hex.toUpperCase();
}
