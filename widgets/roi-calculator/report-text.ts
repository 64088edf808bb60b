import { ROI_RISK_RATIO, type RoiResult } from '../../clinical/index.ts';
import type { RoiInputsDetail } from '../shared/widget-host/events.ts';
import { formatOneDecimal, formatSar } from '../shared/lang/format.ts';
import type { Messages } from '../shared/lang/messages/index.ts';
import { roi } from '../shared/lang/messages/roi.ts';

export type RoiMessages = Messages['roi'];

/** The lines the PDF and the e-mail report share: inputs, results, impact summary. */
export function inputLines(inputs: RoiInputsDetail, t: RoiMessages = roi): string[] {
  const r = t.report;
  return [
    r.numberOfCases(inputs.numberOfCases),
    r.orCostPerMinute(inputs.orCostPerMinute),
    r.timeNeostigmine(inputs.timeNeostigmine),
    r.timeProduct(inputs.timeProduct),
    r.baselinePpcRate(inputs.baselinePPCRate),
    r.riskRatio(ROI_RISK_RATIO),
  ];
}

export function resultLines(result: RoiResult, t: RoiMessages = roi): string[] {
  const r = t.report;
  return [
    r.timeSaved(result.timeSavedMin, formatOneDecimal(result.hoursFreed)),
    r.costSaved(formatSar(result.costSavedSar)),
    r.ppcsAvoided(formatOneDecimal(result.ppcsAvoided)),
  ];
}

/** The impact summary: the figures in a sentence, then why "cost saved" is capacity and when time is saved. */
export function impactLines(inputs: RoiInputsDetail, result: RoiResult, t: RoiMessages = roi): string[] {
  return [
    t.impactSummary(
      inputs.numberOfCases,
      formatOneDecimal(result.hoursFreed),
      formatSar(result.costSavedSar),
      formatOneDecimal(result.ppcsAvoided),
    ),
    t.fixedCostNote,
    t.tofNote,
  ];
}
