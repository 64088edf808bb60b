import type { EvidenceContent, Study } from './types.ts';

/** The five studies of docs/clinical-reference.md §5, each linked to its DOI. */
const studies: Study[] = [
  {
    year: 2020,
    type: 'Cohort study',
    title:
      'Sugammadex versus neostigmine for reversal of neuromuscular blockade and postoperative pulmonary complications (STRONGER)',
    authors: 'Kheterpal S, et al.',
    journal: 'Anesthesiology 2020;132(6):1371-1381',
    description:
      'Matched cohort of 22,856 pairs: major postoperative pulmonary complications 3.5% after sugammadex vs 4.8% after neostigmine, adjusted OR 0.70.',
    link: 'https://doi.org/10.1097/ALN.0000000000003256',
    accent: '#0f766e',
    featured: true,
  },
  {
    year: 2017,
    type: 'Systematic review',
    title: 'Efficacy and safety of sugammadex versus neostigmine in reversing neuromuscular blockade in adults',
    authors: 'Hristovska A-M, et al.',
    journal: 'Cochrane Database Syst Rev 2017, CD012763',
    description:
      'Cochrane review of sugammadex against neostigmine in adults: fewer composite adverse events with sugammadex, RR 0.60.',
    link: 'https://doi.org/10.1002/14651858.CD012763',
    accent: '#1d4ed8',
    featured: true,
  },
  {
    year: 2008,
    title: 'Reversal of profound rocuronium-induced blockade with sugammadex',
    authors: 'Jones RK, et al.',
    journal: 'Anesthesiology 2008;109(5):816-824',
    description: 'Deep rocuronium block: recovery in 2.9 min with sugammadex vs 50.4 min with neostigmine.',
    link: 'https://doi.org/10.1097/ALN.0b013e31818a3fee',
    accent: '#6d28d9',
    featured: false,
  },
  {
    year: 2023,
    title:
      '2023 American Society of Anesthesiologists practice guidelines for monitoring and antagonism of neuromuscular blockade',
    authors: 'Thilen SR, et al.',
    journal: 'Anesthesiology 2023;138(1):13-41',
    description:
      'Quantitative monitoring, a TOF ratio ≥ 0.9 before extubation, and sugammadex for deep, moderate and shallow rocuronium or vecuronium block.',
    link: 'https://doi.org/10.1097/ALN.0000000000004379',
    accent: '#b45309',
    featured: false,
  },
  {
    year: 2021,
    title:
      'Sugammadex versus neostigmine and postoperative pulmonary complications: a meta-analysis of randomised controlled trials',
    authors: 'Wang J-F, et al.',
    journal: 'Perioperative Medicine 2021',
    description:
      'Meta-analysis of randomised trials: fewer postoperative pulmonary complications overall with sugammadex, OR 0.62 (0.43-0.89).',
    link: 'https://doi.org/10.1186/s13741-021-00203-6',
    accent: '#be123c',
    featured: false,
  },
];

/** Clinical evidence section (docs/product.md §2). */
export const EVIDENCE: EvidenceContent = {
  title: 'Clinical Evidence',
  intro: 'Outcome studies and guidelines behind direct reversal with sugammadex, each linked to its published source.',
  studies,
  openStudy: 'Open Study',
  evidencePackButton: 'Download Evidence Pack PDF',
};

/** The DOI of a study link ("https://doi.org/10.x/y" gives "10.x/y"). */
export function doiOf(study: Study): string {
  return study.link.replace(/^https:\/\/doi\.org\//, '');
}
