import type { Catalogue } from '../../../../clinical/texts/catalogue.ts';
import { account } from './account.ts';
import { advisor } from './advisor.ts';
import { common } from './common.ts';
import { doseCalculator } from './dose-calculator.ts';
import { emergency } from './emergency.ts';
import { patientSheet } from './patient-sheet.ts';
import { patientSheetDialog } from './patient-sheet-dialog.ts';
import { portal } from './portal.ts';
import { records } from './records.ts';
import { roi } from './roi.ts';

/**
 * The message catalogue of the widgets (English). Every string a widget shows comes from here
 * or from clinical/ (the clinical texts shared with the API and the reports). A translation is
 * another object of the same type. Each element's bundle carries only the sections it shows (its catalogue.ts,
 * ../lang-packs.ts); a part loaded later may bring its own (the patient sheet's dialog).
 */
export const messagesEn = {
  common,
  doseCalculator,
  advisor,
  roi,
  portal,
  account,
  records,
  emergency,
  patientSheet,
  patientSheetDialog,
} as const;

/**
 * The PDFs (the ROI report, notes) stay English in every language for now (issue 14): jsPDF's
 * built-in fonts have no Arabic glyphs, and notes go into English-language records.
 */
export const pdfMessages = messagesEn;

/**
 * Every language is a `Messages`: the English catalogue's shape with any text (clinical/'s `Catalogue`, the
 * type its texts use too), so a missing or extra key, or a message taking other arguments, fails the type check.
 */
export type Messages = Catalogue<typeof messagesEn>;
