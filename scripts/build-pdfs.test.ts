import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jsPDF } from 'jspdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVIDENCE, SAFETY, doiOf } from '../host/content/index.ts';
import { HCP_GUIDE_FILE, PDF_DOCUMENTS, PDF_META } from '../host/pdfs/documents.ts';
import { renderPdfWithText } from '../host/pdfs/render-pdf.ts';
import { isPdfSafe, pdfText } from '../widgets/shared/pdf/text.ts';
import { buildPdfs, type WrittenPdf } from './build-pdfs.mjs';
import { requireCommand } from './debian-package.mjs';

const EXPECTED_FILES = [
  'hcp-dosing-guide.pdf',
  'mechanism-of-action-infographic.pdf',
  'safety-profile.pdf',
  'paediatric-renal-counselling.pdf',
  'usage-form.pdf',
  'textbook-chapter.pdf',
  'evidence-pack.pdf',
  'contraception-patient-counselling.pdf',
  'hcp-guide.pdf',
];

/** Key facts each document's text must hold, as written in the PDF (after pdfText). */
const KEY_FACTS: Record<string, string[]> = {
  'hcp-dosing-guide.pdf': [
    '140 mg',
    '1 vial',
    '1.4 mL',
    '147.64 SAR',
    '280 mg',
    '295.28 SAR',
    '1280 mg',
    '7 vials',
    '12.8 mL',
    '1033.48',
    '>= 0.9',
    'actual body weight',
    'Single IV bolus over about 10 seconds',
    'if block is needed again before 4 h have passed: rocuronium 1.2 mg/kg',
    'repeat 4 mg/kg',
    'CrCl 30-80 mL/min: no dose adjustment',
  ],
  'mechanism-of-action-infographic.pdf': [
    'Free rocuronium at the receptor',
    'Encapsulation',
    'Transmission restored',
    'Direct sequestration',
    'Selective binding',
    'Rapid TOF recovery',
    'cisatracurium',
  ],
  'safety-profile.pdf': [...SAFETY.panels.map((p) => p.title), 'toremifene', '1 in 3,000-5,000', 'atropine', 'SFDA'],
  'paediatric-renal-counselling.pdf': ['2 to 17 years', 'below 30 mL/min', 'Not recommended', '24 hours'],
  'usage-form.pdf': [
    'Patient initials',
    'Actual body weight',
    'Blocker (NMBA)',
    'TOF count',
    'Dose (mg/kg)',
    'Total dose (mg)',
    'Vials used',
    'Time given',
    'TOF ratio after reversal',
    'Signature',
  ],
  'textbook-chapter.pdf': ['Measuring the block', 'Direct reversal', 'Key points', '16 mg/kg', 'US$36-37'],
  'evidence-pack.pdf': EVIDENCE.studies.flatMap((study) => [doiOf(study), study.link]),
};

describe('PDF text (renderPdfWithText)', () => {
  for (const source of PDF_DOCUMENTS) {
    describe(source.file, () => {
      const { doc, lines } = renderPdfWithText(jsPDF, source, PDF_META);
      // Lines are wrapped: compare against the text with line breaks as spaces.
      const text = lines.join(' ').replace(/\s+/g, ' ');

      it('writes only characters the built-in fonts show (no ≥, ≤, Greek μ, dashes)', () => {
        for (const line of lines) {
          expect(line).not.toMatch(/[≥≤μ—–×]/);
          expect(isPdfSafe(line), line).toBe(true);
        }
      });

      it('holds its title, its key facts and the footer on every page', () => {
        expect(text).toContain(pdfText(source.title));
        for (const fact of KEY_FACTS[source.file] ?? []) expect(text, fact).toContain(fact);
        const pages = doc.getNumberOfPages();
        expect(pages).toBeGreaterThanOrEqual(1);
        for (let page = 1; page <= pages; page++) expect(lines).toContain(`Page ${page} of ${pages}`);
        expect(lines.filter((line) => line === PDF_META.lastUpdated)).toHaveLength(pages);
        expect(lines.filter((line) => line === PDF_META.footer)).toHaveLength(pages);
      });
    });
  }

  it('has key facts for every document', () => {
    expect(Object.keys(KEY_FACTS).sort()).toEqual(PDF_DOCUMENTS.map((d) => d.file).sort());
  });
});

describe('buildPdfs', () => {
  let outDir = '';
  let written: WrittenPdf[] = [];

  beforeAll(async () => {
    outDir = mkdtempSync(path.join(tmpdir(), 'sgx-pdfs-'));
    written = await buildPdfs(outDir);
  }, 60_000);
  afterAll(() => {
    if (outDir) rmSync(outDir, { recursive: true, force: true });
  });

  it('writes every document and hcp-guide.pdf', () => {
    expect(written.map((w) => w.file)).toEqual(EXPECTED_FILES);
    expect(readdirSync(outDir).sort()).toEqual([...EXPECTED_FILES].sort());
    expect(HCP_GUIDE_FILE).toBe('hcp-guide.pdf');
  });

  it('writes PDFs with at least one page each', () => {
    for (const { file, bytes } of written) {
      const content = readFileSync(path.join(outDir, file));
      expect(content.length).toBe(bytes);
      expect(content.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const pages = content.toString('latin1').match(/\/Type \/Page\b(?!s)/g) ?? [];
      expect(pages.length, file).toBeGreaterThanOrEqual(1);
    }
  });

  it('makes hcp-guide.pdf the HCP dosing guide', () => {
    expect(
      readFileSync(path.join(outDir, 'hcp-guide.pdf')).equals(readFileSync(path.join(outDir, 'hcp-dosing-guide.pdf'))),
    ).toBe(true);
  });

  it('is reproducible: a second build gives the same bytes', async () => {
    const again = mkdtempSync(path.join(tmpdir(), 'sgx-pdfs-'));
    try {
      await buildPdfs(again);
      for (const file of EXPECTED_FILES) {
        expect(readFileSync(path.join(again, file)).equals(readFileSync(path.join(outDir, file))), file).toBe(true);
      }
    } finally {
      rmSync(again, { recursive: true, force: true });
    }
  }, 60_000);

  it('extracts the dosing guide text with pdftotext', () => {
    const pdftotext = requireCommand('pdftotext', 'poppler-utils', 'The PDF tests');
    const text = execFileSync(pdftotext, [path.join(outDir, 'hcp-guide.pdf'), '-'], { encoding: 'utf8' });
    expect(text).toContain('HCP Dosing Guide');
    expect(text).toContain('1033.48 SAR');
    expect(text).toContain('>= 0.9');
    expect(text).toContain('Decision support only');
    expect(text).not.toContain('≥');
  });

  it('makes the contraception resource with the patient sheet generator: Arabic and English, no dates', () => {
    const pdftotext = requireCommand('pdftotext', 'poppler-utils', 'The PDF tests');
    const file = path.join(outDir, 'contraception-patient-counselling.pdf');
    const text = execFileSync(pdftotext, [file, '-'], { encoding: 'utf8' })
      .replace(/[\u200e\u200f\u202a-\u202e]/g, '')
      .replace(/\s+/g, ' ');
    expect(text).toContain(
      'If you use hormone birth control, use condoms (or do not have sex) for 7 days ' +
        'after you were given this medicine.',
    );
    expect(text).toContain('فاستخدمي الواقي الذكري (أو امتنعي عن الجماع) مدة 7 أيام بعد تلقي هذا الدواء.');
    expect(text).toContain('Keep this sheet.');
    expect(text).toContain('General sheet, without dates');
    expect(text).not.toMatch(/\b20\d\d\b/);
    expect(execFileSync('pdfinfo', [file], { encoding: 'utf8' })).toMatch(/Pages:\s+1\n/);
  });
});
