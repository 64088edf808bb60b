import * as v from 'valibot';
import type { RiskBand, RiskColour } from '../clinical/bradycardia-model.ts';
import { TOOL_TYPES } from './records.ts';

/**
 * `POST /api/tools/run` answers. Loose objects: the body carries the spec's field names beside the
 * richer ones, and what a screen does not read is passed through untouched.
 */

/** A signed-in run: recorded in history (the only part the recording callers read). */
export const recordedRunSchema = v.looseObject({ historyId: v.string() });

const texts = v.array(v.string());
const RISK_BAND_VALUES = ['LOW', 'MODERATE', 'HIGH'] as const satisfies readonly RiskBand[];
const RISK_COLOUR_VALUES = ['green', 'yellow', 'red'] as const satisfies readonly RiskColour[];

/** The advisor's answer: a bradycardia assessment (clinical/ BradycardiaAssessment) and, signed in, its history id. */
export const advisorRunSchema = v.looseObject({
  toolType: v.optional(v.picklist(TOOL_TYPES)),
  kind: v.literal('assessment'),
  riskBand: v.picklist(RISK_BAND_VALUES),
  riskPercent: v.number(),
  riskColour: v.picklist(RISK_COLOUR_VALUES),
  doseMgPerKg: v.picklist([2, 4, 16] as const),
  doseMg: v.number(),
  doseMl: v.number(),
  conductionDisease: v.boolean(),
  recommendations: v.object({ preparation: texts, treatment: texts }),
  reparalysis: texts,
  factors: v.array(v.object({ id: v.string(), label: v.string(), multiplier: v.number(), basis: v.string() })),
  warnings: texts,
  // clinical/'s BRADYCARDIA_MODEL written out: reading it here would keep it in every bundle that
  // imports this module; the advisor's typed use of the answer checks the two still agree.
  model: v.object({
    name: v.literal('Sugammadex bradycardia risk heuristic'),
    version: v.literal(1),
    unvalidatedHeuristic: v.literal(true),
  }),
  historyId: v.optional(v.string()),
  patientId: v.optional(v.nullable(v.string())),
});
