import { useState } from 'react';
import { downloadExport, listExports, type ExportRecord } from '../../shared/account-api.ts';
import { userMessage } from '../../shared/api-client.ts';
import { SelectField } from '../../shared/fields.tsx';
import { token } from '../../shared/theme.ts';
import { useToast } from '../../shared/toasts.tsx';
import { Button } from '../../shared/ui.tsx';
import { useLatest } from '../../shared/use-latest.ts';
import { usePatients } from '../../shared/use-patients.ts';
import { useMessages } from '../../shared/widget-context.ts';
import { formatRecordedAt } from '../../shared/format.ts';

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
      <SelectField
        name="exports-patient"
        label={t.filterPatient}
        value={patientId}
        onChange={setPatientId}
        options={[
          { value: '', label: t.allPatients },
          ...patients.map((patient) => ({ value: patient.id, label: patient.displayName })),
        ]}
      />
      {exports && exports.length === 0 && <p css={{ margin: 0 }}>{t.noExports}</p>}
      {exports && exports.length > 0 && (
        <ul aria-label={t.tabs.exports} css={{ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: '8px' }}>
          {exports.map((record) => (
            <li
              key={record.id}
              data-export-id={record.id}
              css={{
                display: 'flex',
                flexWrap: 'wrap',
                alignItems: 'center',
                gap: '8px',
                padding: '10px',
                border: `1px solid ${token('--sgx-color-border')}`,
                borderRadius: '8px',
              }}
            >
              <span css={{ flex: '1 1 200px', minInlineSize: 0, overflowWrap: 'anywhere' }}>
                <strong>{record.fileName}</strong>
                <span css={{ display: 'block', fontSize: '0.85em', color: token('--sgx-color-muted') }}>
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
