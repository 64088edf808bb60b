import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { withoutIsolates } from '../../../clinical/bidi.ts';
import type { SheetText } from '../../../clinical/patient-sheet.ts';
import { carryEveryElementsEnglish, renderWidget } from '../../test-utils.tsx';
import PatientSheetDialog, { initialsOf, localDateTimeValue } from './PatientSheetDialog.tsx';

// A part shared by elements, rendered alone: the English texts as on a page holding them all.
carryEveryElementsEnglish();

// The dialog of "Patient sheet" (issue 37). jsPDF is not run here: the PDF is read back in sheet-pdf.test.ts and
// in Chromium (e2e/patient-sheet.e2e.ts); this checks what the dialog asks and what it hands to the PDF.
const built = vi.hoisted(() => ({ texts: [] as SheetText[][], fonts: [] as (string | null)[] }));
vi.mock('./sheet-pdf.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./sheet-pdf.ts')>();
  return {
    ...actual,
    buildSheetPdf: (_jsPdf: unknown, texts: SheetText[], font: string | null) => {
      built.texts.push(texts);
      built.fonts.push(font);
      return { doc: { output: () => new Blob(['%PDF']) }, lines: [] };
    },
  };
});

afterEach(() => {
  built.texts.length = 0;
  built.fonts.length = 0;
  localStorage.clear();
  vi.unstubAllGlobals();
});

function open(props: Partial<Parameters<typeof PatientSheetDialog>[0]> = {}) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify({ hospitalName: 'King Fahad Hospital' }))),
  );
  URL.createObjectURL = vi.fn(() => 'blob:sheet');
  URL.revokeObjectURL = vi.fn();
  const onClose = vi.fn();
  renderWidget(<PatientSheetDialog apiBase="" patientName="Fatimah Al-Harbi" onClose={onClose} {...props} />);
  return { onClose, user: userEvent.setup() };
}

describe('the patient sheet dialog', () => {
  it('asks language, time (now), contraceptive and initials; makes the sheet with them', async () => {
    const { onClose, user } = open();
    const time = screen.getByLabelText(/^Time sugammadex was given/) as HTMLInputElement;
    expect(time.value).toBe(localDateTimeValue(new Date()).slice(0, 13) + time.value.slice(13));
    await user.clear(time);
    await user.type(time, '2026-12-01T14:30');
    await user.selectOptions(screen.getByLabelText(/^Contraceptive the patient uses/), 'combined_pill');
    await user.click(screen.getByRole('checkbox', { name: "Print the patient's initials" }));
    expect((screen.getByLabelText(/^Initials/) as HTMLInputElement).value).toBe('F.A.');
    await waitFor(() =>
      expect(screen.getByTestId('sheet-hospital').textContent).toBe('Hospital on the sheet: King Fahad Hospital'),
    );
    await user.click(screen.getByRole('button', { name: 'Download PDF' }));
    await waitFor(() => expect(built.texts).toHaveLength(1), { timeout: 15_000 });
    const [english] = built.texts[0]!;
    expect(english!.sections.find((section) => section.key)?.key).toBe(
      'Use condoms (or do not have sex) until Tuesday 8 December 2026 at 14:30.',
    );
    expect(english!.patient).toBe('For: F.A.');
    expect(english!.hospital).toBe('King Fahad Hospital');
    expect(built.fonts).toEqual([null]); // English: the Arabic font is not loaded
    expect(localStorage.getItem('sgx.hospitalName')).toBe('King Fahad Hospital');
    await waitFor(() => expect(onClose).toHaveBeenCalled(), { timeout: 5000 });
  });

  it('an Arabic sheet loads the Arabic font; initials are left out unless ticked', async () => {
    const { user } = open({ hospitalName: 'Attribute Hospital' });
    await user.selectOptions(screen.getByLabelText(/^Language of the sheet/), 'ar');
    await user.click(screen.getByRole('button', { name: 'Download PDF' }));
    await waitFor(() => expect(built.texts).toHaveLength(1), { timeout: 15_000 });
    const [arabic] = built.texts[0]!;
    expect(arabic!.lang).toBe('ar');
    expect(arabic!.patient).toBeNull();
    expect(arabic!.hospital).toBe('Attribute Hospital'); // the attribute wins; no request for it
    expect(withoutIsolates(arabic!.sections.find((section) => section.key)!.key!)).toMatch(/^إذا كنت تستخدمين/);
    expect(built.fonts[0]).toMatch(/^AAEAAA/); // a TrueType file, base64
    expect(fetch).not.toHaveBeenCalled();
  });

  it('a bad time or initials: the field says so and nothing is made', async () => {
    const { user, onClose } = open();
    await user.clear(screen.getByLabelText(/^Time sugammadex was given/));
    await user.click(screen.getByRole('checkbox', { name: "Print the patient's initials" }));
    const initials = screen.getByLabelText(/^Initials/);
    await user.clear(initials);
    await user.type(initials, '1234567');
    await user.click(screen.getByRole('button', { name: 'Download PDF' }));
    expect(await screen.findByText('Enter the date and time sugammadex was given.')).toBeTruthy();
    expect(screen.getByText('Initials: letters, dots and spaces only, at most 8 characters.')).toBeTruthy();
    expect(built.texts).toHaveLength(0);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('Escape and Cancel close it', async () => {
    const { user, onClose } = open();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalled();
  });
});

describe('initials from a display name', () => {
  it.each([
    ['Fatimah Al-Harbi', 'F.A.'],
    ['F.A.', 'F.A.'],
    ['FA', 'FA'],
    ['فاطمة الحربي', 'ف.ا.'],
    ['', ''],
    [null, ''],
  ])('%j → %j', (name, initials) => expect(initialsOf(name)).toBe(initials));
});
