import {
  DEEP_BLOCK_DOSE_MG_PER_KG,
  IMMEDIATE_REVERSAL_DOSE_MG_PER_KG,
  MEDIAN_RECOVERY_MIN,
  MODERATE_BLOCK_DOSE_MG_PER_KG,
} from '../../clinical/index.ts';
import type { MechanismContent } from './types.ts';

/** Mechanism of action (docs/product.md §2); median times from docs/clinical-reference.md §1 (EU SmPC 4.2). */
export const MECHANISM: MechanismContent = {
  title: 'Mechanism of Action',
  intro:
    'Sugammadex is a modified gamma-cyclodextrin. It reverses block directly: it encapsulates the steroidal blocker itself, rather than inhibiting acetylcholinesterase, so the depth of block it can reverse depends on the dose given.',
  steps: [
    {
      title: 'Free rocuronium at the receptor',
      text: 'Rocuronium (or vecuronium) occupies the nicotinic acetylcholine receptors of the neuromuscular junction, and acetylcholine can no longer trigger muscle contraction.',
    },
    {
      title: 'Encapsulation',
      text: 'Given as a single IV bolus, sugammadex encapsulates free rocuronium molecules in the plasma. As free rocuronium falls in the plasma, it moves away from the junction and is encapsulated in turn.',
    },
    {
      title: 'Transmission restored',
      text: 'With the receptors freed, acetylcholine restores neuromuscular transmission. Recovery is confirmed with quantitative monitoring: a TOF ratio ≥ 0.9 before extubation.',
    },
  ],
  cards: [
    {
      title: 'Direct sequestration',
      text: 'Acts on the blocking drug, not on acetylcholinesterase: no ceiling effect, and no antimuscarinic such as glycopyrrolate or atropine is needed.',
    },
    {
      title: 'Selective binding',
      text: 'Designed for the steroidal blockers rocuronium and vecuronium. It is not effective for succinylcholine or for non-steroidal blockers such as cisatracurium.',
    },
    {
      title: 'Weight-based dosing',
      text: `Dosed by actual body weight, obese patients included: ${MODERATE_BLOCK_DOSE_MG_PER_KG} mg/kg for moderate block, ${DEEP_BLOCK_DOSE_MG_PER_KG} mg/kg for deep block and ${IMMEDIATE_REVERSAL_DOSE_MG_PER_KG} mg/kg for immediate reversal in adults.`,
    },
    {
      title: 'Rapid TOF recovery',
      text: `Median time to a TOF ratio ≥ 0.9: about ${MEDIAN_RECOVERY_MIN.moderate} min after ${MODERATE_BLOCK_DOSE_MG_PER_KG} mg/kg, about ${MEDIAN_RECOVERY_MIN.deep} min after ${DEEP_BLOCK_DOSE_MG_PER_KG} mg/kg and about ${MEDIAN_RECOVERY_MIN.immediate} min after ${IMMEDIATE_REVERSAL_DOSE_MG_PER_KG} mg/kg (EU SmPC 4.2).`,
    },
  ],
  note: 'Not effective for succinylcholine or non-steroidal neuromuscular blockers (e.g. cisatracurium): use it only to reverse rocuronium or vecuronium block.',
};
