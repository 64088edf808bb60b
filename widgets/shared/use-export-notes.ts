import { useCallback } from 'react';
import { ApiError } from './api-client.ts';
import { exportNotes, type NotesContent } from './notes-pdf.ts';
import { useToast } from './toasts.tsx';
import { useMessages } from './widget-context.ts';

/** "Export PDF to notes" with its toasts, as the dose calculator, the advisor and the history use it. */
export function useExportToNotes(apiBase: string) {
  const toast = useToast();
  const t = useMessages().account;
  return useCallback(
    async (content: NotesContent, meta: { fileName: string; patientId?: string | null; calculationId?: string | null }) => {
      try {
        const exported = await exportNotes(apiBase, content, meta);
        toast({ title: t.exportedTitle, description: exported.stored ? t.exportedStored : t.exportedQuickUse, variant: 'success' });
      } catch (error) {
        toast({ title: t.exportFailed, description: error instanceof ApiError ? error.humanMessage : String(error), variant: 'destructive' });
      }
    },
    [apiBase, toast, t],
  );
}
