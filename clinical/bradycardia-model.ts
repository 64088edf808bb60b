import type { BradycardiaInput } from './bradycardia-schema.ts';
import { DOSE_MG_PER_KG_BY_DEPTH } from './bradycardia-schema.ts';
import { roundTo } from './rounding.ts';
import type { ClinicalTexts, ClinicalTextsOf } from './texts/en.ts';
import { ADVISOR_TEXTS_EN } from './texts/sections-en.ts';

/**
 * Bradycardia risk model, version 1 (docs/clinical-reference.md §4). An unvalidated heuristic: no
 * validated prediction model exists. odds = odds(2.0 %) × Π multipliers; percent = odds / (1 + odds).
 */
export const BRADYCARDIA_MODEL = {
  name: 'Sugammadex bradycardia risk heuristic',
  version: 1,
  unvalidatedHeuristic: true,
} as const;

// Spec: ~1–2 %; treated bradycardia 2.4 % vs 2.2 % with neostigmine (Anesth Analg 2022;134:1043).
export const BASE_RISK_PERCENT = 2.0;

export type RiskBand = 'LOW' | 'MODERATE' | 'HIGH';
export type RiskColour = 'green' | 'yellow' | 'red';

/**
 * Half-open bands on the displayed (one-decimal) percent, walked in order (docs/clinical-reference.md §4; colours
 * docs/product.md §9).
 */
export const RISK_BANDS: readonly { band: RiskBand; belowPercent: number; colour: RiskColour }[] = [
  { band: 'LOW', belowPercent: 5, colour: 'green' },
  { band: 'MODERATE', belowPercent: 15, colour: 'yellow' },
  { band: 'HIGH', belowPercent: Number.POSITIVE_INFINITY, colour: 'red' },
];

export interface AppliedFactor {
  id: string;
  label: string;
  multiplier: number;
  basis: string;
}

/** A row of the multiplier table; its label and basis are texts (`texts.advisor.factors[id]`). */
export type RiskFactorId = keyof ClinicalTexts['advisor']['factors'];

interface FactorRule {
  id: RiskFactorId;
  multiplier: number;
  applies: (input: BradycardiaInput) => boolean;
}

/** The multiplier table of docs/clinical-reference.md §4, in its order. Age and heart-rate rows are half-open bands. */
const FACTOR_RULES: readonly FactorRule[] = [
  { id: 'betaBlocker', multiplier: 2.0, applies: (i) => i.betaBlocker },
  { id: 'dexmedetomidine', multiplier: 2.0, applies: (i) => i.dexmedetomidine },
  { id: 'digoxin', multiplier: 1.5, applies: (i) => i.digoxin },
  { id: 'amiodarone', multiplier: 1.5, applies: (i) => i.amiodarone },
  { id: 'highDoseOpioids', multiplier: 1.5, applies: (i) => i.highDoseOpioids },
  { id: 'vagalStimulus', multiplier: 2.0, applies: (i) => i.vagalStimulus },
  { id: 'historyBradycardia', multiplier: 2.0, applies: (i) => i.cardiacHistory === 'bradycardia' },
  { id: 'conductionDisease', multiplier: 3.0, applies: (i) => i.cardiacHistory === 'av_block' },
  { id: 'pacemaker', multiplier: 0.5, applies: (i) => i.cardiacHistory === 'pacemaker' },
  { id: 'baselineHrBelow50', multiplier: 2.5, applies: (i) => i.baselineHr < 50 },
  { id: 'baselineHr50to59', multiplier: 1.5, applies: (i) => i.baselineHr >= 50 && i.baselineHr < 60 },
  { id: 'age75plus', multiplier: 1.5, applies: (i) => i.age >= 75 },
  { id: 'age65to74', multiplier: 1.25, applies: (i) => i.age >= 65 && i.age < 75 },
  { id: 'dose16', multiplier: 1.3, applies: (i) => DOSE_MG_PER_KG_BY_DEPTH[i.depth] === 16 },
];

/** The multiplier table with its English labels and bases. */
export const RISK_FACTORS: readonly (FactorRule & { label: string; basis: string })[] = FACTOR_RULES.map((rule) => ({
  ...rule,
  ...ADVISOR_TEXTS_EN.factors[rule.id],
}));

export interface RiskEstimate {
  riskPercent: number;
  riskBand: RiskBand;
  riskColour: RiskColour;
  factors: AppliedFactor[];
}

export function estimateBradycardiaRisk(
  input: BradycardiaInput,
  texts: ClinicalTextsOf<'advisor'> = { advisor: ADVISOR_TEXTS_EN },
): RiskEstimate {
  const factors = FACTOR_RULES.filter((rule) => rule.applies(input)).map(({ id, multiplier }): AppliedFactor => ({
    id,
    label: texts.advisor.factors[id].label,
    multiplier,
    basis: texts.advisor.factors[id].basis,
  }));
  const baseOdds = BASE_RISK_PERCENT / (100 - BASE_RISK_PERCENT);
  const odds = factors.reduce((product, factor) => product * factor.multiplier, baseOdds);
  const riskPercent = roundTo((100 * odds) / (1 + odds), 1);
  const { band, colour } = riskBandFor(riskPercent);
  return { riskPercent, riskBand: band, riskColour: colour, factors };
}

export function riskBandFor(riskPercent: number): { band: RiskBand; colour: RiskColour } {
  const row = RISK_BANDS.find((candidate) => riskPercent < candidate.belowPercent);
  if (!row) throw new RangeError(`No risk band for ${riskPercent}%`);
  return { band: row.band, colour: row.colour };
}
