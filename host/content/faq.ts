import {
  CONCENTRATION_MG_PER_ML,
  DEEP_BLOCK_DOSE_MG_PER_KG,
  IMMEDIATE_REVERSAL_DOSE_MG_PER_KG,
  MEDIAN_RECOVERY_MIN,
  MODERATE_BLOCK_DOSE_MG_PER_KG,
  RSI_ROCURONIUM_DOSE_MG_PER_KG,
  SEVERE_RENAL_IMPAIRMENT_BELOW_CRCL_ML_PER_MIN,
  TOF_RATIO_TARGET,
  VIAL_CONTENT_MG,
  doseQuantities,
} from '../../clinical/index.ts';
import { formatOneDecimal } from '../../widgets/shared/lang/format.ts';
import { CONTRACEPTION_STATEMENT, DISPLACEMENT_STATEMENT, REPARALYSIS_SUMMARY } from './safety.ts';
import type { FaqContent, FaqEntry } from './types.ts';

const moderate70 = doseQuantities(MODERATE_BLOCK_DOSE_MG_PER_KG, 70);
const immediate80 = doseQuantities(IMMEDIATE_REVERSAL_DOSE_MG_PER_KG, 80);
const CRCL = SEVERE_RENAL_IMPAIRMENT_BELOW_CRCL_ML_PER_MIN;

/** Twelve questions anaesthesia clinicians ask; every fact from docs/clinical-reference.md §1-4 and docs/product.md §9. */
const entries: FaqEntry[] = [
  {
    question: 'Which body weight do I use, including in obese patients?',
    answer: `Actual body weight, obese patients included (US PI 2.1; EU SmPC 4.2). The total dose is the mg/kg dose times actual body weight, rounded to whole mg; vials = total ÷ ${VIAL_CONTENT_MG} mg rounded up; volume = total ÷ ${CONCENTRATION_MG_PER_ML} mg/mL. For example, 70 kg at ${MODERATE_BLOCK_DOSE_MG_PER_KG} mg/kg is ${moderate70.totalDoseMg} mg: ${moderate70.vials} vial, ${formatOneDecimal(moderate70.volumeMl)} mL.`,
  },
  {
    question: 'What dose do I give at a TOF count of 1, or with a PTC of 0?',
    answer: `Neither has a labelled dose. At a TOF count of 0 or 1 the calculator gives ${DEEP_BLOCK_DOSE_MG_PER_KG} mg/kg, the deep-block dose; from a TOF count of 2 (T2 has reappeared) it gives ${MODERATE_BLOCK_DOSE_MG_PER_KG} mg/kg. A PTC of 0 with no TOF response is profound block: wait for at least 1 post-tetanic count, or, after rapid-sequence rocuronium ${RSI_ROCURONIUM_DOSE_MG_PER_KG} mg/kg in an adult, use the ${IMMEDIATE_REVERSAL_DOSE_MG_PER_KG} mg/kg immediate-reversal dose.`,
  },
  {
    question: `When is ${IMMEDIATE_REVERSAL_DOSE_MG_PER_KG} mg/kg used after rapid sequence induction?`,
    answer: `For immediate reversal about 3 min after a single dose of rocuronium ${RSI_ROCURONIUM_DOSE_MG_PER_KG} mg/kg, in adults only. It has not been studied after vecuronium nor in children. The median time to a TOF ratio ≥ ${TOF_RATIO_TARGET} is about ${MEDIAN_RECOVERY_MIN.immediate} min. For 80 kg this is ${immediate80.totalDoseMg} mg: ${immediate80.vials} vials, ${formatOneDecimal(immediate80.volumeMl)} mL.`,
  },
  {
    question: 'Can I give it in renal impairment?',
    answer: `Not recommended with creatinine clearance below ${CRCL} mL/min or in dialysis patients (US PI 8.6; EU SmPC 4.2); the calculator shows this as contraindicated, although the labels' only contraindication is hypersensitivity. With CrCl 30-80 mL/min no dose adjustment is needed. If it is given with CrCl < ${CRCL} mL/min, wait 24 h before giving rocuronium or vecuronium again.`,
  },
  {
    question: 'Do children and older patients need a different dose?',
    answer: `Children and adolescents of 2-17 years receive ${MODERATE_BLOCK_DOSE_MG_PER_KG} or ${DEEP_BLOCK_DOSE_MG_PER_KG} mg/kg by block depth; use under 2 years is not established, and ${IMMEDIATE_REVERSAL_DOSE_MG_PER_KG} mg/kg is not established in children. For small volumes, dilute to 10 mg/mL for accuracy (EU SmPC 4.2). Older adults receive the same dose; after ${MODERATE_BLOCK_DOSE_MG_PER_KG} mg/kg at T2 the median recovery is 2.2, 2.6 and 3.6 min at 18-64, 65-74 and ≥ 75 years.`,
  },
  {
    question: 'Do I still need neuromuscular monitoring?',
    answer: `Yes. Use quantitative monitoring to choose the dose (TOF count or PTC) and to confirm a TOF ratio ≥ ${TOF_RATIO_TARGET} before extubation (ASA 2023 practice guidelines, Thilen 2023). Monitor the TOF ratio every 15-30 seconds after the bolus until it reaches at least ${TOF_RATIO_TARGET}, then assess ventilation and airway reflexes and watch for recurrence of block.`,
  },
  {
    question: 'When can I paralyse the patient again with rocuronium or vecuronium?',
    answer: `${REPARALYSIS_SUMMARY} In detail: after up to ${DEEP_BLOCK_DOSE_MG_PER_KG} mg/kg with normal renal function, rocuronium ${RSI_ROCURONIUM_DOSE_MG_PER_KG} mg/kg can be given after 5 min (onset about 3 min, shorter duration), rocuronium 0.6 mg/kg or vecuronium 0.1 mg/kg after 4 h; after ${IMMEDIATE_REVERSAL_DOSE_MG_PER_KG} mg/kg, or with CrCl < ${CRCL} mL/min, wait 24 h. If block is needed before the wait is over, use a non-steroidal blocker such as cisatracurium.`,
  },
  {
    question: 'What if the block comes back after reversal?',
    answer: `Recurrence of block was reported in 2% vs 0% with placebo, mostly after sub-optimal doses, so give the full calculated dose rather than "one vial for everyone". If block recurs, repeat ${DEEP_BLOCK_DOSE_MG_PER_KG} mg/kg and keep the TOF ratio ≥ ${TOF_RATIO_TARGET} stable for at least 10 min. ${DISPLACEMENT_STATEMENT}`,
  },
  {
    question: 'What should I tell patients who use hormonal contraception?',
    answer: `${CONTRACEPTION_STATEMENT} The patient counselling sheet in Resources explains this in plain language.`,
  },
  {
    question: 'How common is bradycardia, and how do I manage it?',
    answer:
      'About 1-2% (treated bradycardia 2.4% vs 2.2% with neostigmine in 89,753 surgeries). Marked bradycardia, sometimes with cardiac arrest, can occur within minutes. Monitor ECG, heart rate and blood pressure from injection until at least 30 min after. Treat with atropine (adults 1 mg, repeated every 3-5 min to 3 mg); if there is no response, adrenaline (epinephrine) 10 micrograms IV boluses or a 2-10 micrograms/min infusion, and transcutaneous pacing for persistent bradycardia with poor perfusion. The Bradycardia Advisor gives a plan for the individual patient.',
  },
  {
    question: 'How often does anaphylaxis occur, and what should I look for?',
    answer:
      'About 1 in 3,000-5,000 doses (0.039% in Miyazaki 2018; 0.02% in Orihara 2020). It is dose-dependent and early signs appear within about 5 min (for example rash or bronchospasm). Treat with adrenaline (epinephrine), send tryptase and report the event to the national pharmacovigilance centre (SFDA in Saudi Arabia).',
  },
  {
    question: 'Does it affect coagulation tests?',
    answer:
      'aPTT and PT/INR can be up to about 25% higher for up to about 1 h after the dose (EU data: aPTT +17% / +22% and INR +11% / +22% at 4 / 16 mg/kg, within 30 min; de Kam 2014). Keep this in mind when reading coagulation tests taken in that period.',
  },
];

/** FAQ (docs/product.md §2): twelve entries, one open at a time. */
export const FAQ: FaqContent = {
  title: 'Frequently Asked Questions',
  intro:
    'Practical answers for anaesthesia clinicians, consistent with the product labels and the sources in the Safety and Clinical Evidence sections.',
  entries,
};
