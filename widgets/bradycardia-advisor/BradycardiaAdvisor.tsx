import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { useChanged, useWidgetState } from '../shared/element/widget-state.ts';
import {
  ADULT_MIN_AGE_YEARS,
  ADVISOR_NMBA_TYPES,
  assessBradycardia,
  BLOCK_DEPTHS,
  bradycardiaInputSchemaFor,
  CARDIAC_HISTORIES,
  ADVISOR_CLINICAL_TEXTS_EN,
  DOSE_MG_PER_KG_BY_DEPTH,
  parseWith,
  type AdvisorBlockDepth,
  type BradycardiaAssessment,
  type CardiacHistory,
  type EmergencyAgeGroup,
  type FieldIssue,
} from '../../clinical/index.ts';
import { ltr } from '../../clinical/bidi.ts';
import { accountApi } from '../shared/session/account-api-loader.ts';
import { isUnreachable, userMessage } from '../shared/api/api-error.ts';
import { newIdempotencyKey } from '../shared/api/idempotency-key.ts';
import { keepOfflineRun, replayOfflineRuns } from '../shared/offline/offline-runs.ts';
import { useExportToNotes } from '../shared/notes/use-export-notes.ts';
import { usePatients } from '../shared/session/use-patients.ts';
import { isAuthenticated } from '../shared/session/session-state.ts';
import { useSession } from '../shared/session/use-session.ts';
import { EmergencyButton } from '../shared/emergency-card/EmergencyButton.tsx';
import { CheckboxField, fieldBinder, NumberField, SelectField } from '../shared/ui/fields.tsx';
import { parseDecimalText } from '../shared/lang/parse-number.ts';
import { token } from '../shared/ui/theme.ts';
import { useToast } from '../shared/ui/toasts.tsx';
import { Badge, Button, FormCard } from '../shared/ui/ui.tsx';
import { advisor as advisorEn } from '../shared/lang/messages/advisor.ts';
import { BRADYCARDIA_ADVISOR_INPUTS } from '../shared/notes/inputs/bradycardia-advisor.ts';
import type { WidgetLang } from '../shared/lang/lang.ts';
import { useClinicalTexts, useMessages, useWidgetHost, type WidgetHost } from '../shared/widget-host/widget-context.ts';
import { RiskResults } from './RiskResults.tsx';
import { LazyEhrWeightNote as EhrWeightNote } from '../shared/ehr/lazy.tsx';
import { fitColumns, twoColumnsCss } from '../shared/ui/styles.ts';
import { bidiText } from '../shared/ui/bidi-text.tsx';
// The advisor's texts in English (only its own), carried with its code.
import './catalogue.ts';

export interface BradycardiaAdvisorProps {
  /** Where the API is: "" or absent for the same origin, or e.g. https://reversal.example.org. */
  apiBase?: string;
  /** `emergency` attribute: present (or "true") shows the Emergency button that opens the emergency card. */
  emergency?: string;
}

const FLAGS = ['betaBlocker', 'dexmedetomidine', 'digoxin', 'amiodarone', 'highDoseOpioids', 'vagalStimulus'] as const;
type Flag = (typeof FLAGS)[number];
const REQUIRED = ['weight', 'age', 'baselineHr', 'creatinine'] as const;
type RequiredField = (typeof REQUIRED)[number];

interface FormState extends Record<RequiredField, string>, Record<Flag, boolean> {
  cardiacHistory: CardiacHistory;
  depth: AdvisorBlockDepth;
  nmba: (typeof ADVISOR_NMBA_TYPES)[number];
  patientId: string;
}

const initialForm: FormState = {
  weight: '',
  age: '',
  baselineHr: '',
  creatinine: '',
  cardiacHistory: 'none',
  betaBlocker: false,
  dexmedetomidine: false,
  digoxin: false,
  amiodarone: false,
  highDoseOpioids: false,
  vagalStimulus: false,
  depth: 'tof_2_plus',
  nmba: 'rocuronium',
  patientId: '',
};

/** The request body's inputs: the advisor fields plus the derived dose and conductionDisease (docs/product.md §3). */
export function toAdvisorInputs(form: FormState) {
  return {
    weight: parseDecimalText(form.weight),
    age: parseDecimalText(form.age),
    baselineHr: parseDecimalText(form.baselineHr),
    cardiacHistory: form.cardiacHistory,
    ...Object.fromEntries(FLAGS.map((flag) => [flag, form[flag]])),
    depth: form.depth,
    nmba: form.nmba,
    creatinine: parseDecimalText(form.creatinine),
    dose: DOSE_MG_PER_KG_BY_DEPTH[form.depth],
    conductionDisease: form.cardiacHistory === 'av_block',
  };
}

/**
 * The weight and age group the emergency card starts with (where the chosen patient has none): the weight as
 * typed, and a child under 18 years by the age typed (none when the age is not a number).
 */
function emergencyValues(form: FormState): { weight: string; ageGroup?: EmergencyAgeGroup } {
  const age = parseDecimalText(form.age);
  const ageGroup =
    age === undefined || !Number.isFinite(age) ? undefined : age < ADULT_MIN_AGE_YEARS ? 'child' : 'adult';
  return { weight: form.weight, ageGroup };
}

/**
 * A result computed in the browser because the API could not be reached: for a signed-in clinician, kept on
 * the device to be recorded later (`kept`) or not (`not-kept`: storage blocked or full); signed out, nothing
 * is recorded anyway (`anonymous`).
 */
type OfflineResult = 'kept' | 'not-kept' | 'anonymous';

/**
 * docs/product.md §2, §4, §7: the advisor. Assessed by the API (POST /api/tools/run), which recomputes
 * everything. When the API cannot be reached (no answer at all, not an HTTP error), the same clinical/ code
 * assesses in the browser and the result says so; a signed-in clinician's calculation is kept on the device
 * (../shared/offline-runs.ts) and recorded once the API answers again.
 */
export function BradycardiaAdvisor({ apiBase = '', emergency }: BradycardiaAdvisorProps) {
  const messages = useMessages();
  const clinical = useClinicalTexts();
  const t = messages.advisor;
  const host = useWidgetHost();
  const { lang } = host;
  const toast = useToast();
  const headingId = useId();
  const patients = usePatients(apiBase) ?? [];
  const signedIn = useSession(isAuthenticated, apiBase);
  const userId = useSession((state) => (isAuthenticated(state) ? (state.user?.id ?? null) : null));
  const selected = useSession((state) => state.selectedPatient);
  // A patient chosen in the account area is the advisor's patient too.
  const chosen = signedIn && selected ? selected : null;
  const withPatient = (current: FormState): FormState =>
    chosen
      ? {
          ...current,
          patientId: chosen.id,
          // their weight, or an empty field: never the weight typed for the patient before
          weight: chosen.weightKg != null ? String(chosen.weightKg) : '',
        }
      : current;
  const [form, setForm] = useWidgetState<FormState>('advisor.form', () => withPatient(initialForm));
  // What was refused, not the messages: they are written in the element's language of the moment.
  const [refused, setRefused] = useWidgetState<
    { missing: readonly RequiredField[] } | { inputs: Record<string, unknown> } | null
  >('advisor.refused', null);
  const issues = useMemo<FieldIssue[]>(() => {
    if (!refused) return [];
    if ('missing' in refused)
      return refused.missing.map((field) => ({ field, message: clinical.advisorInput.missingInformation }));
    const checked = parseWith(bradycardiaInputSchemaFor(clinical), refused.inputs);
    return checked.ok ? [] : checked.issues;
  }, [refused, clinical]);
  const [loading, setLoading] = useState(false);
  const [assessment, setAssessment] = useWidgetState<{
    result: BradycardiaAssessment;
    /** The language `result`'s texts are in (the element's when it was assessed). */
    lang: WidgetLang;
    patientName?: string;
    inputs: Record<string, unknown>;
    historyId?: string;
    patientId?: string;
    offline?: OfflineResult;
  } | null>('advisor.assessment', null);
  // The result in the element's language of the moment: switched live to another, the same inputs are assessed
  // again here with the same clinical/ code the API runs (the same figures, its texts in that language).
  const shownResult = useMemo(() => {
    if (!assessment || assessment.lang === lang) return null;
    const again = assessBradycardia(assessment.inputs, clinical);
    return again.kind === 'assessment' ? again : null;
  }, [assessment, lang, clinical]);
  // Only when the choice changes, not on every mount: an element attached again keeps what was typed.
  if (useChanged('advisor.patient', chosen?.id ?? null)) setForm(withPatient);
  const { bind, bindCheck } = fieldBinder(form, setForm, issues);

  const choosePatient = (id: string) => {
    const patient = patients.find((candidate) => candidate.id === id);
    setForm((current) => ({
      ...current,
      patientId: id,
      // another patient: their weight or an empty field; "no patient": what was typed stays
      weight: patient ? (patient.weightKg != null ? String(patient.weightKg) : '') : current.weight,
    }));
  };

  const assess = async () => {
    const missing = REQUIRED.filter((field) => form[field].trim() === '');
    if (missing.length > 0) {
      setRefused({ missing });
      toast({
        title: ({ messages }) => messages.advisor.missingTitle,
        description: ({ messages }) => messages.advisor.missingDescription,
        variant: 'destructive',
      });
      return;
    }
    const inputs = toAdvisorInputs(form);
    const checked = parseWith(bradycardiaInputSchemaFor(clinical), inputs);
    if (!checked.ok) {
      setRefused({ inputs });
      toast({
        title: ({ messages }) => messages.advisor.invalidTitle,
        description: ({ messages, clinical: texts }) => {
          const again = parseWith(bradycardiaInputSchemaFor(texts), inputs);
          return (!again.ok && again.issues[0]?.message) || messages.advisor.missingDescription;
        },
        variant: 'destructive',
      });
      return;
    }
    setRefused(null);
    setLoading(true);
    const patientId = form.patientId || undefined;
    const patientName = patients.find((patient) => patient.id === patientId)?.displayName;
    // One key for this assessment: sent now, and kept with it if it has to wait on the device, so that a
    // first answer the network lost after the server saved it is not saved twice by the replay.
    const idempotencyKey = newIdempotencyKey();
    try {
      const response = await (await accountApi()).runAdvisor(apiBase, inputs, patientId, lang, idempotencyKey);
      setAssessment({ result: response, lang, patientName, inputs, historyId: response.historyId, patientId });
      toast({
        title: ({ messages }) => messages.advisor.successTitle,
        description: ({ messages }) => messages.advisor.successDescription(response.riskBand, response.riskPercent),
        variant: 'success',
      });
      host.emit('sgx-risk-assessed', { assessment: response, historyId: response.historyId });
      // the API answers again: what was computed while it did not is recorded now
      void recordOfflineRuns();
    } catch (error) {
      if (isUnreachable(error)) assessOnDevice(inputs, idempotencyKey, patientId, patientName);
      else {
        setAssessment(null);
        toast({
          title: ({ messages }) => messages.advisor.failureTitle,
          description: ({ messages }) => userMessage(error, messages.advisor.failureFallback),
          variant: 'destructive',
        });
        host.emit('sgx-error', {
          source: 'bradycardia-advisor',
          message: error instanceof Error ? error.message : String(error),
        });
      }
    } finally {
      setLoading(false);
    }
  };

  /** The API could not be reached: the same assessment, computed here with clinical/ in the element's language. */
  const assessOnDevice = (
    inputs: Record<string, unknown>,
    idempotencyKey: string,
    patientId?: string,
    patientName?: string,
  ) => {
    const outcome = assessBradycardia(inputs, clinical);
    if (outcome.kind !== 'assessment') {
      // not reached: the inputs passed the same schema above
      setAssessment(null);
      toast({ title: ({ messages }) => messages.advisor.invalidTitle, variant: 'destructive' });
      return;
    }
    const offline: OfflineResult = !userId
      ? 'anonymous'
      : keepOfflineRun(userId, { toolType: 'bradycardia_advisor', inputs, patientId, lang, idempotencyKey })
        ? 'kept'
        : 'not-kept';
    setAssessment({ result: outcome, lang, patientName, inputs, patientId, offline });
    toast({
      title: ({ messages }) => messages.advisor.offlineTitle,
      description: ({ messages }) => messages.advisor.offlineDescription,
    });
    host.emit('sgx-risk-assessed', { assessment: outcome });
  };

  /** Sends the calculations kept on this device for the signed-in clinician, and says what became of them. */
  const recordOfflineRuns = useCallback(async () => {
    if (!userId) return;
    const done = await replayOfflineRuns(userId, async (run) =>
      (await accountApi()).recordCalculation(
        apiBase,
        run.toolType,
        run.inputs,
        run.patientId,
        run.lang,
        run.idempotencyKey,
      ),
    ).catch(() => null);
    if (!done) return;
    const count = (host: WidgetHost, one: string, many: string, n: number) =>
      n === 1 ? one : many.replace('{count}', host.lang === 'ar' ? ltr(n) : String(n));
    if (done.refused > 0)
      toast({
        title: ({ messages }) => messages.advisor.offlineRefusedTitle,
        description: (host) =>
          count(host, host.messages.advisor.offlineRefusedOne, host.messages.advisor.offlineRefusedMany, done.refused),
        variant: 'destructive',
      });
    else if (done.saved > 0)
      toast({
        title: ({ messages }) => messages.advisor.offlineSavedTitle,
        description: (host) =>
          count(host, host.messages.advisor.offlineSavedOne, host.messages.advisor.offlineSavedMany, done.saved),
        variant: 'success',
      });
  }, [userId, apiBase, toast]);

  // Back online (the browser says so), or signed in with calculations waiting (a reload, another tab's):
  // record them. The queue allows one replay at a time, so a second `online` event sends nothing twice.
  useEffect(() => {
    if (!userId) return;
    const onOnline = () => void recordOfflineRuns();
    window.addEventListener('online', onOnline);
    // with nothing waiting, replayOfflineRuns returns at once without a request
    if (navigator.onLine !== false) onOnline();
    return () => window.removeEventListener('online', onOnline);
  }, [userId, recordOfflineRuns]);

  const exportNotesPdf = useExportToNotes(apiBase);
  const exportToNotes = () => {
    if (!assessment) return;
    // The notes PDF stays in English whatever the element's language (jsPDF has no Arabic glyphs;
    // ../shared/messages/index.ts): assessed again here from the same inputs with the English clinical texts,
    // as the server would (clinical/ is pure), rather than the answer in the element's language.
    const english = assessBradycardia(assessment.inputs, ADVISOR_CLINICAL_TEXTS_EN);
    if (english.kind !== 'assessment') return; // not reached: these inputs were assessed already
    const found = patients.find((candidate) => candidate.id === assessment.patientId);
    const patient = found ? { displayName: found.displayName, mrn: found.mrn, yearOfBirth: found.yearOfBirth } : null;
    const entry = {
      toolType: 'bradycardia_advisor' as const,
      inputs: assessment.inputs,
      result: english as unknown as Record<string, unknown>,
    };
    void exportNotesPdf({
      entry,
      inputs: BRADYCARDIA_ADVISOR_INPUTS,
      title: advisorEn.title,
      patient,
      what: 'bradycardia',
      patientId: assessment.patientId,
      calculationId: assessment.historyId,
    });
  };

  const group = {
    border: `1px solid ${token('--sgx-color-border')}`,
    borderRadius: token('--sgx-radius'),
    padding: '14px',
    margin: 0,
    display: 'grid',
    gap: '12px',
    minInlineSize: 0,
  } as const;
  const legend = { fontWeight: 700, paddingInline: '6px' } as const;
  const grid = { display: 'grid', gap: '12px', gridTemplateColumns: fitColumns(170) } as const;

  return (
    <section aria-labelledby={headingId} part="container" css={{ containerType: 'inline-size' }}>
      <header css={{ marginBlockEnd: '16px', display: 'grid', gap: '6px' }}>
        <div css={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '10px' }}>
          <h2 id={headingId} css={{ margin: 0, fontSize: '1.5em', lineHeight: 1.25 }}>
            {bidiText(t.title)}
          </h2>
          <Badge tone="danger">{t.hcpOnly}</Badge>
          <span css={{ marginInlineStart: 'auto' }}>
            <EmergencyButton emergency={emergency} patient={chosen} current={emergencyValues(form)} />
          </span>
        </div>
        <p css={{ margin: 0, color: token('--sgx-color-muted') }}>{bidiText(t.intro)}</p>
      </header>
      <div css={twoColumnsCss(860)}>
        <FormCard
          aria-label={t.inputCard}
          onSubmit={() => {
            if (!loading) void assess();
          }}
        >
          <h3 css={{ margin: 0, fontSize: '1.1em' }}>{t.inputCard}</h3>
          {patients.length > 0 && (
            <SelectField
              {...bind('patientId')}
              label={t.patient}
              onChange={choosePatient}
              options={[
                { value: '', label: t.noPatient },
                ...patients.map((patient) => ({
                  value: patient.id,
                  label: patient.mrn ? `${patient.displayName} (${patient.mrn})` : patient.displayName,
                })),
              ]}
            />
          )}
          <fieldset css={group}>
            <legend css={legend}>{t.demographics}</legend>
            <div css={grid}>
              <NumberField {...bind('weight')} label={t.weight} unit={t.units.kg} required />
              <NumberField {...bind('age')} label={t.age} unit={t.units.years} required />
              <NumberField
                {...bind('baselineHr')}
                label={t.baselineHr}
                unit={t.units.bpm}
                required
                inputMode="numeric"
              />
              <NumberField
                {...bind('creatinine')}
                label={t.creatinine}
                unit={t.units.mlPerMin}
                required
                info={messages.doseCalculator.creatinineInfo}
              />
            </div>
            <EhrWeightNote patientId={form.patientId || null} />
          </fieldset>
          <fieldset css={group}>
            <legend css={legend}>{t.cardiac}</legend>
            <SelectField
              {...bind('cardiacHistory')}
              label={t.cardiacHistory}
              options={CARDIAC_HISTORIES.map((value) => ({ value, label: t.cardiacHistories[value] }))}
            />
            <div css={{ display: 'grid', gap: '10px', gridTemplateColumns: fitColumns(200) }}>
              {FLAGS.map((flag) => (
                <CheckboxField key={flag} {...bindCheck(flag)} label={t[flag]} />
              ))}
            </div>
          </fieldset>
          <fieldset css={group}>
            <legend css={legend}>{t.block}</legend>
            <div css={grid}>
              <SelectField
                {...bind('depth')}
                label={t.depth}
                info={messages.doseCalculator.tofInfo}
                options={BLOCK_DEPTHS.map((value) => ({ value, label: t.depths[value] }))}
              />
              <SelectField
                {...bind('nmba')}
                label={t.nmba}
                options={ADVISOR_NMBA_TYPES.map((value) => ({ value, label: t.nmbas[value] }))}
              />
            </div>
          </fieldset>
          <div>
            <Button type="submit" disabled={loading} busy={loading}>
              {loading ? t.assessing : t.assess}
            </Button>
          </div>
        </FormCard>
        <div aria-live="polite" css={{ display: 'grid', gap: '12px', alignContent: 'start' }}>
          {assessment?.offline && (
            <div
              role="note"
              data-testid="advisor-offline"
              css={{
                padding: '10px 12px',
                borderRadius: token('--sgx-radius'),
                border: `1px solid ${token('--sgx-color-border')}`,
                background: token('--sgx-color-surface-alt'),
              }}
            >
              <strong>{t.offlineComputed}</strong>
              {assessment.offline !== 'anonymous' && (
                <p css={{ margin: '4px 0 0' }}>{assessment.offline === 'kept' ? t.offlineKept : t.offlineNotKept}</p>
              )}
            </div>
          )}
          {assessment && (
            <RiskResults
              assessment={shownResult ?? assessment.result}
              patientName={assessment.patientName}
              onExport={exportToNotes}
              exportLabel={messages.records.exportNotes}
            />
          )}
        </div>
      </div>
    </section>
  );
}
