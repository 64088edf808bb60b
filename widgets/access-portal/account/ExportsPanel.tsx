import { useLayoutEffect, useRef, useState } from 'react';
import { deleteExport, downloadExport, listExports, type ExportRecord } from '../../shared/session/account-api.ts';
import { userMessage } from '../../shared/api/api-error.ts';
import { useToast } from '../../shared/ui/toasts.tsx';
import { Button } from '../../shared/ui/ui.tsx';
import { useLatest } from '../../shared/api/use-latest.ts';
import { usePatients } from '../../shared/session/use-patients.ts';
import { useMessages, useWidgetLang } from '../../shared/widget-host/widget-context.ts';
import { bidiText } from '../../shared/ui/bidi-text.tsx';
import { formatRecordedAt } from '../../shared/lang/format.ts';
import { namePatient, PatientFilter, listCss, rowCss, rowDetailCss } from './list-parts.tsx';

/** A row's Delete button (marked, so the focus can be given to it). */
const deleteButtonOf = (list: HTMLElement | null, exportId: string) =>
  [...(list?.querySelectorAll<HTMLElement>('[data-export-id]') ?? [])]
    .find((row) => row.dataset.exportId === exportId)
    ?.querySelector<HTMLButtonElement>('[data-delete-export]') ?? null;

/** The PDFs exported to notes and stored, by patient; each downloads again or is deleted (owner only). */
export function ExportsPanel({ apiBase }: { apiBase: string }) {
  const t = useMessages().account;
  const lang = useWidgetLang();
  const toast = useToast();
  const patients = usePatients(apiBase);
  const [patientId, setPatientId] = useState('');
  const [exports, setExports] = useState<ExportRecord[] | null>(null);
  const [deleting, setDeleting] = useState<ReadonlySet<string>>(new Set());
  const list = useRef<HTMLUListElement>(null);
  const emptyLine = useRef<HTMLParagraphElement>(null);
  /** Set when a deleted row's button had the focus: where that row was in the list. */
  const refocusAt = useRef<number | null>(null);
  const latestExports = useRef(exports);
  latestExports.current = exports;
  const failed = (error: unknown) =>
    toast({
      title: (host) => host.messages.account.loadFailed,
      description: userMessage(error),
      variant: 'destructive',
    });
  useLatest(() => listExports(apiBase, patientId || undefined), [apiBase, patientId], {
    onResult: setExports,
    onError: failed,
  });

  // A deleted row takes its focused button with it: the focus goes to the Delete button of the row that
  // took its place (or of the new last row), or to the "No exports yet." line when none is left.
  useLayoutEffect(() => {
    const index = refocusAt.current;
    if (index === null || index < 0 || !exports) return;
    refocusAt.current = null;
    const neighbour = exports[Math.min(index, exports.length - 1)];
    (neighbour ? deleteButtonOf(list.current, neighbour.id) : emptyLine.current)?.focus();
  }, [exports]);

  const markDeleting = (id: string, busy: boolean) =>
    setDeleting((current) => {
      const next = new Set(current);
      if (busy) next.add(id);
      else next.delete(id);
      return next;
    });

  const remove = async (record: ExportRecord) => {
    if (deleting.has(record.id) || !window.confirm(t.confirmDeleteExport(record.fileName))) return;
    markDeleting(record.id, true);
    try {
      await deleteExport(apiBase, record.id);
    } catch (error) {
      toast({
        title: (host) => host.messages.account.deleteFailed,
        description: userMessage(error),
        variant: 'destructive',
      });
      return;
    } finally {
      markDeleting(record.id, false);
    }
    const button = deleteButtonOf(list.current, record.id);
    const root = button?.getRootNode() as Document | ShadowRoot | undefined;
    if (button && root?.activeElement === button)
      refocusAt.current = latestExports.current?.findIndex((entry) => entry.id === record.id) ?? null;
    setExports((current) => current && current.filter((entry) => entry.id !== record.id));
    toast({ title: (host) => host.messages.account.exportDeleted, description: record.fileName, variant: 'success' });
  };

  const patientName = (id: string | null) => namePatient(patients, id, t);
  return (
    <div css={{ display: 'grid', gap: '12px' }}>
      <PatientFilter name="exports-patient" patients={patients} value={patientId} onChange={setPatientId} />
      {exports && exports.length === 0 && (
        <p ref={emptyLine} tabIndex={-1} css={{ margin: 0 }}>
          {t.noExports}
        </p>
      )}
      {exports && patients && exports.length > 0 && (
        <ul ref={list} aria-label={t.tabs.exports} css={listCss}>
          {exports.map((record) => {
            const busy = deleting.has(record.id);
            return (
              <li key={record.id} data-export-id={record.id} css={rowCss}>
                <span css={{ flex: '1 1 200px', minInlineSize: 0, overflowWrap: 'anywhere' }}>
                  <strong>{record.fileName}</strong>
                  <span css={rowDetailCss}>
                    {bidiText(formatRecordedAt(record.createdAt, lang))} · {patientName(record.patientId)}
                  </span>
                </span>
                <Button variant="secondary" onClick={() => void downloadExport(apiBase, record).catch(failed)}>
                  {t.download}
                </Button>
                {/* aria-disabled, not disabled, while busy: a disabled button would drop the keyboard focus. */}
                <Button
                  variant="ghost"
                  data-delete-export=""
                  aria-label={t.deleteExport(record.fileName)}
                  aria-disabled={busy || undefined}
                  busy={busy}
                  onClick={() => void remove(record)}
                >
                  {t.delete}
                </Button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
