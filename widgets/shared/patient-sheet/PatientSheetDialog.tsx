import { useEffect, useId, useMemo, useState } from 'react';
import * as v from 'valibot';
import {
  CONTRACEPTIVE_METHODS,
  formatSheetDate,
  parseLocalDate,
  patientSheet,
  SHEET_LANGUAGES,
  type ContraceptiveMethod,
  type SheetLanguage,
  type SheetText,
} from '../../../clinical/patient-sheet.ts';
import { siteConfigSchema } from '../../../contracts/site-config.ts';
import { Dialog } from '../ui/dialog.tsx';
import { CheckboxField, SelectField, TextField } from '../ui/fields.tsx';
import { token } from '../ui/theme.ts';
import { useToast } from '../ui/toasts.tsx';
import { Button } from '../ui/ui.tsx';
import { useMessages, useWidgetLang } from '../widget-host/widget-context.ts';
import { carryEnglish } from '../lang/lang-packs.ts';
import { patientSheetDialog } from '../lang/messages/patient-sheet-dialog.ts';

// The dialog's English texts come with its code, not with the elements' bundles (../lang-packs.ts).
carryEnglish({ messages: { patientSheetDialog } });

/*
 * The dialog of "Patient sheet" (issue 37): language, time given (now unless changed), contraceptive, initials if
 * ticked; then the one-page PDF, made on this device (docs/clinical-reference.md#8-patient-counselling-contraception).
 * jsPDF and the sheet's layout load on Download; the Arabic font only when the sheet has Arabic (./arabic-font.ts).
 */

/** Where the hospital name learned from GET /api/config is kept, for a sheet made offline later. */
const HOSPITAL_NAME_KEY = 'sgx.hospitalName';
const CONFIG_TIMEOUT_MS = 3000;

const pad = (value: number) => String(value).padStart(2, '0');
/** A date as an `<input type="datetime-local">` value, to the minute, in the device's time. */
export const localDateTimeValue = (at: Date): string =>
  `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;

/** Initials from a display name: "Fatimah Al-Harbi" → "F.A."; a name that is already initials stays. */
export function initialsOf(name: string | null): string {
  const trimmed = (name ?? '').trim();
  if (!trimmed) return '';
  if (/^[\p{L}][\p{L}. -]{0,7}$/u.test(trimmed) && (trimmed.includes('.') || trimmed.length <= 3)) return trimmed;
  return trimmed
    .split(/\s+/)
    .filter((word) => /^\p{L}/u.test(word))
    .slice(0, 3)
    .map((word) => `${[...word][0]!.toUpperCase()}.`)
    .join('');
}

function storedHospitalName(): string | null {
  try {
    return localStorage.getItem(HOSPITAL_NAME_KEY);
  } catch {
    return null;
  }
}

/**
 * The hospital name: the element's attribute when given; otherwise what the server says (GET /api/config, kept on
 * the device), or what it said last time when it cannot be reached. Never waits: the sheet can be made at once.
 */
function useHospitalName(apiBase: string, attribute: string | undefined): string | null {
  const given = attribute?.trim() || null;
  const [name, setName] = useState<string | null>(() => given ?? storedHospitalName());
  useEffect(() => {
    if (given) return;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), CONFIG_TIMEOUT_MS);
    fetch(`${apiBase.replace(/\/$/, '')}/api/config`, {
      signal: controller.signal,
      headers: { Accept: 'application/json' },
    })
      .then((response) => (response.ok ? response.json() : Promise.reject(new Error(String(response.status)))))
      .then((body: unknown) => {
        const { hospitalName } = v.parse(siteConfigSchema, body);
        setName(hospitalName);
        try {
          if (hospitalName) localStorage.setItem(HOSPITAL_NAME_KEY, hospitalName);
          else localStorage.removeItem(HOSPITAL_NAME_KEY);
        } catch {
          // storage blocked: the name is used for this sheet only
        }
      })
      .catch(() => {}) // offline, or a page without the product's API: the last known name stays
      .finally(() => clearTimeout(timer));
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [apiBase, given]);
  return given ?? name;
}

/** Saves a file through a temporary link (works inside shadow roots and on any host page). */
function download(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Builds and downloads the PDF: jsPDF and the layout on demand, the Arabic font only for Arabic letters. */
export async function makeSheetPdf(texts: readonly SheetText[], fileName: string): Promise<void> {
  const [{ jsPDF }, { buildSheetPdf, needsArabicFont }] = await Promise.all([
    import('jspdf'),
    import('./sheet-pdf.ts'),
  ]);
  const font = needsArabicFont(texts) ? await (await import('./arabic-font.ts')).loadArabicFont() : null;
  download(buildSheetPdf(jsPDF, texts, font).doc.output('blob'), fileName);
}

interface Form {
  language: SheetLanguage;
  givenAt: string;
  method: ContraceptiveMethod;
  includeInitials: boolean;
  initials: string;
}

export default function PatientSheetDialog({
  apiBase,
  hospitalName: hospitalAttribute,
  patientName,
  onClose,
}: {
  apiBase: string;
  hospitalName?: string;
  patientName: string | null;
  onClose: () => void;
}) {
  const messages = useMessages();
  const t = messages.patientSheetDialog;
  const failed = messages.patientSheet.failed;
  const lang = useWidgetLang();
  const toast = useToast();
  const formId = useId();
  const hospitalName = useHospitalName(apiBase, hospitalAttribute);
  const opened = useMemo(() => new Date(), []);
  const [form, setForm] = useState<Form>(() => ({
    language: lang === 'ar' ? 'ar' : 'en',
    givenAt: localDateTimeValue(opened),
    method: 'not_asked',
    includeInitials: false,
    initials: initialsOf(patientName),
  }));
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [busy, setBusy] = useState(false);
  const set =
    <K extends keyof Form>(key: K) =>
    (value: Form[K]) => {
      setForm((current) => ({ ...current, [key]: value }));
      setErrors((current) => ({ ...current, [key]: undefined }));
    };
  const printedOn = localDateTimeValue(new Date()).slice(0, 10);
  const printedDate = formatSheetDate(parseLocalDate(printedOn)!, lang === 'ar' ? 'ar' : 'en');

  const submit = async () => {
    const outcome = patientSheet({
      language: form.language,
      method: form.method,
      givenAt: form.givenAt,
      printedOn,
      initials: form.includeInitials ? form.initials : null,
      hospitalName,
    });
    if (outcome.kind === 'invalid_input') {
      setErrors(
        Object.fromEntries(
          outcome.issues.map((issue) => [issue.field, t.issues[issue.field as keyof typeof t.issues] ?? issue.message]),
        ),
      );
      toast({ title: failed, description: t.fixFields, variant: 'destructive' });
      return;
    }
    setBusy(true);
    try {
      const stamp = form.givenAt.replace(/[-:]/g, '').replace('T', '-');
      await makeSheetPdf(outcome.texts, `patient-sheet-${form.language}-${stamp}.pdf`);
      toast({ title: t.madeTitle, description: t.madeDetail, variant: 'success' });
      onClose();
    } catch {
      toast({ title: failed, description: messages.patientSheet.loadFailed, variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open title={t.title} onClose={onClose}>
      <form
        id={formId}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
        css={{ display: 'grid', gap: '14px' }}
      >
        <p css={{ margin: 0, color: token('--sgx-color-muted') }}>{t.intro}</p>
        <SelectField
          name="sheet-language"
          label={t.language}
          value={form.language}
          onChange={set('language')}
          options={SHEET_LANGUAGES.map((value) => ({ value, label: t.languages[value] }))}
          error={errors.language}
        />
        <TextField
          name="sheet-given-at"
          type="datetime-local"
          label={t.givenAt}
          hint={t.givenAtHint}
          value={form.givenAt}
          onChange={set('givenAt')}
          error={errors.givenAt}
          required
        />
        <SelectField
          name="sheet-method"
          label={t.method}
          value={form.method}
          onChange={set('method')}
          options={CONTRACEPTIVE_METHODS.map((value) => ({ value, label: t.methods[value] }))}
          error={errors.method}
        />
        <CheckboxField
          name="sheet-include-initials"
          label={t.includeInitials}
          checked={form.includeInitials}
          onChange={set('includeInitials')}
        />
        {form.includeInitials && (
          <TextField
            name="sheet-initials"
            label={t.initials}
            hint={t.initialsHint}
            value={form.initials}
            onChange={set('initials')}
            maxLength={8}
            autoComplete="off"
            error={errors.initials}
          />
        )}
        <div css={{ display: 'grid', gap: '2px', fontSize: '0.9em', color: token('--sgx-color-muted') }}>
          {hospitalName && <span data-testid="sheet-hospital">{t.hospital(hospitalName)}</span>}
          <span>{t.printedOn(printedDate)}</span>
          <span>{t.keep}</span>
          {errors.hospitalName && <span role="alert">{errors.hospitalName}</span>}
        </div>
        <div css={{ display: 'flex', flexWrap: 'wrap', gap: '8px' }}>
          <Button type="submit" busy={busy} disabled={busy}>
            {t.download}
          </Button>
          <Button variant="ghost" onClick={onClose}>
            {t.cancel}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
