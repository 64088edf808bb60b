import { smartSendResultSchema, type SmartSendResult } from '../../../contracts/smart.ts';
import { apiRequest } from '../api/api-client.ts';
import { notesFor } from '../notes/notes-content.ts';
import { exportNotes, notesFileName } from '../notes/notes-pdf.ts';
import { sessionToken } from '../session/session-state.ts';
import type { NotesRequest } from '../notes/use-export-notes.ts';

/**
 * "Send to EHR" (docs/API.md#smart-app-launch): the calculation's notes PDF is made and stored with the
 * clinician's exports (as "Export PDF to notes" does, without the download), then the server writes it to the
 * EHR as a DocumentReference (and the dose as a draft MedicationRequest when the hospital allows it) and
 * answers the ids the EHR gave. Loaded on the click, with jsPDF.
 */
export async function sendToEhr(
  apiBase: string,
  request: NotesRequest & { calculationId: string },
  clinicianName: string | null,
): Promise<SmartSendResult> {
  const at = new Date();
  await exportNotes(
    apiBase,
    notesFor(request.entry, request.inputs, request.title, request.patient, clinicianName, at),
    {
      fileName: notesFileName(at, request.what),
      patientId: request.patientId,
      calculationId: request.calculationId,
      download: false,
    },
  );
  return apiRequest(apiBase, '/api/smart/send', smartSendResultSchema, {
    method: 'POST',
    body: { calculationId: request.calculationId },
    token: sessionToken(),
  });
}
