import { jsPDF } from 'jspdf';
import { describe, expect, it, vi } from 'vitest';
import { computeRoi } from '../../clinical/index.ts';
import { TEXT_WIDTH_MM } from '../shared/pdf/layout.ts';
import { buildRoiReport, ROI_REPORT_FILE_NAME } from './pdf-report.ts';

const defaults = { numberOfCases: 100, orCostPerMinute: 45, timeNeostigmine: 15, timeProduct: 3, baselinePPCRate: 10 };
const generatedAt = new Date(2025, 7, 5, 14, 30); // local time: 2025-08-05 14:30

/** The real jsPDF, with its text() and splitTextToSize() calls recorded. */
function recordingJsPdf() {
  const texts: string[] = [];
  const widths: number[] = [];
  const wraps: number[] = [];
  function RecordingPdf(...args: ConstructorParameters<typeof jsPDF>) {
    const doc = new jsPDF(...args);
    const text = doc.text.bind(doc);
    const split = doc.splitTextToSize.bind(doc);
    doc.text = ((content: string | string[], ...rest: unknown[]) => {
      const lines = Array.isArray(content) ? content : [content];
      texts.push(...lines);
      widths.push(...lines.map((line) => doc.getTextWidth(line))); // in the font and size of the moment
      return (text as (...all: unknown[]) => jsPDF)(content, ...rest);
    }) as typeof doc.text;
    doc.splitTextToSize = (content: string, width: number, options?: unknown) => {
      wraps.push(width);
      return split(content, width, options);
    };
    return doc;
  }
  return { JsPdf: RecordingPdf as unknown as typeof jsPDF, texts, widths, wraps };
}

/** The PDF's content streams (jsPDF does not compress by default), as Latin-1 text. */
const pdfText = (doc: jsPDF) => new TextDecoder('latin1').decode(doc.output('arraybuffer'));

describe('buildRoiReport (docs/product.md §7)', () => {
  it('an A4 page with the title, date, inputs, results, chart, impact summary and disclaimer', () => {
    const { JsPdf, texts } = recordingJsPdf();
    const doc = buildRoiReport(JsPdf, defaults, computeRoi(defaults), generatedAt);
    expect(doc.getNumberOfPages()).toBe(1);
    expect(Math.round(doc.internal.pageSize.getWidth())).toBe(210);
    expect(Math.round(doc.internal.pageSize.getHeight())).toBe(297);
    const all = texts.join('\n');
    for (const expected of [
      'Sugammadex ROI & Safety Report',
      'Generated: 2025-08-05 14:30',
      'Number of cases: 100',
      'OR cost per minute: 45 SAR',
      'Time to TOF ratio >= 0.9 with neostigmine: 15 min',
      'Time to TOF ratio >= 0.9 with sugammadex: 3 min',
      'Baseline PPC rate: 10%',
      'PPC risk ratio (fixed, 2025 systematic review): 0.62',
      'Time saved: 1200 min (20.0 h of OR time freed)',
      'Cost saved: 54,000 SAR (OR capacity freed, not cash)',
      'PPCs avoided: 3.8',
      '15 min',
      '3 min',
      'Impact summary',
      'Disclaimer',
    ]) {
      expect(all).toContain(expected);
    }
    expect(all.replace(/\n/g, ' ')).toContain('verified with quantitative monitoring before extubation');
    expect(all.replace(/\n/g, ' ')).toContain('Decision support only');
  });

  it('the figures are in the PDF file itself', () => {
    const output = pdfText(buildRoiReport(jsPDF, defaults, computeRoi(defaults), generatedAt));
    expect(output.startsWith('%PDF-')).toBe(true);
    for (const figure of [
      '(Time saved: 1200 min \\(20.0 h of OR time freed\\)) Tj',
      '(Cost saved: 54,000 SAR \\(OR capacity freed, not cash\\)) Tj',
      '(PPCs avoided: 3.8) Tj',
      '(Generated: 2025-08-05 14:30) Tj',
    ]) {
      expect(output).toContain(figure);
    }
  });

  it('writes no character the built-in fonts garble (≥, ≤, μ, dashes, ×)', () => {
    const { JsPdf, texts } = recordingJsPdf();
    buildRoiReport(JsPdf, defaults, computeRoi(defaults), generatedAt);
    expect(texts.join('')).not.toMatch(/[≥≤μ—–×]/);
    expect(texts.join(' ')).toContain('TOF ratio >= 0.9 is verified');
  });

  it('wraps every text at 170 units, and no line is wider', () => {
    const { JsPdf, texts, widths, wraps } = recordingJsPdf();
    buildRoiReport(JsPdf, defaults, computeRoi(defaults), generatedAt);
    expect(TEXT_WIDTH_MM).toBe(170);
    expect(wraps.length).toBeGreaterThan(10);
    expect(new Set(wraps)).toEqual(new Set([170]));
    const summaryStart = texts.find((line) => line.startsWith('Across 100 cases'));
    expect(summaryStart).toBeDefined();
    expect(summaryStart).not.toContain('complications.'); // the long summary was wrapped onto more lines
    expect(Math.max(...widths)).toBeLessThanOrEqual(170);
    expect(Math.max(...widths)).toBeGreaterThan(150);
  });

  it('other inputs: 200 cases → 2400 min (40.0 h), 108,000 SAR, 7.6 PPCs', () => {
    const inputs = { ...defaults, numberOfCases: 200 };
    const output = pdfText(buildRoiReport(jsPDF, inputs, computeRoi(inputs), generatedAt));
    expect(output).toContain('(Time saved: 2400 min \\(40.0 h of OR time freed\\)) Tj');
    expect(output).toContain('(Cost saved: 108,000 SAR \\(OR capacity freed, not cash\\)) Tj');
    expect(output).toContain('(PPCs avoided: 7.6) Tj');
  });

  it('saves under the fixed file name', () => {
    expect(ROI_REPORT_FILE_NAME).toBe('sugammadex-roi-report.pdf');
    const doc = buildRoiReport(jsPDF, defaults, computeRoi(defaults), generatedAt);
    const save = vi.spyOn(doc, 'save').mockImplementation(() => doc);
    doc.save(ROI_REPORT_FILE_NAME);
    expect(save).toHaveBeenCalledWith('sugammadex-roi-report.pdf');
  });
});
