import {
  DEEP_BLOCK_DOSE_MG_PER_KG,
  IMMEDIATE_REVERSAL_DOSE_MG_PER_KG,
  MODERATE_BLOCK_DOSE_MG_PER_KG,
  VIAL_CONTENT_MG,
  VIALS_PER_BOX,
} from './constants.ts';
import { DOSE_FIELD_ORDER, doseCalculatorInputSchemaFor, type DoseCalculatorInput } from './dose-schema.ts';
import { SMALL_VOLUME_BELOW_ML } from './dose-texts.ts';
import { renalFunctionBand } from './renal.ts';
import type { ClinicalTextsOf } from './texts/en.ts';
import { DOSE_INPUT_TEXTS_EN, DOSE_TEXTS_EN, FIELDS_TEXTS_EN } from './texts/sections-en.ts';
import { parseWith, type FieldIssue } from './validation.ts';
import { doseQuantities, type DoseQuantities } from './vial-math.ts';

export type BlockDepth = 'moderate' | 'deep' | 'immediate';

/** Median time to TOF ratio ≥ 0.9 by dose (EU SmPC 4.2; docs/clinical-reference.md §1). */
export const MEDIAN_RECOVERY_MIN: Record<BlockDepth, number> = { moderate: 2, deep: 3, immediate: 1.5 };

export interface DoseResult extends DoseQuantities {
  kind: 'dose';
  depth: BlockDepth;
  doseMgPerKg: 2 | 4 | 16;
  weightKg: number;
  indication: string;
  medianRecoveryMin: number;
  administration: string;
  monitoring: readonly string[];
  warnings: string[];
}

/** Exactly one of these comes out of the calculator (docs/product.md §4: exactly one outcome shows). */
export type DoseOutcome =
  | { kind: 'invalid_input'; issues: FieldIssue[] }
  | { kind: 'not_indicated'; title: string; warnings: string[] }
  | { kind: 'contraindicated'; title: string; contraindicated: true; warnings: string[] }
  | { kind: 'not_established'; title: string; notEstablished: true; warnings: string[] }
  | DoseResult
  | { kind: 'unable_to_calculate'; title: string; reason: string; warnings: string[] };

/** The sections of the clinical texts the dose calculator writes with (its outcomes, and its inputs' messages). */
export type DoseTexts = ClinicalTextsOf<'dose' | 'doseInput' | 'fields'>;

/** Those sections in English. */
export const DOSE_CALCULATOR_TEXTS_EN: DoseTexts = {
  dose: DOSE_TEXTS_EN,
  doseInput: DOSE_INPUT_TEXTS_EN,
  fields: FIELDS_TEXTS_EN,
};

/**
 * The dose calculator: the rules of docs/product.md §5 in their order, with the readings of
 * docs/clinical-reference.md §1 where the spec is not explicit. Untrusted input in, one outcome out.
 * `texts` is the language of every text in the outcome (English by default); the numbers never depend on it.
 */
export function calculateDose(rawInput: unknown, texts: DoseTexts = DOSE_CALCULATOR_TEXTS_EN): DoseOutcome {
  const text = texts.dose;
  const parsed = parseWith(doseCalculatorInputSchemaFor(texts), rawInput, DOSE_FIELD_ORDER);
  if (!parsed.ok) return { kind: 'invalid_input', issues: parsed.issues };
  const input = parsed.value;

  // Rule 2: only rocuronium and vecuronium.
  if (input.nmbaType === 'other') {
    return { kind: 'not_indicated', title: text.outcomeTitles.not_indicated, warnings: [text.notIndicatedWarning] };
  }
  // Rule 3: severe renal impairment or dialysis.
  const renal = input.creatinine != null ? renalFunctionBand(input.creatinine) : 'unknown';
  if (renal === 'severe' || input.dialysis) {
    return {
      kind: 'contraindicated',
      title: text.outcomeTitles.contraindicated,
      contraindicated: true,
      warnings: [text.renalWarning, text.renalLabelNote],
    };
  }
  // Rule 4: children under 2.
  if (input.ageGroup === 'infant') {
    return {
      kind: 'not_established',
      title: text.outcomeTitles.not_established,
      notEstablished: true,
      warnings: [text.infantWarning],
    };
  }

  // Rule 5: dose per kg.
  const warnings: string[] = [];
  const choice = chooseDose(input, warnings, text);
  if (choice.kind === 'unable') {
    return {
      kind: 'unable_to_calculate',
      title: text.outcomeTitles.unable_to_calculate,
      reason: choice.reason,
      warnings,
    };
  }

  // Rule 6 and docs/product.md §9: total, vials, volume, cost.
  const quantities = doseQuantities(choice.doseMgPerKg, input.bodyWeight);
  if (renal === 'unknown') warnings.push(text.crclNotEnteredWarning);
  if (renal === 'mild_moderate') warnings.push(text.crclNoAdjustmentNote);
  if (quantities.vials > VIALS_PER_BOX) warnings.push(text.moreThanOneBoxWarning(quantities.vials, quantities.boxes));
  if (quantities.totalDoseMg > VIAL_CONTENT_MG) warnings.push(text.underDosingWarning);
  if (quantities.volumeMl < SMALL_VOLUME_BELOW_ML) warnings.push(text.smallVolumeWarning(quantities.totalDoseMg));

  return {
    kind: 'dose',
    depth: choice.depth,
    doseMgPerKg: choice.doseMgPerKg,
    weightKg: input.bodyWeight,
    indication: choice.indication,
    ...quantities,
    medianRecoveryMin: MEDIAN_RECOVERY_MIN[choice.depth],
    administration: text.administration,
    monitoring: text.monitoring,
    warnings,
  };
}

type DoseChoice =
  { kind: 'dose'; depth: BlockDepth; doseMgPerKg: 2 | 4 | 16; indication: string } | { kind: 'unable'; reason: string };

/** docs/product.md §5 rule 5, first match wins. Pushes the warnings that go with the choice. */
function chooseDose(input: DoseCalculatorInput, warnings: string[], text: DoseTexts['dose']): DoseChoice {
  if (input.rsiScenario && input.ageGroup === 'adult') {
    if (input.nmbaType === 'vecuronium') warnings.push(text.rsiVecuroniumWarning);
    return {
      kind: 'dose',
      depth: 'immediate',
      doseMgPerKg: IMMEDIATE_REVERSAL_DOSE_MG_PER_KG,
      indication: text.immediateIndication,
    };
  }
  // Paediatric RSI: warn, then the TOF/PTC rules apply as if RSI were not ticked (docs/clinical-reference.md §1).
  if (input.rsiScenario) warnings.push(text.pediatricRsiWarning);

  const tof = input.tofCount != null && input.tofCount !== '' ? input.tofCount : undefined;
  const ptc = input.ptc ?? undefined;
  if (tof === '2' || tof === '3' || tof === '4') {
    return {
      kind: 'dose',
      depth: 'moderate',
      doseMgPerKg: MODERATE_BLOCK_DOSE_MG_PER_KG,
      indication: text.moderateIndication(tof),
    };
  }
  if (tof === '0' || tof === '1') {
    if (ptc === 0) warnings.push(text.profoundWithTofWarning);
    return {
      kind: 'dose',
      depth: 'deep',
      doseMgPerKg: DEEP_BLOCK_DOSE_MG_PER_KG,
      indication: text.deepIndication(tof),
    };
  }
  if (ptc === 1 || ptc === 2) {
    return {
      kind: 'dose',
      depth: 'deep',
      doseMgPerKg: DEEP_BLOCK_DOSE_MG_PER_KG,
      indication: text.deepIndication(undefined),
    };
  }
  if (ptc === undefined) return { kind: 'unable', reason: text.specifyDepth };
  if (ptc === 0) return { kind: 'unable', reason: text.profoundBlockReason };
  return { kind: 'unable', reason: text.countTofReason(ptc) };
}
