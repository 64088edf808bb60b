import {
  CONCENTRATION_MG_PER_ML,
  VIAL_CONTENT_MG,
  VIAL_PRICE_SAR,
  VIAL_VOLUME_ML,
  VIALS_PER_BOX,
} from '../../clinical/index.ts';
import { formatSarPrice } from '../../widgets/shared/lang/format.ts';
import { SITE } from './nav.ts';
import type { ContactContent } from './types.ts';

/** Contact and footer (docs/product.md §1, §2). */
export const CONTACT: ContactContent = {
  title: 'Contact',
  productName: 'Sugammadex injection',
  productCard: [
    `${VIAL_CONTENT_MG} mg / ${VIAL_VOLUME_ML} mL vial`,
    `${CONCENTRATION_MG_PER_ML} mg/mL`,
    `Box of ${VIALS_PER_BOX} vials`,
    `${formatSarPrice(VIAL_PRICE_SAR)} SAR per vial`,
  ],
  calculateButton: 'Calculate Dose Now',
  resourcesButton: 'Download Resources',
  saudiMade: 'Saudi Made',
  lastUpdated: 'Last updated: August 5, 2025',
  copyright: `© 2025 ${SITE.name}. All rights reserved.`,
  hcpOnly: 'For healthcare professionals only. This content is intended for licensed healthcare professionals.',
  decisionSupport:
    'Decision support only: it does not replace clinical judgement or the local prescribing information.',
  clinicalVerification: 'Clinical verification',
};
