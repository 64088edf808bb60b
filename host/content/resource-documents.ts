import {
  ADMINISTRATION_TEXT,
  CONCENTRATION_MG_PER_ML,
  DEEP_BLOCK_DOSE_MG_PER_KG,
  IMMEDIATE_REVERSAL_DOSE_MG_PER_KG,
  MEDIAN_RECOVERY_MIN,
  MODERATE_BLOCK_DOSE_MG_PER_KG,
  MONITORING_CHECKLIST,
  RSI_ROCURONIUM_DOSE_MG_PER_KG,
  SEVERE_RENAL_IMPAIRMENT_BELOW_CRCL_ML_PER_MIN,
  TOF_RATIO_TARGET,
  VIAL_CONTENT_MG,
  VIAL_PRICE_SAR,
  VIAL_VOLUME_ML,
  VIALS_PER_BOX,
  doseQuantities,
  reparalysisGuidance,
} from '../../clinical/index.ts';
import { formatOneDecimal, formatSarPrice } from '../../widgets/shared/lang/format.ts';
import { ADVANTAGE } from './advantage.ts';
import { EVIDENCE } from './evidence.ts';
import { MECHANISM } from './mechanism.ts';
import {
  CONTRACEPTION_STATEMENT,
  DISPLACEMENT_STATEMENT,
  RECURRENCE_STATEMENT,
  REPARALYSIS_SUMMARY,
  SAFETY,
} from './safety.ts';
import type { PdfDocument, PdfSection, SafetyPanel } from './types.ts';

/*
 * The downloadable documents' text (docs/product.md §2 "Resources"; rendered to PDF at build time by
 * host/pdfs). Facts come from the other content files and clinical/ so they are written once.
 */

const CRCL = SEVERE_RENAL_IMPAIRMENT_BELOW_CRCL_ML_PER_MIN;
const SAR = (value: number) => `${formatSarPrice(value)} SAR`;
const PRICE = SAR(VIAL_PRICE_SAR);
const PRESENTATION = `${VIAL_CONTENT_MG} mg / ${VIAL_VOLUME_ML} mL vial (${CONCENTRATION_MG_PER_ML} mg/mL); box of ${VIALS_PER_BOX} vials; ${PRICE} per vial`;
const BLANK = '____________________';
const SHORT_BLANK = '__________';

function panel(id: SafetyPanel['id']): SafetyPanel {
  const found = SAFETY.panels.find((p) => p.id === id);
  if (!found) throw new Error(`Safety panel ${id} missing`);
  return found;
}

/** A worked example as a table row: weight, dose, total, vials, volume, cost. */
function exampleRow(doseMgPerKg: number, weightKg: number): string[] {
  const q = doseQuantities(doseMgPerKg, weightKg);
  return [
    `${weightKg} kg`,
    `${doseMgPerKg} mg/kg`,
    `${q.totalDoseMg} mg`,
    `${q.vials} ${q.vials === 1 ? 'vial' : 'vials'}`,
    `${formatOneDecimal(q.volumeMl)} mL`,
    SAR(q.costSar),
  ];
}

const DOSE_TABLE: string[][] = [
  ['Depth of block', 'How it is assessed', 'Dose', 'Median time to TOF ratio ≥ 0.9'],
  [
    'Moderate',
    `TOF count 2, 3 or 4 (T2 has reappeared)`,
    `${MODERATE_BLOCK_DOSE_MG_PER_KG} mg/kg`,
    `About ${MEDIAN_RECOVERY_MIN.moderate} min`,
  ],
  [
    'Deep',
    'PTC 1-2, no TOF response; or TOF count 0-1',
    `${DEEP_BLOCK_DOSE_MG_PER_KG} mg/kg`,
    `About ${MEDIAN_RECOVERY_MIN.deep} min`,
  ],
  [
    'Immediate reversal (adults)',
    `About 3 min after a single dose of rocuronium ${RSI_ROCURONIUM_DOSE_MG_PER_KG} mg/kg`,
    `${IMMEDIATE_REVERSAL_DOSE_MG_PER_KG} mg/kg`,
    `About ${MEDIAN_RECOVERY_MIN.immediate} min`,
  ],
  ['Profound', 'PTC 0, no TOF response', 'No labelled dose', 'Wait for PTC ≥ 1'],
];

/** Re-paralysis waits (docs/clinical-reference.md §3), from clinical/reparalysis.ts: normal, mild-moderate and severe renal function, 4 and 16 mg/kg. */
const REPARALYSIS_LINES: string[] = (() => {
  const all = [
    ...reparalysisGuidance(DEEP_BLOCK_DOSE_MG_PER_KG, 100),
    ...reparalysisGuidance(DEEP_BLOCK_DOSE_MG_PER_KG, 50),
    ...reparalysisGuidance(IMMEDIATE_REVERSAL_DOSE_MG_PER_KG, 100),
    ...reparalysisGuidance(DEEP_BLOCK_DOSE_MG_PER_KG, CRCL - 1),
  ];
  const unique = [...new Set(all)];
  const sooner = unique.filter((line) => line.startsWith('If block is needed'));
  return [...unique.filter((line) => !sooner.includes(line)), ...sooner];
})();

export const HCP_DOSING_GUIDE: PdfDocument = {
  file: 'hcp-dosing-guide.pdf',
  title: 'HCP Dosing Guide',
  subtitle: `Sugammadex ${VIAL_CONTENT_MG} mg / ${VIAL_VOLUME_ML} mL (${CONCENTRATION_MG_PER_ML} mg/mL): weight-based reversal of rocuronium and vecuronium block`,
  sections: [
    {
      heading: 'Indication and presentation',
      paragraphs: [
        'Reversal of neuromuscular block induced by rocuronium or vecuronium in adults, and in children and adolescents of 2-17 years at 2 and 4 mg/kg. ' +
          MECHANISM.note,
        `Presentation: ${PRESENTATION}.`,
      ],
    },
    {
      heading: 'Dose by depth of block',
      paragraphs: [
        'Choose the dose from a quantitative TOF count or post-tetanic count (PTC) taken just before reversal. Dose by actual body weight, obese patients included (US PI 2.1; EU SmPC 4.2).',
      ],
      table: DOSE_TABLE,
      bullets: [
        'TOF count 1 has no labelled dose: the product gives 4 mg/kg, the deep-block dose.',
        `${IMMEDIATE_REVERSAL_DOSE_MG_PER_KG} mg/kg is for rocuronium only: it has not been studied after vecuronium nor in children.`,
        'Total dose = dose (mg/kg) x actual body weight (kg), rounded to whole mg.',
      ],
    },
    {
      heading: 'Vial maths and worked examples',
      paragraphs: [
        `Vials = total dose ÷ ${VIAL_CONTENT_MG} mg, rounded up. Volume = total dose ÷ ${CONCENTRATION_MG_PER_ML} mg/mL, to one decimal. Cost per dose = vials x ${PRICE}, to two decimals. A dose above one box (${VIALS_PER_BOX} vials) is shown in full: never cap a dose.`,
      ],
      table: [
        ['Weight', 'Dose', 'Total dose', 'Vials', 'Volume', 'Cost'],
        exampleRow(MODERATE_BLOCK_DOSE_MG_PER_KG, 70),
        exampleRow(DEEP_BLOCK_DOSE_MG_PER_KG, 70),
        exampleRow(IMMEDIATE_REVERSAL_DOSE_MG_PER_KG, 80),
        exampleRow(MODERATE_BLOCK_DOSE_MG_PER_KG, 65.3),
      ],
    },
    {
      heading: 'Administration',
      paragraphs: [ADMINISTRATION_TEXT],
      bullets: [
        'Give the full calculated dose: doses below the recommended ones raise the risk of recurrence of block (US PI). "One vial for everyone" is a known practice gap (22% of surveyed hospitals; Anesth Pain Med 2019).',
        'Small volumes (children): measure with a 1 mL syringe, or dilute to 10 mg/mL for accuracy (EU SmPC 4.2).',
        'Continuous ECG, heart rate and blood pressure from injection until at least 30 min after: 68.9% of reported reactions occur within 30 min (VigiBase).',
      ],
    },
    {
      heading: 'Monitoring checklist',
      bullets: [
        ...MONITORING_CHECKLIST,
        `Monitor the TOF ratio every 15-30 seconds after the bolus until it reaches at least ${TOF_RATIO_TARGET}.`,
      ],
    },
    {
      heading: 'Renal impairment',
      bullets: [
        `CrCl < ${CRCL} mL/min or dialysis: not recommended (US PI 8.6; EU SmPC 4.2). The dose calculator shows this as "Contraindicated"; the labels' only contraindication is hypersensitivity.`,
        'CrCl 30-80 mL/min: no dose adjustment is needed.',
        `If given with CrCl < ${CRCL} mL/min: wait 24 h before rocuronium or vecuronium is given again.`,
      ],
    },
    {
      heading: 'Children and older adults',
      bullets: [
        'Children and adolescents of 2-17 years: 2 mg/kg or 4 mg/kg by depth of block, as in adults.',
        'Under 2 years: use not established.',
        `${IMMEDIATE_REVERSAL_DOSE_MG_PER_KG} mg/kg immediate reversal is not established in children.`,
        'Older adults: the same dose. After 2 mg/kg at T2, median recovery is 2.2 / 2.6 / 3.6 min at 18-64 / 65-74 / ≥ 75 years.',
      ],
    },
    {
      heading: 'Re-paralysis',
      paragraphs: [REPARALYSIS_SUMMARY],
      bullets: [...REPARALYSIS_LINES],
    },
    {
      heading: 'Recurrence of block',
      paragraphs: [RECURRENCE_STATEMENT, DISPLACEMENT_STATEMENT],
    },
    {
      heading: 'Safety essentials',
      bullets: [
        ...panel('contraindications').items.slice(0, 2),
        ...panel('adverse-reactions').items.slice(0, 2),
        CONTRACEPTION_STATEMENT,
        'Coagulation: aPTT and PT/INR up to about 25% higher for up to about 1 h.',
      ],
    },
    {
      heading: 'Sources',
      paragraphs: [
        'US PI: US prescribing information of the reference sugammadex product, rev. 12/2024. EU SmPC: EU summary of product characteristics of the reference sugammadex product (EMA). Cammu G et al. BJA 2010 (rocuronium after sugammadex). Thilen SR et al. Anesthesiology 2023;138(1):13-41. de Kam PJ et al. Int J Clin Pharmacol Ther 2014;52:227 (coagulation).',
      ],
    },
  ],
};

export const MECHANISM_INFOGRAPHIC: PdfDocument = {
  file: 'mechanism-of-action-infographic.pdf',
  title: 'Mechanism of Action Infographic',
  subtitle: 'How sugammadex reverses rocuronium and vecuronium block, step by step',
  sections: [
    { heading: 'In one sentence', paragraphs: [MECHANISM.intro] },
    {
      heading: 'Three steps',
      table: [
        ['Step', 'What happens'],
        ...MECHANISM.steps.map((step, index) => [`${index + 1}. ${step.title}`, step.text]),
      ],
      paragraphs: ['Step 1  >  Step 2  >  Step 3: blocked receptor, encapsulated rocuronium, restored transmission.'],
    },
    {
      heading: 'Four key features',
      table: [['Feature', 'What it means at the bedside'], ...MECHANISM.cards.map((card) => [card.title, card.text])],
    },
    {
      heading: 'Which blockers it reverses',
      table: [
        ['Neuromuscular blocker', 'Type', 'Reversed by sugammadex?'],
        ['Rocuronium', 'Steroidal, non-depolarising', 'Yes: 2, 4 or 16 mg/kg by depth'],
        [
          'Vecuronium',
          'Steroidal, non-depolarising',
          `Yes: 2 or 4 mg/kg (${IMMEDIATE_REVERSAL_DOSE_MG_PER_KG} mg/kg not studied)`,
        ],
        ['Succinylcholine', 'Depolarising', 'No'],
        ['Cisatracurium', 'Non-steroidal, non-depolarising', 'No'],
      ],
      paragraphs: [MECHANISM.note],
    },
    {
      heading: 'Direct versus indirect reversal',
      table: [
        [ADVANTAGE.comparison.direct.title, ADVANTAGE.comparison.indirect.title],
        [ADVANTAGE.comparison.direct.text, ADVANTAGE.comparison.indirect.text],
        ...ADVANTAGE.comparison.direct.points.map((point, index) => [
          point,
          ADVANTAGE.comparison.indirect.points[index] ?? '',
        ]),
      ],
    },
    {
      heading: 'Dose matched to depth',
      table: [
        ['Depth of block', 'Dose', 'Note'],
        ...ADVANTAGE.depthCoverage.rows.map((row) => [row.depth, row.dose, row.note]),
      ],
    },
    {
      heading: 'Confirm the result',
      bullets: [...MONITORING_CHECKLIST],
    },
  ],
};

export const SAFETY_PROFILE: PdfDocument = {
  file: 'safety-profile.pdf',
  title: 'Safety Profile',
  subtitle:
    'Contraindications, warnings, adverse reactions, interactions and the management of bradycardia and anaphylaxis',
  sections: [
    {
      heading: 'About this document',
      paragraphs: [
        SAFETY.intro.split('.')[0] + '. Decision support only: always check the local prescribing information.',
      ],
    },
    {
      heading: 'Key numbers',
      table: [
        ['Topic', 'What to know'],
        ['Bradycardia', 'About 1-2%; treated bradycardia 2.4% vs 2.2% with neostigmine (89,753 surgeries)'],
        ['Anaphylaxis', 'About 1 in 3,000-5,000 doses; dose-dependent; early signs within about 5 min'],
        ['Coagulation', 'aPTT and PT/INR up to about 25% higher for up to about 1 h'],
        [
          'Recurrence of block',
          `2% vs 0% with placebo, mostly at sub-optimal doses; repeat ${DEEP_BLOCK_DOSE_MG_PER_KG} mg/kg`,
        ],
        ['Hormonal contraception', 'About one missed pill; non-hormonal back-up for 7 days'],
        ['Renal', `Not recommended with CrCl < ${CRCL} mL/min or dialysis`],
      ],
    },
    ...SAFETY.panels.map((p): PdfSection => ({
      heading: p.title,
      bullets: p.items,
      paragraphs: [`Source: ${p.source}.`],
    })),
    {
      heading: 'Managing bradycardia',
      paragraphs: [
        'Before injection: atropine available in the room (drawn up for moderate or high estimated risk, with adrenaline (epinephrine) 10 micrograms/mL), continuous ECG, heart rate and blood pressure until at least 30 min after. Use the Bradycardia Advisor for the individual plan.',
      ],
      bullets: [
        'Atropine: adults 1 mg IV, repeated every 3-5 min to a total of 3 mg; under 18 years 0.02 mg/kg (min 0.1 mg, max 0.5 mg).',
        'If no response: adrenaline 10 micrograms IV boluses or a 2-10 micrograms/min infusion (or dopamine 5-20 micrograms/kg/min); under 18 years adrenaline 0.01 mg/kg IV, max 1 mg a dose.',
        'Transcutaneous pacing for persistent bradycardia with poor perfusion; atropine may fail in high-grade AV block.',
        'Pulseless or asystole: start CPR and follow ACLS.',
      ],
    },
    {
      heading: 'Managing anaphylaxis',
      bullets: [
        'Watch for early signs within about 5 min of the dose: rash, bronchospasm, ST change (consider coronary spasm too).',
        'Give adrenaline (epinephrine) and send mast-cell tryptase (as soon as feasible, then 1-2 h from the onset of the reaction, then at least 24 h after it).',
        'Report the event to the national pharmacovigilance centre (SFDA in Saudi Arabia).',
      ],
      paragraphs: [
        'Sources: US PI 5.1; AHA 2020 adult bradycardia algorithm; PALS; Miyazaki 2018; Orihara 2020; VigiBase.',
      ],
    },
  ],
};

export const PAEDIATRIC_RENAL_COUNSELLING: PdfDocument = {
  file: 'paediatric-renal-counselling.pdf',
  title: 'Children, Kidney Problems and Your Anaesthetic',
  subtitle: 'Patient and family counselling sheet: to be given and explained by your healthcare professional',
  sections: [
    {
      heading: 'About this sheet',
      paragraphs: [
        'At the end of an operation your anaesthetist may give a medicine called sugammadex. It quickly undoes the effect of the muscle relaxant used during the anaesthetic, so that the muscles, including the breathing muscles, work normally again before the patient wakes fully.',
        'This sheet is for parents and carers of children, and for adults who have kidney problems.',
      ],
    },
    {
      heading: 'For parents and carers of children',
      bullets: [
        'Sugammadex can be used in children and teenagers from 2 to 17 years old.',
        "The dose is worked out from your child's weight, so please tell the team your child's up-to-date weight.",
        'For children under 2 years old, its use has not been established. The anaesthetist will use another way to make sure the muscle relaxant has worn off.',
        'The team checks muscle strength with a small monitor on the hand or foot before your child wakes up fully.',
        'If your teenage daughter uses hormonal contraception (pill, implant, injection or coil with hormones), she needs to use condoms as well for the next 7 days. Ask the team for the contraception sheet.',
      ],
    },
    {
      heading: 'For adults with kidney problems',
      paragraphs: [
        'Tell your anaesthetist before the operation if you have kidney disease or have dialysis. The team uses a blood test (creatinine) to estimate how well your kidneys work, called creatinine clearance.',
      ],
      table: [
        ['How well your kidneys work', 'What it means for this medicine'],
        ['Normal', 'The usual dose by your weight'],
        ['Mild or moderate kidney problems (creatinine clearance 30-80 mL/min)', 'The usual dose: no change is needed'],
        [
          `Severe kidney problems (creatinine clearance below ${CRCL} mL/min) or dialysis`,
          'Not recommended: your anaesthetist will choose another way to reverse the muscle relaxant',
        ],
      ],
    },
    {
      heading: 'If another operation is needed soon',
      paragraphs: [
        'If you need another operation soon after, for example within the next day, tell the team that you were given sugammadex. The anaesthetist may need to choose a different muscle relaxant or wait before giving the same one. If your kidneys work poorly and you were given it, the usual wait is 24 hours.',
      ],
    },
    {
      heading: 'What to look out for',
      bullets: [
        'Most patients have no problems. Some feel sick, vomit, have a headache or have some pain after the operation.',
        'Rarely, it causes an allergic reaction or a slow heartbeat. These usually happen within minutes, while the anaesthesia team is still watching closely.',
        'After you go home, contact your doctor if you or your child feel unwell.',
      ],
    },
    {
      heading: 'Questions you may want to ask',
      bullets: [
        'Which muscle relaxant will be used, and how will it be reversed?',
        'Does my kidney function change the plan?',
        'Is there anything I should do about contraception afterwards?',
      ],
    },
    {
      heading: 'For the healthcare professional',
      paragraphs: [
        `Children 2-17 years: ${MODERATE_BLOCK_DOSE_MG_PER_KG} or ${DEEP_BLOCK_DOSE_MG_PER_KG} mg/kg by depth; under 2 years not established; ${IMMEDIATE_REVERSAL_DOSE_MG_PER_KG} mg/kg not established in children. CrCl < ${CRCL} mL/min or dialysis: not recommended; CrCl 30-80 mL/min: no adjustment; after any dose with CrCl < ${CRCL} mL/min, wait 24 h before rocuronium or vecuronium again (US PI 8.6; EU SmPC 4.2).`,
      ],
    },
  ],
};

export const USAGE_FORM: PdfDocument = {
  file: 'usage-form.pdf',
  title: 'Sugammadex Usage Form',
  subtitle: 'Record of one reversal dose: complete in theatre and file with the anaesthetic record',
  sections: [
    {
      heading: 'How to complete this form',
      bullets: [
        'Complete one form for each reversal dose, in theatre, at the time of giving. Tick boxes with a cross; write "n/a" where a field does not apply.',
        `Record the block depth measured by quantitative monitoring just before reversal: the TOF count, or the PTC when there is no TOF response. The dose follows from it: ${MODERATE_BLOCK_DOSE_MG_PER_KG} mg/kg from TOF count 2, ${DEEP_BLOCK_DOSE_MG_PER_KG} mg/kg for PTC 1-2 or TOF count 0-1, ${IMMEDIATE_REVERSAL_DOSE_MG_PER_KG} mg/kg only for immediate reversal after rocuronium ${RSI_ROCURONIUM_DOSE_MG_PER_KG} mg/kg in adults.`,
        `Use actual body weight. Total dose = mg/kg x weight, rounded to whole mg; vials = total ÷ ${VIAL_CONTENT_MG} mg, rounded up; volume = total ÷ ${CONCENTRATION_MG_PER_ML} mg/mL. Example: 70 kg at 4 mg/kg = ${doseQuantities(DEEP_BLOCK_DOSE_MG_PER_KG, 70).totalDoseMg} mg, ${doseQuantities(DEEP_BLOCK_DOSE_MG_PER_KG, 70).vials} vials, ${formatOneDecimal(doseQuantities(DEEP_BLOCK_DOSE_MG_PER_KG, 70).volumeMl)} mL.`,
        `Before giving, check renal function (not recommended with creatinine clearance below ${CRCL} mL/min or on dialysis) and age (not established under 2 years).`,
        `Record the TOF ratio until it is at least ${TOF_RATIO_TARGET} and stable, and any event in the first 30 minutes after injection.`,
      ],
    },
    {
      heading: '1. Patient and case',
      paragraphs: [
        `Patient initials: ${SHORT_BLANK}    Hospital number: ${BLANK}`,
        `Age: ${SHORT_BLANK} years`,
        'Age group:  [ ] adult (18 and over)   [ ] paediatric (2-17)   [ ] under 2 (not established)',
        `Actual body weight: ${SHORT_BLANK} kg    Date: ${SHORT_BLANK}    Procedure: ${BLANK}`,
        `Creatinine clearance: ${SHORT_BLANK} mL/min    Dialysis:  [ ] no   [ ] yes (not recommended)`,
      ],
    },
    {
      heading: '2. Neuromuscular block',
      paragraphs: [
        'Blocker (NMBA):  [ ] rocuronium   [ ] vecuronium   [ ] other (not indicated)',
        `Last NMBA dose: ${SHORT_BLANK} mg    Time given: ${SHORT_BLANK}`,
        `Block depth before reversal:  TOF count ${SHORT_BLANK}    PTC ${SHORT_BLANK}`,
        `[ ] immediate reversal after rocuronium ${RSI_ROCURONIUM_DOSE_MG_PER_KG} mg/kg (adults only)`,
      ],
    },
    {
      heading: '3. Dose given',
      table: [
        ['Item', 'Record', 'Check'],
        [
          'Dose (mg/kg)',
          `[ ] ${MODERATE_BLOCK_DOSE_MG_PER_KG}   [ ] ${DEEP_BLOCK_DOSE_MG_PER_KG}   [ ] ${IMMEDIATE_REVERSAL_DOSE_MG_PER_KG}`,
          'By depth of block',
        ],
        ['Total dose (mg)', SHORT_BLANK, 'Dose x actual body weight, whole mg'],
        ['Vials used', SHORT_BLANK, `Total ÷ ${VIAL_CONTENT_MG} mg, rounded up`],
        ['Volume (mL)', SHORT_BLANK, `Total ÷ ${CONCENTRATION_MG_PER_ML} mg/mL`],
        ['Time given', SHORT_BLANK, 'Single IV bolus over about 10 s'],
        ['Batch / lot number', SHORT_BLANK, ''],
      ],
    },
    {
      heading: '4. Recovery',
      paragraphs: [
        `TOF ratio after reversal: ${SHORT_BLANK}    at time: ${SHORT_BLANK}`,
        `[ ] TOF ratio ≥ ${TOF_RATIO_TARGET} confirmed by quantitative monitoring    Time to TOF ratio ≥ ${TOF_RATIO_TARGET}: ${SHORT_BLANK} min`,
        '[ ] Ventilation and airway reflexes assessed    [ ] Monitored for recurrence of block',
        `Extubation time: ${SHORT_BLANK}`,
      ],
      table: [
        ['Time', 'TOF count / TOF ratio', 'Heart rate', 'Blood pressure', 'Initials'],
        [SHORT_BLANK, SHORT_BLANK, SHORT_BLANK, SHORT_BLANK, SHORT_BLANK],
        [SHORT_BLANK, SHORT_BLANK, SHORT_BLANK, SHORT_BLANK, SHORT_BLANK],
        [SHORT_BLANK, SHORT_BLANK, SHORT_BLANK, SHORT_BLANK, SHORT_BLANK],
        [SHORT_BLANK, SHORT_BLANK, SHORT_BLANK, SHORT_BLANK, SHORT_BLANK],
      ],
    },
    {
      heading: '5. Events',
      paragraphs: [
        `[ ] none    [ ] bradycardia (treatment: ${BLANK})`,
        '[ ] hypersensitivity / anaphylaxis (tryptase sent  [ ] yes  [ ] no)',
        `[ ] recurrence of block (repeat ${DEEP_BLOCK_DOSE_MG_PER_KG} mg/kg given  [ ] yes; TOF ratio ≥ ${TOF_RATIO_TARGET} stable for 10 min  [ ] yes)`,
        '[ ] reported to the national pharmacovigilance centre (SFDA)',
      ],
    },
    {
      heading: '6. Follow-up',
      paragraphs: [
        '[ ] Hormonal contraception: counselling sheet given (non-hormonal back-up for 7 days)',
        '[ ] Hormonal contraception: not applicable',
        `[ ] Re-paralysis advice recorded (if block is needed again before 4 h have passed: rocuronium ${RSI_ROCURONIUM_DOSE_MG_PER_KG} mg/kg; after ${IMMEDIATE_REVERSAL_DOSE_MG_PER_KG} mg/kg or with CrCl < ${CRCL} mL/min: wait 24 h)`,
      ],
    },
    {
      heading: '7. Signatures',
      paragraphs: [
        `Anaesthetist: ${BLANK}    Signature: ${BLANK}    Date: ${SHORT_BLANK}`,
        `Witness / nurse: ${BLANK}    Signature: ${BLANK}    Date: ${SHORT_BLANK}`,
        `Pharmacy check: ${BLANK}    Signature: ${BLANK}    Date: ${SHORT_BLANK}`,
      ],
    },
  ],
};

const evidenceLine = (index: number): string => {
  const study = EVIDENCE.studies[index];
  if (!study) throw new Error(`Study ${index} missing`);
  return `${study.authors} ${study.journal}: ${study.description}`;
};

export const TEXTBOOK_CHAPTER: PdfDocument = {
  file: 'textbook-chapter.pdf',
  title: 'Neuromuscular Block Reversal: A Textbook Chapter',
  subtitle: 'Principles, monitoring and practical use of direct reversal with sugammadex',
  sections: [
    {
      heading: '1. Why reversal matters',
      paragraphs: [
        'Non-depolarising neuromuscular blockers make intubation and surgery possible, but the block must be gone before the patient is extubated. Residual block, a TOF ratio below 0.9 at extubation, can impair ventilation and airway protection. The ASA 2023 practice guidelines therefore recommend quantitative neuromuscular monitoring and a TOF ratio of at least 0.9 before extubation (Thilen 2023).',
      ],
    },
    {
      heading: '2. Measuring the block',
      paragraphs: [
        'The train-of-four (TOF) delivers four stimuli: the TOF count is the number of twitches seen, and the TOF ratio compares the fourth twitch with the first. When there is no TOF response, the post-tetanic count (PTC), the number of twitches after a tetanic stimulus, shows how deep the block is. The depth found just before reversal chooses the dose.',
      ],
      table: [
        ['Monitoring finding', 'Depth of block', 'Reversal dose'],
        ['PTC 0, no TOF response', 'Profound', 'No labelled dose: wait for PTC ≥ 1'],
        ['PTC 1-2, no TOF response', 'Deep', `${DEEP_BLOCK_DOSE_MG_PER_KG} mg/kg`],
        ['TOF count 1', 'Deep (no labelled dose)', `${DEEP_BLOCK_DOSE_MG_PER_KG} mg/kg, the deep-block dose`],
        ['TOF count 2-4 (T2 has reappeared)', 'Moderate', `${MODERATE_BLOCK_DOSE_MG_PER_KG} mg/kg`],
        [
          'TOF ratio ≥ 0.9, measured quantitatively',
          'Recovered',
          'Ready for extubation once ventilation and airway reflexes are assessed',
        ],
      ],
    },
    {
      heading: '3. Indirect reversal: acetylcholinesterase inhibitors',
      paragraphs: [
        'Neostigmine inhibits acetylcholinesterase so that more acetylcholine competes with the blocker at the receptor. ' +
          ADVANTAGE.comparison.indirect.points.slice(0, 3).join('. ') +
          '. In deep rocuronium block, recovery took 50.4 min with neostigmine against 2.9 min with sugammadex (Jones 2008).',
      ],
    },
    {
      heading: '4. Direct reversal: encapsulation',
      paragraphs: [
        MECHANISM.intro,
        ...MECHANISM.steps.map((step, index) => `Step ${index + 1}, ${step.title.toLowerCase()}: ${step.text}`),
        MECHANISM.note,
      ],
    },
    {
      heading: '5. Dosing',
      paragraphs: [
        'Doses are by actual body weight, obese patients included, and are chosen from the depth of block just before reversal.',
      ],
      table: DOSE_TABLE,
      bullets: [ADMINISTRATION_TEXT, `Presentation: ${PRESENTATION}.`],
    },
    {
      heading: '6. Special populations',
      bullets: [
        `Renal: not recommended with CrCl < ${CRCL} mL/min or dialysis; no adjustment at CrCl 30-80 mL/min.`,
        'Children 2-17 years: 2 or 4 mg/kg; under 2 years not established; 16 mg/kg not established in children.',
        'Older adults: the same dose; recovery after 2 mg/kg is slightly slower (median 2.2 / 2.6 / 3.6 min at 18-64 / 65-74 / ≥ 75 years).',
        'Obesity: dose by actual body weight.',
      ],
    },
    {
      heading: '7. Safety',
      bullets: [
        ...panel('adverse-reactions').items.slice(0, 3),
        panel('warnings').items[0] ?? '',
        CONTRACEPTION_STATEMENT,
        RECURRENCE_STATEMENT,
        DISPLACEMENT_STATEMENT,
      ],
    },
    {
      heading: '8. Re-paralysis after reversal',
      paragraphs: [REPARALYSIS_SUMMARY],
      bullets: REPARALYSIS_LINES,
    },
    {
      heading: '9. Outcomes',
      bullets: [evidenceLine(0), evidenceLine(1), evidenceLine(4), evidenceLine(2)],
    },
    {
      heading: '10. Operating-room time and cost',
      paragraphs: [
        'Operating-room time costs about US$36-37 per minute (Childers 2018, JAMA Surg). Faster reversal saves operating-room time only when a TOF ratio ≥ 0.9 is verified before extubation. Most operating-room cost is fixed, so "cost saved" means capacity freed, not cash.',
      ],
    },
    {
      heading: 'Key points',
      bullets: [
        'Measure the block quantitatively before and after reversal; extubate at a TOF ratio ≥ 0.9.',
        'Match the dose to the depth of block and give it by actual body weight: 2, 4 or 16 mg/kg.',
        'Give the full dose; repeat 4 mg/kg if block recurs.',
        'Be ready for bradycardia and anaphylaxis in the first minutes; counsel patients on hormonal contraception.',
      ],
    },
    {
      heading: 'Further reading',
      paragraphs: EVIDENCE.studies.map((study) => `${study.authors} ${study.title}. ${study.journal}. ${study.link}`),
    },
  ],
};
