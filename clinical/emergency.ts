import * as v from 'valibot';
import { BODY_WEIGHT_MAX_KG, BODY_WEIGHT_MIN_KG } from './constants.ts';
import {
  ADRENALINE_BRADYCARDIA_CHILD_MAX_MG,
  ADRENALINE_BRADYCARDIA_CHILD_MICROGRAMS_PER_KG,
  ADRENALINE_BRADYCARDIA_STRENGTH_MG_PER_ML,
  ADRENALINE_IM_ADULT_MG,
  ADRENALINE_IM_CHILD_MAX_MG,
  ADRENALINE_IM_CHILD_MG_PER_KG,
  ADRENALINE_IM_STRENGTH_MG_PER_ML,
  ADRENALINE_IV_ANAPHYLAXIS_ADULT_MICROGRAMS,
  ADRENALINE_IV_ANAPHYLAXIS_CHILD_MAX_MICROGRAMS,
  ADRENALINE_IV_ANAPHYLAXIS_CHILD_MICROGRAMS_PER_KG,
  ADRENALINE_IV_STRENGTH_MICROGRAMS_PER_ML,
  ATROPINE_ADULT_MG,
  ATROPINE_CHILD_MAX_MG,
  ATROPINE_CHILD_MG_PER_KG,
  ATROPINE_CHILD_MIN_MG,
  CRYSTALLOID_ADULT_MAX_ML,
  CRYSTALLOID_ADULT_MIN_ML,
  CRYSTALLOID_CHILD_MAX_ML,
  CRYSTALLOID_CHILD_ML_PER_KG,
  DRUG_VOLUME_ML_DECIMALS,
  FLUID_ML_DECIMALS,
  MG_DECIMALS,
  MICROGRAM_DECIMALS,
  MICROGRAMS_PER_MG,
} from './emergency-constants.ts';
import { roundTo } from './rounding.ts';
import { EMERGENCY_TEXTS_EN } from './texts/emergency-en.ts';
import type { ClinicalTexts, ClinicalTextsOf } from './texts/en.ts';
import { FIELDS_TEXTS_EN } from './texts/sections-en.ts';
import { numberInRange, parseWith, schemaForTexts, strictFields, type FieldIssue } from './validation.ts';

/** Adult, or child under 18 (docs/clinical-reference.md §7). */
export const EMERGENCY_AGE_GROUPS = ['adult', 'child'] as const;
export type EmergencyAgeGroup = (typeof EMERGENCY_AGE_GROUPS)[number];

type EmergencySectionId = 'bradycardia' | 'anaphylaxis';

/** Where each line comes from; the card names it on the line (texts: `emergency.sources`). */
type EmergencySourceId = 'aha2020' | 'pals2020' | 'nap6Rcuk2021' | 'miyazaki2018Orihara2020' | 'sfda';

export type EmergencyStepId =
  keyof ClinicalTexts['emergency']['steps']['adult'] | keyof ClinicalTexts['emergency']['steps']['child'];

type EmergencyDoseUnit = 'mg' | 'micrograms' | 'mL';
type EmergencyStrengthUnit = 'mg/mL' | 'micrograms/mL';

/** A dose as the card shows it, rounded (docs/clinical-reference.md §7; rounding: emergency-constants.ts). */
export interface EmergencyDose {
  amount: number;
  /** The upper end of a range (the adult crystalloid bolus, 500-1000 mL). */
  upTo?: number;
  unit: EmergencyDoseUnit;
  /** A child's dose by weight before its maximum or minimum (one more decimal); absent for a fixed dose. */
  computed?: number;
}

/** The dose as a volume of the usual strength docs/clinical-reference.md §7 names for the line. */
export interface EmergencyVolume {
  ml: number;
  upTo?: number;
  strength: { amount: number; unit: EmergencyStrengthUnit };
}

export interface EmergencyStep {
  id: EmergencyStepId;
  section: EmergencySectionId;
  /** What to do, and how (for a child: the rule by weight). */
  action: string;
  detail: string;
  /** Null on a line without a dose, and on a child's dosed line until the weight is known. */
  dose: EmergencyDose | null;
  /** Null without a dose, or when no usual strength is named (atropine: `volumeNote` says so). */
  volume: EmergencyVolume | null;
  volumeNote: string | null;
  /** The child's maximum (or the adult dose, never exceeded) applied. */
  capped: boolean;
  /** The child's minimum applied (atropine 0.1 mg). */
  raisedToMinimum: boolean;
  source: EmergencySourceId;
  sourceLabel: string;
}

interface EmergencySection {
  id: EmergencySectionId;
  title: string;
  steps: EmergencyStep[];
  /** A line of context under the section's title, with its source (anaphylaxis after sugammadex). */
  note: { text: string; source: EmergencySourceId; sourceLabel: string } | null;
}

interface EmergencyCommon {
  ageGroup: EmergencyAgeGroup;
  /** The weight used, or null (an adult's doses are not by weight). */
  weightKg: number | null;
  sections: EmergencySection[];
  checkLocalProtocol: string;
  /** Every source the card cites, in the order the lines first cite them, with its full reference. */
  sources: { id: EmergencySourceId; short: string; full: string }[];
}

/**
 * The card: `card` with every dose; `needs_weight` for a child whose weight is not known yet (the lines, the
 * rules by weight and the sources, no dose); `invalid_input` when the input cannot be used.
 */
export type EmergencyOutcome =
  | { kind: 'invalid_input'; issues: FieldIssue[] }
  | (EmergencyCommon & { kind: 'needs_weight'; ageGroup: 'child'; weightKg: null; message: string })
  | (EmergencyCommon & { kind: 'card' });

/** The sections of the clinical texts the emergency card writes with. */
export type EmergencyTexts = ClinicalTextsOf<'emergency' | 'fields'>;

/** Those sections in English. */
export const EMERGENCY_CARD_TEXTS_EN: EmergencyTexts = { emergency: EMERGENCY_TEXTS_EN, fields: FIELDS_TEXTS_EN };

function emergencySchema(texts: EmergencyTexts) {
  const m = texts.emergency.input;
  return strictFields(
    {
      ageGroup: v.picklist(EMERGENCY_AGE_GROUPS, m.ageGroup),
      /** kg, 1-200; null or absent when not known (an adult needs none; a child gets `needs_weight`). */
      weightKg: v.nullish(numberInRange(BODY_WEIGHT_MIN_KG, BODY_WEIGHT_MAX_KG, m.weightRange)),
    },
    { ageGroup: m.ageGroup },
    texts,
  );
}

/** The card's input ({ ageGroup: 'adult' | 'child', weightKg?: number }), with the messages of one language. */
const emergencyInputSchemaFor = schemaForTexts(emergencySchema, EMERGENCY_CARD_TEXTS_EN);

/** A dose by weight held between a minimum and a maximum, rounded after both (the limits are round numbers). */
interface ByWeight {
  amount: number;
  computed: number;
  capped: boolean;
  raisedToMinimum: boolean;
}
function byWeight(perKg: number, weightKg: number, decimals: number, limits: { min?: number; max?: number }): ByWeight {
  const exact = perKg * weightKg;
  const capped = limits.max !== undefined && exact > limits.max;
  const raisedToMinimum = limits.min !== undefined && exact < limits.min;
  const held = capped ? limits.max! : raisedToMinimum ? limits.min! : exact;
  // The computed figure keeps one more decimal, so that 0.098 mg raised to 0.1 mg does not read "0.1 computed".
  return { amount: roundTo(held, decimals), computed: roundTo(exact, decimals + 1), capped, raisedToMinimum };
}

/** Atropine IV for bradycardia: adult 1 mg; child 0.02 mg/kg, min 0.1 mg, max 0.5 mg (mg, 2 decimals). */
export function atropineEmergencyMg(ageGroup: EmergencyAgeGroup, weightKg: number): ByWeight {
  if (ageGroup === 'adult') return fixed(ATROPINE_ADULT_MG);
  return byWeight(ATROPINE_CHILD_MG_PER_KG, weightKg, MG_DECIMALS, {
    min: ATROPINE_CHILD_MIN_MG,
    max: ATROPINE_CHILD_MAX_MG,
  });
}

/**
 * A child's adrenaline IV for bradycardia: 10 micrograms/kg (0.01 mg/kg), whole micrograms, at most 1 mg
 * (1000 micrograms) a dose (PALS 2020).
 */
export function bradycardiaAdrenalineChildMicrograms(weightKg: number): ByWeight {
  return byWeight(ADRENALINE_BRADYCARDIA_CHILD_MICROGRAMS_PER_KG, weightKg, MICROGRAM_DECIMALS, {
    max: ADRENALINE_BRADYCARDIA_CHILD_MAX_MG * MICROGRAMS_PER_MG,
  });
}

/**
 * A dose in micrograms as the card shows it: whole micrograms below 1 mg, mg from 1 mg (the bradycardia cap), so
 * that no dose reads "1000 micrograms" (emergency-constants.ts, rounding). The computed figure follows the unit.
 */
function inMgFromOneMg(value: ByWeight): { value: ByWeight; unit: 'mg' | 'micrograms' } {
  if (value.amount < MICROGRAMS_PER_MG) return { value, unit: 'micrograms' };
  return {
    value: {
      ...value,
      amount: value.amount / MICROGRAMS_PER_MG,
      // micrograms to one decimal are mg to four
      computed: roundTo(value.computed / MICROGRAMS_PER_MG, MICROGRAM_DECIMALS + 4),
    },
    unit: 'mg',
  };
}

/** Adrenaline IV for anaphylaxis: adult 50 micrograms; child 1 microgram/kg, never above the adult 50. */
export function anaphylaxisAdrenalineIvMicrograms(ageGroup: EmergencyAgeGroup, weightKg: number): ByWeight {
  if (ageGroup === 'adult') return fixed(ADRENALINE_IV_ANAPHYLAXIS_ADULT_MICROGRAMS);
  return byWeight(ADRENALINE_IV_ANAPHYLAXIS_CHILD_MICROGRAMS_PER_KG, weightKg, MICROGRAM_DECIMALS, {
    max: ADRENALINE_IV_ANAPHYLAXIS_CHILD_MAX_MICROGRAMS,
  });
}

/** Adrenaline IM for anaphylaxis: adult 0.5 mg; child 0.01 mg/kg, max 0.5 mg (mg, 2 decimals). */
export function anaphylaxisAdrenalineImMg(ageGroup: EmergencyAgeGroup, weightKg: number): ByWeight {
  if (ageGroup === 'adult') return fixed(ADRENALINE_IM_ADULT_MG);
  return byWeight(ADRENALINE_IM_CHILD_MG_PER_KG, weightKg, MG_DECIMALS, { max: ADRENALINE_IM_CHILD_MAX_MG });
}

/** A child's crystalloid bolus: 10 mL/kg, whole mL, never above the adult bolus's 1000 mL. */
export function crystalloidChildMl(weightKg: number): ByWeight {
  return byWeight(CRYSTALLOID_CHILD_ML_PER_KG, weightKg, FLUID_ML_DECIMALS, { max: CRYSTALLOID_CHILD_MAX_ML });
}

const fixed = (amount: number): ByWeight => ({ amount, computed: amount, capped: false, raisedToMinimum: false });

/** mL of a strength, from the dose as shown (2 decimals). */
const volumeMl = (amount: number, perMl: number) => roundTo(amount / perMl, DRUG_VOLUME_ML_DECIMALS);

/**
 * The emergency card (docs/clinical-reference.md §7): bradycardia with poor perfusion and anaphylaxis, adult or
 * child, each line in order with its dose (mg or micrograms, and mL of the usual strength where one is named),
 * whether a cap applied, and its source. Untrusted input in, one outcome out; `texts` is the language of every
 * text in it, the numbers never depend on it.
 */
export function emergencyCard(rawInput: unknown, texts: EmergencyTexts = EMERGENCY_CARD_TEXTS_EN): EmergencyOutcome {
  const parsed = parseWith(emergencyInputSchemaFor(texts), rawInput, ['ageGroup', 'weightKg']);
  if (!parsed.ok) return { kind: 'invalid_input', issues: parsed.issues };
  const { ageGroup } = parsed.value;
  const weightKg = parsed.value.weightKg ?? null;
  const t = texts.emergency;
  // An adult's doses are fixed; a child's wait for the weight.
  const dosed = ageGroup === 'adult' || weightKg !== null;
  const sections = buildSections(ageGroup, dosed, weightKg ?? 0, texts);
  const common = {
    sections,
    checkLocalProtocol: t.checkLocalProtocol,
    sources: citedSources(sections, texts),
  };
  if (ageGroup === 'child' && weightKg === null) {
    return { kind: 'needs_weight', ageGroup, weightKg: null, message: t.needsWeight, ...common };
  }
  return { kind: 'card', ageGroup, weightKg, ...common };
}

interface StepDraft {
  id: EmergencyStepId;
  source: EmergencySourceId;
  dose?: EmergencyDose;
  volume?: EmergencyVolume;
  limits?: Pick<ByWeight, 'capped' | 'raisedToMinimum'>;
  volumeNote?: string;
}

/**
 * `dosed` false: a child without a weight (lines and rules, no doses). An adult's doses need no weight, and
 * `weightKg` is then only passed through (0 when not given).
 */
function buildSections(
  ageGroup: EmergencyAgeGroup,
  dosed: boolean,
  weightKg: number,
  texts: EmergencyTexts,
): EmergencySection[] {
  const t = texts.emergency;
  const adult = ageGroup === 'adult';
  const bradycardiaSource: EmergencySourceId = adult ? 'aha2020' : 'pals2020';

  const atropine = atropineEmergencyMg(ageGroup, weightKg);
  const bradycardia: StepDraft[] = [
    {
      id: 'atropine',
      source: bradycardiaSource,
      ...(dosed && { dose: dose(atropine, 'mg', adult), limits: atropine }),
      volumeNote: t.atropineNoStrength,
    },
  ];
  if (adult) {
    bradycardia.push({ id: 'secondLine', source: 'aha2020' }, { id: 'pulseless', source: 'aha2020' });
  } else {
    const micrograms = bradycardiaAdrenalineChildMicrograms(weightKg);
    const adrenaline = inMgFromOneMg(micrograms);
    const strengthMicrogramsPerMl = ADRENALINE_BRADYCARDIA_STRENGTH_MG_PER_ML * MICROGRAMS_PER_MG;
    bradycardia.push(
      {
        id: 'secondLine',
        source: 'pals2020',
        ...(dosed && {
          dose: dose(adrenaline.value, adrenaline.unit, false),
          limits: micrograms,
          volume: {
            ml: volumeMl(micrograms.amount, strengthMicrogramsPerMl),
            strength: { amount: ADRENALINE_BRADYCARDIA_STRENGTH_MG_PER_ML, unit: 'mg/mL' },
          },
        }),
      },
      { id: 'childCpr', source: 'pals2020' },
      { id: 'pulseless', source: 'pals2020' },
    );
  }

  const iv = anaphylaxisAdrenalineIvMicrograms(ageGroup, weightKg);
  const im = anaphylaxisAdrenalineImMg(ageGroup, weightKg);
  const fluids = crystalloidChildMl(weightKg);
  const anaphylaxis: StepDraft[] = [
    { id: 'firstActions', source: 'nap6Rcuk2021' },
    {
      id: 'adrenalineIv',
      source: 'nap6Rcuk2021',
      ...(dosed && {
        dose: dose(iv, 'micrograms', adult),
        limits: iv,
        volume: {
          ml: volumeMl(iv.amount, ADRENALINE_IV_STRENGTH_MICROGRAMS_PER_ML),
          strength: { amount: ADRENALINE_IV_STRENGTH_MICROGRAMS_PER_ML, unit: 'micrograms/mL' },
        },
      }),
    },
    {
      id: 'adrenalineIm',
      source: 'nap6Rcuk2021',
      ...(dosed && {
        dose: dose(im, 'mg', adult),
        limits: im,
        volume: {
          ml: volumeMl(im.amount, ADRENALINE_IM_STRENGTH_MG_PER_ML),
          strength: { amount: ADRENALINE_IM_STRENGTH_MG_PER_ML, unit: 'mg/mL' },
        },
      }),
    },
    {
      id: 'fluids',
      source: 'nap6Rcuk2021',
      ...(adult
        ? { dose: { amount: CRYSTALLOID_ADULT_MIN_ML, upTo: CRYSTALLOID_ADULT_MAX_ML, unit: 'mL' } }
        : dosed && { dose: dose(fluids, 'mL', false), limits: fluids }),
    },
    { id: 'refractory', source: 'nap6Rcuk2021' },
    { id: 'tryptase', source: 'nap6Rcuk2021' },
    { id: 'report', source: 'sfda' },
    { id: 'allergyReferral', source: 'nap6Rcuk2021' },
  ];

  const words = (adult ? t.steps.adult : t.steps.child) as Record<string, { action: string; detail: string }>;
  const finish =
    (section: EmergencySectionId) =>
    (draft: StepDraft): EmergencyStep => ({
      id: draft.id,
      section,
      action: words[draft.id]!.action,
      detail: words[draft.id]!.detail,
      dose: draft.dose ?? null,
      volume: draft.volume ?? null,
      volumeNote: draft.volumeNote ?? null,
      capped: draft.limits?.capped ?? false,
      raisedToMinimum: draft.limits?.raisedToMinimum ?? false,
      source: draft.source,
      sourceLabel: t.sources[draft.source].short,
    });
  return [
    {
      id: 'bradycardia',
      title: t.sections.bradycardia,
      steps: bradycardia.map(finish('bradycardia')),
      note: null,
    },
    {
      id: 'anaphylaxis',
      title: t.sections.anaphylaxis,
      steps: anaphylaxis.map(finish('anaphylaxis')),
      note: {
        text: t.sugammadexContext,
        source: 'miyazaki2018Orihara2020',
        sourceLabel: t.sources.miyazaki2018Orihara2020.short,
      },
    },
  ];
}

/** A dose for the card: a fixed adult dose carries no `computed`; a child's by weight does. */
function dose(value: ByWeight, unit: EmergencyDoseUnit, isFixed: boolean): EmergencyDose {
  return isFixed ? { amount: value.amount, unit } : { amount: value.amount, unit, computed: value.computed };
}

function citedSources(sections: readonly EmergencySection[], texts: EmergencyTexts): EmergencyCommon['sources'] {
  const ids: EmergencySourceId[] = [];
  for (const section of sections) {
    if (section.note && !ids.includes(section.note.source)) ids.push(section.note.source);
    for (const step of section.steps) if (!ids.includes(step.source)) ids.push(step.source);
  }
  return ids.map((id) => ({ id, ...texts.emergency.sources[id] }));
}
