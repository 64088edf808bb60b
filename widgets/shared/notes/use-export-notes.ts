import { useCallback } from 'react';
import type { HistoryEntry } from '../session/account-api.ts';
import { userMessage } from '../api/api-error.ts';
import type { SelectedPatient } from '../session/session-state.ts';
import { useToast } from '../ui/toasts.tsx';
import { useSession } from '../session/use-session.ts';
import { useMessages } from '../widget-host/widget-context.ts';
import { loadOnce } from '../loading/load-once.ts';
// the notes' text is small, and "Copy as note" writes it with the dose calculator's first result anyway
import { notesFor, type ToolInputs } from './notes-content.ts';

/** The notes PDF's code, downloaded on the first "Export PDF to notes" (jsPDF with it, ./notes-pdf.ts). */
const loadNotesPdf = loadOnce(() => import('./notes-pdf.ts'), import.meta.url);

export interface NotesRequest {
  entry: Pick<HistoryEntry, 'toolType' | 'inputs' | 'result'>;
  /** How the notes word the entry's inputs: its tool's (./note-inputs/). */
  inputs: ToolInputs;
  title: string;
  patient: Pick<SelectedPatient, 'displayName' | 'mrn' | 'yearOfBirth'> | null;
  /** File-name stem, e.g. "dose". */
  what: string;
  patientId?: string | null;
  calculationId?: string | null;
}

/**
 * "Export PDF to notes" with its toasts, as the dose calculator, the advisor and the history use it.
 * The PDF code (and jsPDF) loads on the click, not with the element.
 */
export function useExportToNotes(apiBase: string) {
  const toast = useToast();
  // The signed-in clinician signs the notes; Quick Use has none.
  const clinicianName = useSession((state) => state.user?.name ?? null, apiBase);
  const t = useMessages().records;
  return useCallback(
    async (request: NotesRequest) => {
      try {
        const { exportNotes, notesFileName } = await loadNotesPdf();
        const at = new Date();
        const exported = await exportNotes(
          apiBase,
          notesFor(request.entry, request.inputs, request.title, request.patient, clinicianName, at),
          {
            fileName: notesFileName(at, request.what),
            patientId: request.patientId,
            calculationId: request.calculationId,
          },
        );
        toast({
          title: (host) => host.messages.records.exportedTitle,
          description: (host) =>
            exported.stored ? host.messages.records.exportedStored : host.messages.records.exportedQuickUse,
          variant: 'success',
        });
      } catch (error) {
        toast({
          title: (host) => host.messages.records.exportFailed,
          description: userMessage(error),
          variant: 'destructive',
        });
      }
    },
    [apiBase, clinicianName, toast, t],
  );
}
