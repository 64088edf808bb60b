import * as v from 'valibot';
import { AGE_GROUPS } from '../clinical/dose-schema.ts';

/** The account records as the API sends them (docs/API.md): patients, history, stored exports. */
export const TOOL_TYPES = ['dose_calculator', 'bradycardia_advisor', 'roi_calculator'] as const;
export type ToolType = (typeof TOOL_TYPES)[number];

const nullableText = v.nullable(v.string());
const nullableNumber = v.nullable(v.number());

export const patientSchema = v.object({
  id: v.string(),
  displayName: v.string(),
  mrn: nullableText,
  yearOfBirth: nullableNumber,
  ageGroup: v.nullable(v.picklist(AGE_GROUPS)),
  weightKg: nullableNumber,
  notes: nullableText,
  createdAt: v.string(),
  updatedAt: v.string(),
});
export type Patient = v.InferOutput<typeof patientSchema>;
export const patientListSchema = v.object({ patients: v.array(patientSchema) });

const fields = v.record(v.string(), v.unknown());
export const historyEntrySchema = v.object({
  id: v.string(),
  patientId: nullableText,
  toolType: v.picklist(TOOL_TYPES),
  inputs: fields,
  result: fields,
  createdAt: v.string(),
});
export type HistoryEntry = v.InferOutput<typeof historyEntrySchema>;
export const historyPageSchema = v.object({
  items: v.array(historyEntrySchema),
  /** Answered for a page asked by number (or the first); not for one asked by cursor. */
  page: v.optional(v.number()),
  pageSize: v.number(),
  total: v.number(),
  /** The `cursor` of the next page, null after the last entry. */
  nextCursor: v.optional(v.nullable(v.string())),
});

export const exportRecordSchema = v.object({
  id: v.string(),
  patientId: nullableText,
  calculationId: nullableText,
  fileName: v.string(),
  sizeBytes: v.number(),
  createdAt: v.string(),
});
export type ExportRecord = v.InferOutput<typeof exportRecordSchema>;
export const exportListSchema = v.object({ exports: v.array(exportRecordSchema) });
