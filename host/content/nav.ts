import type { NavItem, SiteMeta } from './types.ts';

/** Top navigation (docs/product.md §2): the ten labels in order, each with its section anchor. */
export const NAV_ITEMS: NavItem[] = [
  { label: 'MOA', target: 'moa' },
  { label: 'Competitive Edge', target: 'advantage' },
  { label: 'Dose Calculator', target: 'calculator' },
  { label: 'Bradycardia Advisor', target: 'bradycardia-advisor' },
  { label: 'Safety Calculator', target: 'safety-calculator' },
  { label: 'Safety', target: 'safety' },
  { label: 'Clinical Evidence', target: 'evidence' },
  { label: 'Resources', target: 'resources' },
  { label: 'FAQ', target: 'faq' },
  { label: 'Contact', target: 'contact' },
];

/** Page metadata. The product is named generically (sugammadex class), never by a brand. */
export const SITE: SiteMeta = {
  name: 'Sugammadex Reversal',
  title: 'Sugammadex Reversal - dosing, safety and evidence for healthcare professionals',
  description:
    'Decision support for licensed healthcare professionals: weight-based sugammadex dosing for rocuronium and vecuronium block, bradycardia risk and re-paralysis guidance, safety information, clinical evidence and downloadable resources.',
};
