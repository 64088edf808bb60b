import { CONCENTRATION_MG_PER_ML, VIAL_CONTENT_MG, VIAL_PRICE_HALALAS, VIALS_PER_BOX } from './constants.ts';

/** What a total dose means at the bedside and at the pharmacy (docs/product.md §9). */
export interface DoseQuantities {
  /** dose × weight, rounded to whole mg (docs/product.md §5 rule 6). */
  totalDoseMg: number;
  /** ceil(total / 200 mg). */
  vials: number;
  /** Boxes of 10 needed, for doses above one box. */
  boxes: number;
  /** total / 100 mg/mL, one decimal. */
  volumeMl: number;
  /** vials × 147.64 SAR, two decimals (computed in halalas, so exact). */
  costSar: number;
}

export function totalDoseMg(doseMgPerKg: number, weightKg: number): number {
  return Math.round(doseMgPerKg * weightKg);
}

export function doseQuantities(doseMgPerKg: number, weightKg: number): DoseQuantities {
  const total = totalDoseMg(doseMgPerKg, weightKg);
  const vials = Math.ceil(total / VIAL_CONTENT_MG);
  return {
    totalDoseMg: total,
    vials,
    boxes: Math.ceil(vials / VIALS_PER_BOX),
    volumeMl: volumeMlForDose(total),
    costSar: (vials * VIAL_PRICE_HALALAS) / 100,
  };
}

/** Whole-mg dose → mL at 100 mg/mL, one decimal, half up (e.g. 135 mg → 1.4 mL). */
export function volumeMlForDose(totalMg: number): number {
  const tenthsOfMl = Math.round((totalMg * 10) / CONCENTRATION_MG_PER_ML);
  return tenthsOfMl / 10;
}
