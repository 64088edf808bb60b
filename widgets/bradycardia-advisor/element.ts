import { defineWidget } from '../shared/define-widget.tsx';
import { BradycardiaAdvisor, type BradycardiaAdvisorProps } from './BradycardiaAdvisor.tsx';

export const BRADYCARDIA_ADVISOR_TAG = 'sgx-bradycardia-advisor';

/** Registers <sgx-bradycardia-advisor api-base emergency> (idempotent). */
export function defineBradycardiaAdvisor(): CustomElementConstructor {
  return defineWidget<BradycardiaAdvisorProps>(BRADYCARDIA_ADVISOR_TAG, BradycardiaAdvisor, {
    apiBase: 'string',
    // Present (even without a value) shows the Emergency button; the component reads the attribute itself, since
    // r2wc ignores an attribute without a value (widgets/shared/emergency-card/EmergencyButton.tsx).
    emergency: 'string',
  });
}
