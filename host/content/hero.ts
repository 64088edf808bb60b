import { MEDIAN_RECOVERY_MIN, VIAL_CONTENT_MG, VIAL_VOLUME_ML, VIALS_PER_BOX } from '../../clinical/index.ts';
import type { HeroContent } from './types.ts';

/** Hero (docs/product.md §2). Median times: docs/clinical-reference.md §1 (EU SmPC 4.2). */
export const HERO: HeroContent = {
  headline: 'Fast, predictable reversal of rocuronium and vecuronium block',
  subtitle: `A sugammadex-class reversal agent dosed by actual body weight, matched to the depth of block: median time to a TOF ratio ≥ 0.9 of about ${MEDIAN_RECOVERY_MIN.moderate} minutes from moderate block and about ${MEDIAN_RECOVERY_MIN.deep} minutes from deep block.`,
  story: {
    title: 'From deep block to extubation readiness',
    text: `Illustrative case: at the end of a laparoscopic procedure the post-tetanic count is 2 and there is no TOF response. A single 4 mg/kg bolus by actual body weight encapsulates the remaining rocuronium; the median time to a TOF ratio ≥ 0.9 at this dose is about ${MEDIAN_RECOVERY_MIN.deep} minutes. Quantitative monitoring confirms recovery, ventilation and airway reflexes are checked, and the patient is extubated.`,
  },
  imageAlt: `Sugammadex ${VIAL_CONTENT_MG} mg / ${VIAL_VOLUME_ML} mL vial and its box of ${VIALS_PER_BOX} vials`,
  calculatorButton: 'Calculate Dose',
  guideButton: 'Download HCP Guide',
  tofLabel: 'TOF ratio',
  tofTarget: 'Target: ≥ 0.9 for extubation readiness',
  productLabel: `${VIAL_CONTENT_MG} mg / ${VIAL_VOLUME_ML} mL · Box of ${VIALS_PER_BOX} vials`,
  decisionSupport:
    'Decision support only: for licensed healthcare professionals. It does not replace clinical judgement or the local prescribing information.',
  tofPause: 'Pause animation',
  tofPlay: 'Play animation',
};
