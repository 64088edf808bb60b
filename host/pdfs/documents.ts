import { CONTACT } from '../content/contact.ts';
import { EVIDENCE, doiOf } from '../content/evidence.ts';
import {
  HCP_DOSING_GUIDE,
  MECHANISM_INFOGRAPHIC,
  PAEDIATRIC_RENAL_COUNSELLING,
  SAFETY_PROFILE,
  TEXTBOOK_CHAPTER,
  USAGE_FORM,
} from '../content/resource-documents.ts';
import { RESOURCES } from '../content/resources.ts';
import type { PdfDocument, PdfSection } from '../content/types.ts';

/** docs/product.md §2: the hero's "Download HCP Guide" downloads /hcp-guide.pdf, the HCP dosing guide. */
export const HCP_GUIDE_FILE = 'hcp-guide.pdf';
/** The resource document that hcp-guide.pdf is a copy of. */
export const HCP_GUIDE_SOURCE_FILE = 'hcp-dosing-guide.pdf';
export const EVIDENCE_PACK_FILE = 'evidence-pack.pdf';

/** Every footer's text (docs/product.md §1: decision support only, for healthcare professionals). */
export const PDF_META = {
  lastUpdated: CONTACT.lastUpdated,
  footer: 'Decision support only - for licensed healthcare professionals',
} as const;

/** Design of the studies that carry no `type` (the featured ones do); docs/clinical-reference.md §5. */
const DESIGN_BY_DOI: Record<string, string> = {
  '10.1097/ALN.0b013e31818a3fee': 'Comparative clinical trial (sugammadex vs neostigmine in deep block)',
  '10.1097/ALN.0000000000004379': 'Practice guideline',
  '10.1186/s13741-021-00203-6': 'Meta-analysis of randomised controlled trials',
};

const studySections: PdfSection[] = EVIDENCE.studies.map((study, index) => ({
  heading: `${index + 1}. ${study.title}`,
  paragraphs: [
    `Citation: ${study.authors} ${study.title}. ${study.journal}. doi:${doiOf(study)}`,
    `Link: ${study.link}`,
    `Design: ${study.type ?? DESIGN_BY_DOI[doiOf(study)] ?? 'Clinical study'}. Year: ${study.year}.`,
    `Key result: ${study.description}`,
  ],
}));

/** The evidence pack (docs/product.md §2 "Download Evidence Pack PDF"): the five studies with full citations. */
export const EVIDENCE_PACK: PdfDocument = {
  file: EVIDENCE_PACK_FILE,
  title: 'Evidence Pack',
  subtitle: 'Five key publications on direct reversal with sugammadex: full citations, DOIs and key results',
  sections: [
    {
      heading: 'About this pack',
      paragraphs: [
        `${EVIDENCE.intro} Two featured studies, a large matched cohort on pulmonary complications and a Cochrane systematic review, are followed by a comparative trial in deep block, the 2023 ASA practice guidelines and a meta-analysis of randomised trials.`,
        'Open each study through its DOI link for the full text and its limitations. Decision support only: the figures summarise the publications and do not replace them.',
      ],
    },
    {
      heading: 'At a glance',
      table: [
        ['Study', 'Journal', 'Key result'],
        ...EVIDENCE.studies.map((study) => [
          `${study.authors.replace(/, et al\.$/, ' et al.')} ${study.year}`,
          study.journal,
          study.description,
        ]),
      ],
    },
    ...studySections,
    {
      heading: 'Reading the evidence',
      bullets: [
        'Pulmonary outcomes: STRONGER (3.5% vs 4.8%, adjusted OR 0.70) and the meta-analysis of randomised trials (OR 0.62) point the same way: fewer postoperative pulmonary complications after sugammadex than after neostigmine.',
        'Speed: deep block reversed in 2.9 min vs 50.4 min with neostigmine (Jones 2008); median times to TOF ratio ≥ 0.9 are about 2, 3 and 1.5 min at 2, 4 and 16 mg/kg (EU SmPC 4.2).',
        'Monitoring: operating-room time is saved only when a TOF ratio ≥ 0.9 is verified before extubation, as the ASA 2023 guidelines recommend with quantitative monitoring.',
        'Cost context: operating-room time costs about US$36-37 per minute (Childers 2018, JAMA Surg, doi:10.1001/jamasurg.2017.6233); most of that cost is fixed, so time saved is capacity freed rather than cash.',
      ],
    },
  ],
};

/** Every PDF built for the site root: the six resources, the textbook chapter and the evidence pack. */
/** The resource documents by file name; every resource card's file has one (checked below). */
const RESOURCE_DOCUMENTS: PdfDocument[] = [
  HCP_DOSING_GUIDE,
  MECHANISM_INFOGRAPHIC,
  SAFETY_PROFILE,
  PAEDIATRIC_RENAL_COUNSELLING,
  USAGE_FORM,
  TEXTBOOK_CHAPTER,
];

/**
 * The contraception counselling resource is the patient sheet's general case (no patient, no dates), Arabic and
 * English on one page, made by the same generator as a patient's sheet (widgets/shared/patient-sheet/), so the two
 * never disagree (docs/clinical-reference.md#8-patient-counselling-contraception).
 */
export const CONTRACEPTION_SHEET_FILE = 'contraception-patient-counselling.pdf';

export function documentFor(file: string): PdfDocument {
  const found = RESOURCE_DOCUMENTS.find((document) => document.file === file);
  if (!found) throw new Error(`No PDF document for the resource file ${file}`);
  return found;
}

export const PDF_DOCUMENTS: PdfDocument[] = [
  ...[...RESOURCES.resources, RESOURCES.textbook]
    .filter((resource) => resource.file !== CONTRACEPTION_SHEET_FILE)
    .map((resource) => documentFor(resource.file)),
  EVIDENCE_PACK,
];
