import {
  assertNever,
  type BradycardiaOutcome,
  type DoseOutcome,
  type FieldIssue,
  type RoiOutcome,
} from '../../clinical/index.ts';

/**
 * Maps each clinical outcome to an HTTP status and body, in one place. Every valid clinical
 * outcome (including "contraindicated") is a 200: the calculation ran. Only invalid input is a 400.
 * Bodies carry the spec's result field names (docs/product.md §3 and §7) beside the richer fields.
 */
export type ToolResponse = { status: 200; body: Record<string, unknown> } | { status: 400; issues: FieldIssue[] };

export function doseResponse(outcome: DoseOutcome): ToolResponse {
  switch (outcome.kind) {
    case 'invalid_input':
      return { status: 400, issues: outcome.issues };
    case 'dose':
      return {
        status: 200,
        body: {
          ...outcome,
          dose: outcome.doseMgPerKg,
          totalDose: outcome.totalDoseMg,
          contraindicated: false,
          notEstablished: false,
        },
      };
    case 'not_indicated':
    case 'contraindicated':
    case 'not_established':
      return {
        status: 200,
        body: {
          contraindicated: false,
          notEstablished: false,
          ...outcome,
          dose: null,
          totalDose: null,
          indication: outcome.title,
        },
      };
    case 'unable_to_calculate':
      return {
        status: 200,
        body: {
          ...outcome,
          dose: null,
          totalDose: null,
          indication: outcome.title,
          warnings: [outcome.reason, ...outcome.warnings],
          contraindicated: false,
          notEstablished: false,
        },
      };
    default:
      return assertNever(outcome, 'dose outcome');
  }
}

export function bradycardiaResponse(outcome: BradycardiaOutcome): ToolResponse {
  if (outcome.kind === 'invalid_input') return { status: 400, issues: outcome.issues };
  return { status: 200, body: { ...outcome } };
}

export function roiResponse(outcome: RoiOutcome): ToolResponse {
  if (outcome.kind === 'invalid_input') return { status: 400, issues: outcome.issues };
  return {
    status: 200,
    body: {
      ...outcome,
      timeSaved: outcome.timeSavedMin,
      costSaved: outcome.costSavedSar,
      ppcsAvoided: outcome.ppcsAvoided,
      hoursFreed: outcome.hoursFreed,
    },
  };
}
