import { lazy, Suspense, useState } from 'react';
import { loadOnce } from '../loading/load-once.ts';
import { useToast } from '../ui/toasts.tsx';
import { Button } from '../ui/ui.tsx';
import { useMessages } from '../widget-host/widget-context.ts';

/** The dialog's code (and, on its Download, jsPDF and the sheet's layout): fetched on the first click. */
export const loadPatientSheetDialog = loadOnce(() => import('./PatientSheetDialog.tsx'));
const PatientSheetDialog = lazy(loadPatientSheetDialog);

/**
 * "Patient sheet" on a dose result and on a history entry (issue 37): opens the dialog that makes the
 * contraception counselling sheet for the patient (docs/clinical-reference.md#8-patient-counselling-contraception).
 * Works in Quick Use and offline: the sheet is made on the device.
 */
export function PatientSheetButton({
  apiBase,
  hospitalName,
  patientName,
}: {
  apiBase: string;
  /** The element's `hospital-name` attribute; otherwise the dialog asks GET /api/config (docs/API.md). */
  hospitalName?: string;
  /** The chosen patient's display name or initials: the dialog offers its initials (unticked). */
  patientName?: string | null;
}) {
  const t = useMessages().patientSheet;
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const openDialog = () =>
    loadPatientSheetDialog().then(
      () => setOpen(true),
      () => toast({ title: t.failed, description: t.loadFailed, variant: 'destructive' }),
    );
  return (
    <>
      <Button variant="secondary" aria-haspopup="dialog" onClick={() => void openDialog()}>
        {t.button}
      </Button>
      {open && (
        <Suspense fallback={null}>
          <PatientSheetDialog
            apiBase={apiBase}
            hospitalName={hospitalName}
            patientName={patientName ?? null}
            onClose={() => setOpen(false)}
          />
        </Suspense>
      )}
    </>
  );
}
