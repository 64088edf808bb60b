import { roi as en } from '../../lang/messages/roi.ts';
import type { ToolInputs } from '../notes-content.ts';

/** The ROI calculator's inputs as the history words them (English: ../notes-content.ts). */
export const ROI_CALCULATOR_INPUTS: ToolInputs = {
  numberOfCases: { label: en.numberOfCases },
  orCostPerMinute: { label: en.orCostPerMinute, unit: en.unitSarPerMin },
  timeNeostigmine: { label: 'Time to TOF ratio >= 0.9 with neostigmine', unit: en.unitMin },
  timeProduct: { label: 'Time to TOF ratio >= 0.9 with sugammadex', unit: en.unitMin },
  baselinePPCRate: { label: en.baselinePpcRate, unit: en.unitPercent },
  riskRatio: { label: 'Risk ratio of PPCs (fixed)' },
};
