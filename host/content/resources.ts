import type { Resource, ResourcesContent } from './types.ts';

/**
 * Resources (docs/product.md §2): six download cards and the textbook-chapter entry, each a PDF served from
 * the site root under `file` (the documents themselves are in resource-documents.ts, used only by the PDF build). Colours are dark enough for AA contrast on white.
 */
const resources: Resource[] = [
  {
    title: 'HCP Dosing Guide',
    description:
      'Dose by depth of block, vial maths with worked examples, administration, monitoring, renal, paediatric and re-paralysis guidance.',
    format: 'PDF',
    colour: '#0f766e',
    file: 'hcp-dosing-guide.pdf',
  },
  {
    title: 'Mechanism of Action Infographic',
    description:
      'The three steps of encapsulation, the four key features and the blockers it does and does not reverse.',
    format: 'PDF',
    colour: '#1d4ed8',
    file: 'mechanism-of-action-infographic.pdf',
  },
  {
    title: 'Contraception Patient Counselling',
    description: 'A plain-language sheet for patients on hormonal contraception: back-up contraception for 7 days.',
    format: 'PDF',
    colour: '#be185d',
    file: 'contraception-patient-counselling.pdf',
  },
  {
    title: 'Safety Profile',
    description:
      'Contraindications, warnings, adverse reactions and interactions with sources, and the management of bradycardia and anaphylaxis.',
    format: 'PDF',
    colour: '#b91c1c',
    file: 'safety-profile.pdf',
  },
  {
    title: 'Paediatric & Renal Counselling',
    description: 'A plain-language sheet for parents of children and for patients with kidney problems.',
    format: 'PDF',
    colour: '#6d28d9',
    file: 'paediatric-renal-counselling.pdf',
  },
  {
    title: 'Usage Form',
    description:
      'A printable record of one reversal dose: block depth, dose, vials, time given, TOF ratio after reversal and signatures.',
    format: 'PDF',
    colour: '#b45309',
    file: 'usage-form.pdf',
  },
];

const textbook: Resource = {
  title: 'Neuromuscular Block Reversal: A Textbook Chapter',
  description:
    'Monitoring, indirect and direct reversal, dosing, special populations, safety, re-paralysis and outcomes in one chapter.',
  format: 'PDF',
  colour: '#334155',
  file: 'textbook-chapter.pdf',
};

export const RESOURCES: ResourcesContent = {
  title: 'Resources',
  intro: 'Guides, patient counselling sheets and forms to download and print.',
  resources,
  textbook,
  downloadLabel: 'Download PDF',
};
