import {
  exportListSchema,
  exportRecordSchema,
  historyPageSchema,
  patientListSchema,
  patientSchema,
  type ExportRecord,
  type HistoryEntry,
  type Patient,
  type ToolType,
} from '../../../contracts/records.ts';
import { fhirFileName, fhirTransactionBundleSchema, type FhirTransactionBundle } from '../../../contracts/fhir.ts';
import { userSchema, type ProfileChanges, type User } from '../../../contracts/auth.ts';
import { activityPageSchema, type ActivityPage } from '../../../contracts/audit.ts';
import { advisorRunSchema, recordedRunSchema } from '../../../contracts/tools.ts';
import { apiDownload, apiDownloadWithProgress, apiRequest, apiSend } from '../api/api-client.ts';
import { newIdempotencyKey } from '../api/idempotency-key.ts';
import type { WidgetLang } from '../lang/lang.ts';
import { sessionToken } from './session-state.ts';

/** The calls made with the page's session (docs/API.md): tools, patients, history, stored exports. */
export type { ExportRecord, HistoryEntry, Patient, ToolType } from '../../../contracts/records.ts';
export type { FhirTransactionBundle } from '../../../contracts/fhir.ts';
export type PatientFields = Partial<Omit<Patient, 'id' | 'createdAt' | 'updatedAt'>>;

const withQuery = (path: string, query: Record<string, string | number | null | undefined>) => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
};
const patientPath = (id: string) => `/api/patients/${encodeURIComponent(id)}`;
const exportPath = (id: string) => `/api/exports/${encodeURIComponent(id)}`;

export const listPatients = (apiBase: string, q = '') =>
  apiRequest(apiBase, withQuery('/api/patients', { q }), patientListSchema, { token: sessionToken() }).then(
    (body) => body.patients,
  );
export const createPatient = (apiBase: string, fields: PatientFields, idempotencyKey?: string) =>
  apiRequest(apiBase, '/api/patients', patientSchema, {
    method: 'POST',
    body: fields,
    token: sessionToken(),
    idempotencyKey,
  });
export const updatePatient = (apiBase: string, id: string, fields: PatientFields) =>
  apiRequest(apiBase, patientPath(id), patientSchema, { method: 'PATCH', body: fields, token: sessionToken() });
export const deletePatient = (apiBase: string, id: string) =>
  apiSend(apiBase, patientPath(id), { method: 'DELETE', token: sessionToken() });

/**
 * A new password (204): the server ends every other session of the account at once; this one goes on.
 * A wrong current password is a 400 on `currentPassword` and counts as a failed sign-in.
 */
export const changePassword = (apiBase: string, body: { currentPassword: string; newPassword: string }) =>
  apiSend(apiBase, '/api/auth/password', { method: 'POST', body, token: sessionToken() });

/** Corrects the profile's name and licence number (docs/API.md#my-data); answers the user as now stored. */
export const updateProfile = (apiBase: string, changes: ProfileChanges): Promise<User> =>
  apiRequest(apiBase, '/api/account', userSchema, { method: 'PATCH', body: changes, token: sessionToken() });

/** A page of the clinician's own audit lines, newest first ("Activity"); `before` is the last page's `next`. */
export const listActivity = (
  apiBase: string,
  query: { action?: string; before?: string | null; limit?: number },
): Promise<ActivityPage> =>
  apiRequest(apiBase, withQuery('/api/account/activity', query), activityPageSchema, { token: sessionToken() });

/**
 * "Download all my data": the ZIP the server makes as it sends it, read as it comes (`onProgress` hears the
 * bytes received), then saved as `sgx-my-data-<date>.zip`.
 */
export async function downloadAccountData(
  apiBase: string,
  onProgress: (received: number, total: number | null) => void,
  today: string,
): Promise<number> {
  const zip = await apiDownloadWithProgress(apiBase, '/api/account/export', { token: sessionToken() }, onProgress);
  saveBlob(zip, `sgx-my-data-${today}.zip`);
  return zip.size;
}

/**
 * "Delete my account" (204; the server ends every session of the account): `password` for a password account;
 * null for one the hospital sign-in made (a recent sign-in confirms it).
 */
export const deleteAccount = (apiBase: string, password: string | null) =>
  apiSend(apiBase, '/api/account', {
    method: 'DELETE',
    body: password === null ? {} : { password },
    token: sessionToken(),
  });

/** A page of history, newest first: the first without `cursor`, then each by the last answer's `nextCursor`. */
export const listHistory = (
  apiBase: string,
  filter: { patientId?: string; toolType?: ToolType; cursor?: string; pageSize?: number },
) => apiRequest(apiBase, withQuery('/api/history', filter), historyPageSchema, { token: sessionToken() });

const runTool = (toolType: ToolType, inputs: unknown, patientId?: string | null, idempotencyKey?: string) => ({
  method: 'POST' as const,
  body: { toolType, inputs, ...(patientId ? { patientId } : {}) },
  token: sessionToken(),
  idempotencyKey,
});

/**
 * Records a calculation for a signed-in clinician: the server recomputes it and keeps it in history. A
 * calculation made on the device while the API could not be reached (offline-runs.ts) is sent later as the
 * tool would have sent it then, in its `lang`, with the Idempotency-Key of the action that made it.
 */
export const recordCalculation = (
  apiBase: string,
  toolType: ToolType,
  inputs: unknown,
  patientId?: string | null,
  lang?: WidgetLang,
  // The dose and ROI calculators send each calculation once: its own key, made here.
  idempotencyKey: string = newIdempotencyKey(),
) =>
  apiRequest(
    apiBase,
    withQuery('/api/tools/run', { lang }),
    recordedRunSchema,
    runTool(toolType, inputs, patientId, idempotencyKey),
  );

/**
 * The advisor is computed by the server (signed in or not); signed in, it is also recorded. Its texts
 * (factors, plan) come back in `lang`, the element's language, named explicitly: the browser's
 * Accept-Language is the reader's, not the page's (docs/API.md).
 */
export const runAdvisor = (
  apiBase: string,
  inputs: unknown,
  patientId?: string,
  lang: 'en' | 'ar' = 'en',
  idempotencyKey?: string,
) =>
  apiRequest(
    apiBase,
    withQuery('/api/tools/run', { lang }),
    advisorRunSchema,
    runTool('bradycardia_advisor', inputs, patientId, idempotencyKey),
  );

export const listExports = (apiBase: string, patientId?: string) =>
  apiRequest(apiBase, withQuery('/api/exports', { patientId }), exportListSchema, { token: sessionToken() }).then(
    (body) => body.exports,
  );

/** Stores a PDF with the caller's exports (raw application/pdf body). */
export const uploadExport = (
  apiBase: string,
  pdf: Blob,
  meta: { fileName: string; patientId?: string | null; calculationId?: string | null },
  idempotencyKey?: string,
): Promise<ExportRecord> =>
  apiRequest(apiBase, withQuery('/api/exports', meta), exportRecordSchema, {
    method: 'POST',
    body: new Blob([pdf], { type: 'application/pdf' }),
    token: sessionToken(),
    idempotencyKey,
  });

/** Downloads a stored export with the session's token (a plain link cannot send it). */
export async function downloadExport(apiBase: string, record: Pick<ExportRecord, 'id' | 'fileName'>): Promise<void> {
  saveBlob(await apiDownload(apiBase, exportPath(record.id), { token: sessionToken() }), record.fileName);
}

/**
 * Downloads a history entry as a FHIR R4 transaction Bundle (`GET /api/history/:id/fhir`) and saves it as a
 * `.fhir.json` file; answers the Bundle. An ROI entry has none (422), another clinician's is a 404.
 */
export async function downloadHistoryFhir(
  apiBase: string,
  entry: Pick<HistoryEntry, 'id' | 'toolType' | 'createdAt'>,
): Promise<FhirTransactionBundle> {
  const path = `/api/history/${encodeURIComponent(entry.id)}/fhir`;
  const bundle = await apiRequest(apiBase, path, fhirTransactionBundleSchema, { token: sessionToken() });
  saveBlob(new Blob([`${JSON.stringify(bundle, null, 2)}\n`], { type: 'application/fhir+json' }), fhirFileName(entry));
  return bundle;
}

/** Deletes a stored export, its file and its metadata (204); another clinician's or a missing one is a 404. */
export const deleteExport = (apiBase: string, id: string) =>
  apiSend(apiBase, exportPath(id), { method: 'DELETE', token: sessionToken() });

/** Saves a file through a temporary link (works inside shadow roots and on any host page). */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
