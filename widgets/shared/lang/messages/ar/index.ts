import type { Messages } from '../index.ts';
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
 * The Arabic catalogue of the widgets: the English catalogue's keys and argument lists (a missing or
 * extra key fails the type check), in medical Modern Standard Arabic. Terms: docs/arabic-glossary.md.
 */
export const messagesAr: Messages = {
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
};
