import { useState } from 'react';
import { downloadExport, listExports, type ExportRecord } from '../../shared/account-api.ts';
import { userMessage } from '../../shared/api-client.ts';
import { useToast } from '../../shared/toasts.tsx';
import { Button } from '../../shared/ui.tsx';
import { useLatest } from '../../shared/use-latest.ts';
import { usePatients } from '../../shared/use-patients.ts';
import { useMessages } from '../../shared/widget-context.ts';
import { formatRecordedAt } from '../../shared/format.ts';
import { PatientFilter, listCss, rowCss, rowDetailCss } from './list-parts.tsx';

/** The PDFs exported to notes and stored, by patient; each downloads again (owner only). */
export function ExportsPanel({ apiBase }: { apiBase: string }) {
  const t = useMessages().account;
  const toast = useToast();
  const patients = usePatients(apiBase);
  const [patientId, setPatientId] = useState('');
  const [exports, setExports] = useState<ExportRecord[] | null>(null);
  const failed = (error: unknown) =>
    toast({ title: t.loadFailed, description: userMessage(error), variant: 'destructive' });
  useLatest(() => listExports(apiBase, patientId || undefined), [apiBase, patientId], {
    onResult: setExports,
    onError: failed,
  });
  const patientName = (id: string | null) => patients.find((patient) => patient.id === id)?.displayName ?? t.unlinked;
  return (
    <div css={{ display: 'grid', gap: '12px' }}>
      <PatientFilter name="exports-patient" patients={patients} value={patientId} onChange={setPatientId} />
      {exports && exports.length === 0 && <p css={{ margin: 0 }}>{t.noExports}</p>}
      {exports && exports.length > 0 && (
        <ul aria-label={t.tabs.exports} css={listCss}>
          {exports.map((record) => (
            <li key={record.id} data-export-id={record.id} css={rowCss}>
              <span css={{ flex: '1 1 200px', minInlineSize: 0, overflowWrap: 'anywhere' }}>
                <strong>{record.fileName}</strong>
                <span css={rowDetailCss}>
                  {formatRecordedAt(record.createdAt)} · {patientName(record.patientId)}
                </span>
              </span>
              <Button variant="secondary" onClick={() => void downloadExport(apiBase, record).catch(failed)}>
                {t.download}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
