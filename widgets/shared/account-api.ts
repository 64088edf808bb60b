import type { SelectedPatient } from './session-store.ts';
import { apiRequest, apiUrl, ApiError } from './api-client.ts';
import { sessionStore } from './session-store.ts';

/** The account area's calls (docs/API.md): patients, history, stored exports. */
export interface Patient extends SelectedPatient {
  notes: string | null;
  createdAt: string;
  updatedAt: string;
}
export type PatientFields = Partial<Omit<Patient, 'id' | 'createdAt' | 'updatedAt'>>;
export type ToolType = 'dose_calculator' | 'bradycardia_advisor' | 'roi_calculator';

export interface HistoryEntry {
  id: string;
  patientId: string | null;
  toolType: ToolType;
  inputs: Record<string, unknown>;
  result: Record<string, unknown>;
  createdAt: string;
}
export interface ExportRecord {
  id: string;
  patientId: string | null;
  calculationId: string | null;
  fileName: string;
  sizeBytes: number;
  createdAt: string;
}

export const listPatients = (apiBase: string, q = '') =>
  apiRequest<{ patients: Patient[] }>(apiBase, `/api/patients${q ? `?q=${encodeURIComponent(q)}` : ''}`).then((body) => body.patients);
export const createPatient = (apiBase: string, fields: PatientFields) => apiRequest<Patient>(apiBase, '/api/patients', { method: 'POST', body: fields });
export const updatePatient = (apiBase: string, id: string, fields: PatientFields) =>
  apiRequest<Patient>(apiBase, `/api/patients/${encodeURIComponent(id)}`, { method: 'PATCH', body: fields });
export const deletePatient = (apiBase: string, id: string) => apiRequest<null>(apiBase, `/api/patients/${encodeURIComponent(id)}`, { method: 'DELETE' });

export function listHistory(apiBase: string, filter: { patientId?: string; toolType?: ToolType; page?: number; pageSize?: number }) {
  const query = new URLSearchParams();
  if (filter.patientId) query.set('patientId', filter.patientId);
  if (filter.toolType) query.set('toolType', filter.toolType);
  if (filter.page) query.set('page', String(filter.page));
  if (filter.pageSize) query.set('pageSize', String(filter.pageSize));
  const text = query.toString();
  return apiRequest<{ items: HistoryEntry[]; page: number; pageSize: number; total: number }>(apiBase, `/api/history${text ? `?${text}` : ''}`);
}

/** Records a calculation for a signed-in clinician: the server recomputes it and keeps it in history. */
export function recordCalculation(apiBase: string, toolType: ToolType, inputs: unknown, patientId?: string | null) {
  return apiRequest<{ historyId: string }>(apiBase, '/api/tools/run', { method: 'POST', body: { toolType, inputs, ...(patientId ? { patientId } : {}) } });
}

export const listExports = (apiBase: string, patientId?: string) =>
  apiRequest<{ exports: ExportRecord[] }>(apiBase, `/api/exports${patientId ? `?patientId=${encodeURIComponent(patientId)}` : ''}`).then((body) => body.exports);

/** Stores a PDF with the caller's exports (raw application/pdf body). */
export async function uploadExport(apiBase: string, pdf: Blob, meta: { fileName: string; patientId?: string | null; calculationId?: string | null }): Promise<ExportRecord> {
  const query = new URLSearchParams({ fileName: meta.fileName });
  if (meta.patientId) query.set('patientId', meta.patientId);
  if (meta.calculationId) query.set('calculationId', meta.calculationId);
  const token = sessionStore().getState().token;
  const response = await fetch(apiUrl(apiBase, `/api/exports?${query}`), {
    method: 'POST',
    headers: { 'Content-Type': 'application/pdf', ...(token ? { Authorization: `bearer ${token}` } : {}) },
    credentials: 'include',
    body: pdf,
  });
  const text = await response.text();
  if (!response.ok) {
    let human = response.statusText;
    try {
      human = (JSON.parse(text) as { message?: string }).message ?? human;
    } catch {
      // not JSON
    }
    throw new ApiError(response.status, `${response.status}: ${text || response.statusText}`, human);
  }
  return JSON.parse(text) as ExportRecord;
}

/** Downloads a stored export with the session's token (a plain link cannot send it). */
export async function downloadExport(apiBase: string, record: Pick<ExportRecord, 'id' | 'fileName'>): Promise<void> {
  const token = sessionStore().getState().token;
  const response = await fetch(apiUrl(apiBase, `/api/exports/${encodeURIComponent(record.id)}`), {
    headers: token ? { Authorization: `bearer ${token}` } : {},
    credentials: 'include',
  });
  if (!response.ok) throw new ApiError(response.status, `${response.status}: ${response.statusText}`, response.statusText);
  saveBlob(await response.blob(), record.fileName);
}

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
