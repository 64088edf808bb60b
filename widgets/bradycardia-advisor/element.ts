import { defineWidget } from '../shared/element/define-widget.tsx';
import { BradycardiaAdvisor, type BradycardiaAdvisorProps } from './BradycardiaAdvisor.tsx';

export const BRADYCARDIA_ADVISOR_TAG = 'sgx-bradycardia-advisor';

/** Registers <sgx-bradycardia-advisor api-base emergency> (idempotent). */
export function defineBradycardiaAdvisor(): CustomElementConstructor {
  return defineWidget<BradycardiaAdvisorProps>(BRADYCARDIA_ADVISOR_TAG, BradycardiaAdvisor, {
    apiBase: 'string',
    // Present (even without a value) shows the Emergency button.
    emergency: 'string',
  });
}
