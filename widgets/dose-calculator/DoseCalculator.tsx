import { useEffect, useId, useMemo } from 'react';
import {
  AGE_GROUPS,
  calculateDose,
  DOSE_NMBA_TYPES,
  type AgeGroup,
  type DoseCalculatorInput,
  type DoseNmbaType,
  type TofCountText,
} from '../../clinical/index.ts';
import { accountApi } from '../shared/session/account-api-loader.ts';
import { userMessage } from '../shared/api/api-error.ts';
import { EmergencyButton } from '../shared/emergency-card/EmergencyButton.tsx';
import { CheckboxField, fieldBinder, NumberField, SelectField } from '../shared/ui/fields.tsx';
import { useExportToNotes } from '../shared/notes/use-export-notes.ts';
import { isAuthenticated } from '../shared/session/session-state.ts';
import { useSession } from '../shared/session/use-session.ts';
import { parseDecimalText } from '../shared/lang/parse-number.ts';
import { token } from '../shared/ui/theme.ts';
import { useToast } from '../shared/ui/toasts.tsx';
import { Button, FormCard } from '../shared/ui/ui.tsx';
import { doseCalculator as doseCalculatorEn } from '../shared/lang/messages/dose-calculator.ts';
import { DOSE_CALCULATOR_INPUTS } from '../shared/notes/inputs/dose-calculator.ts';
import { useClinicalTexts, useMessages, useWidgetHost } from '../shared/widget-host/widget-context.ts';
import { shallowEqual, useChanged, useWidgetState } from '../shared/element/widget-state.ts';
import { parseAgeGroupPreset, unknownAgeGroupWarning } from './age-group-preset.ts';
import { CreatinineHelper } from './CreatinineHelper.tsx';
import { PatientSheetButton } from '../shared/patient-sheet/PatientSheetButton.tsx';
import { DoseOutcomePanel } from './DoseOutcomePanel.tsx';
import {
  LazyEhrPatientBanner as EhrPatientBanner,
  LazyEhrWeightNote as EhrWeightNote,
  LazySendToEhrButton as SendToEhrButton,
} from '../shared/ehr/lazy.tsx';
import { doseNote, doseNotesEntry } from './note.ts';
import { fitColumns, twoColumnsCss } from '../shared/ui/styles.ts';
import { bidiText } from '../shared/ui/bidi-text.tsx';
// The dose calculator's texts in English (only its own), carried with its code.
import './catalogue.ts';

export interface DoseCalculatorProps {
  /** API origin for saving a signed-in clinician's calculations (later); the calculator itself needs no API. */
  apiBase?: string;
  /** Preset body weight in kg, e.g. from a selected patient. */
  weight?: string;
  /**
   * Preset age group: adult, pediatric (or paediatric) or infant, in any case (./age-group-preset.ts). Absent or
   * empty: adult. Anything else leaves the field unset, with a message, never adult.
   */
  ageGroup?: string;
  /** `emergency` attribute: present (or "true") shows the Emergency button that opens the emergency card. */
  emergency?: string;
  /** `hospital-name`: printed on the patient sheet (else GET /api/config when it answers; docs/API.md). */
  hospitalName?: string;
}

interface FormState {
  /** "" when unset: an unknown preset, for the user to choose. */
  ageGroup: AgeGroup | '';
  bodyWeight: string;
  nmbaType: DoseNmbaType;
  creatinine: string;
  /** The CrCl text the Cockcroft-Gault helper last filled in: while the field holds it, the CrCl is an estimate. */
  creatinineEstimate?: string;
  tofCount: TofCountText;
  ptc: string;
  rsiScenario: boolean;
  dialysis: boolean;
}

/** A preset as the field's text (a property may be set to a number). */
const presetText = (value: unknown): string => (value == null ? '' : String(value).trim());

/** The form's text as the calculator's input: empty numbers are "not entered", bad text is NaN. */
export function toDoseInput(form: FormState): { [K in keyof DoseCalculatorInput]-?: unknown } {
  const creatinine = parseDecimalText(form.creatinine) ?? null;
  // Sent only when the helper's estimate is still the field's value: edited by hand, it is a typed-in CrCl.
  const estimated = creatinine !== null && form.creatinineEstimate === form.creatinine;
  return {
    ageGroup: form.ageGroup,
    bodyWeight: parseDecimalText(form.bodyWeight),
    nmbaType: form.nmbaType,
    creatinine,
    creatinineMethod: estimated ? 'cockcroft_gault' : undefined,
    tofCount: form.tofCount,
    ptc: parseDecimalText(form.ptc) ?? null,
    rsiScenario: form.rsiScenario,
    dialysis: form.dialysis,
  };
}

/** docs/product.md §2–5 and §9: the form, "Calculate Dose", and exactly one outcome panel. Works with no API. */
export function DoseCalculator({ weight, ageGroup, apiBase = '', emergency, hospitalName }: DoseCalculatorProps) {
  const messages = useMessages();
  const clinical = useClinicalTexts();
  const t = messages.doseCalculator;
  const signedIn = useSession(isAuthenticated, apiBase);
  const selected = useSession((state) => state.selectedPatient);
  // The signed-in clinician signs the notes, copied or exported; Quick Use has none.
  const clinicianName = useSession((state) => state.user?.name ?? null, apiBase);
  const patient = signedIn ? selected : null;
  const host = useWidgetHost();
  const toast = useToast();
  const headingId = useId();
  const ageGroupPreset = parseAgeGroupPreset(ageGroup);
  const presets = {
    weight: presetText(weight),
    ageGroup:
      ageGroupPreset.kind === 'known' ? ageGroupPreset.ageGroup : ageGroupPreset.kind === 'absent' ? 'adult' : '',
  } as const;
  const unknownPreset = ageGroupPreset.kind === 'unknown' ? ageGroupPreset.text : null;
  useEffect(() => {
    if (unknownPreset !== null) console.warn(unknownAgeGroupWarning(unknownPreset));
  }, [unknownPreset]);
  const [form, setForm] = useWidgetState<FormState>('dose.form', () => ({
    ageGroup: patient?.ageGroup ?? presets.ageGroup,
    bodyWeight: patient?.weightKg != null ? String(patient.weightKg) : presets.weight,
    nmbaType: 'rocuronium',
    creatinine: '',
    tofCount: '',
    ptc: '',
    rsiScenario: false,
    dialysis: false,
  }));
  // What was refused, not the messages: they are written in the element's language of the moment.
  const [refused, setRefused] = useWidgetState<Record<keyof DoseCalculatorInput, unknown> | null>('dose.refused', null);
  const issues = useMemo(() => {
    const outcome = refused && calculateDose(refused, clinical);
    return outcome?.kind === 'invalid_input' ? outcome.issues : [];
  }, [refused, clinical]);
  // Only the inputs are kept: the same inputs give the same numbers, and the outcome is worked out here in the
  // element's language, so a change of `lang` after a calculation re-renders its texts (docs/arabic-glossary.md).
  const [result, setResult] = useWidgetState<{ input: DoseCalculatorInput } | null>('dose.result', null);
  const shownOutcome = useMemo(() => {
    if (!result) return null;
    const outcome = calculateDose(result.input, clinical);
    // not reached: the kept inputs passed calculateDose when Calculate was pressed
    return outcome.kind === 'invalid_input' ? null : outcome;
  }, [result, clinical]);
  const [helperOpen, setHelperOpen] = useWidgetState('dose.helperOpen', false);
  const [historyId, setHistoryId] = useWidgetState<string | null>('dose.historyId', null);
  const [notice, setNotice] = useWidgetState<{ change: 'preset' | 'patient'; cleared: boolean } | null>(
    'dose.notice',
    null,
  );

  // A result belongs to the values it was computed from. When the host page changes a preset (a
  // patient switch, a Vue binding, `el.weight = …`) or another patient is chosen in the account
  // area, the field takes the new value and a result for the old one goes, with a word on screen.
  const sources = { ...presets, unknownPreset, patientId: patient?.id ?? null };
  const changed = useChanged('dose.sources', sources, shallowEqual);
  if (changed) {
    const { previous } = changed;
    const patientChanged = previous.patientId !== sources.patientId;
    const patch: Partial<FormState> = {};
    if (previous.weight !== presets.weight) patch.bodyWeight = presets.weight;
    if (previous.ageGroup !== presets.ageGroup || previous.unknownPreset !== unknownPreset)
      patch.ageGroup = presets.ageGroup;
    // Another patient chosen: their weight, or an empty field (never the weight typed for the one before).
    if (patientChanged && patient) patch.bodyWeight = patient.weightKg != null ? String(patient.weightKg) : '';
    if (patientChanged && patient?.ageGroup) patch.ageGroup = patient.ageGroup;
    setForm((current) => ({ ...current, ...patch }));
    setRefused(null);
    setNotice({ change: patientChanged ? 'patient' : 'preset', cleared: result !== null });
    setResult(null);
    setHistoryId(null);
  }

  const { bind, bindCheck } = fieldBinder(form, setForm, issues);

  const calculate = () => {
    const input = toDoseInput(form);
    const outcome = calculateDose(input, clinical);
    if (outcome.kind === 'invalid_input') {
      setRefused(input);
      setResult(null);
      const weightIssue = outcome.issues.some((issue) => issue.field === 'bodyWeight');
      toast({
        title: (host) => host.messages.doseCalculator.invalidInputTitle,
        description: (host) =>
          weightIssue ? host.clinical.doseInput.invalidWeight : host.messages.doseCalculator.checkFields,
        variant: 'destructive',
      });
      return;
    }
    setRefused(null);
    setNotice(null);
    setResult({ input: input as DoseCalculatorInput });
    setHistoryId(null);
    host.emit('sgx-dose-calculated', { outcome });
    // Signed in: the server recomputes and records it in the clinician's history. Quick Use: nothing is sent.
    if (signedIn) {
      accountApi()
        .then((api) => api.recordCalculation(apiBase, 'dose_calculator', input, patient?.id))
        .then((recorded) => setHistoryId(recorded.historyId))
        .catch((error: unknown) =>
          toast({
            title: (host) => host.messages.records.notSavedTitle,
            description: userMessage(error),
            variant: 'destructive',
          }),
        );
    }
  };

  const exportNotesPdf = useExportToNotes(apiBase);
  const exportToNotes = () => {
    if (!result) return;
    // The notes PDF stays in English whatever the element's language (jsPDF has no Arabic glyphs;
    // ../shared/messages/index.ts): the same inputs, described with the English clinical texts.
    void exportNotesPdf({
      entry: doseNotesEntry(result.input),
      inputs: DOSE_CALCULATOR_INPUTS,
      title: doseCalculatorEn.title,
      patient,
      what: 'dose',
      patientId: patient?.id,
      calculationId: historyId,
    });
  };

  const tofOptions = [
    { value: '' as TofCountText, label: t.tofNotCounted },
    ...(['0', '1', '2', '3', '4'] as const).map((value) => ({ value, label: value })),
  ];

  return (
    <section aria-labelledby={headingId} part="container" css={{ containerType: 'inline-size' }}>
      <header css={{ marginBlockEnd: '16px' }}>
        <div
          css={{
            display: 'flex',
            flexWrap: 'wrap',
            alignItems: 'center',
            justifyContent: 'space-between',
            gap: '10px',
          }}
        >
          <h2 id={headingId} css={{ margin: 0, fontSize: '1.5em', lineHeight: 1.25 }}>
            {t.title}
          </h2>
          <EmergencyButton
            emergency={emergency}
            patient={patient}
            current={{
              weight: form.bodyWeight,
              ageGroup: form.ageGroup === '' ? undefined : form.ageGroup === 'adult' ? 'adult' : 'child',
            }}
          />
        </div>
        <p css={{ margin: '4px 0 0', color: token('--sgx-color-muted') }}>{bidiText(t.subtitle)}</p>
      </header>
      <EhrPatientBanner patientId={patient?.id} />
      <div css={twoColumnsCss(760)}>
        <FormCard aria-label={t.formLabel} onSubmit={calculate}>
          <div css={{ display: 'grid', gap: '14px', gridTemplateColumns: fitColumns(200) }}>
            <SelectField
              {...bind('ageGroup')}
              // an unknown preset: said on the field until an age group is chosen (a refused calculation's own
              // message takes its place)
              error={
                bind('ageGroup').error ??
                (form.ageGroup === '' && unknownPreset !== null ? t.unknownAgeGroupPreset(unknownPreset) : undefined)
              }
              label={t.ageGroup}
              options={[
                ...(form.ageGroup === '' ? [{ value: '' as const, label: t.ageGroupUnset }] : []),
                ...AGE_GROUPS.map((value) => ({ value, label: t.ageGroups[value] })),
              ]}
            />
            <NumberField
              {...bind('bodyWeight')}
              label={t.bodyWeight}
              unit={t.unitKg}
              hint={t.bodyWeightHint}
              required
            />
            <SelectField
              {...bind('nmbaType')}
              label={t.nmbaType}
              options={DOSE_NMBA_TYPES.map((value) => ({ value, label: t.nmbaTypes[value] }))}
            />
            <NumberField
              {...bind('creatinine')}
              label={t.creatinine}
              unit={t.unitMlPerMin}
              hint={t.creatinineHint}
              info={t.creatinineInfo}
            />
          </div>
          <EhrWeightNote patientId={patient?.id} />
          <div>
            <Button
              variant="ghost"
              aria-expanded={helperOpen}
              onClick={() => setHelperOpen((open) => !open)}
              css={{ paddingInline: 0 }}
            >
              {/* a closed disclosure points the way the text reads: ◂ in Arabic */}
              {helperOpen ? '▾' : host.dir === 'rtl' ? '◂' : '▸'} {t.crclHelperToggle}
            </Button>
          </div>
          {helperOpen && (
            <CreatinineHelper
              weightText={form.bodyWeight}
              onEstimate={(value) =>
                setForm((current) => ({ ...current, creatinine: String(value), creatinineEstimate: String(value) }))
              }
            />
          )}
          <div css={{ display: 'grid', gap: '14px', gridTemplateColumns: fitColumns(200) }}>
            <SelectField
              {...bind('tofCount')}
              label={t.tofCount}
              hint={t.tofCountHint}
              info={t.tofInfo}
              options={tofOptions}
            />
            <NumberField {...bind('ptc')} label={t.ptc} hint={t.ptcHint} info={t.ptcInfo} inputMode="numeric" />
          </div>
          <CheckboxField {...bindCheck('rsiScenario')} label={t.rsiScenario} info={t.rsiInfo} />
          <CheckboxField {...bindCheck('dialysis')} label={t.dialysis} />
          <div>
            <Button type="submit">{t.calculate}</Button>
          </div>
        </FormCard>
        <div aria-live="polite">
          {notice && !result && (
            <p
              role="status"
              data-testid="dose-notice"
              css={{
                margin: 0,
                padding: '12px 14px',
                borderRadius: token('--sgx-radius'),
                border: `1px solid ${token('--sgx-color-warning')}`,
                background: token('--sgx-color-surface'),
              }}
            >
              {bidiText(notice.change === 'patient' ? t.patientChanged : t.presetChanged)}
              {notice.cleared && <> {bidiText(t.resultCleared)}</>}
            </p>
          )}
          {result && shownOutcome && (
            <DoseOutcomePanel
              outcome={shownOutcome}
              note={(at) => doseNote(result.input, patient, clinicianName, at)}
              patientLine={patient ? messages.records.patientLine(patient.displayName, patient.mrn) : undefined}
              savedLine={historyId ? messages.records.savedToHistory : undefined}
              onExport={exportToNotes}
              sheetButton={
                <>
                  <PatientSheetButton
                    apiBase={apiBase}
                    hospitalName={hospitalName}
                    patientName={patient?.displayName}
                  />
                  <SendToEhrButton
                    key={historyId ?? ''}
                    apiBase={apiBase}
                    request={
                      historyId && patient
                        ? {
                            entry: doseNotesEntry(result.input),
                            inputs: DOSE_CALCULATOR_INPUTS,
                            title: doseCalculatorEn.title,
                            patient,
                            what: 'dose',
                            patientId: patient.id,
                            calculationId: historyId,
                          }
                        : null
                    }
                  />
                </>
              }
            />
          )}
        </div>
      </div>
    </section>
  );
}
