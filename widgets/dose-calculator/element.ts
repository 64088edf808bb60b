import { defineWidget } from '../shared/define-widget.tsx';
import { DoseCalculator, type DoseCalculatorProps } from './DoseCalculator.tsx';

export const DOSE_CALCULATOR_TAG = 'sgx-dose-calculator';

/** Registers <sgx-dose-calculator api-base weight age-group emergency> (idempotent). */
export function defineDoseCalculator(): CustomElementConstructor {
  return defineWidget<DoseCalculatorProps>(DOSE_CALCULATOR_TAG, DoseCalculator, {
    apiBase: 'string',
    weight: 'string',
    ageGroup: 'string',
    // Present (even without a value) shows the Emergency button; the component reads the attribute itself, since
    // r2wc ignores an attribute without a value (widgets/shared/emergency-card/EmergencyButton.tsx).
    emergency: 'string',
  });
}
