// The public surface of clinical/: pure domain code shared by widgets/, host/ and api/.
export * from './constants.ts';
export { assertNever } from './assert-never.ts';
export { roundTo } from './rounding.ts';
export type { FieldIssue, Parsed } from './validation.ts';
export { parseWith } from './validation.ts';
export {
  AGE_GROUPS,
  CREATININE_METHODS,
  DOSE_NMBA_TYPES,
  TOF_COUNTS,
  INVALID_WEIGHT_MESSAGE,
  doseCalculatorInputSchema,
  doseCalculatorInputSchemaFor,
  type AgeGroup,
  type DoseNmbaType,
  type TofCountText,
  type DoseCalculatorInput,
} from './dose-schema.ts';
export {
  calculateDose,
  DOSE_CALCULATOR_TEXTS_EN,
  type DoseTexts,
  MEDIAN_RECOVERY_MIN,
  type DoseOutcome,
  type DoseResult,
  type BlockDepth,
} from './dose-calculator.ts';
export { ADMINISTRATION_TEXT, MONITORING_CHECKLIST, SPECIFY_DEPTH, OUTCOME_TITLES } from './dose-texts.ts';
export { doseQuantities, totalDoseMg, volumeMlForDose, type DoseQuantities } from './vial-math.ts';
export {
  renalFunctionBand,
  cockcroftGault,
  cockcroftGaultInputSchema,
  cockcroftGaultInputSchemaFor,
  COCKCROFT_GAULT_HELPER_TEXTS_EN,
  type CockcroftGaultTexts,
  CREATININE_UNITS,
  type RenalFunctionBand,
  type CockcroftGaultOutcome,
} from './renal.ts';
export {
  calculateRoi,
  computeRoi,
  parseWholeNumber,
  barWidthPercent,
  roiInputSchema,
  roiInputSchemaFor,
  ROI_TEXTS_EN,
  type RoiTexts,
  type RoiInput,
  type RoiResult,
  type RoiOutcome,
} from './roi.ts';
export {
  bradycardiaInputSchema,
  bradycardiaInputSchemaFor,
  CARDIAC_HISTORIES,
  BLOCK_DEPTHS,
  ADVISOR_NMBA_TYPES,
  DOSE_MG_PER_KG_BY_DEPTH,
  MISSING_INFORMATION_MESSAGE,
  type BradycardiaInput,
  type CardiacHistory,
  type AdvisorBlockDepth,
} from './bradycardia-schema.ts';
export {
  BRADYCARDIA_MODEL,
  RISK_BANDS,
  RISK_FACTORS,
  BASE_RISK_PERCENT,
  riskBandFor,
  type RiskBand,
  type RiskColour,
  type AppliedFactor,
  type RiskFactorId,
} from './bradycardia-model.ts';
export {
  assessBradycardia,
  ADVISOR_CLINICAL_TEXTS_EN,
  type AdvisorTexts,
  type BradycardiaAssessment,
  type BradycardiaOutcome,
} from './bradycardia-advisor.ts';
export {
  atropineDoseMg,
  managementPlan,
  pediatricAdrenalineMicrograms,
  type ManagementPlan,
} from './management-plan.ts';
export { reparalysisGuidance } from './reparalysis.ts';
export {
  newPatientSchema,
  patientChangesSchema,
  PATIENT_FIELD_ORDER,
  PATIENT_RECORD_TEXTS_EN,
  type PatientTexts,
  type NewPatient,
  type PatientChanges,
} from './patient-record.ts';
export { strictFields, numberInRange, integerInRange, schemaForTexts, hasVisibleCharacter } from './validation.ts';
export { ltr, withoutIsolates, LEFT_TO_RIGHT_ISOLATE, POP_DIRECTIONAL_ISOLATE } from './bidi.ts';
export {
  CLINICAL_TEXTS_EN,
  CLINICAL_TEXTS_AR,
  type ClinicalTextsOf,
  LANGS,
  clinicalTextsFor,
  isLang,
  type ClinicalTexts,
  type Catalogue,
  type Lang,
} from './texts/index.ts';
export { digitRuns, hasArabicLetters, isolationProblems } from './texts/checks.ts';
export {
  emergencyCard,
  EMERGENCY_CARD_TEXTS_EN,
  type EmergencyTexts,
  type EmergencyAgeGroup,
  type EmergencyDose,
  type EmergencyOutcome,
  type EmergencyStep,
  type EmergencyVolume,
} from './emergency.ts';
export {
  BACKUP_CONTRACEPTION_DAYS,
  CONTRACEPTIVE_METHODS,
  SHEET_LANGUAGES,
  addDays,
  formatSheetDateTime,
  generalSheet,
  isHormonal,
  parseLocalDateTime,
  patientSheet,
  sheetSentences,
  type ContraceptiveMethod,
  type LocalDateTime,
  type PatientSheetInput,
  type PatientSheetOutcome,
  type SheetLanguage,
  type SheetText,
} from './patient-sheet.ts';
