/**
 * Every text the dose calculator shows. The spec's strings (docs/product.md §5, §8, §9) are exact; the
 * safety additions come from docs/clinical-reference.md §1.
 */

export const OUTCOME_TITLES = {
  not_indicated: 'Not indicated',
  contraindicated: 'Contraindicated',
  not_established: 'Not established',
  unable_to_calculate: 'Unable to calculate',
} as const;

// docs/product.md §5 rule 2.
export const NOT_INDICATED_WARNING =
  'Only indicated for the reversal of neuromuscular blockade induced by rocuronium or vecuronium';
// docs/product.md §5 rule 3, exact.
export const RENAL_WARNING = 'Not recommended in severe renal impairment (CrCl <30 mL/min) or dialysis patients';
// docs/clinical-reference.md §1: the labels' only contraindication is hypersensitivity; shown beside the spec's outcome.
export const RENAL_LABEL_NOTE =
  'The product labels list known hypersensitivity as the only contraindication; severe renal impairment and dialysis are "not recommended" (US PI 8.6; EU SmPC 4.2).';
// docs/product.md §5 rule 4.
export const INFANT_WARNING = 'Use in children under 2 years of age is not established';
// docs/product.md §5 rule 5.
export const PEDIATRIC_RSI_WARNING = '16 mg/kg immediate reversal is not established in pediatrics';
export const SPECIFY_DEPTH = 'Please specify block depth (TOF count or PTC)';

// docs/clinical-reference.md §1 readings.
export const PROFOUND_BLOCK_REASON =
  'Profound block (PTC 0, no TOF response): there is no labelled dose. Wait for at least 1 post-tetanic count; after rapid-sequence rocuronium 1.2 mg/kg in an adult, use the RSI scenario (16 mg/kg immediate reversal).';
export function countTofReason(ptc: number): string {
  return `PTC ${ptc} with no TOF count entered: count the TOF. Once twitches return the dose follows the TOF count (TOF 0-1: 4 mg/kg; TOF 2 or more: 2 mg/kg).`;
}
export const PROFOUND_WITH_TOF_WARNING =
  'PTC 0 indicates profound block: the 4 mg/kg dose is labelled for 1-2 post-tetanic counts. Consider waiting for PTC ≥ 1.';

// docs/clinical-reference.md §1 safety additions.
export const RSI_VECURONIUM_WARNING = '16 mg/kg immediate reversal has been studied only after rocuronium 1.2 mg/kg.';
export const CRCL_NOT_ENTERED_WARNING =
  'Creatinine clearance not entered: confirm CrCl ≥ 30 mL/min and no dialysis before giving (not recommended below 30 mL/min).';
export const CRCL_NO_ADJUSTMENT_NOTE = 'CrCl 30-80 mL/min: no dose adjustment is needed.';
export const UNDER_DOSING_WARNING =
  'Give the full calculated dose: doses below the recommended ones raise the risk of recurrence of block (US PI). "One vial for everyone" is a known practice gap (22% of surveyed hospitals; Anesth Pain Med 2019).';
export function moreThanOneBoxWarning(vials: number, boxes: number): string {
  return `This dose needs ${vials} vials: more than one box of 10 (${boxes} boxes). Prepare all of them; do not cap the dose.`;
}

// EU SmPC 4.2 (paediatric): 100 mg/mL may be diluted to 10 mg/mL to increase dosing accuracy.
export const SMALL_VOLUME_BELOW_ML = 1;
export function smallVolumeWarning(totalMg: number): string {
  const exactMl = totalMg / 100;
  const dilutedMl = totalMg / 10;
  return `Small volume: ${totalMg} mg is ${exactMl} mL at 100 mg/mL. Measure it with a 1 mL syringe, or dilute to 10 mg/mL (${dilutedMl} mL) for accuracy (EU SmPC 4.2).`;
}

// Indications for a computed dose (docs/product.md §5 and §9; docs/clinical-reference.md §1).
export const IMMEDIATE_INDICATION = 'Immediate reversal after rapid-sequence rocuronium 1.2 mg/kg';
export function moderateIndication(tofCount: string): string {
  return tofCount === '2'
    ? 'Moderate block (TOF count 2: T2 has reappeared)'
    : `Moderate block (TOF count ${tofCount}: T2 has reappeared; the 2 mg/kg moderate-block dose applies)`;
}
export function deepIndication(tofCount: string | undefined): string {
  if (tofCount === '1') return 'Deep block (TOF count 1: no labelled dose; 4 mg/kg is the deep-block dose)';
  if (tofCount === '0') return 'Deep block (TOF count 0)';
  return 'Deep block (PTC 1-2, no TOF response)';
}

// docs/product.md §9: administration text and monitoring checklist.
export const ADMINISTRATION_TEXT =
  'Single IV bolus over about 10 seconds; monitor TOF ratio every 15-30 seconds until at least 0.9.';
export const MONITORING_CHECKLIST = [
  'Quantitative neuromuscular monitoring',
  'Confirm TOF ratio ≥ 0.9 before extubation',
  'Assess ventilation and airway reflexes',
  'Monitor for recurrence of block',
] as const;
