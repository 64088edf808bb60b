import {
  DEEP_BLOCK_DOSE_MG_PER_KG,
  IMMEDIATE_REVERSAL_DOSE_MG_PER_KG,
  MEDIAN_RECOVERY_MIN,
  MODERATE_BLOCK_DOSE_MG_PER_KG,
  RSI_ROCURONIUM_DOSE_MG_PER_KG,
} from '../../clinical/index.ts';
import type { AdvantageContent } from './types.ts';

/**
 * Competitive edge (docs/product.md §2). Doses and median times: docs/clinical-reference.md §1; Jones 2008, STRONGER
 * (Kheterpal 2020) and ASA 2023 (Thilen 2023): docs/clinical-reference.md §5.
 */
export const ADVANTAGE: AdvantageContent = {
  title: 'Competitive Edge',
  intro:
    'Direct reversal removes rocuronium or vecuronium from the circulation at any depth of block; indirect reversal with neostigmine only raises acetylcholine and cannot overcome deep block.',
  comparison: {
    direct: {
      title: 'Direct reversal: sugammadex',
      text: 'Encapsulates the blocker itself, with a dose matched to the depth of block.',
      points: [
        'No ceiling effect: a higher dose reverses a deeper block',
        'No antimuscarinic needed',
        `Reverses moderate and deep block, and immediate reversal after rocuronium ${RSI_ROCURONIUM_DOSE_MG_PER_KG} mg/kg`,
        `Median time to TOF ratio ≥ 0.9 about ${MEDIAN_RECOVERY_MIN.moderate}-${MEDIAN_RECOVERY_MIN.deep} min`,
      ],
    },
    indirect: {
      title: 'Indirect reversal: neostigmine',
      text: 'Inhibits acetylcholinesterase so that more acetylcholine competes with the blocker.',
      points: [
        'Ceiling effect: once acetylcholinesterase is inhibited, more drug adds nothing',
        'Needs glycopyrrolate or atropine to offset its muscarinic effects',
        'Cannot reverse deep block',
        'Deep block (Jones 2008): recovery in 50.4 min with neostigmine vs 2.9 min with sugammadex',
      ],
    },
  },
  depthCoverage: {
    title: 'Depth coverage',
    text: 'One agent for every depth of rocuronium or vecuronium block, dosed by actual body weight.',
    rows: [
      {
        depth: 'Moderate block (TOF count ≥ 2: T2 has reappeared)',
        dose: `${MODERATE_BLOCK_DOSE_MG_PER_KG} mg/kg`,
        note: `Median about ${MEDIAN_RECOVERY_MIN.moderate} min to TOF ratio ≥ 0.9`,
      },
      {
        depth: 'Deep block (PTC 1-2, no TOF response)',
        dose: `${DEEP_BLOCK_DOSE_MG_PER_KG} mg/kg`,
        note: `Median about ${MEDIAN_RECOVERY_MIN.deep} min to TOF ratio ≥ 0.9`,
      },
      {
        depth: `Immediate reversal, about 3 min after rocuronium ${RSI_ROCURONIUM_DOSE_MG_PER_KG} mg/kg`,
        dose: `${IMMEDIATE_REVERSAL_DOSE_MG_PER_KG} mg/kg`,
        note: `Adults, after rocuronium only; median about ${MEDIAN_RECOVERY_MIN.immediate} min to TOF ratio ≥ 0.9`,
      },
    ],
  },
  cards: [
    {
      title: 'Speed to readiness',
      text: `Median time to a TOF ratio ≥ 0.9 of about ${MEDIAN_RECOVERY_MIN.moderate} min from moderate and about ${MEDIAN_RECOVERY_MIN.deep} min from deep block. Operating-room time is saved only when TOF ≥ 0.9 is verified before extubation.`,
    },
    {
      title: 'Pulmonary outcomes',
      text: 'Fewer postoperative pulmonary complications than with neostigmine: in STRONGER (22,856 matched pairs), major complications 3.5% vs 4.8%, adjusted OR 0.70 (Kheterpal 2020).',
    },
    {
      title: 'Monitoring first',
      text: 'Quantitative neuromuscular monitoring, with a TOF ratio ≥ 0.9 confirmed before extubation, as the ASA 2023 practice guidelines recommend (Thilen 2023).',
    },
  ],
};
