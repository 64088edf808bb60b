import { CONTRACEPTION_SHEET_FILE, documentFor } from '../host/pdfs/documents.ts';
import { describe, expect, it } from 'vitest';
import {
  ADVANTAGE,
  CONTACT,
  EVIDENCE,
  FAQ,
  HERO,
  MECHANISM,
  NAV_ITEMS,
  RESOURCES,
  SAFETY,
  SITE,
  TOOL_SECTIONS,
  doiOf,
  type PdfDocument,
} from '../host/content/index.ts';

// Content checks for host/content (docs/product.md §2, §9; docs/clinical-reference.md §1-5).

const allText = (value: unknown): string => JSON.stringify(value);

function wordCount(doc: PdfDocument): number {
  const text = [
    doc.title,
    doc.subtitle,
    ...doc.sections.flatMap((s) => [
      s.heading,
      ...(s.paragraphs ?? []),
      ...(s.bullets ?? []),
      ...(s.table ?? []).flat(),
    ]),
  ].join(' ');
  return text.split(/\s+/).filter((word) => /[A-Za-z0-9]/.test(word)).length;
}

/** WCAG relative-luminance contrast of a #rrggbb colour against white. */
function contrastOnWhite(hex: string): number {
  const channel = (offset: number) => {
    const c = parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return 1.05 / (luminance + 0.05);
}

describe('navigation and metadata', () => {
  it('has the ten labels of docs/product.md §2 in order, each with its anchor', () => {
    expect(NAV_ITEMS.map((item) => item.label)).toEqual([
      'MOA',
      'Competitive Edge',
      'Dose Calculator',
      'Bradycardia Advisor',
      'Safety Calculator',
      'Safety',
      'Clinical Evidence',
      'Resources',
      'FAQ',
      'Contact',
    ]);
    expect(NAV_ITEMS.map((item) => item.target)).toEqual([
      'moa',
      'advantage',
      'calculator',
      'bradycardia-advisor',
      'safety-calculator',
      'safety',
      'evidence',
      'resources',
      'faq',
      'contact',
    ]);
  });

  it('has site metadata', () => {
    expect(SITE.name).not.toBe('');
    expect(SITE.title).toContain('healthcare professionals');
    expect(SITE.description.length).toBeGreaterThan(50);
  });
});

describe('hero, mechanism, advantage, tools', () => {
  it('hero strings', () => {
    expect(HERO.tofTarget).toBe('Target: ≥ 0.9 for extubation readiness');
    expect(HERO.productLabel).toBe('200 mg / 2 mL · Box of 10 vials');
    expect(HERO.guideButton).toBe('Download HCP Guide');
    expect(HERO.headline).toMatch(/fast/i);
    expect(HERO.decisionSupport).toMatch(/decision support/i);
  });

  it('mechanism: three steps, four cards, the succinylcholine note', () => {
    expect(MECHANISM.steps.map((s) => s.title)).toEqual([
      'Free rocuronium at the receptor',
      'Encapsulation',
      'Transmission restored',
    ]);
    expect(MECHANISM.steps[2]?.text).toContain('TOF ratio ≥ 0.9');
    expect(MECHANISM.cards.map((c) => c.title)).toEqual([
      'Direct sequestration',
      'Selective binding',
      'Weight-based dosing',
      'Rapid TOF recovery',
    ]);
    expect(MECHANISM.cards[2]?.text).toContain('actual body weight');
    expect(MECHANISM.cards[3]?.text).toMatch(/about 2 min.*about 3 min.*about 1\.5 min/);
    expect(MECHANISM.note).toMatch(/succinylcholine.*non-steroidal.*cisatracurium/);
  });

  it('advantage: comparison, depth coverage 2/4/16 mg/kg, three cards', () => {
    expect(allText(ADVANTAGE.comparison.direct)).toMatch(/ceiling effect/);
    expect(allText(ADVANTAGE.comparison.direct)).toMatch(/No antimuscarinic/);
    expect(allText(ADVANTAGE.comparison.indirect)).toMatch(/glycopyrrolate or atropine/);
    expect(allText(ADVANTAGE.comparison.indirect)).toMatch(/Cannot reverse deep block/);
    expect(ADVANTAGE.depthCoverage.rows.map((r) => r.dose)).toEqual(['2 mg/kg', '4 mg/kg', '16 mg/kg']);
    expect(ADVANTAGE.depthCoverage.rows[2]?.depth).toContain('rocuronium 1.2 mg/kg');
    expect(ADVANTAGE.cards.map((c) => c.title)).toEqual([
      'Speed to readiness',
      'Pulmonary outcomes',
      'Monitoring first',
    ]);
    expect(ADVANTAGE.cards[1]?.text).toMatch(/3\.5% vs 4\.8%.*OR 0\.70/);
    expect(ADVANTAGE.cards[2]?.text).toMatch(/Quantitative neuromuscular monitoring.*ASA 2023/);
  });

  it('tool sections have one-line intros', () => {
    for (const key of ['calculator', 'bradycardia-advisor', 'safety-calculator'] as const) {
      expect(TOOL_SECTIONS[key].intro).not.toBe('');
      expect(TOOL_SECTIONS[key].intro).not.toContain('\n');
    }
  });
});

describe('safety', () => {
  it('has the four panels in the spec order, each with items and a source', () => {
    expect(SAFETY.panels.map((p) => p.title)).toEqual([
      'Contraindications',
      'Warnings & Precautions',
      'Adverse Reactions',
      'Drug Interactions',
    ]);
    expect(SAFETY.panels.map((p) => p.id)).toEqual([
      'contraindications',
      'warnings',
      'adverse-reactions',
      'interactions',
    ]);
    for (const panel of SAFETY.panels) {
      expect(panel.items.length).toBeGreaterThan(0);
      expect(panel.source).not.toBe('');
    }
  });

  it('holds the statements of docs/product.md §9 and docs/clinical-reference.md §2-3', () => {
    const [contra, warnings, reactions, interactions] = SAFETY.panels.map(allText);
    expect(contra).toMatch(/hypersensitivity/);
    expect(contra).toMatch(/< 30 mL\/min\) or dialysis: not recommended/);
    expect(warnings).toMatch(/about 25% higher for up to about 1 h/);
    expect(warnings).toMatch(/back-up method for 7 days/);
    expect(warnings).toMatch(/repeat 4 mg\/kg and keep the TOF ratio ≥ 0.9 stable for at least 10 min/);
    // docs/clinical-reference.md §3: what the spec's summary means, never "within 4 h" (read as "over 4 h")
    expect(warnings).toContain('if block is needed again before 4 h have passed: rocuronium 1.2 mg/kg');
    expect(warnings).toContain('after 16 mg/kg, or with CrCl < 30 mL/min, wait 24 h');
    expect(allText(SAFETY)).not.toContain('within 4 h');
    // the panel does not contradict itself: rocuronium 0.6 mg/kg or vecuronium 0.1 mg/kg after 4 h
    expect(warnings).toContain('rocuronium 0.6 mg/kg or vecuronium 0.1 mg/kg after 4 h');
    expect(interactions).toContain('follow the re-paralysis waits under Warnings & Precautions');
    expect(reactions).toMatch(/about 1-2%/);
    expect(reactions).toMatch(/1 in 3,000-5,000 doses/);
    expect(reactions).toMatch(/within about 5 min/);
    expect(reactions).toMatch(/vomiting, pain, nausea, hypotension, headache/);
    expect(interactions).toMatch(/fusidic acid/);
    expect(interactions).toMatch(/flucloxacillin/);
    expect(interactions).toMatch(/toremifene/);
  });
});

describe('evidence', () => {
  const DOIS = [
    '10.1097/ALN.0000000000003256',
    '10.1002/14651858.CD012763',
    '10.1097/ALN.0b013e31818a3fee',
    '10.1097/ALN.0000000000004379',
    '10.1186/s13741-021-00203-6',
  ];

  it('has the five studies of docs/clinical-reference.md §5: two featured with a type, three without', () => {
    expect(EVIDENCE.studies).toHaveLength(5);
    const featured = EVIDENCE.studies.filter((s) => s.featured);
    const additional = EVIDENCE.studies.filter((s) => !s.featured);
    expect(featured).toHaveLength(2);
    expect(additional).toHaveLength(3);
    for (const s of featured) expect(s.type).toBeTruthy();
    for (const s of additional) expect(s.type).toBeUndefined();
    expect(EVIDENCE.studies.map(doiOf)).toEqual(DOIS);
  });

  it('links each study to its DOI, with an accent colour readable on white', () => {
    for (const study of EVIDENCE.studies) {
      expect(study.link.startsWith('https://doi.org/10.')).toBe(true);
      expect(study.title).not.toBe('');
      expect(study.authors).not.toBe('');
      expect(study.journal).not.toBe('');
      expect(study.description).not.toBe('');
      expect(study.accent).toMatch(/^#[0-9a-f]{6}$/i);
      expect(contrastOnWhite(study.accent)).toBeGreaterThanOrEqual(4.5);
    }
    expect(EVIDENCE.openStudy).toBe('Open Study');
    expect(EVIDENCE.evidencePackButton).toBe('Download Evidence Pack PDF');
  });
});

describe('resources', () => {
  it('has six resources and the textbook chapter, with unique PDF file names', () => {
    expect(RESOURCES.resources.map((r) => r.file)).toEqual([
      'hcp-dosing-guide.pdf',
      'mechanism-of-action-infographic.pdf',
      'contraception-patient-counselling.pdf',
      'safety-profile.pdf',
      'paediatric-renal-counselling.pdf',
      'usage-form.pdf',
    ]);
    expect(RESOURCES.textbook.file).toBe('textbook-chapter.pdf');
    const all = [...RESOURCES.resources, RESOURCES.textbook];
    const files = all.map((r) => r.file);
    expect(new Set(files).size).toBe(files.length);
    for (const resource of all) {
      expect(resource.file).toMatch(/^[a-z0-9-]+\.pdf$/);
      expect(resource.format).toBe('PDF');
      expect(resource.colour).toMatch(/^#[0-9a-f]{6}$/i);
      expect(contrastOnWhite(resource.colour)).toBeGreaterThanOrEqual(4.5);
      expect(resource.title).not.toBe('');
      expect(resource.description).not.toBe('');
    }
  });

  it('gives every document at least a full page of content (350+ words)', () => {
    // the contraception sheet is the patient sheet's general case, one page in two languages (build-pdfs.test.ts)
    for (const resource of [...RESOURCES.resources, RESOURCES.textbook].filter(
      (r) => r.file !== CONTRACEPTION_SHEET_FILE,
    )) {
      expect(wordCount(documentFor(resource.file)), resource.file).toBeGreaterThanOrEqual(350);
    }
  });
});

describe('FAQ and contact', () => {
  it('has twelve non-empty entries with unique questions', () => {
    expect(FAQ.entries).toHaveLength(12);
    for (const entry of FAQ.entries) {
      expect(entry.question.trim()).not.toBe('');
      expect(entry.question.endsWith('?')).toBe(true);
      expect(entry.answer.trim().length).toBeGreaterThan(40);
    }
    expect(new Set(FAQ.entries.map((e) => e.question)).size).toBe(12);
  });

  it('answers consistently with the clinical reference', () => {
    const text = allText(FAQ);
    expect(text).toContain('Actual body weight, obese patients included');
    expect(text).toContain('1280 mg: 7 vials, 12.8 mL');
    expect(text).toContain('140 mg: 1 vial, 1.4 mL');
    expect(text).toContain('if block is needed again before 4 h have passed: rocuronium 1.2 mg/kg');
    expect(text).toContain('adrenaline (epinephrine) 10 micrograms IV boluses or a 2-10 micrograms/min infusion');
    expect(text).toContain('7 days');
  });

  it('contact strings', () => {
    expect(CONTACT.productCard).toEqual(['200 mg / 2 mL vial', '100 mg/mL', 'Box of 10 vials', '147.64 SAR per vial']);
    expect(CONTACT.calculateButton).toBe('Calculate Dose Now');
    expect(CONTACT.resourcesButton).toBe('Download Resources');
    expect(CONTACT.saudiMade).toBe('Saudi Made');
    expect(CONTACT.lastUpdated).toBe('Last updated: August 5, 2025');
    expect(CONTACT.copyright.startsWith('© 2025 ')).toBe(true);
    expect(CONTACT.hcpOnly.startsWith('For healthcare professionals only')).toBe(true);
    expect(CONTACT.decisionSupport).toMatch(/decision support/i);
  });
});

describe('all content', () => {
  it('never names a brand', () => {
    const text = allText([HERO, MECHANISM, ADVANTAGE, TOOL_SECTIONS, SAFETY, EVIDENCE, RESOURCES, FAQ, CONTACT, SITE]);
    expect(text).not.toMatch(/bridion|merck/i);
  });
});
