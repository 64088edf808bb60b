/**
 * The page's content as typed data: written once, rendered by the page and by the PDF generator.
 * Facts come from docs/product.md and docs/clinical-reference.md.
 */

export type SectionId =
  | 'hero'
  | 'moa'
  | 'advantage'
  | 'calculator'
  | 'bradycardia-advisor'
  | 'safety-calculator'
  | 'safety'
  | 'evidence'
  | 'resources'
  | 'faq'
  | 'contact';

export interface SiteMeta {
  /** Short name, used in the copyright line and as the PDFs' author. */
  name: string;
  /** The page's <title>. */
  title: string;
  /** The page's meta description. */
  description: string;
}

export interface NavItem {
  label: string;
  target: Exclude<SectionId, 'hero'>;
}

export interface TitledText {
  title: string;
  text: string;
}

export interface HeroContent {
  headline: string;
  subtitle: string;
  story: TitledText;
  imageAlt: string;
  calculatorButton: string;
  guideButton: string;
  tofLabel: string;
  tofTarget: string; // "Target: ≥ 0.9 for extubation readiness"
  productLabel: string; // 200 mg per 2 mL, box of 10 vials
  decisionSupport: string;
  /** The TOF figure's button (WCAG 2.2 SC 2.2.2): its label while the figure moves, and while it is still. */
  tofPause: string;
  tofPlay: string;
}

export interface MechanismContent {
  title: string;
  intro: string;
  steps: TitledText[]; // exactly three
  cards: TitledText[]; // exactly four
  note: string; // not effective for succinylcholine or non-steroidal blockers
}

export interface AdvantageContent {
  title: string;
  intro: string;
  comparison: { direct: TitledText & { points: string[] }; indirect: TitledText & { points: string[] } };
  depthCoverage: TitledText & { rows: { depth: string; dose: string; note: string }[] };
  cards: TitledText[]; // speed to readiness, pulmonary outcomes, monitoring first
}

/** The three sections that hold a tool (a custom element). */
export type ToolSectionId = 'calculator' | 'bradycardia-advisor' | 'safety-calculator';

export interface ToolSectionContent {
  title: string;
  intro: string;
}

export interface SafetyPanel {
  id: 'contraindications' | 'warnings' | 'adverse-reactions' | 'interactions';
  title: string;
  items: string[];
  source: string;
}

export interface SafetyContent {
  title: string;
  intro: string;
  panels: SafetyPanel[]; // exactly four, in the spec's order
}

export interface Study {
  year: number;
  /** Featured studies only (e.g. "Cohort study", "Systematic review"). */
  type?: string;
  title: string;
  authors: string;
  journal: string;
  description: string;
  /** https://doi.org/…; an empty or "#" link shows the spec's alert instead. */
  link: string;
  accent: string;
  featured: boolean;
}

export interface EvidenceContent {
  title: string;
  intro: string;
  studies: Study[]; // two featured, three additional
  openStudy: string; // "Open Study"
  evidencePackButton: string; // "Download Evidence Pack PDF"
}

/** A document rendered to PDF at build time. */
export interface PdfDocument {
  /** File name at the site root, e.g. "hcp-dosing-guide.pdf". */
  file: string;
  title: string;
  subtitle: string;
  sections: PdfSection[];
}
export interface PdfSection {
  heading: string;
  paragraphs?: string[];
  bullets?: string[];
  /** First row is the header. */
  table?: string[][];
  /** The table's column widths, as shares of the text width; omitted: from each column's longest text. */
  columnShares?: number[];
}

export interface Resource {
  title: string;
  description: string;
  format: 'PDF';
  colour: string;
  /** The PDF at the site root, built from its PdfDocument in host/pdfs (kept out of the page's bundle). */
  file: string;
}

export interface ResourcesContent {
  title: string;
  intro: string;
  resources: Resource[]; // exactly six
  textbook: Resource; // the general textbook-chapter resource
  downloadLabel: string;
}

export interface FaqEntry {
  question: string;
  answer: string;
}

export interface FaqContent {
  title: string;
  intro: string;
  entries: FaqEntry[]; // exactly twelve
}

export interface ContactContent {
  title: string;
  productName: string;
  productCard: string[];
  calculateButton: string; // "Calculate Dose Now"
  resourcesButton: string; // "Download Resources"
  saudiMade: string; // "Saudi Made"
  lastUpdated: string; // "Last updated: August 5, 2025"
  copyright: string;
  hcpOnly: string;
  decisionSupport: string;
  /** The footer's link to /clinical-verification.html (README "Clinical verification"). */
  clinicalVerification: string;
}

// ---- The page in one language ------------------------------------------------------------------

/** The page's languages: English at `/`, Arabic at `/ar/` (right to left). */
export type Lang = 'en' | 'ar';

/** The link to the page in the other language (in the navigation bar). */
export interface LanguageSwitch {
  /** The other language's name, written in that language ("العربية", "English"). */
  label: string;
  /** The other language (the link's `lang` and `hreflang`). */
  lang: Lang;
  /** The other language's page ("/ar/", "/"); the hash of the section in view is added. */
  href: string;
}

/** The texts around the sections: skip link, menu, language switch, link notes, the Emergency button. */
export interface PageChrome {
  skipToContent: string;
  /** The mobile menu's toggle button. */
  menuButton: string;
  /** The navigation landmark's label. */
  navLabel: string;
  languageSwitch: LanguageSwitch;
  /** Read after a link that opens in a new tab ("opens in a new tab"). */
  opensInNewTab: string;
  /** Shown after each PDF link when the documents are in another language ('' on the English page). */
  pdfLanguageNote: string;
  /** The Emergency button in the bar, which opens the emergency card (docs/clinical-reference.md §7). */
  emergency: string;
  /** Said when the card's code could not be loaded (no connection before it was ever opened). */
  emergencyUnavailable: string;
  /** In each tool's box when the browser runs no scripts (the tools are scripts; the page's text is not). */
  toolNeedsScript: string;
}

/** The page's texts, the page's language and direction. */
export interface SiteContent extends SiteMeta {
  lang: Lang;
  dir: 'ltr' | 'rtl';
}

/** The clinical statements written once and used by the safety hub and the FAQ (docs/product.md §9). */
export interface SafetyStatements {
  reparalysis: string;
  recurrence: string;
  contraception: string;
  displacement: string;
}

/** The 404 page (docs/product.md §2). */
export interface NotFoundContent {
  title: string;
  text: string;
  homeLink: string;
}

/**
 * Everything the host page shows, in one language: `CONTENT_EN` (host/content/index.ts) and `CONTENT_AR`
 * (host/content/ar/). Both are typed as this, so a missing or extra key fails the type check.
 */
export interface PageContent {
  site: SiteContent;
  chrome: PageChrome;
  nav: NavItem[];
  hero: HeroContent;
  mechanism: MechanismContent;
  advantage: AdvantageContent & {
    /** The depth-coverage table's column headings. */
    depthColumns: { depth: string; dose: string; when: string };
  };
  tools: Record<ToolSectionId, ToolSectionContent>;
  safety: SafetyContent & { statements: SafetyStatements };
  evidence: EvidenceContent & {
    /** The alert for a study without a link (docs/product.md §5): "Study: {title}", then "Link will be…". */
    studyWithoutLink: (title: string) => string;
  };
  resources: ResourcesContent;
  faq: FaqContent;
  contact: ContactContent;
  notFound: NotFoundContent;
}
