import {
  CONTRACEPTION_COUNSELLING,
  HCP_DOSING_GUIDE,
  MECHANISM_INFOGRAPHIC,
  PAEDIATRIC_RENAL_COUNSELLING,
  SAFETY_PROFILE,
  TEXTBOOK_CHAPTER,
  USAGE_FORM,
} from './resource-documents.ts';
import type { Resource, ResourcesContent } from './types.ts';

/**
 * Resources (spec §2): six download cards and the textbook-chapter entry, each a PDF served from
 * the site root under `document.file`. Colours are dark enough for AA contrast on white.
 */
const resources: Resource[] = [
  {
    title: 'HCP Dosing Guide',
    description: 'Dose by depth of block, vial maths with worked examples, administration, monitoring, renal, paediatric and re-paralysis guidance.',
    format: 'PDF',
    colour: '#0f766e',
    document: HCP_DOSING_GUIDE,
  },
  {
    title: 'Mechanism of Action Infographic',
    description: 'The three steps of encapsulation, the four key features and the blockers it does and does not reverse.',
    format: 'PDF',
    colour: '#1d4ed8',
    document: MECHANISM_INFOGRAPHIC,
  },
  {
    title: 'Contraception Patient Counselling',
    description: 'A plain-language sheet for patients on hormonal contraception: back-up contraception for 7 days.',
    format: 'PDF',
    colour: '#be185d',
    document: CONTRACEPTION_COUNSELLING,
  },
  {
    title: 'Safety Profile',
    description: 'Contraindications, warnings, adverse reactions and interactions with sources, and the management of bradycardia and anaphylaxis.',
    format: 'PDF',
    colour: '#b91c1c',
    document: SAFETY_PROFILE,
  },
  {
    title: 'Paediatric & Renal Counselling',
    description: 'A plain-language sheet for parents of children and for patients with kidney problems.',
    format: 'PDF',
    colour: '#6d28d9',
    document: PAEDIATRIC_RENAL_COUNSELLING,
  },
  {
    title: 'Usage Form',
    description: 'A printable record of one reversal dose: block depth, dose, vials, time given, TOF ratio after reversal and signatures.',
    format: 'PDF',
    colour: '#b45309',
    document: USAGE_FORM,
  },
];

const textbook: Resource = {
  title: 'Neuromuscular Block Reversal: A Textbook Chapter',
  description: 'Monitoring, indirect and direct reversal, dosing, special populations, safety, re-paralysis and outcomes in one chapter.',
  format: 'PDF',
  colour: '#334155',
  document: TEXTBOOK_CHAPTER,
};

export const RESOURCES: ResourcesContent = {
  title: 'Resources',
  intro: 'Guides, patient counselling sheets and forms to download and print.',
  resources,
  textbook,
  downloadLabel: 'Download PDF',
};
