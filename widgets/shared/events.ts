import type { BradycardiaAssessment, DoseOutcome, RoiResult } from '../../clinical/index.ts';
import type { SessionUser } from './session-store.ts';

/**
 * Every event an element sends, with its `detail`. All bubble and cross the shadow boundary
 * (`composed`), and are dispatched from the element itself.
 */
export interface SgxEventDetails {
  /** The dose calculator produced an outcome (any kind but invalid input). */
  'sgx-dose-calculated': { outcome: Exclude<DoseOutcome, { kind: 'invalid_input' }> };
  /** The advisor's assessment arrived from the API. */
  'sgx-risk-assessed': { assessment: BradycardiaAssessment; historyId?: string };
  /** The ROI inputs changed and the results were recomputed. */
  'sgx-roi-changed': { inputs: RoiInputsDetail; result: RoiResult };
  'sgx-signed-in': { user: SessionUser };
  'sgx-signed-out': Record<string, never>;
  'sgx-quick-use': Record<string, never>;
  /** Something failed that the user was told about (a toast or an alert). */
  'sgx-error': { source: string; message: string };
}

export interface RoiInputsDetail {
  numberOfCases: number;
  orCostPerMinute: number;
  timeNeostigmine: number;
  timeProduct: number;
  baselinePPCRate: number;
}

export type SgxEventName = keyof SgxEventDetails;
export type SgxEvent<N extends SgxEventName> = CustomEvent<SgxEventDetails[N]>;

export function dispatchSgxEvent<N extends SgxEventName>(target: EventTarget, name: N, detail: SgxEventDetails[N]): void {
  target.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
}

declare global {
  interface HTMLElementEventMap {
    'sgx-dose-calculated': SgxEvent<'sgx-dose-calculated'>;
    'sgx-risk-assessed': SgxEvent<'sgx-risk-assessed'>;
    'sgx-roi-changed': SgxEvent<'sgx-roi-changed'>;
    'sgx-signed-in': SgxEvent<'sgx-signed-in'>;
    'sgx-signed-out': SgxEvent<'sgx-signed-out'>;
    'sgx-quick-use': SgxEvent<'sgx-quick-use'>;
    'sgx-error': SgxEvent<'sgx-error'>;
  }
  interface DocumentEventMap {
    'sgx-dose-calculated': SgxEvent<'sgx-dose-calculated'>;
    'sgx-risk-assessed': SgxEvent<'sgx-risk-assessed'>;
    'sgx-roi-changed': SgxEvent<'sgx-roi-changed'>;
    'sgx-signed-in': SgxEvent<'sgx-signed-in'>;
    'sgx-signed-out': SgxEvent<'sgx-signed-out'>;
    'sgx-quick-use': SgxEvent<'sgx-quick-use'>;
    'sgx-error': SgxEvent<'sgx-error'>;
  }
}
