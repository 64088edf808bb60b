import { ADULT_MIN_AGE_YEARS, PEDIATRIC_MIN_AGE_YEARS } from './constants.ts';
import { BRADYCARDIA_FIELD_ORDER, bradycardiaInputSchemaFor, DOSE_MG_PER_KG_BY_DEPTH } from './bradycardia-schema.ts';
import {
  BRADYCARDIA_MODEL,
  estimateBradycardiaRisk,
  type AppliedFactor,
  type RiskBand,
  type RiskColour,
} from './bradycardia-model.ts';
import { managementPlan, type ManagementPlan } from './management-plan.ts';
import { renalFunctionBand } from './renal.ts';
import { reparalysisGuidance } from './reparalysis.ts';
import type { ClinicalTextsOf } from './texts/en.ts';
import {
  ADVISOR_INPUT_TEXTS_EN,
  ADVISOR_TEXTS_EN,
  DOSE_TEXTS_EN,
  FIELDS_TEXTS_EN,
  PLAN_TEXTS_EN,
  REPARALYSIS_TEXTS_EN,
} from './texts/sections-en.ts';
import { parseWith, type FieldIssue } from './validation.ts';
import { totalDoseMg, volumeMlForDose } from './vial-math.ts';

export interface BradycardiaAssessment {
  kind: 'assessment';
  riskBand: RiskBand;
  riskPercent: number;
  riskColour: RiskColour;
  doseMgPerKg: 2 | 4 | 16;
  /** Dose by actual body weight, whole mg. */
  doseMg: number;
  /** doseMg / 100 mg/mL, one decimal. */
  doseMl: number;
  conductionDisease: boolean;
  recommendations: ManagementPlan;
  reparalysis: string[];
  factors: AppliedFactor[];
  warnings: string[];
  model: typeof BRADYCARDIA_MODEL;
}

export type BradycardiaOutcome = { kind: 'invalid_input'; issues: FieldIssue[] } | BradycardiaAssessment;

/** The sections of the clinical texts the advisor writes with: its factors, plan and re-paralysis lines, the dose
 * warnings, and its inputs' messages. */
export type AdvisorTexts = ClinicalTextsOf<'advisor' | 'advisorInput' | 'plan' | 'reparalysis' | 'dose' | 'fields'>;

/** Those sections in English. */
export const ADVISOR_CLINICAL_TEXTS_EN: AdvisorTexts = {
  advisor: ADVISOR_TEXTS_EN,
  advisorInput: ADVISOR_INPUT_TEXTS_EN,
  plan: PLAN_TEXTS_EN,
  reparalysis: REPARALYSIS_TEXTS_EN,
  dose: DOSE_TEXTS_EN,
  fields: FIELDS_TEXTS_EN,
};

/**
 * The bradycardia risk and re-paralysis advisor (docs/product.md §2, §3, §7; docs/clinical-reference.md §3–4).
 * `texts` is the language of the factors, plan, re-paralysis lines, warnings and messages (English by default).
 */
export function assessBradycardia(
  rawInput: unknown,
  texts: AdvisorTexts = ADVISOR_CLINICAL_TEXTS_EN,
): BradycardiaOutcome {
  const parsed = parseWith(bradycardiaInputSchemaFor(texts), rawInput, BRADYCARDIA_FIELD_ORDER);
  if (!parsed.ok) return { kind: 'invalid_input', issues: parsed.issues };
  const input = parsed.value;

  const doseMgPerKg = DOSE_MG_PER_KG_BY_DEPTH[input.depth];
  const doseMg = totalDoseMg(doseMgPerKg, input.weight);
  const doseMl = volumeMlForDose(doseMg);
  const risk = estimateBradycardiaRisk(input, texts);

  const text = texts.dose;
  const warnings: string[] = [];
  if (renalFunctionBand(input.creatinine) === 'severe') warnings.push(text.renalWarning);
  if (input.age < PEDIATRIC_MIN_AGE_YEARS) warnings.push(text.infantWarning);
  if (input.depth === 'immediate' && input.age < ADULT_MIN_AGE_YEARS) warnings.push(text.pediatricRsiWarning);
  if (input.depth === 'immediate' && input.nmba === 'vecuronium') warnings.push(text.rsiVecuroniumWarning);

  return {
    kind: 'assessment',
    riskBand: risk.riskBand,
    riskPercent: risk.riskPercent,
    riskColour: risk.riskColour,
    doseMgPerKg,
    doseMg,
    doseMl,
    conductionDisease: input.cardiacHistory === 'av_block',
    recommendations: managementPlan(input, risk, { doseMg, doseMl }, texts),
    reparalysis: reparalysisGuidance(doseMgPerKg, input.creatinine, texts),
    factors: risk.factors,
    warnings,
    model: BRADYCARDIA_MODEL,
  };
}
