import { LazySendToEhrButton as SendToEhrButton } from '../../shared/ehr/lazy.tsx';
import { useState } from 'react';
import {
  downloadHistoryFhir,
  listHistory,
  type HistoryEntry,
  type ToolType,
} from '../../shared/session/account-api.ts';
import { fhirFileName } from '../../../contracts/fhir.ts';
import { userMessage } from '../../shared/api/api-error.ts';
import { SelectField } from '../../shared/ui/fields.tsx';
import { useExportToNotes } from '../../shared/notes/use-export-notes.ts';
import { token } from '../../shared/ui/theme.ts';
import { useToast } from '../../shared/ui/toasts.tsx';
import { BulletList, Button } from '../../shared/ui/ui.tsx';
import { useLatest } from '../../shared/api/use-latest.ts';
import { usePatients } from '../../shared/session/use-patients.ts';
import { account as accountEn } from '../../shared/lang/messages/account.ts';
import { TOOL_INPUTS } from '../../shared/notes/inputs/index.ts';
import { useMessages, useWidgetLang } from '../../shared/widget-host/widget-context.ts';
import { bidiText } from '../../shared/ui/bidi-text.tsx';
import { describeEntry } from '../../shared/notes/notes-content.ts';
import { formatRecordedAt } from '../../shared/lang/format.ts';
import { fitColumns } from '../../shared/ui/styles.ts';
import { namePatient, PatientFilter, listCss, rowCss, rowDetailCss } from './list-parts.tsx';
import { PatientSheetButton } from '../../shared/patient-sheet/PatientSheetButton.tsx';

/** An entry in which sugammadex was dosed: a dose calculator's dose, or an advisor's assessment (with its dose). */
const givesDose = (entry: HistoryEntry) =>
  (entry.toolType === 'dose_calculator' && entry.result.kind === 'dose') ||
  (entry.toolType === 'bradycardia_advisor' && entry.result.kind === 'assessment');

const PAGE_SIZE = 20;

/** History: every calculation run while signed in, newest first, by patient and tool; open one as computed then. */
export function HistoryPanel({ apiBase, hospitalName }: { apiBase: string; hospitalName?: string }) {
  const { account: t, records } = useMessages();
  const lang = useWidgetLang();
  const toast = useToast();
  const patients = usePatients(apiBase);
  const [patientId, setPatientId] = useState('');
  const [toolType, setToolType] = useState<'' | ToolType>('');
  const [items, setItems] = useState<HistoryEntry[] | null>(null);
  /** The page asked for: the newest without a cursor, then each by the last answer's nextCursor (keyset). */
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [opened, setOpened] = useState<HistoryEntry | null>(null);
  const [fhirBusy, setFhirBusy] = useState(false);
  const exportNotesPdf = useExportToNotes(apiBase);

  useLatest(
    () =>
      listHistory(apiBase, {
        patientId: patientId || undefined,
        toolType: toolType || undefined,
        cursor,
        pageSize: PAGE_SIZE,
      }),
    [apiBase, patientId, toolType, cursor],
    {
      onResult: (body) => {
        setItems((previous) => (cursor === undefined || !previous ? body.items : [...previous, ...body.items]));
        setNextCursor(body.nextCursor ?? null);
      },
      onError: (error) =>
        toast({
          title: (host) => host.messages.account.loadFailed,
          description: userMessage(error),
          variant: 'destructive',
        }),
    },
  );

  /** A changed filter starts again from the first page. */
  const refilter =
    <V,>(set: (value: V) => void) =>
    (value: V) => {
      set(value);
      setCursor(undefined);
    };
  const patientName = (id: string | null) => namePatient(patients, id, t);
  const when = (at: string) => bidiText(formatRecordedAt(at, lang));

  if (opened) {
    const described = describeEntry(opened, TOOL_INPUTS[opened.toolType]);
    const patient = patients?.find((candidate) => candidate.id === opened.patientId) ?? null;
    const exportIt = () =>
      void exportNotesPdf({
        entry: opened,
        inputs: TOOL_INPUTS[opened.toolType],
        title: accountEn.tools[opened.toolType],
        patient,
        what: opened.toolType.replace('_', '-'),
        patientId: opened.patientId,
        calculationId: opened.id,
      });
    // An ROI calculation holds no patient data: it has no FHIR form (docs/fhir.md).
    const hasFhir = opened.toolType !== 'roi_calculator';
    const downloadFhir = async () => {
      setFhirBusy(true);
      try {
        await downloadHistoryFhir(apiBase, opened);
        toast({
          title: t.fhirDownloadedTitle,
          description: t.fhirDownloaded(fhirFileName(opened)),
          variant: 'success',
        });
      } catch (error) {
        toast({ title: t.fhirFailed, description: userMessage(error), variant: 'destructive' });
      } finally {
        setFhirBusy(false);
      }
    };
    return (
      <article aria-label={t.tools[opened.toolType]} css={{ display: 'grid', gap: '10px' }}>
        <div>
          <Button variant="ghost" onClick={() => setOpened(null)}>
            {t.back}
          </Button>
        </div>
        <h3 css={{ margin: 0 }}>{t.tools[opened.toolType]}</h3>
        <p css={{ margin: 0, color: token('--sgx-color-muted') }}>
          {when(opened.createdAt)} · {patientName(opened.patientId)}
        </p>
        <h4 css={{ margin: 0 }}>{t.entryInputs}</h4>
        {/* Stored in English (docs/API.md), as the notes write it: marked so, in any language of the element. */}
        <dl
          lang="en"
          dir="ltr"
          css={{
            margin: 0,
            display: 'grid',
            gridTemplateColumns: 'max-content 1fr',
            gap: '2px 12px',
            fontSize: '0.9em',
          }}
        >
          {described.inputs.map(([label, value]) => (
            <div key={label} css={{ display: 'contents' }}>
              <dt css={{ color: token('--sgx-color-muted') }}>{label}</dt>
              <dd css={{ margin: 0 }}>{value}</dd>
            </div>
          ))}
        </dl>
        <h4 css={{ margin: 0 }}>{t.entryResult}</h4>
        <div lang="en" dir="ltr">
          <BulletList items={[...described.result, ...described.warnings]} />
        </div>
        <div css={{ display: 'flex', flexWrap: 'wrap', gap: '10px' }}>
          <Button onClick={exportIt}>{records.exportNotes}</Button>
          {hasFhir && (
            <Button variant="secondary" busy={fhirBusy} disabled={fhirBusy} onClick={() => void downloadFhir()}>
              {t.downloadFhir}
            </Button>
          )}
          {givesDose(opened) && (
            <PatientSheetButton apiBase={apiBase} hospitalName={hospitalName} patientName={patient?.displayName} />
          )}
          {hasFhir && patient && (
            <SendToEhrButton
              key={opened.id}
              apiBase={apiBase}
              request={{
                entry: opened,
                inputs: TOOL_INPUTS[opened.toolType],
                title: accountEn.tools[opened.toolType],
                patient,
                what: opened.toolType.replace('_', '-'),
                patientId: patient.id,
                calculationId: opened.id,
              }}
            />
          )}
        </div>
      </article>
    );
  }

  return (
    <div css={{ display: 'grid', gap: '12px' }}>
      <div css={{ display: 'grid', gap: '10px', gridTemplateColumns: fitColumns(180) }}>
        <PatientFilter name="history-patient" patients={patients} value={patientId} onChange={refilter(setPatientId)} />
        <SelectField
          name="history-tool"
          label={t.filterTool}
          value={toolType}
          onChange={refilter(setToolType)}
          options={[
            { value: '' as const, label: t.allTools },
            ...(Object.keys(t.tools) as ToolType[]).map((value) => ({ value, label: t.tools[value] })),
          ]}
        />
      </div>
      {items && items.length === 0 && <p css={{ margin: 0 }}>{t.noHistory}</p>}
      {/* Listed once the patients are in, so no entry shows a placeholder for its patient's name. */}
      {items && patients && items.length > 0 && (
        <ol aria-label={t.tabs.history} css={listCss}>
          {items.map((entry) => (
            <li key={entry.id} data-history-id={entry.id} css={rowCss}>
              <span css={{ flex: '1 1 200px', minInlineSize: 0 }}>
                <strong>{t.tools[entry.toolType]}</strong> · {patientName(entry.patientId)}
                <span css={rowDetailCss}>
                  {when(entry.createdAt)} ·{' '}
                  <bdi lang="en" dir="ltr">
                    {describeEntry(entry, TOOL_INPUTS[entry.toolType]).result[0]}
                  </bdi>
                </span>
              </span>
              <Button variant="secondary" onClick={() => setOpened(entry)}>
                {t.open}
              </Button>
            </li>
          ))}
        </ol>
      )}
      {items && nextCursor && (
        <div>
          <Button variant="ghost" onClick={() => setCursor(nextCursor)}>
            {t.loadMore}
          </Button>
        </div>
      )}
    </div>
  );
}
