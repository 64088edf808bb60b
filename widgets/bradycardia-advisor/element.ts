import { defineWidget } from '../shared/define-widget.tsx';
import { BradycardiaAdvisor, type BradycardiaAdvisorProps } from './BradycardiaAdvisor.tsx';

export const BRADYCARDIA_ADVISOR_TAG = 'sgx-bradycardia-advisor';

/** Registers <sgx-bradycardia-advisor api-base> (idempotent). */
export function defineBradycardiaAdvisor(): CustomElementConstructor {
  return defineWidget<BradycardiaAdvisorProps>(BRADYCARDIA_ADVISOR_TAG, BradycardiaAdvisor, { apiBase: 'string' });
}
