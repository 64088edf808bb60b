import { ADULT_MIN_AGE_YEARS, BODY_WEIGHT_MAX_KG, BODY_WEIGHT_MIN_KG } from '../constants.ts';
import { groupThousands } from '../digits.ts';
import * as E from '../emergency-constants.ts';

/** Anaphylaxis lines worded alike for adults and children (docs/clinical-reference.md §7). */
const EMERGENCY_ANAPHYLAXIS_SHARED = {
  firstActions: {
    action: 'Call for help',
    detail: `Stop the suspected drug (no further sugammadex); ${E.OXYGEN_PERCENT}% oxygen; raise the legs`,
  },
  // Timed from the onset of the reaction, not from the first sample.
  tryptase: {
    action: 'Mast-cell tryptase',
    detail: 'As soon as feasible, then 1-2 h from the onset of the reaction, then at least 24 h after it',
  },
  report: { action: 'Report', detail: 'To the national pharmacovigilance centre (SFDA)' },
  allergyReferral: { action: 'Refer', detail: 'For allergy testing' },
} as const;

/**
 * The emergency card (docs/clinical-reference.md §7): each line's wording, the child's rule where the dose is
 * by weight, and the sources. The doses themselves are numbers in the card's result (clinical/emergency.ts).
 */
export const EMERGENCY_TEXTS_EN = {
  checkLocalProtocol: 'Check against local protocol',
  sections: {
    bradycardia: 'Bradycardia with poor perfusion',
    anaphylaxis: 'Anaphylaxis',
  },
  steps: {
    adult: {
      atropine: {
        action: 'Atropine IV',
        detail: `Repeat every ${E.ATROPINE_REPEAT_MIN} min to a total of ${E.ATROPINE_ADULT_MAX_TOTAL_MG} mg`,
      },
      secondLine: {
        action: 'If atropine fails',
        detail:
          // the card's first mention of adrenaline: its other name once (docs/clinical-reference.md §7)
          `Adrenaline (epinephrine) infusion ${E.ADRENALINE_INFUSION_ADULT_MICROGRAMS_PER_MIN} micrograms/min, ` +
          `or dopamine ${E.DOPAMINE_INFUSION_ADULT_MICROGRAMS_PER_KG_PER_MIN} micrograms/kg/min; ` +
          'transcutaneous pacing',
      },
      pulseless: { action: 'Pulseless', detail: 'Start CPR and follow ACLS' },
      firstActions: EMERGENCY_ANAPHYLAXIS_SHARED.firstActions,
      adrenalineIv: {
        action: 'Adrenaline IV',
        detail: `Monitored, by an experienced clinician; titrate, repeat every ${E.ADRENALINE_IV_REPEAT_MIN} min`,
      },
      adrenalineIm: { action: 'Adrenaline IM', detail: 'If there is no IV access' },
      fluids: { action: 'Crystalloid bolus', detail: 'Repeat as needed' },
      refractory: {
        action: `Refractory (after ${E.REFRACTORY_AFTER_BOLUSES} adrenaline boluses)`,
        detail: 'Adrenaline infusion; consider glucagon if on beta-blockers',
      },
      tryptase: EMERGENCY_ANAPHYLAXIS_SHARED.tryptase,
      report: EMERGENCY_ANAPHYLAXIS_SHARED.report,
      allergyReferral: EMERGENCY_ANAPHYLAXIS_SHARED.allergyReferral,
    },
    child: {
      atropine: {
        action: 'Atropine IV',
        detail:
          `${E.ATROPINE_CHILD_MG_PER_KG} mg/kg (min ${E.ATROPINE_CHILD_MIN_MG} mg, max ${E.ATROPINE_CHILD_MAX_MG} ` +
          `mg); may repeat once`,
      },
      secondLine: {
        // the card's first mention of adrenaline: its other name once (docs/clinical-reference.md §7)
        action: 'If atropine fails: adrenaline (epinephrine) IV',
        detail:
          `${E.ADRENALINE_BRADYCARDIA_CHILD_MG_PER_KG} mg/kg (${E.ADRENALINE_BRADYCARDIA_CHILD_MICROGRAMS_PER_KG} ` +
          `micrograms/kg; ${E.ADRENALINE_BRADYCARDIA_CHILD_ML_PER_KG} mL/kg of ` +
          `${E.ADRENALINE_BRADYCARDIA_STRENGTH_MG_PER_ML} mg/mL), ` +
          `max ${E.ADRENALINE_BRADYCARDIA_CHILD_MAX_MG} mg a dose (PALS 2020), ` +
          `every ${E.ADRENALINE_BRADYCARDIA_REPEAT_MIN} min`,
      },
      childCpr: {
        action: 'Start CPR',
        detail:
          `If the heart rate stays below ${E.CHILD_CPR_HEART_RATE_BELOW_BPM} bpm with poor perfusion despite ` +
          `oxygenation and ventilation`,
      },
      pulseless: { action: 'Pulseless', detail: 'Start CPR and follow PALS' },
      firstActions: EMERGENCY_ANAPHYLAXIS_SHARED.firstActions,
      adrenalineIv: {
        action: 'Adrenaline IV',
        detail:
          `${E.ADRENALINE_IV_ANAPHYLAXIS_CHILD_MICROGRAMS_PER_KG} microgram/kg, not above the adult ` +
          `${E.ADRENALINE_IV_ANAPHYLAXIS_CHILD_MAX_MICROGRAMS} micrograms; monitored, by an experienced ` +
          `clinician; titrate, repeat every ${E.ADRENALINE_IV_REPEAT_MIN} min`,
      },
      adrenalineIm: {
        action: 'Adrenaline IM',
        detail:
          `${E.ADRENALINE_IM_CHILD_MG_PER_KG} mg/kg, max ${E.ADRENALINE_IM_CHILD_MAX_MG} mg; if there is no IV ` +
          `access`,
      },
      fluids: {
        action: 'Crystalloid bolus',
        detail:
          `${E.CRYSTALLOID_CHILD_ML_PER_KG} mL/kg, not above the adult ${E.CRYSTALLOID_CHILD_MAX_ML} mL; repeat as ` +
          `needed`,
      },
      refractory: {
        action: `Refractory (after ${E.REFRACTORY_AFTER_BOLUSES} adrenaline boluses)`,
        detail: 'Adrenaline infusion',
      },
      tryptase: EMERGENCY_ANAPHYLAXIS_SHARED.tryptase,
      report: EMERGENCY_ANAPHYLAXIS_SHARED.report,
      allergyReferral: EMERGENCY_ANAPHYLAXIS_SHARED.allergyReferral,
    },
  },
  /** Atropine in mg only, and why (docs/clinical-reference.md §7): its strengths vary between hospitals. */
  atropineNoStrength:
    `Atropine is shown in mg only: its strengths vary between hospitals ` +
    `(${E.ATROPINE_STRENGTHS_MG_PER_ML.join(', ')} mg/mL), so no volume is given. Check the ampoule.`,
  sugammadexContext:
    `After sugammadex, anaphylaxis occurs in about 1 in ` +
    `${groupThousands(E.SUGAMMADEX_ANAPHYLAXIS_ONE_IN_MIYAZAKI_2018)} (Miyazaki 2018) to 1 in ` +
    `${groupThousands(E.SUGAMMADEX_ANAPHYLAXIS_ONE_IN_ORIHARA_2020)} (Orihara 2020) administrations, most ` +
    `within ${E.SUGAMMADEX_ANAPHYLAXIS_WITHIN_MIN} minutes of injection.`,
  needsWeight: "Enter the child's weight in kg to see the doses.",
  sources: {
    aha2020: { short: 'AHA 2020', full: 'American Heart Association 2020: adult bradycardia algorithm' },
    pals2020: {
      short: 'PALS 2020',
      full: 'American Heart Association 2020: Pediatric Advanced Life Support (PALS), bradycardia',
    },
    nap6Rcuk2021: {
      short: 'NAP6 2018; RCUK 2021',
      full:
        'Harper NJN et al. Br J Anaesth 2018;121:172-188 (NAP6 management); Resuscitation Council UK, ' +
        'Emergency treatment of anaphylaxis, 2021',
    },
    miyazaki2018Orihara2020: {
      short: 'Miyazaki 2018; Orihara 2020',
      full:
        'Miyazaki Y et al. Anesth Analg 2018 (doi:10.1213/ANE.0000000000002562), one Japanese centre; ' +
        'Orihara M et al. BJA 2020;124:154 (doi:10.1016/j.bja.2019.10.016), four Japanese centres',
    },
    sfda: { short: 'SFDA', full: 'Saudi Food and Drug Authority (SFDA): the national pharmacovigilance centre' },
  },
  input: {
    ageGroup: `Choose adult or child (under ${ADULT_MIN_AGE_YEARS})`,
    weightRange: `Weight must be between ${BODY_WEIGHT_MIN_KG} and ${BODY_WEIGHT_MAX_KG} kg`,
  },
} as const;
