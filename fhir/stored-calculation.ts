import * as v from 'valibot';
import { BRADYCARDIA_MODEL } from '../clinical/bradycardia-model.ts';
import { AGE_GROUPS, CREATININE_METHODS } from '../clinical/dose-schema.ts';
import { TOOL_TYPES } from '../contracts/records.ts';

/**
 * What the FHIR export reads of a stored calculation (docs/fhir.md#what-is-exported): the validated inputs
 * and the result the server computed then, as history keeps them (in English). Read again here rather than
 * trusted: a record that does not have the shape its tool wrote is refused, never half exported.
 */

const texts = v.array(v.string());
const positive = v.pipe(v.number(), v.finite(), v.gtValue(0));
/** A volume to one decimal: 0.0 mL for the smallest doses (2 mg). */
const volume = v.pipe(v.number(), v.finite(), v.minValue(0));
const nullableNumber = v.nullish(v.pipe(v.number(), v.finite()));

/** How a creatinine clearance was obtained: the Cockcroft-Gault helper, or typed in (not recorded). */
export type CreatinineMethod = (typeof CREATININE_METHODS)[number];

const doseInputs = v.looseObject({
  ageGroup: v.picklist(AGE_GROUPS),
  bodyWeight: positive,
  creatinine: nullableNumber,
  creatinineMethod: v.nullish(v.picklist(CREATININE_METHODS)),
});

const DOSE_OUTCOME_KINDS = ['not_indicated', 'contraindicated', 'not_established', 'unable_to_calculate'] as const;
const doseResult = v.variant('kind', [
  v.looseObject({
    kind: v.literal('dose'),
    doseMgPerKg: v.picklist([2, 4, 16] as const),
    totalDoseMg: positive,
    volumeMl: volume,
    vials: v.pipe(v.number(), v.integer(), v.minValue(1)),
    weightKg: positive,
    indication: v.string(),
    administration: v.string(),
    warnings: texts,
  }),
  v.looseObject({ kind: v.picklist(DOSE_OUTCOME_KINDS), indication: v.string(), warnings: texts }),
]);

const advisorInputs = v.looseObject({
  weight: positive,
  age: v.pipe(v.number(), v.finite(), v.minValue(0)),
  baselineHr: positive,
  creatinine: positive,
});

const advisorResult = v.looseObject({
  kind: v.literal('assessment'),
  riskBand: v.picklist(['LOW', 'MODERATE', 'HIGH'] as const),
  riskPercent: v.pipe(v.number(), v.minValue(0), v.maxValue(100)),
  doseMgPerKg: v.picklist([2, 4, 16] as const),
  doseMg: positive,
  doseMl: volume,
  recommendations: v.object({ preparation: texts, treatment: texts }),
  factors: v.array(v.looseObject({ label: v.string(), multiplier: v.number() })),
  warnings: texts,
  model: v.object({
    name: v.literal(BRADYCARDIA_MODEL.name),
    version: v.literal(BRADYCARDIA_MODEL.version),
    unvalidatedHeuristic: v.literal(true),
  }),
});

const storedCalculation = v.variant('toolType', [
  v.object({ toolType: v.literal('dose_calculator'), inputs: doseInputs, result: doseResult }),
  v.object({ toolType: v.literal('bradycardia_advisor'), inputs: advisorInputs, result: advisorResult }),
  v.object({ toolType: v.literal('roi_calculator'), inputs: v.unknown(), result: v.unknown() }),
]);

export type ClinicalCalculation = Exclude<v.InferOutput<typeof storedCalculation>, { toolType: 'roi_calculator' }>;
export type DoseCalculation = Extract<ClinicalCalculation, { toolType: 'dose_calculator' }>;
export type AdvisorCalculation = Extract<ClinicalCalculation, { toolType: 'bradycardia_advisor' }>;

export type ReadCalculation =
  | { kind: 'clinical'; calculation: ClinicalCalculation }
  /** An ROI calculation: costs and times of a department, not a patient's record. */
  | { kind: 'not_clinical' }
  | { kind: 'unreadable'; problem: string };

/** Reads a stored calculation's tool, inputs and result for the export. */
export function readCalculation(record: { toolType: unknown; inputs: unknown; result: unknown }): ReadCalculation {
  if (!(TOOL_TYPES as readonly unknown[]).includes(record.toolType)) {
    return { kind: 'unreadable', problem: `unknown tool type ${String(record.toolType)}` };
  }
  const parsed = v.safeParse(storedCalculation, {
    toolType: record.toolType,
    inputs: record.inputs,
    result: record.result,
  });
  if (!parsed.success) {
    const issue = parsed.issues[0];
    return { kind: 'unreadable', problem: `${v.getDotPath(issue) ?? 'record'}: ${issue.message}` };
  }
  const calculation = parsed.output;
  if (calculation.toolType === 'roi_calculator') return { kind: 'not_clinical' };
  return { kind: 'clinical', calculation };
}
