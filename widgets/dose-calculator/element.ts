import { defineWidget } from '../shared/element/define-widget.tsx';
import { DoseCalculator, type DoseCalculatorProps } from './DoseCalculator.tsx';

export const DOSE_CALCULATOR_TAG = 'sgx-dose-calculator';

/** Registers <sgx-dose-calculator api-base weight age-group emergency hospital-name> (idempotent). */
export function defineDoseCalculator(): CustomElementConstructor {
  return defineWidget<DoseCalculatorProps>(DOSE_CALCULATOR_TAG, DoseCalculator, {
    apiBase: 'string',
    weight: 'string',
    ageGroup: 'string',
    // Present (even without a value) shows the Emergency button.
    emergency: 'string',
    hospitalName: 'string',
  });
}
