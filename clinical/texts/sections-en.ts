// The English clinical texts, section by section (./en.ts composes them; the emergency card's are in
// ./emergency-en.ts). Code imports the sections it reads from here, so that a bundle carries only those.
import { groupThousands } from '../digits.ts';
import {
  ADULT_MIN_AGE_YEARS,
  ADVISOR_AGE_MAX_YEARS,
  BASELINE_HR_MAX_BPM,
  BASELINE_HR_MIN_BPM,
  BODY_WEIGHT_MAX_KG,
  BODY_WEIGHT_MIN_KG,
  COCKCROFT_GAULT_AGE_MAX_YEARS,
  CRCL_MAX_ML_PER_MIN,
  CRCL_MIN_ML_PER_MIN,
  PATIENT_EARLIEST_BIRTH_YEAR,
  PATIENT_MRN_MAX_LENGTH,
  PATIENT_NAME_MAX_LENGTH,
  PATIENT_NOTES_MAX_LENGTH,
  PTC_MAX,
  ROI_MAX_NUMBER_OF_CASES,
  ROI_MAX_TIME_MIN,
  ROI_OR_COST_MAX_SAR_PER_MIN,
  ROI_OR_COST_MIN_SAR_PER_MIN,
  ROI_OR_COST_STEP_SAR_PER_MIN,
  ROI_PPC_RATE_MAX_PERCENT,
  ROI_PPC_RATE_MIN_PERCENT,
  ROI_RISK_RATIO,
  SERUM_CREATININE_MAX_MG_PER_DL,
  SERUM_CREATININE_MAX_UMOL_PER_L,
  SERUM_CREATININE_MIN_MG_PER_DL,
  SERUM_CREATININE_MIN_UMOL_PER_L,
} from '../constants.ts';

const mustBeTicked = (what: string) => `${what} must be ticked or unticked (true or false)`;
const wholeMinutes = (what: string) => `${what} must be a whole number of minutes from 0 to ${ROI_MAX_TIME_MIN}`;

export const DOSE_TEXTS_EN = {
  outcomeTitles: {
    not_indicated: 'Not indicated',
    contraindicated: 'Contraindicated',
    not_established: 'Not established',
    unable_to_calculate: 'Unable to calculate',
  },
  // docs/product.md §5 rule 2.
  notIndicatedWarning: 'Only indicated for the reversal of neuromuscular blockade induced by rocuronium or vecuronium',
  // docs/product.md §5 rule 3, exact.
  renalWarning: 'Not recommended in severe renal impairment (CrCl <30 mL/min) or dialysis patients',
  // docs/clinical-reference.md §1: the labels' only contraindication is hypersensitivity; shown beside the
  // spec's outcome.
  renalLabelNote:
    'The product labels list known hypersensitivity as the only contraindication; severe renal impairment ' +
    'and dialysis are "not recommended" (US PI 8.6; EU SmPC 4.2).',
  // docs/product.md §5 rule 4.
  infantWarning: 'Use in children under 2 years of age is not established',
  // docs/product.md §5 rule 5.
  pediatricRsiWarning: '16 mg/kg immediate reversal is not established in pediatrics',
  specifyDepth: 'Please specify block depth (TOF count or PTC)',
  // docs/clinical-reference.md §1 readings.
  profoundBlockReason:
    'Profound block (PTC 0, no TOF response): there is no labelled dose. Wait for at least 1 post-tetanic ' +
    'count; after rapid-sequence rocuronium 1.2 mg/kg in an adult, use the RSI scenario (16 mg/kg immediate ' +
    'reversal).',
  countTofReason: (ptc: number) =>
    `PTC ${ptc} with no TOF count entered: count the TOF. Once twitches return the dose follows the TOF ` +
    `count (TOF 0-1: 4 mg/kg; TOF 2 or more: 2 mg/kg).`,
  profoundWithTofWarning:
    'PTC 0 indicates profound block: the 4 mg/kg dose is labelled for 1-2 post-tetanic counts. Consider ' +
    'waiting for PTC ≥ 1.',
  // docs/clinical-reference.md §1 safety additions.
  rsiVecuroniumWarning: '16 mg/kg immediate reversal has been studied only after rocuronium 1.2 mg/kg.',
  crclNotEnteredWarning:
    'Creatinine clearance not entered: confirm CrCl ≥ 30 mL/min and no dialysis before giving (not ' +
    'recommended below 30 mL/min).',
  crclNoAdjustmentNote: 'CrCl 30-80 mL/min: no dose adjustment is needed.',
  underDosingWarning:
    'Give the full calculated dose: doses below the recommended ones raise the risk of recurrence of block ' +
    '(US PI). "One vial for everyone" is a known practice gap (22% of surveyed hospitals; Anesth Pain Med ' +
    '2019).',
  moreThanOneBoxWarning: (vials: number, boxes: number) =>
    `This dose needs ${vials} vials: more than one box of 10 (${boxes} boxes). Prepare all of them; do not ` +
    `cap the dose.`,
  // EU SmPC 4.2 (paediatric): 100 mg/mL may be diluted to 10 mg/mL to increase dosing accuracy.
  smallVolumeWarning: (totalMg: number) =>
    `Small volume: ${totalMg} mg is ${totalMg / 100} mL at 100 mg/mL. Measure it with a 1 mL syringe, or ` +
    `dilute to 10 mg/mL (${totalMg / 10} mL) for accuracy (EU SmPC 4.2).`,
  // Indications for a computed dose (docs/product.md §5 and §9; docs/clinical-reference.md §1).
  immediateIndication: 'Immediate reversal after rapid-sequence rocuronium 1.2 mg/kg',
  moderateIndication: (tofCount: string) =>
    tofCount === '2'
      ? 'Moderate block (TOF count 2: T2 has reappeared)'
      : `Moderate block (TOF count ${tofCount}: T2 has reappeared; the 2 mg/kg moderate-block dose applies)`,
  deepIndication: (tofCount: string | undefined) => {
    if (tofCount === '1') return 'Deep block (TOF count 1: no labelled dose; 4 mg/kg is the deep-block dose)';
    if (tofCount === '0') return 'Deep block (TOF count 0)';
    return 'Deep block (PTC 1-2, no TOF response)';
  },
  // docs/product.md §9: administration text and monitoring checklist.
  administration: 'Single IV bolus over about 10 seconds; monitor TOF ratio every 15-30 seconds until at least 0.9.',
  monitoring: [
    'Quantitative neuromuscular monitoring',
    'Confirm TOF ratio ≥ 0.9 before extubation',
    'Assess ventilation and airway reflexes',
    'Monitor for recurrence of block',
  ],
} as const;

/** The dose calculator's inputs (docs/product.md §3 and §8). */
export const DOSE_INPUT_TEXTS_EN = {
  // docs/product.md §8: used for a missing, non-numeric, zero or negative weight.
  invalidWeight: 'Please enter a valid body weight',
  weightRange: `Body weight must be between ${BODY_WEIGHT_MIN_KG} and ${BODY_WEIGHT_MAX_KG} kg`,
  crclRange:
    `Creatinine clearance must be between ${CRCL_MIN_ML_PER_MIN} and ${CRCL_MAX_ML_PER_MIN} ` +
    `mL/min (leave it empty if unknown)`,
  tofCount: 'TOF count must be 0, 1, 2, 3 or 4 (leave it empty if not counted)',
  ptc: `PTC must be a whole number from 0 to ${PTC_MAX} (leave it empty if not counted)`,
  ageGroup: 'Choose an age group: adult, pediatric or infant',
  nmbaType: 'Choose the blocking agent: rocuronium, vecuronium or other',
  rsiScenario: mustBeTicked('RSI scenario'),
  dialysis: mustBeTicked('Dialysis'),
  // How the CrCl was obtained: only the Cockcroft-Gault helper is recorded (docs/fhir.md#creatinine-clearance).
  creatinineMethod: 'creatinineMethod must be "cockcroft_gault" or left out',
} as const;

/** Messages of any tool's object of inputs (validation.ts strictFields). */
export const FIELDS_TEXTS_EN = {
  required: (field: string) => `${field} is required`,
  unknown: (field: string) => `Unknown field "${field}"`,
  notAnObject: 'Expected an object of inputs',
} as const;

/** The bradycardia advisor (docs/clinical-reference.md §4). */
export const ADVISOR_TEXTS_EN = {
  /** BRADYCARDIA_MODEL.name as shown to a reader (the answer's `model.name` stays this English identifier). */
  modelName: 'Sugammadex bradycardia risk heuristic',
  /** The multiplier table's rows: what each factor is, and what its multiplier rests on. */
  factors: {
    betaBlocker: {
      label: 'Beta-blocker',
      basis: 'Borrowed: perioperative beta-blockade (POISE); case report Choi 2019',
    },
    dexmedetomidine: {
      label: 'Dexmedetomidine',
      basis: 'Borrowed: meta-analysis RR 1.98; RR 2.81 in laparoscopy (De Cassai 2022); case report Gajewski 2019',
    },
    digoxin: { label: 'Digoxin', basis: 'Assumption: AV-nodal drug' },
    amiodarone: { label: 'Amiodarone', basis: 'Assumption: AV-nodal drug' },
    highDoseOpioids: { label: 'High-dose opioids', basis: 'Assumption: vagotonic' },
    vagalStimulus: {
      label: 'Vagal stimulus',
      basis: 'Assumption: pneumoperitoneum and vagal reflexes cause severe bradycardia',
    },
    historyBradycardia: { label: 'History of bradycardia', basis: 'Assumption' },
    conductionDisease: {
      label: 'AV block (conduction disease)',
      basis: 'Case reports (Choi 2019); atropine may fail in high-grade AV block (AHA 2020)',
    },
    pacemaker: {
      label: 'Pacemaker',
      basis: 'Assumption: a working pacemaker protects the rate; check mode and capture',
    },
    baselineHrBelow50: { label: 'Baseline heart rate below 50 bpm', basis: 'Assumption' },
    baselineHr50to59: { label: 'Baseline heart rate 50-59 bpm', basis: 'Assumption' },
    age75plus: { label: 'Age 75 years or over', basis: 'Fatal cardiac reports cluster over 65 (VigiBase)' },
    age65to74: { label: 'Age 65-74 years', basis: 'Fatal cardiac reports cluster over 65 (VigiBase)' },
    dose16: {
      label: 'Dose 16 mg/kg',
      basis: 'Assumption: case reports at high dose; hypersensitivity is dose-dependent',
    },
  },
} as const;

/** The advisor's inputs (docs/product.md §3, §5 and §8). */
export const ADVISOR_INPUT_TEXTS_EN = {
  // docs/product.md §5/§8: the advisor's required fields are weight, age, baselineHr and creatinine.
  missingInformation: 'Please fill in all required fields',
  weight: `Weight must be between ${BODY_WEIGHT_MIN_KG} and ${BODY_WEIGHT_MAX_KG} kg`,
  age: `Age must be between 0 and ${ADVISOR_AGE_MAX_YEARS} years`,
  baselineHr: `Baseline heart rate must be between ${BASELINE_HR_MIN_BPM} and ${BASELINE_HR_MAX_BPM} bpm`,
  creatinine: `Creatinine clearance must be between ${CRCL_MIN_ML_PER_MIN} and ${CRCL_MAX_ML_PER_MIN} mL/min`,
  cardiacHistory: 'Choose a cardiac history: none, bradycardia, AV block or pacemaker',
  betaBlocker: mustBeTicked('Beta-blocker'),
  dexmedetomidine: mustBeTicked('Dexmedetomidine'),
  digoxin: mustBeTicked('Digoxin'),
  amiodarone: mustBeTicked('Amiodarone'),
  highDoseOpioids: mustBeTicked('High-dose opioids'),
  vagalStimulus: mustBeTicked('Vagal stimulus'),
  depth: 'Choose the block depth: TOF 2 or more, PTC 1-2, or immediate reversal',
  nmba: 'Choose the blocking agent: rocuronium or vecuronium',
  dose: 'Dose must be 2, 4 or 16 mg/kg',
  conductionDisease: 'conductionDisease must be true or false',
  doseMismatch: 'Dose does not match the block depth (TOF 2 or more: 2, PTC 1-2: 4, immediate: 16 mg/kg)',
  conductionDiseaseMismatch: 'conductionDisease must be true exactly when the cardiac history is AV block',
} as const;

/** The advisor's management plan (docs/clinical-reference.md#management-plan). */
export const PLAN_TEXTS_EN = {
  atropine: (mg: number) => `Atropine ${mg} mg`,
  dose: (doseMg: number, doseMl: number) =>
    `${doseMg} mg (${doseMl.toFixed(1)} mL) single IV bolus over about 10 seconds`,
  quantitativeMonitoring: 'Quantitative neuromuscular monitoring: confirm TOF ratio ≥ 0.9 before extubation',
  continuousMonitoring:
    'Continuous ECG, heart rate and blood pressure from injection until at ' +
    'least 30 min after (68.9% of reported reactions occur within 30 min)',
  lowRiskAtropine: (atropine: string) => `${atropine} available in the room`,
  moderateRiskAtropine: (atropine: string) =>
    `${atropine} drawn up before injection; adrenaline (epinephrine) 10 micrograms/mL available`,
  highRiskDrugs: (atropine: string) =>
    `${atropine} and adrenaline (epinephrine) 10 micrograms/mL drawn up before injection`,
  highRiskPacingPads: 'Transcutaneous pacing pads applied before injection',
  highRiskSecondClinician: 'A second anaesthesia clinician present',
  pacemaker: 'Pacemaker: confirm the pacing mode and capture before injection',
  avBlock: 'AV block: atropine may fail in high-grade AV block; have pacing ready',
  dexmedetomidine: 'Dexmedetomidine: review the infusion before injection',
  severeRenal:
    'CrCl < 30 mL/min: not recommended in severe renal impairment; if ' +
    'given, wait 24 h before re-paralysis with rocuronium or vecuronium',
  adultAtropine: (atropine: string, maxTotalMg: number) =>
    `${atropine} IV, repeated every 3-5 min to a total of ${maxTotalMg} mg`,
  adultEpinephrine:
    'If no response: adrenaline (epinephrine) 10 micrograms IV boluses or a 2-10 micrograms/min infusion ' +
    '(or dopamine 5-20 micrograms/kg/min)',
  pediatricAtropine: (atropine: string) => `${atropine} IV (0.02 mg/kg, min 0.1 mg, max 0.5 mg); may be repeated once`,
  // Whole micrograms below 1 mg; the 1 mg cap in mg (as on the emergency card).
  pediatricEpinephrine: (micrograms: number) =>
    `If no response: adrenaline (epinephrine) ` +
    `${micrograms >= 1000 ? `${micrograms / 1000} mg` : `${micrograms} micrograms`} (0.01 mg/kg, max 1 mg) ` +
    `IV every 3-5 min`,
  pacing: 'Transcutaneous pacing for persistent bradycardia with poor perfusion',
  pulseless: 'Pulseless or asystole: start CPR and follow ACLS',
  anaphylaxis:
    'Consider anaphylaxis or coronary spasm (rash, bronchospasm, ST change): give adrenaline and send tryptase',
  report: 'Report the event to the national pharmacovigilance centre (SFDA in Saudi Arabia)',
} as const;

/** Re-paralysis (re-NMBA) guidance after a reversal dose (docs/clinical-reference.md §3). */
export const REPARALYSIS_TEXTS_EN = {
  // US PI: after any dose in severe renal impairment.
  severeRenal:
    'Severe renal impairment (CrCl < 30 mL/min), any dose: wait 24 h before giving rocuronium or vecuronium again.',
  // EU SmPC 4.4.
  afterImmediateDose: 'After 16 mg/kg: wait 24 h before giving rocuronium or vecuronium again.',
  // US PI table; Cammu 2010.
  rocuroniumHighDose: 'Rocuronium 1.2 mg/kg: wait at least 5 min (onset about 3 min; shorter duration, about 18 min).',
  standardDoses: 'Rocuronium 0.6 mg/kg or vecuronium 0.1 mg/kg: wait at least 4 h.',
  // US PI 2.5: the table's waits are for normal renal function.
  mildModerateRenal:
    'Mild or moderate renal impairment (CrCl 30-80 mL/min): wait 24 h ' +
    'before rocuronium 0.6 mg/kg or vecuronium 0.1 mg/kg; if a shorter ' +
    'wait is needed, use rocuronium 1.2 mg/kg.',
  // EU SmPC 4.4.
  nonSteroidal:
    'If block is needed before the wait is over: use a non-steroidal NMBA ' +
    '(e.g. cisatracurium); a depolarising NMBA may have a slower onset.',
} as const;

/** The creatinine clearance helper (Cockcroft-Gault). */
export const COCKCROFT_GAULT_TEXTS_EN = {
  note:
    'Cockcroft-Gault estimate with actual body weight; it may overestimate ' +
    'clearance in obesity and is less reliable when creatinine is not ' +
    'stable.',
  age:
    `Cockcroft-Gault applies to adults: age must be ${ADULT_MIN_AGE_YEARS}-${COCKCROFT_GAULT_AGE_MAX_YEARS} ` + `years`,
  weight: `Weight must be between ${BODY_WEIGHT_MIN_KG} and ${BODY_WEIGHT_MAX_KG} kg`,
  sex: 'Choose female or male',
  serumCreatinine:
    `Serum creatinine must be between ${SERUM_CREATININE_MIN_MG_PER_DL} and ${SERUM_CREATININE_MAX_MG_PER_DL} ` +
    `mg/dL (${SERUM_CREATININE_MIN_UMOL_PER_L}-${SERUM_CREATININE_MAX_UMOL_PER_L} µmol/L)`,
  unit: 'Choose the creatinine unit: µmol/L or mg/dL',
  missingAge: 'Enter the age in years',
  missingWeight: 'Enter the weight in kg',
  missingSerumCreatinine: 'Enter the serum creatinine',
} as const;

/** The ROI calculator's inputs as the API receives them (docs/product.md §3 and §5). */
export const ROI_INPUT_TEXTS_EN = {
  numberOfCases: `Number of cases must be a whole number from 0 to ` + groupThousands(ROI_MAX_NUMBER_OF_CASES),
  orCostPerMinute:
    `OR cost per minute must be ${ROI_OR_COST_MIN_SAR_PER_MIN}-${ROI_OR_COST_MAX_SAR_PER_MIN} ` +
    `SAR in steps of ${ROI_OR_COST_STEP_SAR_PER_MIN}`,
  timeNeostigmine: wholeMinutes('Time with neostigmine'),
  timeProduct: wholeMinutes('Time with the product'),
  baselinePPCRate:
    `Baseline PPC rate must be a whole percent from ${ROI_PPC_RATE_MIN_PERCENT} ` + `to ${ROI_PPC_RATE_MAX_PERCENT}`,
  riskRatio: `The risk ratio is fixed at ${ROI_RISK_RATIO}`,
} as const;

/** A patient record (the account area and the API). */
export const PATIENT_TEXTS_EN = {
  displayName: `Enter a display name or initials (1-${PATIENT_NAME_MAX_LENGTH} characters)`,
  mrn: `MRN / hospital number must be at most ${PATIENT_MRN_MAX_LENGTH} characters`,
  notes: `Notes must be at most ${PATIENT_NOTES_MAX_LENGTH} characters`,
  weight: `Weight must be between ${BODY_WEIGHT_MIN_KG} and ${BODY_WEIGHT_MAX_KG} kg`,
  ageGroup: 'Age group must be adult, pediatric or infant',
  yearOfBirth: (currentYear: number) =>
    `Year of birth must be a year from ${PATIENT_EARLIEST_BIRTH_YEAR} to ${currentYear}`,
} as const;
