import { defineWidget } from '../shared/element/define-widget.tsx';
import { RoiCalculator, type RoiCalculatorProps } from './RoiCalculator.tsx';

export const ROI_CALCULATOR_TAG = 'sgx-roi-calculator';

/**
 * Registers <sgx-roi-calculator cases or-cost-per-minute time-neostigmine time-product
 * baseline-ppc-rate calculator-target guide-href> (idempotent). Sends `sgx-roi-changed` and, when
 * the PDF fails, `sgx-error`.
 */
export function defineRoiCalculator(): CustomElementConstructor {
  return defineWidget<RoiCalculatorProps>(ROI_CALCULATOR_TAG, RoiCalculator, {
    apiBase: 'string',
    cases: 'string',
    orCostPerMinute: 'string',
    timeNeostigmine: 'string',
    timeProduct: 'string',
    baselinePpcRate: 'string',
    calculatorTarget: 'string',
    guideHref: 'string',
  });
}
