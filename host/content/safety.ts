import {
  DEEP_BLOCK_DOSE_MG_PER_KG,
  IMMEDIATE_REVERSAL_DOSE_MG_PER_KG,
  RSI_ROCURONIUM_DOSE_MG_PER_KG,
  SEVERE_RENAL_IMPAIRMENT_BELOW_CRCL_ML_PER_MIN,
  TOF_RATIO_TARGET,
} from '../../clinical/index.ts';
import type { SafetyContent, SafetyPanel } from './types.ts';

const CRCL = SEVERE_RENAL_IMPAIRMENT_BELOW_CRCL_ML_PER_MIN;

/**
 * docs/product.md §9, written as what it means (docs/clinical-reference.md §3): never "within 4 h", which reads
 * as an infusion over 4 h and seemed to contradict the 4 h wait for rocuronium 0.6 mg/kg.
 */
export const REPARALYSIS_SUMMARY = `Re-paralysis: if block is needed again before 4 h have passed: rocuronium ${RSI_ROCURONIUM_DOSE_MG_PER_KG} mg/kg (at least 5 min after the reversal dose); after ${IMMEDIATE_REVERSAL_DOSE_MG_PER_KG} mg/kg, or with CrCl < ${SEVERE_RENAL_IMPAIRMENT_BELOW_CRCL_ML_PER_MIN} mL/min, wait 24 h.`;
/** docs/product.md §9 and docs/clinical-reference.md §2 (EU SmPC 4.2, 4.8). */
export const RECURRENCE_STATEMENT = `Recurrence of block: reported in 2% vs 0% with placebo, mostly after sub-optimal doses. Give the full calculated dose; if block recurs, repeat ${DEEP_BLOCK_DOSE_MG_PER_KG} mg/kg and keep the TOF ratio ≥ ${TOF_RATIO_TARGET} stable for at least 10 min.`;
/** docs/product.md §9 and docs/clinical-reference.md §2 (EU SmPC 4.5; US PI). */
export const CONTRACEPTION_STATEMENT =
  'Hormonal contraception: progestogen exposure falls by about 34%, the equivalent of one missed oral contraceptive pill. Patients should use a non-hormonal back-up method for 7 days.';
/** docs/clinical-reference.md §2 (EU SmPC 4.5). */
export const DISPLACEMENT_STATEMENT =
  'Displacement, which can bring the block back: avoid IV fusidic acid and flucloxacillin infusions of ≥ 500 mg within 6 h of the dose, and toremifene on the day of surgery.';

const panels: SafetyPanel[] = [
  {
    id: 'contraindications',
    title: 'Contraindications',
    items: [
      'Known hypersensitivity to sugammadex or to any of the excipients: the only contraindication in the product labels.',
      `Severe renal impairment (creatinine clearance < ${CRCL} mL/min) or dialysis: not recommended.`,
      'Not indicated for block from succinylcholine or non-steroidal neuromuscular blockers (e.g. cisatracurium).',
    ],
    source: 'US PI 4, 8.6; EU SmPC 4.2',
  },
  {
    id: 'warnings',
    title: 'Warnings & Precautions',
    items: [
      'Coagulation: aPTT and PT/INR up to about 25% higher for up to about 1 h (EU data: aPTT +17% / +22% and INR +11% / +22% at 4 / 16 mg/kg, within 30 min).',
      CONTRACEPTION_STATEMENT,
      RECURRENCE_STATEMENT,
      REPARALYSIS_SUMMARY,
      `In detail: after ≤ ${DEEP_BLOCK_DOSE_MG_PER_KG} mg/kg with normal renal function, rocuronium ${RSI_ROCURONIUM_DOSE_MG_PER_KG} mg/kg after 5 min, rocuronium 0.6 mg/kg or vecuronium 0.1 mg/kg after 4 h; after ${IMMEDIATE_REVERSAL_DOSE_MG_PER_KG} mg/kg, or after any dose with CrCl < ${CRCL} mL/min, wait 24 h. If block is needed before the wait is over, use a non-steroidal blocker (e.g. cisatracurium).`,
      'Marked bradycardia, some cases with cardiac arrest, can occur within minutes of the dose: monitor heart rate and treat with an anticholinergic such as atropine.',
      `Children under 2 years: use not established. ${IMMEDIATE_REVERSAL_DOSE_MG_PER_KG} mg/kg immediate reversal is not established in children, nor after vecuronium.`,
      `Use quantitative neuromuscular monitoring and confirm a TOF ratio ≥ ${TOF_RATIO_TARGET} before extubation.`,
    ],
    source: 'US PI 5; EU SmPC 4.2, 4.4, 4.5, 4.8; de Kam 2014; Cammu 2010',
  },
  {
    id: 'adverse-reactions',
    title: 'Adverse Reactions',
    items: [
      'Bradycardia: about 1-2% (treated bradycardia 2.4% vs 2.2% with neostigmine in 89,753 surgeries).',
      'Anaphylaxis: about 1 in 3,000-5,000 doses (0.039%, Miyazaki 2018; 0.02%, Orihara 2020), dose-dependent, with early signs within about 5 min.',
      'Common adverse reactions (≥ 10% at some dose): vomiting, pain, nausea, hypotension, headache.',
      'Recurrence of block: 2% vs 0% with placebo, mostly after sub-optimal doses.',
      'Report suspected adverse reactions to the national pharmacovigilance centre (SFDA in Saudi Arabia).',
    ],
    source: 'US PI 5.1, 6.1; Anesth Analg 2022;134:1043; Miyazaki 2018; Orihara 2020; EU SmPC 4.8',
  },
  {
    id: 'interactions',
    title: 'Drug Interactions',
    items: [
      DISPLACEMENT_STATEMENT,
      CONTRACEPTION_STATEMENT,
      'Steroidal blockers given again (rocuronium, vecuronium): follow the re-paralysis waits under Warnings & Precautions.',
      'Beta-blockers and dexmedetomidine have been linked with bradycardia after sugammadex in case reports (Choi 2019; Gajewski 2019): the Bradycardia Advisor counts them as risk factors.',
    ],
    source: 'EU SmPC 4.4, 4.5; US PI; Choi 2019; Gajewski 2019',
  },
];

/** Safety hub (docs/product.md §2, §9; docs/clinical-reference.md §2-3): four panels in the spec's order. */
export const SAFETY: SafetyContent = {
  title: 'Safety',
  intro:
    'Contraindications, warnings, adverse reactions and interactions, each with its source. Open any panel; several can be open at once.',
  panels,
};
