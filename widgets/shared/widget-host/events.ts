import type { BradycardiaAssessment, DoseOutcome, RoiResult } from '../../../clinical/index.ts';
import type { SessionUser } from '../session/session-state.ts';

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

export function dispatchSgxEvent<N extends SgxEventName>(
  target: EventTarget,
  name: N,
  detail: SgxEventDetails[N],
): void {
  target.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
}

/** Every `sgx-*` event with its typed CustomEvent, for the DOM's event maps. */
export type SgxEventMap = { [N in SgxEventName]: SgxEvent<N> };

declare global {
  interface HTMLElementEventMap extends SgxEventMap {}
  interface DocumentEventMap extends SgxEventMap {}
}
