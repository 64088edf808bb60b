export interface Acceptance {
  advisory: string;
  package: string;
  reason: string;
  acceptedBy: string;
  until: string;
}
export interface Advisory {
  advisory: string;
  package: string;
  severity: string;
  title: string;
  url: string;
}
export type Verdict =
  | { unreachable: string }
  | { failing: Advisory[]; accepted: Advisory[]; lower: Advisory[]; expired: Acceptance[]; unused: Acceptance[] };
export const ACCEPTED_FILE: string;
export const FAILING_SEVERITIES: string[];
export function parseAccepted(text: string): Acceptance[];
export function advisoriesOf(report: unknown): Advisory[];
export function judge(report: unknown, accepted: Acceptance[], today: string): Verdict;
