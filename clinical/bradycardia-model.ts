import type { BradycardiaInput } from './bradycardia-schema.ts';
import { DOSE_MG_PER_KG_BY_DEPTH } from './bradycardia-schema.ts';
import { roundTo } from './rounding.ts';

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

interface FactorRule extends AppliedFactor {
  applies: (input: BradycardiaInput) => boolean;
}

/** The multiplier table of docs/clinical-reference.md §4, in its order. Age and heart-rate rows are half-open bands. */
export const RISK_FACTORS: readonly FactorRule[] = [
  {
    id: 'betaBlocker',
    label: 'Beta-blocker',
    multiplier: 2.0,
    basis: 'Borrowed: perioperative beta-blockade (POISE); case report Choi 2019',
    applies: (i) => i.betaBlocker,
  },
  {
    id: 'dexmedetomidine',
    label: 'Dexmedetomidine',
    multiplier: 2.0,
    basis: 'Borrowed: meta-analysis RR 1.98; RR 2.81 in laparoscopy (De Cassai 2022); case report Gajewski 2019',
    applies: (i) => i.dexmedetomidine,
  },
  { id: 'digoxin', label: 'Digoxin', multiplier: 1.5, basis: 'Assumption: AV-nodal drug', applies: (i) => i.digoxin },
  {
    id: 'amiodarone',
    label: 'Amiodarone',
    multiplier: 1.5,
    basis: 'Assumption: AV-nodal drug',
    applies: (i) => i.amiodarone,
  },
  {
    id: 'highDoseOpioids',
    label: 'High-dose opioids',
    multiplier: 1.5,
    basis: 'Assumption: vagotonic',
    applies: (i) => i.highDoseOpioids,
  },
  {
    id: 'vagalStimulus',
    label: 'Vagal stimulus',
    multiplier: 2.0,
    basis: 'Assumption: pneumoperitoneum and vagal reflexes cause severe bradycardia',
    applies: (i) => i.vagalStimulus,
  },
  {
    id: 'historyBradycardia',
    label: 'History of bradycardia',
    multiplier: 2.0,
    basis: 'Assumption',
    applies: (i) => i.cardiacHistory === 'bradycardia',
  },
  {
    id: 'conductionDisease',
    label: 'AV block (conduction disease)',
    multiplier: 3.0,
    basis: 'Case reports (Choi 2019); atropine may fail in high-grade block (AHA 2020)',
    applies: (i) => i.cardiacHistory === 'av_block',
  },
  {
    id: 'pacemaker',
    label: 'Pacemaker',
    multiplier: 0.5,
    basis: 'Assumption: a working pacemaker protects the rate; check mode and capture',
    applies: (i) => i.cardiacHistory === 'pacemaker',
  },
  {
    id: 'baselineHrBelow50',
    label: 'Baseline heart rate below 50 bpm',
    multiplier: 2.5,
    basis: 'Assumption',
    applies: (i) => i.baselineHr < 50,
  },
  {
    id: 'baselineHr50to59',
    label: 'Baseline heart rate 50-59 bpm',
    multiplier: 1.5,
    basis: 'Assumption',
    applies: (i) => i.baselineHr >= 50 && i.baselineHr < 60,
  },
  {
    id: 'age75plus',
    label: 'Age 75 years or over',
    multiplier: 1.5,
    basis: 'Fatal cardiac reports cluster over 65 (VigiBase)',
    applies: (i) => i.age >= 75,
  },
  {
    id: 'age65to74',
    label: 'Age 65-74 years',
    multiplier: 1.25,
    basis: 'Fatal cardiac reports cluster over 65 (VigiBase)',
    applies: (i) => i.age >= 65 && i.age < 75,
  },
  {
    id: 'dose16',
    label: 'Dose 16 mg/kg',
    multiplier: 1.3,
    basis: 'Assumption: case reports at high dose; hypersensitivity is dose-dependent',
    applies: (i) => DOSE_MG_PER_KG_BY_DEPTH[i.depth] === 16,
  },
];

export interface RiskEstimate {
  riskPercent: number;
  riskBand: RiskBand;
  riskColour: RiskColour;
  factors: AppliedFactor[];
}

export function estimateBradycardiaRisk(input: BradycardiaInput): RiskEstimate {
  const factors = RISK_FACTORS.filter((rule) => rule.applies(input)).map(
    ({ id, label, multiplier, basis }): AppliedFactor => ({ id, label, multiplier, basis }),
  );
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
