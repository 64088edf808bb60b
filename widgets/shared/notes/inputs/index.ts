import type { HistoryEntry } from '../../session/account-api.ts';
import type { ToolInputs } from '../notes-content.ts';
import { BRADYCARDIA_ADVISOR_INPUTS } from './bradycardia-advisor.ts';
import { DOSE_CALCULATOR_INPUTS } from './dose-calculator.ts';
import { ROI_CALCULATOR_INPUTS } from './roi-calculator.ts';

/** Every tool's inputs as the notes word them: for the history, which holds calculations of any tool. */
export const TOOL_INPUTS: Readonly<Record<HistoryEntry['toolType'], ToolInputs>> = {
  dose_calculator: DOSE_CALCULATOR_INPUTS,
  bradycardia_advisor: BRADYCARDIA_ADVISOR_INPUTS,
  roi_calculator: ROI_CALCULATOR_INPUTS,
};
