import { useState } from 'react';
import { useWidgetState } from '../../shared/element/widget-state.ts';
import { keyPerBody } from '../../shared/api/idempotency-key.ts';
import { AGE_GROUPS } from '../../../clinical/index.ts';
import {
  createPatient,
  deletePatient,
  listPatients,
  updatePatient,
  type Patient,
  type PatientFields,
} from '../../shared/session/account-api.ts';
import { ApiError, userMessage } from '../../shared/api/api-error.ts';
import { NumberField, SelectField, TextField } from '../../shared/ui/fields.tsx';
import { parseDecimalText } from '../../shared/lang/parse-number.ts';
import { sessionStore } from '../../shared/session/session-store.ts';
import { token } from '../../shared/ui/theme.ts';
import { useToast } from '../../shared/ui/toasts.tsx';
import { Button } from '../../shared/ui/ui.tsx';
import { useLatest } from '../../shared/api/use-latest.ts';
import { useSession } from '../../shared/session/use-session.ts';
import { bidiText } from '../../shared/ui/bidi-text.tsx';
import { useMessages, useWidgetHost } from '../../shared/widget-host/widget-context.ts';
import { fitColumns } from '../../shared/ui/styles.ts';
import { listCss, rowCss, rowDetailCss } from './list-parts.tsx';

const SEARCH_DELAY_MS = 200;
interface Draft {
  displayName: string;
  mrn: string;
  yearOfBirth: string;
  ageGroup: string;
  weightKg: string;
  notes: string;
}
const emptyDraft: Draft = { displayName: '', mrn: '', yearOfBirth: '', ageGroup: '', weightKg: '', notes: '' };
const toDraft = (patient: Patient): Draft => ({
  displayName: patient.displayName,
  mrn: patient.mrn ?? '',
  yearOfBirth: patient.yearOfBirth != null ? String(patient.yearOfBirth) : '',
  ageGroup: patient.ageGroup ?? '',
  weightKg: patient.weightKg != null ? String(patient.weightKg) : '',
  notes: patient.notes ?? '',
});
const toFields = (draft: Draft): PatientFields => ({
  displayName: draft.displayName,
  mrn: draft.mrn || null,
  yearOfBirth: parseDecimalText(draft.yearOfBirth) ?? null,
  ageGroup: (draft.ageGroup || null) as PatientFields['ageGroup'],
  weightKg: parseDecimalText(draft.weightKg) ?? null,
  notes: draft.notes || null,
});

/** Patients: search as you type (name, initials or MRN), add, edit, delete, choose one for the tools. */
export function PatientsPanel({ apiBase }: { apiBase: string }) {
  // "Save" again after a failure sends the same key while the form is unchanged: a patient the server made
  // before the answer was lost is answered again rather than made twice.
  const [newPatientKey] = useState(keyPerBody);
  const t = useMessages().account;
  const { serverMessage } = useWidgetHost();
  const toast = useToast();
  const selected = useSession((state) => state.selectedPatient);
  const [query, setQuery] = useState('');
  const [patients, setPatients] = useState<Patient[] | null>(null);
  // Kept across a sign-out the server forced (the idle limit) for this clinician only: the same clinician
  // signing in again finds the form as they left it; another one does not see it.
  const userId = useSession((state) => state.user?.id ?? '');
  const [editing, setEditing] = useWidgetState<{ id: string | null; draft: Draft } | null>(
    `patients.editing.${userId}`,
    null,
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [version, setVersion] = useState(0);

  useLatest(() => listPatients(apiBase, query.trim()), [apiBase, query, version], {
    onResult: setPatients,
    onError: (error) =>
      toast({
        title: (host) => host.messages.account.loadFailed,
        description: userMessage(error),
        variant: 'destructive',
      }),
    delayMs: SEARCH_DELAY_MS,
  });

  const save = async () => {
    if (!editing) return;
    setBusy(true);
    try {
      const fields = toFields(editing.draft);
      const saved = editing.id
        ? await updatePatient(apiBase, editing.id, fields)
        : await createPatient(apiBase, fields, newPatientKey(fields));
      if (selected?.id === saved.id) sessionStore().getState().selectPatient(saved);
      setEditing(null);
      setErrors({});
      setVersion((value) => value + 1);
      toast({
        title: (host) => host.messages.account.patientSaved,
        description: saved.displayName,
        variant: 'success',
      });
    } catch (error) {
      setErrors(
        error instanceof ApiError ? Object.fromEntries(error.issues.map((issue) => [issue.field, issue.message])) : {},
      );
      toast({
        title: (host) => host.messages.account.actionFailed,
        description: userMessage(error),
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
    }
  };

  const remove = async (patient: Patient) => {
    if (!window.confirm(t.confirmDelete(patient.displayName))) return;
    try {
      await deletePatient(apiBase, patient.id);
      if (selected?.id === patient.id) sessionStore().getState().selectPatient(null);
      setVersion((value) => value + 1);
      toast({
        title: (host) => host.messages.account.patientDeleted,
        description: patient.displayName,
        variant: 'success',
      });
    } catch (error) {
      toast({
        title: (host) => host.messages.account.actionFailed,
        description: userMessage(error),
        variant: 'destructive',
      });
    }
  };

  const setDraft = (key: keyof Draft) => (value: string) =>
    setEditing((current) => current && { ...current, draft: { ...current.draft, [key]: value } });
  const draftField = (key: keyof Draft) => ({
    name: key,
    value: editing?.draft[key] ?? '',
    onChange: setDraft(key),
    // the server's words, shown in the element's language of the moment
    error: errors[key] && serverMessage(errors[key]),
  });

  return (
    <div css={{ display: 'grid', gap: '12px' }}>
      <TextField
        name="patient-search"
        label={t.search}
        hint={t.searchHint}
        value={query}
        onChange={setQuery}
        type="search"
      />
      {patients && patients.length === 0 && <p css={{ margin: 0 }}>{query ? t.noMatches : t.noPatients}</p>}
      {patients && patients.length > 0 && (
        <ul aria-label={t.tabs.patients} css={listCss}>
          {patients.map((patient) => (
            <li key={patient.id} data-patient-id={patient.id} css={rowCss}>
              <span css={{ flex: '1 1 160px', minInlineSize: 0 }}>
                <strong>{patient.displayName}</strong>
                <span css={rowDetailCss}>{bidiText(t.patientSummary(patient.mrn, patient.weightKg))}</span>
              </span>
              <Button
                variant={selected?.id === patient.id ? 'primary' : 'secondary'}
                aria-pressed={selected?.id === patient.id}
                onClick={() =>
                  sessionStore()
                    .getState()
                    .selectPatient(selected?.id === patient.id ? null : patient)
                }
              >
                {selected?.id === patient.id ? t.inUse : t.use}
              </Button>
              <Button variant="ghost" onClick={() => setEditing({ id: patient.id, draft: toDraft(patient) })}>
                {t.edit}
              </Button>
              <Button variant="ghost" onClick={() => void remove(patient)}>
                {t.delete}
              </Button>
            </li>
          ))}
        </ul>
      )}
      {editing ? (
        <form
          aria-label={editing.id ? t.editPatient : t.addPatient}
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void save();
          }}
          css={{
            display: 'grid',
            gap: '10px',
            padding: '12px',
            border: `1px dashed ${token('--sgx-color-border')}`,
            borderRadius: '8px',
          }}
        >
          <div css={{ display: 'grid', gap: '10px', gridTemplateColumns: fitColumns(160) }}>
            <TextField {...draftField('displayName')} label={t.displayName} required />
            <TextField {...draftField('mrn')} label={t.mrn} />
            <NumberField {...draftField('yearOfBirth')} label={t.yearOfBirth} inputMode="numeric" />
            <SelectField
              name="ageGroup"
              label={t.ageGroup}
              value={editing.draft.ageGroup}
              onChange={setDraft('ageGroup')}
              options={[
                { value: '', label: t.ageGroupNone },
                ...AGE_GROUPS.map((value) => ({ value, label: t.ageGroups[value] })),
              ]}
            />
            <NumberField {...draftField('weightKg')} label={t.weight} unit={t.kg} />
            <TextField {...draftField('notes')} label={t.notes} />
          </div>
          <div css={{ display: 'flex', gap: '8px' }}>
            <Button type="submit" busy={busy} disabled={busy}>
              {t.save}
            </Button>
            <Button variant="ghost" onClick={() => setEditing(null)}>
              {t.cancel}
            </Button>
          </div>
        </form>
      ) : (
        <div>
          <Button variant="secondary" onClick={() => setEditing({ id: null, draft: emptyDraft })}>
            {t.addPatient}
          </Button>
        </div>
      )}
    </div>
  );
}
