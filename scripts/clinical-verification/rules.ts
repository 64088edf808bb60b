import {
  calledWith,
  code,
  constant,
  emergencyConstant,
  text,
  type ClinicalRule,
  type ExcludedConstant,
} from './registry.ts';

/**
 * Every clinical rule and number the product shows, one entry each: where the code holds it, where docs/ states
 * it, and the tests that check it (README "Clinical verification"). `npm run build` checks every entry (the
 * value read from the code appears in the quoted source; every test listed ran in this build and passed) and
 * writes the report from them; a constant of clinical/constants.ts or clinical/emergency-constants.ts that is
 * neither here nor in NOT_LISTED below fails the build. Adding a rule is adding an entry.
 */

const REF = 'docs/clinical-reference.md';
const DOSING = `${REF}#1-dosing-facts`;
const REPARALYSIS = `${REF}#3-re-paralysis-re-nmba-guidance`;
const MODEL = `${REF}#4-bradycardia-risk-model-version-1`;
const PLAN = `${REF}#management-plan`;
const EVIDENCE = `${REF}#5-evidence-real-citations-for-the-evidence-section`;
const EMERGENCY = `${REF}#7-emergency-card-bradycardia-and-anaphylaxis-after-reversal`;
const FIELDS = 'docs/product.md#3-entities-and-their-fields';
const RULES = 'docs/product.md#5-validation-rules';
const CONSTANTS = 'docs/product.md#9-business-constants-and-limits';

// The test files, and the groups of tests the entries name most often.
const DOSE = 'clinical/dose-calculator.test.ts';
const DOSE_PROPERTIES = 'clinical/dose-calculator.property.test.ts > dose calculator properties';
const WORKED = `${DOSE} > worked examples (docs/clinical-reference.md §1)`;
const RULE_1 = `${DOSE} > rule 1: body weight`;
const RULE_3 = `${DOSE} > rule 3: severe renal impairment or dialysis`;
const RULE_5 = `${DOSE} > rule 5: dose per kg by block depth`;
const RULE_6 = `${DOSE} > rule 6 and docs/product.md §9: what a dose result carries`;
const REFUSED = `${DOSE} > other fields are refused, never clamped`;
const RENAL = 'clinical/renal.test.ts > renal function bands';
const ADVISOR = 'clinical/bradycardia-advisor.test.ts';
const ADVISOR_WORKED = `${ADVISOR} > worked examples (docs/clinical-reference.md §4)`;
const MULTIPLIER = `${ADVISOR} > each multiplier alone`;
const BANDS = `${ADVISOR} > half-open bands`;
const ADVISOR_DOSE = `${ADVISOR} > dose by depth, by actual body weight`;
const MANAGEMENT = `${ADVISOR} > management plan`;
const REPARALYSIS_TESTS = `${ADVISOR} > re-paralysis guidance (docs/clinical-reference.md §3)`;
const CARD = 'clinical/emergency.test.ts';
const CARD_WORKED = `${CARD} > worked checks (docs/clinical-reference.md §7)`;
const CAPS = `${CARD} > caps and minimums (child never above adult)`;
const CARD_PROPERTIES = 'clinical/emergency.property.test.ts > emergency card properties';
const SHOWN = 'clinical/reference-values.test.ts > numbers of docs/clinical-reference.md §1 the product shows';
const CARD_SHOWN =
  'clinical/reference-values.test.ts > the emergency card shows the numbers of docs/clinical-reference.md §7';

const PRODUCT = 'Product and vial maths';
const DEPTH = 'Dose calculator: dose by depth of block';
const INPUT = 'Dose calculator: inputs and outcomes';
const RENAL_AREA = 'Dose calculator: renal function';
const RESULT = 'Dose calculator: what a dose result says';
const MODEL_AREA = 'Bradycardia advisor: risk model (version 1, unvalidated heuristic)';
const PLAN_AREA = 'Bradycardia advisor: management plan';
const REPARALYSIS_AREA = 'Re-paralysis guidance';
const BRADYCARDIA_CARD = 'Emergency card: bradycardia with poor perfusion';
const ANAPHYLAXIS_INCIDENCE_TEST =
  'after sugammadex: anaphylaxis in about 1 in 2,500 to 1 in 5,000 administrations, most within 5 minutes';
const ANAPHYLAXIS_CARD = 'Emergency card: anaphylaxis';
const ROI_AREA = 'Safety calculator';

const ADVISOR_PROPERTIES = 'clinical/bradycardia-advisor.property.test.ts > bradycardia model properties';
const ADVISOR_PROPERTY =
  `${ADVISOR_PROPERTIES} > lists every applied factor, and the percent is the odds model over ` + 'exactly those';

/** A row of the multiplier table (docs/clinical-reference.md §4): the multiplier, its row, the test of it alone. */
function factor(
  id: string,
  what: string,
  quote: string,
  multiplierTest: string,
  extraTests: string[] = [],
): ClinicalRule {
  return {
    id: `advisor.factor.${id}`,
    area: MODEL_AREA,
    rule: `Risk multiplier: ${what}`,
    code: code('clinical/bradycardia-model.ts', 'RISK_FACTORS', id, 'multiplier'),
    unit: '×',
    source: { section: MODEL, quote },
    tests: [`${MULTIPLIER} > ${multiplierTest}`, ...extraTests, ADVISOR_PROPERTY],
  };
}

/** A factor's threshold, as its label states it (the label is what the result lists). */
function threshold(id: string, what: string, quote: string, tests: string[]): ClinicalRule {
  return {
    id: `advisor.threshold.${id}`,
    area: MODEL_AREA,
    rule: what,
    code: text('advisor', 'factors', id, 'label'),
    source: { section: MODEL, quote },
    tests: tests.map((name) => `${BANDS} > ${name}`),
  };
}

export const CLINICAL_RULES: readonly ClinicalRule[] = [
  // ---- Product and vial maths (docs/clinical-reference.md §1) ----
  {
    id: 'product.vial-content',
    area: PRODUCT,
    rule: 'Content of one vial; vials = total dose / 200 mg, rounded up',
    code: constant('VIAL_CONTENT_MG'),
    unit: 'mg',
    source: { section: DOSING, quote: ['100 mg/mL; 200 mg / 2 mL vial; box of 10', 'vials = ceil(total mg / 200)'] },
    tests: [
      `${WORKED} > '70 kg × 4 mg/kg = 280 mg → 2 vials, 2…'`,
      `${RULE_1} > weight 100.5 kg at 2 mg/kg gives 201 mg, 2 vial(s), 2 mL`,
      `${DOSE_PROPERTIES} > total dose = round(mg/kg × weight); vials × 200 ≥ total > (vials − 1) × 200; ` +
        'mL and SAR follow',
      `${SHOWN} > a vial holds 200 mg in 2 mL (100 mg/mL), 10 vials to a box`,
    ],
  },
  {
    id: 'product.vial-volume',
    area: PRODUCT,
    rule: 'Volume of one vial',
    code: constant('VIAL_VOLUME_ML'),
    unit: 'mL',
    source: { section: DOSING, quote: '100 mg/mL; 200 mg / 2 mL vial; box of 10' },
    tests: [`${SHOWN} > a vial holds 200 mg in 2 mL (100 mg/mL), 10 vials to a box`],
  },
  {
    id: 'product.concentration',
    area: PRODUCT,
    rule: 'Concentration; volume = total dose / 100, to one decimal',
    code: constant('CONCENTRATION_MG_PER_ML'),
    unit: 'mg/mL',
    source: { section: DOSING, quote: ['100 mg/mL; 200 mg / 2 mL vial', 'volume mL = total mg / 100, one decimal'] },
    tests: [
      `${WORKED} > '70 kg × 2 mg/kg = 140 mg → 1 vial, 1.…'`,
      `${WORKED} > '80 kg × 16 mg/kg = 1280 mg → 7 vials,…'`,
      `${RULE_1} > weight 2.5 kg at 2 mg/kg gives 5 mg, 1 vial(s), 0.1 mL`,
      `${SHOWN} > a vial holds 200 mg in 2 mL (100 mg/mL), 10 vials to a box`,
    ],
  },
  {
    id: 'product.vials-per-box',
    area: PRODUCT,
    rule: 'Vials in a box; a dose needing more is shown plainly, never capped',
    code: constant('VIALS_PER_BOX'),
    unit: 'vials',
    source: {
      section: DOSING,
      quote: ['200 mg / 2 mL vial; box of 10', 'Total dose above one box (10 vials): show the count plainly'],
    },
    tests: [
      `${RULE_6} > 16 mg/kg × 125 kg = 2000 mg → 10 vials (1 boxes)`,
      `${RULE_6} > 16 mg/kg × 126 kg = 2016 mg → 11 vials (2 boxes)`,
    ],
  },
  {
    id: 'product.vial-price',
    area: PRODUCT,
    rule: 'Price of one vial; cost = vials × price, to two decimals',
    code: constant('VIAL_PRICE_SAR'),
    unit: 'SAR',
    source: { section: DOSING, quote: 'cost = vials × 147.64 SAR, two decimals' },
    tests: [
      `${WORKED} > '70 kg × 2 mg/kg = 140 mg → 1 vial, 1.…'`,
      `${WORKED} > '70 kg × 4 mg/kg = 280 mg → 2 vials, 2…'`,
      `${WORKED} > '80 kg × 16 mg/kg = 1280 mg → 7 vials,…'`,
    ],
  },

  // ---- Dose by depth of block (docs/clinical-reference.md §1; docs/product.md §5) ----
  {
    id: 'dose.moderate-block',
    area: DEPTH,
    rule: 'Moderate block (TOF count 2, 3 or 4: T2 has reappeared)',
    code: constant('MODERATE_BLOCK_DOSE_MG_PER_KG'),
    unit: 'mg/kg',
    source: { section: DOSING, quote: ['moderate block (reappearance of T2) | 2 mg/kg', '2 mg/kg for TOF 2, 3 and 4'] },
    tests: [
      `${RULE_5} > TOF "'2'", PTC null → 2 mg/kg × 70 kg = 140 mg`,
      `${RULE_5} > TOF "'3'", PTC null → 2 mg/kg × 70 kg = 140 mg`,
      `${RULE_5} > TOF "'4'", PTC null → 2 mg/kg × 70 kg = 140 mg`,
      `${WORKED} > '70 kg × 2 mg/kg = 140 mg → 1 vial, 1.…'`,
    ],
  },
  {
    id: 'dose.deep-block',
    area: DEPTH,
    rule: 'Deep block (TOF count 0 or 1 whatever the PTC, or PTC 1-2)',
    code: constant('DEEP_BLOCK_DOSE_MG_PER_KG'),
    unit: 'mg/kg',
    source: {
      section: DOSING,
      quote: [
        'deep block (1–2 post-tetanic counts, no TOF response) | 4 mg/kg',
        'TOF 0 or 1 gives 4 mg/kg whatever the PTC',
      ],
    },
    tests: [
      `${RULE_5} > TOF "'0'", PTC null → 4 mg/kg × 70 kg = 280 mg`,
      `${RULE_5} > TOF "'1'", PTC null → 4 mg/kg × 70 kg = 280 mg`,
      `${RULE_5} > TOF "''", PTC 1 → 4 mg/kg × 70 kg = 280 mg`,
      `${RULE_5} > TOF "''", PTC 2 → 4 mg/kg × 70 kg = 280 mg`,
      `${WORKED} > '70 kg × 4 mg/kg = 280 mg → 2 vials, 2…'`,
    ],
  },
  {
    id: 'dose.immediate-reversal',
    area: DEPTH,
    rule: 'Immediate reversal (adult, RSI ticked), whatever the TOF and PTC',
    code: constant('IMMEDIATE_REVERSAL_DOSE_MG_PER_KG'),
    unit: 'mg/kg',
    source: { section: DOSING, quote: 'immediate reversal, ~3 min after a single rocuronium 1.2 mg/kg | 16 mg/kg' },
    tests: [
      `${RULE_5} > adult RSI gives 16 mg/kg whatever the TOF and PTC, with the immediate-reversal indication`,
      `${WORKED} > '80 kg × 16 mg/kg = 1280 mg → 7 vials,…'`,
    ],
  },
  {
    id: 'dose.rsi-rocuronium',
    area: DEPTH,
    rule: 'The rocuronium dose after which immediate reversal was studied',
    code: constant('RSI_ROCURONIUM_DOSE_MG_PER_KG'),
    unit: 'mg/kg',
    source: { section: DOSING, quote: 'immediate reversal, ~3 min after a single rocuronium 1.2 mg/kg' },
    tests: [
      `${SHOWN} > immediate reversal follows rapid-sequence rocuronium 1.2 mg/kg: its indication and warning say so`,
    ],
  },
  {
    id: 'dose.tof-count-1',
    area: DEPTH,
    rule: 'TOF count 1: no label dose; the deep-block dose, said so',
    code: calledWith(text('dose', 'deepIndication'), '1'),
    source: { section: DOSING, quote: 'TOF count 1 | no label dose; the product gives 4 mg/kg' },
    tests: [`${RULE_5} > TOF "'1'", PTC null → 4 mg/kg × 70 kg = 280 mg`],
  },
  {
    id: 'dose.tof-count-3-4',
    area: DEPTH,
    rule: 'TOF count 3 or 4: the moderate-block dose, said so',
    code: calledWith(text('dose', 'moderateIndication'), '3'),
    source: {
      section: DOSING,
      quote:
        "TOF count 3 or 4: the label's 2 mg/kg applies once spontaneous recovery has reached at least the " +
        'reappearance of T2',
    },
    tests: [`${RULE_5} > TOF "'3'", PTC null → 2 mg/kg × 70 kg = 140 mg`],
  },
  {
    id: 'dose.ptc-0',
    area: DEPTH,
    rule: 'PTC 0 with no TOF response: unable to calculate, wait for PTC ≥ 1',
    code: text('dose', 'profoundBlockReason'),
    source: {
      section: DOSING,
      quote:
        'PTC 0 with no TOF response: profound block, no label dose: "Unable to calculate", with the note to wait ' +
        'for PTC ≥ 1 (or, after rocuronium 1.2 mg/kg, the 16 mg/kg immediate-reversal case).',
    },
    tests: [`${RULE_5} > TOF "''", PTC +0 → Unable to calculate`],
  },
  {
    id: 'dose.ptc-0-with-tof',
    area: DEPTH,
    rule: 'TOF 0 or 1 with PTC 0: the deep-block dose, with a caution',
    code: text('dose', 'profoundWithTofWarning'),
    source: {
      section: DOSING,
      quote: [
        'deep block (1–2 post-tetanic counts, no TOF response) | 4 mg/kg',
        'TOF 0 or 1 gives 4 mg/kg whatever the PTC',
        'wait for PTC ≥ 1',
      ],
    },
    tests: [`${RULE_5} > TOF 0 or 1 with PTC 0 still gives 4 mg/kg, with the profound-block caution`],
  },
  {
    id: 'dose.ptc-3-plus',
    area: DEPTH,
    rule: 'PTC 3 or more with no TOF count: unable to calculate, count the TOF',
    code: calledWith(text('dose', 'countTofReason'), 3),
    source: {
      section: DOSING,
      quote: [
        'PTC ≥ 3 with no TOF value entered: "Unable to calculate" (spec), with the note to count the TOF.',
        'TOF 0 or 1 gives 4 mg/kg whatever the PTC',
        'The product gives 2 mg/kg for TOF 2, 3 and 4',
      ],
    },
    tests: [
      `${RULE_5} > TOF "''", PTC 3 → Unable to calculate`,
      `${RULE_5} > TOF "''", PTC 15 → Unable to calculate`,
      `${RULE_5} > PTC 3 reason names the count and the next step`,
    ],
  },
  {
    id: 'dose.no-depth',
    area: DEPTH,
    rule: 'Neither TOF nor PTC: unable to calculate',
    code: text('dose', 'specifyDepth'),
    source: {
      section: RULES,
      quote: 'neither TOF nor PTC gives the warning "Please specify block depth (TOF count or PTC)"',
    },
    tests: [
      `${RULE_5} > TOF "''", PTC null → Unable to calculate`,
      `${RULE_5} > TOF "null", PTC undefined → Unable to calculate`,
    ],
  },
  {
    id: 'dose.pediatric-rsi',
    area: DEPTH,
    rule: 'Paediatric + RSI: a warning, then the TOF/PTC rules',
    code: text('dose', 'pediatricRsiWarning'),
    source: {
      section: DOSING,
      quote:
        'Paediatric + RSI: the warning that 16 mg/kg is not established in paediatrics, and the dose then follows ' +
        'the TOF/PTC rules as if RSI were not ticked.',
    },
    tests: [
      `${RULE_5} > paediatric RSI follows the TOF rules and warns`,
      `${RULE_5} > paediatric RSI without a depth: unable to calculate, with the paediatric warning`,
    ],
  },
  {
    id: 'dose.rsi-vecuronium',
    area: DEPTH,
    rule: 'RSI with vecuronium: immediate reversal was studied only after rocuronium',
    code: text('dose', 'rsiVecuroniumWarning'),
    source: {
      section: DOSING,
      quote:
        'RSI with vecuronium selected: "16 mg/kg immediate reversal has been studied only after rocuronium 1.2 mg/kg."',
    },
    tests: [
      `${RULE_5} > 'adult', 'vecuronium', RSI true, { tofCount: '2', ptc: null } → 'dose 16'`,
      `${RULE_5} > 'adult', 'rocuronium', RSI true, { tofCount: '2', ptc: null } → 'dose 16'`,
    ],
  },

  // ---- Inputs and outcomes (docs/product.md §3, §5; docs/clinical-reference.md §1) ----
  {
    id: 'input.weight-min',
    area: INPUT,
    rule: 'Body weight: lowest accepted (below: refused, never clamped)',
    code: constant('BODY_WEIGHT_MIN_KG'),
    unit: 'kg',
    source: { section: DOSING, quote: 'Weight outside 1–200 kg, CrCl outside 10–200' },
    tests: [
      `${RULE_1} > weight 0.99 is refused: "'Body weight must be between 1 and 200…'", no result`,
      `${RULE_1} > weight 1 kg at 2 mg/kg gives 2 mg, 1 vial(s), +0 mL`,
    ],
  },
  {
    id: 'input.weight-max',
    area: INPUT,
    rule: 'Body weight: highest accepted (above: refused, never clamped)',
    code: constant('BODY_WEIGHT_MAX_KG'),
    unit: 'kg',
    source: { section: DOSING, quote: 'Weight outside 1–200 kg, CrCl outside 10–200' },
    tests: [
      `${RULE_1} > weight 200.1 is refused: "'Body weight must be between 1 and 200…'", no result`,
      `${RULE_1} > weight 200 kg at 2 mg/kg gives 400 mg, 2 vial(s), 4 mL`,
      `${DOSE_PROPERTIES} > any weight outside 1–200 kg (or not a number) is refused with the weight issue first`,
    ],
  },
  {
    id: 'input.invalid-weight',
    area: INPUT,
    rule: 'Rule 1: a missing, zero or negative weight gives no result',
    code: text('doseInput', 'invalidWeight'),
    source: {
      section: RULES,
      quote:
        'bodyWeight must be a positive number; otherwise a toast "Invalid Input" / "Please enter a valid body weight"',
    },
    tests: [`${RULE_1} > weight +0 is refused: "'Please enter a valid body weight'", no result`],
  },
  {
    id: 'input.crcl-min',
    area: INPUT,
    rule: 'Creatinine clearance: lowest accepted (empty when unknown)',
    code: constant('CRCL_MIN_ML_PER_MIN'),
    unit: 'mL/min',
    source: { section: DOSING, quote: 'Weight outside 1–200 kg, CrCl outside 10–200' },
    tests: [
      `${REFUSED} > 'creatinine': 'Creatinine clearance must be between …'`,
      `${RULE_3} > CrCl 10, dialysis false → Contraindicated`,
    ],
  },
  {
    id: 'input.crcl-max',
    area: INPUT,
    rule: 'Creatinine clearance: highest accepted',
    code: constant('CRCL_MAX_ML_PER_MIN'),
    unit: 'mL/min',
    source: { section: DOSING, quote: 'Weight outside 1–200 kg, CrCl outside 10–200' },
    tests: [
      `${REFUSED} > 'creatinine': 'Creatinine clearance must be between …'`,
      `${REFUSED} > accepts the edges of every range`,
    ],
  },
  {
    id: 'input.ptc-max',
    area: INPUT,
    rule: 'Post-tetanic count: highest accepted',
    code: constant('PTC_MAX'),
    source: { section: FIELDS, quote: 'ptc | post-tetanic count, 0 to 15' },
    tests: [
      `${REFUSED} > 'ptc': 'PTC must be a whole number from 0 to …'`,
      `${REFUSED} > accepts the edges of every range`,
    ],
  },
  {
    id: 'input.not-indicated',
    area: INPUT,
    rule: 'Rule 2: a blocking agent other than rocuronium or vecuronium: not indicated',
    code: text('dose', 'notIndicatedWarning'),
    source: {
      section: RULES,
      quote:
        'nmbaType other: "Not indicated", with the warning that the product is only indicated for reversal of ' +
        'rocuronium and vecuronium.',
    },
    tests: [
      `${DOSE} > rule 2: not indicated for NMBAs other than rocuronium and vecuronium > ` +
        'nmba other → "Not indicated" with the indication warning',
    ],
  },
  {
    id: 'input.infant',
    area: INPUT,
    rule: 'Rule 4: children under 2 years: not established',
    code: text('dose', 'infantWarning'),
    source: {
      section: RULES,
      quote: 'Infant: "Not established", with the warning that use in children under 2 years is not established.',
    },
    tests: [`${DOSE} > rule 4: infants > infant → "Not established" ({})`],
  },
  {
    id: 'input.pediatric-min-age',
    area: INPUT,
    rule: 'Youngest age of the paediatric group (younger: infant, not established)',
    code: constant('PEDIATRIC_MIN_AGE_YEARS'),
    unit: 'years',
    source: { section: CONSTANTS, quote: 'Age groups: adult 18 and over, pediatric 2-17, infant under 2.' },
    tests: [`${MANAGEMENT} > warnings for { age: 1 }`],
  },
  {
    id: 'input.adult-min-age',
    area: INPUT,
    rule: 'Youngest adult age (younger: child doses)',
    code: constant('ADULT_MIN_AGE_YEARS'),
    unit: 'years',
    source: { section: CONSTANTS, quote: 'Age groups: adult 18 and over, pediatric 2-17, infant under 2.' },
    tests: [`${MANAGEMENT} > atropine at 18 y, 3 kg = 1 mg`, `${MANAGEMENT} > atropine at 17 y, 20 kg = 0.4 mg`],
  },

  // ---- Renal function (docs/clinical-reference.md §1) ----
  {
    id: 'renal.severe-below',
    area: RENAL_AREA,
    rule: 'Severe renal impairment below this creatinine clearance (or dialysis): not recommended',
    code: constant('SEVERE_RENAL_IMPAIRMENT_BELOW_CRCL_ML_PER_MIN'),
    unit: 'mL/min',
    source: { section: DOSING, quote: 'CrCl < 30 mL/min or dialysis: not recommended' },
    tests: [
      `${RULE_3} > CrCl 29.9, dialysis false → Contraindicated`,
      `${RULE_3} > CrCl 30 → a dose, with the renal note 'CrCl 30-80 mL/min: no dose adjustment…'`,
      `${RENAL} > CrCl 29.99 mL/min → severe`,
      `${RENAL} > CrCl 30 mL/min → mild_moderate`,
    ],
  },
  {
    id: 'renal.no-adjustment-up-to',
    area: RENAL_AREA,
    rule: 'No dose adjustment up to this creatinine clearance (from 30)',
    code: constant('NO_ADJUSTMENT_UP_TO_CRCL_ML_PER_MIN'),
    unit: 'mL/min',
    source: { section: DOSING, quote: 'CrCl 30–80: no adjustment needed' },
    tests: [
      `${RULE_3} > CrCl 80 → a dose, with the renal note 'CrCl 30-80 mL/min: no dose adjustment…'`,
      `${RULE_3} > CrCl 81 → a dose, with the renal note undefined`,
      `${RENAL} > CrCl 80 mL/min → mild_moderate`,
      `${RENAL} > CrCl 80.1 mL/min → normal`,
    ],
  },
  {
    id: 'renal.warning',
    area: RENAL_AREA,
    rule: 'Rule 3: severe renal impairment or dialysis: "Contraindicated", with the warning',
    code: text('dose', 'renalWarning'),
    source: {
      section: RULES,
      quote:
        '"Contraindicated", with the warning "Not recommended in severe renal impairment (CrCl <30 mL/min) or ' +
        'dialysis patients"',
    },
    tests: [
      `${RULE_3} > CrCl 10, dialysis false → Contraindicated`,
      `${RULE_3} > CrCl 100, dialysis true → Contraindicated`,
    ],
  },
  {
    id: 'renal.label-note',
    area: RENAL_AREA,
    rule:
      'Beside the spec\'s outcome: the labels call it "not recommended"; hypersensitivity is the only ' +
      'contraindication',
    code: text('dose', 'renalLabelNote'),
    source: {
      section: DOSING,
      quote:
        'CrCl < 30 mL/min or dialysis: not recommended (the only contraindication in the labels is ' +
        'hypersensitivity) | US PI 8.6; EU SmPC 4.2',
    },
    tests: [`${RULE_3} > CrCl 29, dialysis false → Contraindicated`],
  },
  {
    id: 'renal.not-entered',
    area: RENAL_AREA,
    rule: 'Creatinine clearance not entered: a dose, with a reminder',
    code: text('dose', 'crclNotEnteredWarning'),
    source: {
      section: DOSING,
      quote: ['CrCl < 30 mL/min or dialysis: not recommended', 'CrCl 30–80: no adjustment needed'],
    },
    tests: [`${RULE_3} > CrCl null → a dose, with the renal note 'Creatinine clearance not entered: con…'`],
  },
  {
    id: 'renal.no-adjustment-note',
    area: RENAL_AREA,
    rule: 'Creatinine clearance 30-80: a dose, saying no adjustment is needed',
    code: text('dose', 'crclNoAdjustmentNote'),
    source: {
      section: DOSING,
      quote: 'CrCl 30–80: no adjustment needed (say so, so the clinician is not left guessing).',
    },
    tests: [`${RULE_3} > CrCl 31 → a dose, with the renal note 'CrCl 30-80 mL/min: no dose adjustment…'`],
  },

  // ---- What a dose result says (docs/clinical-reference.md §1; docs/product.md §9) ----
  ...(['moderate', 'deep', 'immediate'] as const).map((depth): ClinicalRule => ({
    id: `result.median-recovery.${depth}`,
    area: RESULT,
    rule: `Median time to a TOF ratio ≥ 0.9, ${depth === 'immediate' ? 'immediate reversal' : `${depth} block`}`,
    code: code('clinical/dose-calculator.ts', 'MEDIAN_RECOVERY_MIN', depth),
    unit: 'min',
    source: {
      section: DOSING,
      quote: 'median time to TOF ≥ 0.9 | ~2 min (2 mg/kg), ~3 min (4 mg/kg), ~1.5 min (16 mg/kg)',
    },
    tests: [`${SHOWN} > median time to a TOF ratio ≥ 0.9: about 2, 3 and 1.5 min after 2, 4 and 16 mg/kg`],
  })),
  {
    id: 'result.tof-target',
    area: RESULT,
    rule: 'Extubation target: TOF ratio at least',
    code: constant('TOF_RATIO_TARGET'),
    source: { section: CONSTANTS, quote: 'Extubation target: TOF ratio at least 0.9.' },
    tests: [`${SHOWN} > extubation target: a TOF ratio of 0.9, as the administration and monitoring texts write it`],
  },
  {
    id: 'result.administration',
    area: RESULT,
    rule: 'How to give it',
    code: text('dose', 'administration'),
    source: {
      section: CONSTANTS,
      quote:
        'Administration: single IV bolus over about 10 seconds; monitor TOF ratio every 15-30 seconds until at ' +
        'least 0.9.',
    },
    tests: [`${RULE_6} > a complete dose result for 70 kg at TOF 2 with CrCl 100`],
  },
  {
    id: 'result.monitoring-extubation',
    area: RESULT,
    rule: 'Monitoring checklist: the extubation check',
    code: text('dose', 'monitoring', '1'),
    source: { section: CONSTANTS, quote: 'confirm TOF ratio ≥ 0.9 before extubation' },
    tests: [`${RULE_6} > a complete dose result for 70 kg at TOF 2 with CrCl 100`],
  },
  {
    id: 'result.more-than-one-box',
    area: RESULT,
    rule: 'More than one box: the count shown plainly, the dose never capped',
    code: calledWith(text('dose', 'moreThanOneBoxWarning'), 11, 2),
    source: {
      section: DOSING,
      quote: 'Total dose above one box (10 vials): show the count plainly; never cap a dose silently.',
    },
    tests: [
      `${RULE_6} > 16 mg/kg × 126 kg = 2016 mg → 11 vials (2 boxes)`,
      `${RULE_6} > 16 mg/kg × 125 kg = 2000 mg → 10 vials (1 boxes)`,
    ],
  },
  {
    id: 'result.under-dosing',
    area: RESULT,
    rule: 'More than one vial: give the full dose ("one vial for everyone" under-doses)',
    code: text('dose', 'underDosingWarning'),
    source: {
      section: DOSING,
      quote:
        'Under-dosing: a note that giving "one vial for everyone" is a known practice gap (22% of surveyed Korean ' +
        'hospitals; Anesth Pain Med 2019) and that doses below the recommended ones raise the risk of recurrence ' +
        'of block',
    },
    tests: [
      `${RULE_6} > under-dosing note when one vial is not enough (201 mg)`,
      `${RULE_6} > under-dosing note when one vial is not enough (200 mg)`,
    ],
  },

  // ---- Bradycardia risk model (docs/clinical-reference.md §4) ----
  {
    id: 'advisor.model',
    area: MODEL_AREA,
    rule: 'The model is named, and said to be an unvalidated heuristic',
    code: text('advisor', 'modelName'),
    source: { section: MODEL, quote: 'This is a transparent, unvalidated heuristic' },
    tests: [`${ADVISOR} > names the model and says it is an unvalidated heuristic`],
  },
  {
    id: 'advisor.base-risk',
    area: MODEL_AREA,
    rule: 'Baseline risk, before any factor (odds model)',
    code: code('clinical/bradycardia-model.ts', 'BASE_RISK_PERCENT'),
    unit: '%',
    source: { section: MODEL, quote: 'BASE = 2.0%' },
    tests: [`${ADVISOR_WORKED} > 'no factor → 2.0% LOW'`, `${ADVISOR_WORKED} > 'beta-blocker → 3.9% LOW'`],
  },
  {
    id: 'advisor.band-low',
    area: MODEL_AREA,
    rule: 'LOW band: below this percent',
    code: code('clinical/bradycardia-model.ts', 'RISK_BANDS', 'LOW', 'belowPercent'),
    unit: '%',
    source: { section: MODEL, quote: 'Bands, half-open: LOW < 5%' },
    tests: [
      `${BANDS} > 4.9% → 'LOW' ('green')`,
      `${BANDS} > 5% → 'MODERATE' ('yellow')`,
      `${BANDS} > the band follows the displayed percent`,
    ],
  },
  {
    id: 'advisor.band-moderate',
    area: MODEL_AREA,
    rule: 'MODERATE band: from 5 % to below this percent; HIGH from it',
    code: code('clinical/bradycardia-model.ts', 'RISK_BANDS', 'MODERATE', 'belowPercent'),
    unit: '%',
    source: { section: MODEL, quote: 'MODERATE 5% to < 15%, HIGH ≥ 15%' },
    tests: [`${BANDS} > 14.9% → 'MODERATE' ('yellow')`, `${BANDS} > 15% → 'HIGH' ('red')`],
  },
  ...(
    [
      ['LOW', `${BANDS} > 0.1% → 'LOW' ('green')`],
      ['MODERATE', `${BANDS} > 5.1% → 'MODERATE' ('yellow')`],
      ['HIGH', `${BANDS} > 99.9% → 'HIGH' ('red')`],
    ] as const
  ).map(([band, test]): ClinicalRule => ({
    id: `advisor.colour.${band.toLowerCase()}`,
    area: MODEL_AREA,
    rule: `Colour of the ${band} band`,
    code: code('clinical/bradycardia-model.ts', 'RISK_BANDS', band, 'colour'),
    source: { section: MODEL, quote: 'Colours: LOW green, MODERATE yellow, HIGH red' },
    tests: [test],
  })),
  factor('betaBlocker', 'beta-blocker', 'betaBlocker | 2.0', "'betaBlocker' × 2 → 3.9%", [
    `${ADVISOR_WORKED} > 'beta-blocker → 3.9% LOW'`,
  ]),
  factor('dexmedetomidine', 'dexmedetomidine', 'dexmedetomidine | 2.0', "'dexmedetomidine' × 2 → 3.9%", [
    `${ADVISOR_WORKED} > 'beta-blocker + dexmedetomidine → 7.5%…'`,
  ]),
  factor('digoxin', 'digoxin', 'digoxin | 1.5', "'digoxin' × 1.5 → 3%"),
  factor('amiodarone', 'amiodarone', 'amiodarone | 1.5', "'amiodarone' × 1.5 → 3%"),
  factor('highDoseOpioids', 'high-dose opioids', 'highDoseOpioids | 1.5', "'highDoseOpioids' × 1.5 → 3%"),
  factor('vagalStimulus', 'vagal stimulus', 'vagalStimulus | 2.0', "'vagalStimulus' × 2 → 3.9%"),
  factor(
    'historyBradycardia',
    'history of bradycardia',
    'cardiacHistory bradycardia | 2.0',
    "'historyBradycardia' × 2 → 3.9%",
  ),
  factor(
    'conductionDisease',
    'AV block',
    'cardiacHistory av_block (conductionDisease) | 3.0',
    "'conductionDisease' × 3 → 5.8%",
    [`${ADVISOR_WORKED} > 'AV block + beta-blocker + HR 45 → 23.…'`],
  ),
  factor('pacemaker', 'pacemaker (lowers the risk)', 'cardiacHistory pacemaker | 0.5', "'pacemaker' × 0.5 → 1%"),
  factor(
    'baselineHrBelow50',
    'baseline heart rate below 50 bpm',
    'baselineHr < 50 | 2.5',
    "'baselineHrBelow50' × 2.5 → 4.9%",
  ),
  factor(
    'baselineHr50to59',
    'baseline heart rate 50-59 bpm',
    'baselineHr 50–59 | 1.5',
    "'baselineHr50to59' × 1.5 → 3%",
  ),
  factor('age75plus', 'age 75 or over', 'age ≥ 75 | 1.5', "'age75plus' × 1.5 → 3%"),
  factor('age65to74', 'age 65-74', 'age 65–74 | 1.25', "'age65to74' × 1.25 → 2.5%"),
  factor('dose16', 'reversal dose 16 mg/kg', 'dose 16 mg/kg | 1.3', "'dose16' × 1.3 → 2.6%"),
  threshold('baselineHrBelow50', 'Baseline heart rate band: below 50 bpm', 'baselineHr < 50', [
    "baseline HR 49.9 → [ 'baselineHrBelow50' ]",
    "baseline HR 50 → [ 'baselineHr50to59' ]",
  ]),
  threshold('baselineHr50to59', 'Baseline heart rate band: 50 to below 60 bpm', 'baselineHr 50–59', [
    "baseline HR 59.5 → [ 'baselineHr50to59' ]",
    'baseline HR 60 → []',
  ]),
  threshold('age65to74', 'Age band: 65 to below 75 years', 'age 65–74', [
    'age 64.9 → []',
    "age 65 → [ 'age65to74' ]",
    "age 74 → [ 'age65to74' ]",
  ]),
  threshold('age75plus', 'Age band: 75 years or over', 'age ≥ 75', ["age 75 → [ 'age75plus' ]"]),
  ...(
    [
      ['tof_2_plus', 'TOF 2 or more', "'tof_2_plus' × 70 kg → 140 mg, 1.4 mL"],
      ['ptc_1_2', 'PTC 1-2', "'ptc_1_2' × 70 kg → 280 mg, 2.8 mL"],
      ['immediate', 'immediate reversal', "'immediate' × 80 kg → 1280 mg, 12.8 mL"],
    ] as const
  ).map(([depth, what, test]): ClinicalRule => ({
    id: `advisor.dose.${depth}`,
    area: MODEL_AREA,
    rule: `The advisor's reversal dose for ${what}`,
    code: code('clinical/bradycardia-schema.ts', 'DOSE_MG_PER_KG_BY_DEPTH', depth),
    unit: 'mg/kg',
    source: {
      section: MODEL,
      quote: 'Dose: tof_2_plus → 2, ptc_1_2 → 4, immediate → 16 mg/kg × weight = doseMg; doseMl = doseMg/100',
    },
    tests: [
      `${ADVISOR_DOSE} > ${test}`,
      `${ADVISOR_PROPERTIES} > dose = mg/kg by depth × weight (whole mg), mL = mg / 100`,
    ],
  })),

  // ---- Management plan (docs/clinical-reference.md §4) ----
  {
    id: 'plan.dose-line',
    area: PLAN_AREA,
    rule: 'Preparation: the dose, as a single IV bolus over about 10 s',
    code: calledWith(text('plan', 'dose'), 140, 1.4),
    source: { section: PLAN, quote: '"{doseMg} mg ({doseMl} mL) single IV bolus over about 10 seconds"' },
    tests: [`${MANAGEMENT} > LOW, adult: the full plan`],
  },
  {
    id: 'plan.continuous-monitoring',
    area: PLAN_AREA,
    rule: 'Preparation: continuous ECG, heart rate and blood pressure',
    code: text('plan', 'continuousMonitoring'),
    source: {
      section: PLAN,
      quote:
        'continuous ECG, heart rate and blood pressure from injection until at least 30 min after (68.9% of ' +
        'reported reactions occur within 30 min',
    },
    tests: [`${MANAGEMENT} > LOW, adult: the full plan`],
  },
  {
    id: 'plan.low',
    area: PLAN_AREA,
    rule: 'LOW risk: atropine in the room',
    code: calledWith(text('plan', 'lowRiskAtropine'), 'Atropine 1 mg'),
    source: { section: PLAN, quote: 'LOW: atropine available in the room.' },
    tests: [`${MANAGEMENT} > LOW, adult: the full plan`],
  },
  {
    id: 'plan.moderate',
    area: PLAN_AREA,
    rule: 'MODERATE risk: atropine drawn up, adrenaline available',
    code: calledWith(text('plan', 'moderateRiskAtropine'), 'Atropine 1 mg'),
    source: {
      section: PLAN,
      quote: 'MODERATE: atropine drawn up before injection; adrenaline (epinephrine) 10 micrograms/mL available.',
    },
    tests: [`${MANAGEMENT} > MODERATE: atropine drawn up, adrenaline available`],
  },
  {
    id: 'plan.high',
    area: PLAN_AREA,
    rule: 'HIGH risk: both drawn up, pacing pads on, a second clinician',
    code: calledWith(text('plan', 'highRiskDrugs'), 'Atropine 1 mg'),
    source: {
      section: PLAN,
      quote: [
        'HIGH: both drawn up; transcutaneous pacing pads applied before injection; a second anaesthesia ' +
          'clinician present.',
        'adrenaline (epinephrine) 10 micrograms/mL',
      ],
    },
    tests: [`${MANAGEMENT} > HIGH with AV block: both drawn up, pads on, a second clinician, pacing ready`],
  },
  {
    id: 'plan.severe-renal',
    area: PLAN_AREA,
    rule: 'Creatinine clearance below 30: not recommended; 24 h before re-paralysis',
    code: text('plan', 'severeRenal'),
    source: { section: PLAN, quote: 'CrCl < 30 (not recommended; 24 h re-paralysis wait)' },
    tests: [`${MANAGEMENT} > pacemaker and severe renal impairment add their lines and warnings`],
  },
  {
    id: 'plan.adult-atropine',
    area: PLAN_AREA,
    rule: 'Treatment, adult: atropine, repeated to a total',
    code: calledWith(text('plan', 'adultAtropine'), 'Atropine 1 mg', 3),
    source: { section: PLAN, quote: 'atropine, repeated every 3–5 min to 3 mg (adults)' },
    tests: [`${MANAGEMENT} > LOW, adult: the full plan`],
  },
  {
    id: 'plan.adult-adrenaline',
    area: PLAN_AREA,
    rule: 'Treatment, adult: if no response, adrenaline or dopamine',
    code: text('plan', 'adultEpinephrine'),
    source: {
      section: PLAN,
      quote: [
        'if no response,\nadrenaline 10 micrograms IV boluses or 2–10 micrograms/min infusion',
        '(or dopamine 5–20 micrograms/kg/min',
      ],
    },
    tests: [`${MANAGEMENT} > LOW, adult: the full plan`],
  },
  {
    id: 'plan.child-atropine',
    area: PLAN_AREA,
    rule: 'Treatment, child: atropine by weight',
    code: calledWith(text('plan', 'pediatricAtropine'), 'Atropine 0.4 mg'),
    source: { section: PLAN, quote: 'under 18 years 0.02 mg/kg (min 0.1 mg, max 0.5 mg)' },
    tests: [`${MANAGEMENT} > a child: weight-based atropine and adrenaline`],
  },
  {
    id: 'plan.child-adrenaline',
    area: PLAN_AREA,
    rule: 'Treatment, child: if no response, adrenaline by weight',
    code: calledWith(text('plan', 'pediatricEpinephrine'), 200),
    source: {
      section: EMERGENCY,
      quote: [
        'adrenaline 0.01 mg/kg IV (10 micrograms/kg; 0.1 mL/kg of 0.1 mg/mL), **max 1 mg a dose**',
        'every 3–5 min; start CPR if HR < 60',
      ],
    },
    tests: [
      `${MANAGEMENT} > a child: weight-based atropine and adrenaline`,
      `${MANAGEMENT} > a child of 120 kg: the adrenaline is capped at 1 mg (PALS 2020), as on the emergency card`,
    ],
  },
  {
    id: 'plan.report',
    area: PLAN_AREA,
    rule: 'Report the event to the pharmacovigilance centre',
    code: text('plan', 'report'),
    source: {
      section: PLAN,
      quote: 'report the event to the national pharmacovigilance centre (SFDA in Saudi Arabia)',
    },
    tests: [`${MANAGEMENT} > LOW, adult: the full plan`],
  },

  // ---- Re-paralysis (docs/clinical-reference.md §3) ----
  {
    id: 'reparalysis.rocuronium-high-dose',
    area: REPARALYSIS_AREA,
    rule: 'After ≤ 4 mg/kg, normal renal function: rocuronium 1.2 mg/kg after',
    code: text('reparalysis', 'rocuroniumHighDose'),
    source: { section: REPARALYSIS, quote: 'rocuronium 1.2 mg/kg: 5 min (onset ~3 min, duration shorter, ~18 min)' },
    tests: [`${REPARALYSIS_TESTS} > '≤ 4 mg/kg, normal renal function'`],
  },
  {
    id: 'reparalysis.standard-doses',
    area: REPARALYSIS_AREA,
    rule: 'After ≤ 4 mg/kg, normal renal function: rocuronium 0.6 mg/kg or vecuronium 0.1 mg/kg after',
    code: text('reparalysis', 'standardDoses'),
    source: { section: REPARALYSIS, quote: 'rocuronium 0.6 mg/kg or vecuronium 0.1 mg/kg: 4 h' },
    tests: [`${REPARALYSIS_TESTS} > '≤ 4 mg/kg, normal renal function'`],
  },
  {
    id: 'reparalysis.after-16',
    area: REPARALYSIS_AREA,
    rule: 'After 16 mg/kg',
    code: text('reparalysis', 'afterImmediateDose'),
    source: { section: REPARALYSIS, quote: '| 16 mg/kg | 24 h | EU SmPC 4.4 |' },
    tests: [`${REPARALYSIS_TESTS} > '16 mg/kg'`],
  },
  {
    id: 'reparalysis.severe-renal',
    area: REPARALYSIS_AREA,
    rule: 'Creatinine clearance below 30, any dose',
    code: text('reparalysis', 'severeRenal'),
    source: { section: REPARALYSIS, quote: 'CrCl < 30 (any dose) | 24 h' },
    tests: [`${REPARALYSIS_TESTS} > 'CrCl < 30, any dose'`],
  },
  {
    id: 'reparalysis.non-steroidal',
    area: REPARALYSIS_AREA,
    rule: 'Block needed before the wait is over',
    code: text('reparalysis', 'nonSteroidal'),
    source: {
      section: REPARALYSIS,
      quote:
        'block needed before the wait is over | a non-steroidal NMBA (e.g. cisatracurium); a depolarising NMBA ' +
        'may have slower onset',
    },
    tests: [`${REPARALYSIS_TESTS} > '16 mg/kg'`, `${REPARALYSIS_TESTS} > 'CrCl < 30, any dose'`],
  },

  // ---- Emergency card: bradycardia (docs/clinical-reference.md §7 and §4, the advisor's atropine) ----
  {
    id: 'emergency.atropine-adult',
    area: BRADYCARDIA_CARD,
    rule: 'Atropine IV, adult',
    code: emergencyConstant('ATROPINE_ADULT_MG'),
    unit: 'mg',
    source: { section: EMERGENCY, quote: 'atropine IV | 1 mg, repeat every 3–5 min to 3 mg' },
    tests: [
      `${CARD_WORKED} > adult 80 kg: bradycardia atropine → 1 mg`,
      `${MANAGEMENT} > atropine at 18 y, 3 kg = 1 mg`,
    ],
  },
  {
    id: 'emergency.atropine-adult-max-total',
    area: BRADYCARDIA_CARD,
    rule: 'Atropine, adult: repeated to a total of',
    code: emergencyConstant('ATROPINE_ADULT_MAX_TOTAL_MG'),
    unit: 'mg',
    source: { section: EMERGENCY, quote: 'atropine IV | 1 mg, repeat every 3–5 min to 3 mg' },
    tests: [
      `${CARD_SHOWN} > adult atropine: repeat every 3-5 min to a total of 3 mg`,
      `${MANAGEMENT} > LOW, adult: the full plan`,
    ],
  },
  {
    id: 'emergency.atropine-repeat',
    area: BRADYCARDIA_CARD,
    rule: 'Atropine, adult: repeat every',
    code: emergencyConstant('ATROPINE_REPEAT_MIN'),
    unit: 'min',
    source: { section: EMERGENCY, quote: 'atropine IV | 1 mg, repeat every 3–5 min to 3 mg' },
    tests: [`${CARD_SHOWN} > adult atropine: repeat every 3-5 min to a total of 3 mg`],
  },
  {
    id: 'emergency.atropine-child-per-kg',
    area: BRADYCARDIA_CARD,
    rule: 'Atropine IV, child, by weight',
    code: emergencyConstant('ATROPINE_CHILD_MG_PER_KG'),
    unit: 'mg/kg',
    source: { section: EMERGENCY, quote: '0.02 mg/kg (min 0.1 mg, max 0.5 mg), may repeat once' },
    tests: [
      `${CARD_WORKED} > child 20 kg: bradycardia atropine → 0.4 mg`,
      `${CAPS} > the doses and caps are docs/clinical-reference.md §7`,
      `${CARD_PROPERTIES} > a child atropine and adrenaline dose is the advisor plan’s ` +
        `(docs/clinical-reference.md §4 and §7 agree)`,
    ],
  },
  {
    id: 'emergency.atropine-child-min',
    area: BRADYCARDIA_CARD,
    rule: 'Atropine, child: never less than',
    code: emergencyConstant('ATROPINE_CHILD_MIN_MG'),
    unit: 'mg',
    source: { section: EMERGENCY, quote: '0.02 mg/kg (min 0.1 mg, max 0.5 mg), may repeat once' },
    tests: [
      `${CARD_WORKED} > child 3 kg: bradycardia atropine → 0.1 mg (minimum)`,
      `${CARD_WORKED} > child 3 kg: the atropine line says what was computed before the minimum`,
    ],
  },
  {
    id: 'emergency.atropine-child-max',
    area: BRADYCARDIA_CARD,
    rule: 'Atropine, child: never more than (shown "capped")',
    code: emergencyConstant('ATROPINE_CHILD_MAX_MG'),
    unit: 'mg',
    source: { section: EMERGENCY, quote: '0.02 mg/kg (min 0.1 mg, max 0.5 mg), may repeat once' },
    tests: [
      `${CARD_WORKED} > child 30 kg: bradycardia atropine → 0.5 mg (capped)`,
      `${CARD_WORKED} > child 30 kg: the atropine line says what was computed before the cap`,
      `${CARD_PROPERTIES} > a child dose is the rule by weight, held within its limits: capped exactly when ` +
        'above the maximum',
    ],
  },
  {
    id: 'emergency.adrenaline-infusion-adult',
    area: BRADYCARDIA_CARD,
    rule: 'If atropine fails, adult: adrenaline infusion',
    code: emergencyConstant('ADRENALINE_INFUSION_ADULT_MICROGRAMS_PER_MIN'),
    unit: 'micrograms/min',
    source: {
      section: EMERGENCY,
      quote: 'adrenaline infusion 2–10 micrograms/min, or dopamine 5–20 micrograms/kg/min',
    },
    tests: [
      `${CARD_SHOWN} > adult second line: adrenaline infusion 2-10 micrograms/min, or dopamine 5-20 micrograms/kg/min`,
    ],
  },
  {
    id: 'emergency.dopamine-infusion-adult',
    area: BRADYCARDIA_CARD,
    rule: 'If atropine fails, adult: or dopamine infusion',
    code: emergencyConstant('DOPAMINE_INFUSION_ADULT_MICROGRAMS_PER_KG_PER_MIN'),
    unit: 'micrograms/kg/min',
    source: {
      section: EMERGENCY,
      quote: 'adrenaline infusion 2–10 micrograms/min, or dopamine 5–20 micrograms/kg/min',
    },
    tests: [
      `${CARD_SHOWN} > adult second line: adrenaline infusion 2-10 micrograms/min, or dopamine 5-20 micrograms/kg/min`,
    ],
  },
  {
    id: 'emergency.adrenaline-bradycardia-child-mg-per-kg',
    area: BRADYCARDIA_CARD,
    rule: 'If atropine fails, child: adrenaline IV by weight',
    code: emergencyConstant('ADRENALINE_BRADYCARDIA_CHILD_MG_PER_KG'),
    unit: 'mg/kg',
    source: { section: EMERGENCY, quote: 'adrenaline 0.01 mg/kg IV (10 micrograms/kg; 0.1 mL/kg of 0.1 mg/mL)' },
    tests: [
      `${CARD_WORKED} > child 20 kg: bradycardia secondLine → 200 micrograms = 2 mL of 0.1 mg/mL`,
      `${CAPS} > the doses and caps are docs/clinical-reference.md §7`,
    ],
  },
  {
    id: 'emergency.atropine-mg-only',
    area: BRADYCARDIA_CARD,
    rule: 'Atropine in mg only (no mL): its strengths vary between hospitals',
    code: text('emergency', 'atropineNoStrength'),
    source: {
      section: EMERGENCY,
      quote: 'Atropine is shown in mg only: its strengths vary between hospitals (0.1, 0.4, 0.5, 0.6, 1 mg/mL)',
    },
    tests: [
      `${CARD} > the lines, in order, each with its source > atropine: in mg only, no mL, ` +
        `and the line says why (its strengths vary between hospitals)`,
    ],
  },
  {
    id: 'emergency.adrenaline-bradycardia-child-max',
    area: BRADYCARDIA_CARD,
    rule: 'If atropine fails, child: adrenaline never more than, a dose (shown "capped")',
    code: emergencyConstant('ADRENALINE_BRADYCARDIA_CHILD_MAX_MG'),
    unit: 'mg',
    source: { section: EMERGENCY, quote: '**max 1 mg a dose** (PALS 2020)' },
    tests: [
      `${CARD_WORKED} > child 120 kg: bradycardia adrenaline capped at 1 mg, 1.2 mg computed, citing PALS 2020`,
      `${CARD_PROPERTIES} > a child's bradycardia adrenaline: 10 micrograms/kg, whole ` +
        `micrograms, never above 1 mg; mg from 1 mg`,
      `${CARD_PROPERTIES} > no child dose on the card is above its cap or the adult ` +
        `dose of the line, in the unit it is shown in`,
    ],
  },
  {
    id: 'emergency.adrenaline-bradycardia-child-micrograms-per-kg',
    area: BRADYCARDIA_CARD,
    rule: 'If atropine fails, child: the same, in micrograms',
    code: emergencyConstant('ADRENALINE_BRADYCARDIA_CHILD_MICROGRAMS_PER_KG'),
    unit: 'micrograms/kg',
    source: { section: EMERGENCY, quote: 'adrenaline 0.01 mg/kg IV (10 micrograms/kg; 0.1 mL/kg of 0.1 mg/mL)' },
    tests: [
      `${CARD_WORKED} > child 20 kg: bradycardia secondLine → 200 micrograms = 2 mL of 0.1 mg/mL`,
      `${CAPS} > the doses and caps are docs/clinical-reference.md §7`,
    ],
  },
  {
    id: 'emergency.adrenaline-bradycardia-child-ml-per-kg',
    area: BRADYCARDIA_CARD,
    rule: 'If atropine fails, child: the same, in mL of 0.1 mg/mL',
    code: emergencyConstant('ADRENALINE_BRADYCARDIA_CHILD_ML_PER_KG'),
    unit: 'mL/kg',
    source: { section: EMERGENCY, quote: 'adrenaline 0.01 mg/kg IV (10 micrograms/kg; 0.1 mL/kg of 0.1 mg/mL)' },
    tests: [
      `${CARD_SHOWN} > child second line: adrenaline 0.1 mL/kg of 0.1 mg/mL, every 3-5 min`,
      `${CAPS} > the doses and caps are docs/clinical-reference.md §7`,
    ],
  },
  {
    id: 'emergency.adrenaline-bradycardia-strength',
    area: BRADYCARDIA_CARD,
    rule: 'If atropine fails, child: the strength the mL are of',
    code: emergencyConstant('ADRENALINE_BRADYCARDIA_STRENGTH_MG_PER_ML'),
    unit: 'mg/mL',
    source: { section: EMERGENCY, quote: '0.1 mL/kg of 0.1 mg/mL' },
    tests: [
      `${CARD_WORKED} > child 20 kg: bradycardia secondLine → 200 micrograms = 2 mL of 0.1 mg/mL`,
      `${CARD_PROPERTIES} > every volume is its dose over the strength, to 2 decimals`,
    ],
  },
  {
    id: 'emergency.adrenaline-bradycardia-repeat',
    area: BRADYCARDIA_CARD,
    rule: 'If atropine fails, child: adrenaline repeated every',
    code: emergencyConstant('ADRENALINE_BRADYCARDIA_REPEAT_MIN'),
    unit: 'min',
    source: { section: EMERGENCY, quote: 'every 3–5 min; start CPR if HR < 60 with poor perfusion' },
    tests: [`${CARD_SHOWN} > child second line: adrenaline 0.1 mL/kg of 0.1 mg/mL, every 3-5 min`],
  },
  {
    id: 'emergency.child-cpr-heart-rate',
    area: BRADYCARDIA_CARD,
    rule: 'Child: start CPR if the heart rate stays below, with poor perfusion',
    code: emergencyConstant('CHILD_CPR_HEART_RATE_BELOW_BPM'),
    unit: 'bpm',
    source: {
      section: EMERGENCY,
      quote: 'start CPR if HR < 60 with poor perfusion despite oxygenation and ventilation',
    },
    tests: [`${CARD_SHOWN} > child: CPR when the heart rate stays below 60 bpm`],
  },

  // ---- Emergency card: anaphylaxis (docs/clinical-reference.md §7) ----
  {
    id: 'emergency.oxygen',
    area: ANAPHYLAXIS_CARD,
    rule: 'First actions: oxygen',
    code: emergencyConstant('OXYGEN_PERCENT'),
    unit: '%',
    source: { section: EMERGENCY, quote: 'stop the suspected drug (no further sugammadex), 100% oxygen, legs up' },
    tests: [`${CARD_SHOWN} > anaphylaxis: 100% oxygen among the first actions`],
  },
  {
    id: 'emergency.adrenaline-iv-adult',
    area: ANAPHYLAXIS_CARD,
    rule: 'Adrenaline IV, adult',
    code: emergencyConstant('ADRENALINE_IV_ANAPHYLAXIS_ADULT_MICROGRAMS'),
    unit: 'micrograms',
    source: { section: EMERGENCY, quote: '50 micrograms (0.5 mL of 100 micrograms/mL) | 1 microgram/kg' },
    tests: [`${CARD_WORKED} > adult 80 kg: anaphylaxis adrenalineIv → 50 micrograms = 0.5 mL of 100 micrograms/mL`],
  },
  {
    id: 'emergency.adrenaline-iv-child-per-kg',
    area: ANAPHYLAXIS_CARD,
    rule: 'Adrenaline IV, child, by weight',
    code: emergencyConstant('ADRENALINE_IV_ANAPHYLAXIS_CHILD_MICROGRAMS_PER_KG'),
    unit: 'microgram/kg',
    source: { section: EMERGENCY, quote: '50 micrograms (0.5 mL of 100 micrograms/mL) | 1 microgram/kg' },
    tests: [
      `${CARD_WORKED} > child 20 kg: anaphylaxis adrenalineIv → 20 micrograms = 0.2 mL of 100 micrograms/mL`,
      `${CARD_WORKED} > child 30 kg: anaphylaxis adrenalineIv → 30 micrograms = 0.3 mL of 100 micrograms/mL`,
    ],
  },
  {
    id: 'emergency.adrenaline-iv-child-max',
    area: ANAPHYLAXIS_CARD,
    rule: 'Adrenaline IV, child: never above the adult dose (shown "capped")',
    code: emergencyConstant('ADRENALINE_IV_ANAPHYLAXIS_CHILD_MAX_MICROGRAMS'),
    unit: 'micrograms',
    source: {
      section: EMERGENCY,
      quote: [
        'Child doses are weight-based and never exceed the adult dose',
        '50 micrograms (0.5 mL of 100 micrograms/mL)',
      ],
    },
    tests: [
      `${CAPS} > adrenaline IV micrograms → { amount: 50, computed: 51, capped: true, raisedToMinimum: false }`,
      `${CARD_PROPERTIES} > a child dose is never above the adult dose (atropine, adrenaline IV and IM, crystalloid)`,
    ],
  },
  {
    id: 'emergency.adrenaline-iv-strength',
    area: ANAPHYLAXIS_CARD,
    rule: 'Adrenaline IV: the strength the mL are of',
    code: emergencyConstant('ADRENALINE_IV_STRENGTH_MICROGRAMS_PER_ML'),
    unit: 'micrograms/mL',
    source: { section: EMERGENCY, quote: '50 micrograms (0.5 mL of 100 micrograms/mL)' },
    tests: [`${CARD_WORKED} > adult 80 kg: anaphylaxis adrenalineIv → 50 micrograms = 0.5 mL of 100 micrograms/mL`],
  },
  {
    id: 'emergency.adrenaline-iv-repeat',
    area: ANAPHYLAXIS_CARD,
    rule: 'Adrenaline IV: titrate, repeat every',
    code: emergencyConstant('ADRENALINE_IV_REPEAT_MIN'),
    unit: 'min',
    source: { section: EMERGENCY, quote: 'titrate, repeat every 1–2 min' },
    tests: [`${CARD_SHOWN} > anaphylaxis: adrenaline IV repeated every 1-2 min`],
  },
  {
    id: 'emergency.adrenaline-im-adult',
    area: ANAPHYLAXIS_CARD,
    rule: 'Adrenaline IM (no IV access), adult',
    code: emergencyConstant('ADRENALINE_IM_ADULT_MG'),
    unit: 'mg',
    source: {
      section: EMERGENCY,
      quote: 'adrenaline IM if no IV access | 0.5 mg (0.5 mL of 1 mg/mL) | 0.01 mg/kg, max 0.5 mg',
    },
    tests: [`${CARD_WORKED} > adult 80 kg: anaphylaxis adrenalineIm → 0.5 mg = 0.5 mL of 1 mg/mL`],
  },
  {
    id: 'emergency.adrenaline-im-child-per-kg',
    area: ANAPHYLAXIS_CARD,
    rule: 'Adrenaline IM, child, by weight',
    code: emergencyConstant('ADRENALINE_IM_CHILD_MG_PER_KG'),
    unit: 'mg/kg',
    source: {
      section: EMERGENCY,
      quote: 'adrenaline IM if no IV access | 0.5 mg (0.5 mL of 1 mg/mL) | 0.01 mg/kg, max 0.5 mg',
    },
    tests: [`${CARD_WORKED} > child 20 kg: anaphylaxis adrenalineIm → 0.2 mg = 0.2 mL of 1 mg/mL`],
  },
  {
    id: 'emergency.adrenaline-im-child-max',
    area: ANAPHYLAXIS_CARD,
    rule: 'Adrenaline IM, child: never more than (shown "capped")',
    code: emergencyConstant('ADRENALINE_IM_CHILD_MAX_MG'),
    unit: 'mg',
    source: {
      section: EMERGENCY,
      quote: 'adrenaline IM if no IV access | 0.5 mg (0.5 mL of 1 mg/mL) | 0.01 mg/kg, max 0.5 mg',
    },
    tests: [`${CAPS} > adrenaline IM mg → { amount: 0.5, computed: 0.6, capped: true, raisedToMinimum: false }`],
  },
  {
    id: 'emergency.adrenaline-im-strength',
    area: ANAPHYLAXIS_CARD,
    rule: 'Adrenaline IM: the strength the mL are of',
    code: emergencyConstant('ADRENALINE_IM_STRENGTH_MG_PER_ML'),
    unit: 'mg/mL',
    source: { section: EMERGENCY, quote: '0.5 mg (0.5 mL of 1 mg/mL)' },
    tests: [`${CARD_WORKED} > child 20 kg: anaphylaxis adrenalineIm → 0.2 mg = 0.2 mL of 1 mg/mL`],
  },
  {
    id: 'emergency.crystalloid-adult-min',
    area: ANAPHYLAXIS_CARD,
    rule: 'Crystalloid bolus, adult: from',
    code: emergencyConstant('CRYSTALLOID_ADULT_MIN_ML'),
    unit: 'mL',
    source: { section: EMERGENCY, quote: 'crystalloid 500–1000 mL bolus, repeat' },
    tests: [`${CARD_WORKED} > adult 80 kg: anaphylaxis fluids → 500-1000 mL`],
  },
  {
    id: 'emergency.crystalloid-adult-max',
    area: ANAPHYLAXIS_CARD,
    rule: 'Crystalloid bolus, adult: up to',
    code: emergencyConstant('CRYSTALLOID_ADULT_MAX_ML'),
    unit: 'mL',
    source: { section: EMERGENCY, quote: 'crystalloid 500–1000 mL bolus, repeat' },
    tests: [`${CARD_WORKED} > adult 80 kg: anaphylaxis fluids → 500-1000 mL`],
  },
  {
    id: 'emergency.crystalloid-child-per-kg',
    area: ANAPHYLAXIS_CARD,
    rule: 'Crystalloid bolus, child, by weight',
    code: emergencyConstant('CRYSTALLOID_CHILD_ML_PER_KG'),
    unit: 'mL/kg',
    source: { section: EMERGENCY, quote: 'crystalloid 10 mL/kg bolus, repeat' },
    tests: [`${CARD_WORKED} > child 20 kg: anaphylaxis fluids → 200 mL`],
  },
  {
    id: 'emergency.crystalloid-child-max',
    area: ANAPHYLAXIS_CARD,
    rule: 'Crystalloid bolus, child: never above the adult bolus (shown "capped")',
    code: emergencyConstant('CRYSTALLOID_CHILD_MAX_ML'),
    unit: 'mL',
    source: {
      section: EMERGENCY,
      quote: ['Child doses are weight-based and never exceed the adult dose', 'crystalloid 500–1000 mL bolus'],
    },
    tests: [
      `${CAPS} > crystalloid mL → { amount: 1000, computed: 1200, capped: true, raisedToMinimum: false }`,
      `${CARD_PROPERTIES} > a child dose is never above the adult dose (atropine, adrenaline IV and IM, crystalloid)`,
    ],
  },
  {
    id: 'emergency.refractory',
    area: ANAPHYLAXIS_CARD,
    rule: 'Refractory: after this many adrenaline boluses, an infusion',
    code: emergencyConstant('REFRACTORY_AFTER_BOLUSES'),
    unit: 'boluses',
    source: { section: EMERGENCY, quote: 'refractory (after 3 boluses) | adrenaline infusion' },
    tests: [`${CARD_SHOWN} > anaphylaxis: refractory after 3 boluses`],
  },
  {
    id: 'emergency.tryptase',
    area: ANAPHYLAXIS_CARD,
    rule: 'Mast-cell tryptase: when',
    code: text('emergency', 'steps', 'adult', 'tryptase', 'detail'),
    source: { section: EMERGENCY, quote: 'mast-cell tryptase | as soon as feasible, at 1–2 h, and after 24 h' },
    tests: [`${CARD_SHOWN} > anaphylaxis: mast-cell tryptase as soon as feasible, at 1-2 h and after 24 h`],
  },
  {
    id: 'emergency.sugammadex-anaphylaxis-incidence-miyazaki',
    area: ANAPHYLAXIS_CARD,
    rule: 'After sugammadex: anaphylaxis in about 1 in (Miyazaki 2018, one centre)',
    code: emergencyConstant('SUGAMMADEX_ANAPHYLAXIS_ONE_IN_MIYAZAKI_2018'),
    unit: 'administrations',
    source: { section: EMERGENCY, quote: 'anaphylaxis after sugammadex about 1 in 2,500 (0.039%, Miyazaki 2018' },
    tests: [`${CARD_SHOWN} > ${ANAPHYLAXIS_INCIDENCE_TEST}`],
  },
  {
    id: 'emergency.sugammadex-anaphylaxis-incidence-orihara',
    area: ANAPHYLAXIS_CARD,
    rule: 'After sugammadex: anaphylaxis in about 1 in (Orihara 2020, four centres)',
    code: emergencyConstant('SUGAMMADEX_ANAPHYLAXIS_ONE_IN_ORIHARA_2020'),
    unit: 'administrations',
    source: { section: EMERGENCY, quote: 'to 1 in 5,000 administrations (0.02%, Orihara 2020' },
    tests: [`${CARD_SHOWN} > ${ANAPHYLAXIS_INCIDENCE_TEST}`],
  },
  {
    id: 'emergency.sugammadex-anaphylaxis-onset',
    area: ANAPHYLAXIS_CARD,
    rule: 'After sugammadex: most within',
    code: emergencyConstant('SUGAMMADEX_ANAPHYLAXIS_WITHIN_MIN'),
    unit: 'min',
    source: { section: EMERGENCY, quote: 'most within 5 minutes of injection' },
    tests: [
      `${CARD_SHOWN} > after sugammadex: anaphylaxis in about 1 in 2,500 to 1 in ` +
        `5,000 administrations, most within 5 minutes`,
    ],
  },
  {
    id: 'emergency.check-local-protocol',
    area: ANAPHYLAXIS_CARD,
    rule: 'The card tells the reader to check it against the local protocol',
    code: text('emergency', 'checkLocalProtocol'),
    source: { section: EMERGENCY, quote: 'the card says "check against local protocol"' },
    tests: [
      `${CARD} > the lines, in order, each with its source > ` +
        'says "check against local protocol", and names every source in full',
    ],
  },

  // ---- Safety calculator (docs/clinical-reference.md §5) ----
  {
    id: 'roi.risk-ratio',
    area: ROI_AREA,
    rule: 'Postoperative pulmonary complications: the fixed risk ratio',
    code: constant('ROI_RISK_RATIO'),
    source: {
      section: EVIDENCE,
      quote: [
        'The spec\'s fixed risk ratio 0.62 "from a 2025 systematic review" is kept as the spec states',
        'OR 0.62 (0.43–0.89)',
      ],
    },
    tests: [
      'clinical/roi.test.ts > ROI formulas (docs/product.md §9) > the defaults',
      'clinical/roi.test.ts > ROI formulas (docs/product.md §9) > the API refuses { riskRatio: 0.5 }',
    ],
  },
];

/**
 * The constants of clinical/constants.ts and clinical/emergency-constants.ts that are not rows, and why; the
 * report lists them. `unsourced`: the product uses them, but docs/ give no source yet (a gap the report shows).
 */
export const NOT_LISTED: readonly ExcludedConstant[] = [
  {
    file: 'clinical/emergency-constants.ts',
    names: ['ATROPINE_STRENGTHS_MG_PER_ML'],
    kind: 'not-clinical',
    reason:
      'Not a dose: the strengths that make the card give atropine in mg only; shown, with its source, by the ' +
      'note of row emergency.atropine-mg-only.',
  },
  {
    file: 'clinical/constants.ts',
    names: ['VIAL_PRICE_HALALAS', 'ROI_RISK_RATIO_PERCENT'],
    kind: 'not-clinical',
    reason: 'The same values as VIAL_PRICE_SAR and ROI_RISK_RATIO, held in hundredths for integer arithmetic.',
  },
  {
    file: 'clinical/constants.ts',
    names: [
      'ROI_DEFAULT_NUMBER_OF_CASES',
      'ROI_DEFAULT_OR_COST_SAR_PER_MIN',
      'ROI_DEFAULT_TIME_NEOSTIGMINE_MIN',
      'ROI_DEFAULT_TIME_PRODUCT_MIN',
      'ROI_DEFAULT_BASELINE_PPC_RATE_PERCENT',
      'ROI_OR_COST_MIN_SAR_PER_MIN',
      'ROI_OR_COST_MAX_SAR_PER_MIN',
      'ROI_OR_COST_STEP_SAR_PER_MIN',
      'ROI_PPC_RATE_MIN_PERCENT',
      'ROI_PPC_RATE_MAX_PERCENT',
      'ROI_PPC_RATE_STEP_PERCENT',
      'ROI_OR_COST_SLIDER_SAR_PER_MIN',
      'ROI_PPC_RATE_SLIDER_PERCENT',
      'ROI_BAR_FULL_SCALE_MIN',
      'ROI_ANIMATION_STEPS',
      'ROI_ANIMATION_STEP_MS',
      'ROI_MAX_NUMBER_OF_CASES',
      'ROI_MAX_TIME_MIN',
    ],
    kind: 'not-clinical',
    reason:
      "The safety calculator's starting values, slider ranges, chart scale, animation and input limits: the " +
      "hospital's own figures, not clinical facts (docs/product.md §3, §5, §9).",
  },
  {
    file: 'clinical/constants.ts',
    names: ['HERO_TOF_START', 'HERO_TOF_END', 'HERO_TOF_STEP', 'HERO_TOF_INTERVAL_MS'],
    kind: 'not-clinical',
    reason:
      "The hero's illustrative TOF animation (docs/product.md §9); the target it shows is TOF_RATIO_TARGET's row.",
  },
  {
    file: 'clinical/constants.ts',
    names: [
      'PATIENT_NAME_MAX_LENGTH',
      'PATIENT_MRN_MAX_LENGTH',
      'PATIENT_NOTES_MAX_LENGTH',
      'PATIENT_EARLIEST_BIRTH_YEAR',
    ],
    kind: 'not-clinical',
    reason: 'Limits of a patient record in the account area (data minimisation).',
  },
  {
    file: 'clinical/constants.ts',
    names: ['TOF_COUNT_MAX'],
    kind: 'not-clinical',
    reason: 'Not used by the code: the TOF count is one of the values of TOF_COUNTS (clinical/dose-schema.ts), 0 to 4.',
  },
  {
    file: 'clinical/emergency-constants.ts',
    names: ['MICROGRAMS_PER_MG'],
    kind: 'not-clinical',
    reason: 'A unit conversion (1 mg = 1000 micrograms).',
  },
  {
    file: 'clinical/constants.ts',
    names: ['ADVISOR_AGE_MAX_YEARS', 'BASELINE_HR_MIN_BPM', 'BASELINE_HR_MAX_BPM'],
    kind: 'unsourced',
    reason:
      "The advisor's input ranges (age up to 120 years, baseline heart rate 20-250 bpm): plausibility limits that " +
      'refuse mistyped values; the spec gives none and docs/ do not state them.',
  },
  {
    file: 'clinical/constants.ts',
    names: [
      'UMOL_PER_L_PER_MG_PER_DL',
      'SERUM_CREATININE_MIN_MG_PER_DL',
      'SERUM_CREATININE_MAX_MG_PER_DL',
      'SERUM_CREATININE_MIN_UMOL_PER_L',
      'SERUM_CREATININE_MAX_UMOL_PER_L',
      'COCKCROFT_GAULT_AGE_MAX_YEARS',
    ],
    kind: 'unsourced',
    reason:
      'The creatinine clearance helper (Cockcroft-Gault; clinical/renal.ts cites Cockcroft DW, Gault MH, Nephron ' +
      '1976): the unit conversion and accepted ranges are not stated in docs/clinical-reference.md yet.',
  },
  {
    file: 'clinical/emergency-constants.ts',
    names: ['MG_DECIMALS', 'MICROGRAM_DECIMALS', 'FLUID_ML_DECIMALS', 'DRUG_VOLUME_ML_DECIMALS'],
    kind: 'unsourced',
    reason:
      "The emergency card's rounding (mg to 2 decimals, micrograms and crystalloid mL whole, drug volumes to 2 " +
      'decimals): a product decision, tested (clinical/emergency.test.ts, "rounding"), not stated in docs/.',
  },
  {
    file: 'clinical/dose-texts.ts',
    names: ['SMALL_VOLUME_BELOW_ML', 'smallVolumeWarning'],
    kind: 'unsourced',
    reason:
      'The small-volume warning (below 1 mL: measure with a 1 mL syringe or dilute to 10 mg/mL): the code cites ' +
      'EU SmPC 4.2; docs/clinical-reference.md does not state it yet.',
  },
  {
    file: 'clinical/texts/en.ts',
    names: ['CLINICAL_TEXTS_EN.reparalysis.mildModerateRenal'],
    kind: 'unsourced',
    reason:
      'The re-paralysis wait in mild or moderate renal impairment (24 h): the code cites US PI 2.5; ' +
      'docs/clinical-reference.md §3 gives the waits for normal renal function only.',
  },
  {
    file: 'clinical/texts/en.ts',
    names: ['CLINICAL_TEXTS_EN.emergency.atropineNoStrength'],
    kind: 'unsourced',
    reason: "The emergency card's note that atropine is given in mg only (no usual strength named): not in docs/ yet.",
  },
];
