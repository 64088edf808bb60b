import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { notesText } from '../shared/notes/notes-content.ts';
import type { NotesContent } from '../shared/notes/notes-content.ts';
import { renderWidget } from '../test-utils.tsx';
import { DoseCalculator, toDoseInput } from './DoseCalculator.tsx';
// Arabic here from the start, as on a page whose Arabic chunk has arrived (lang-packs.test.tsx tests the fetch).
import { arabicPack } from '../shared/lang/messages/ar/arabic-pack.ts';
import { registerLangPack } from '../shared/lang/lang-packs.ts';

registerLangPack('ar', arabicPack);

// The notes PDF is built but not stored or downloaded: the test reads what would go into it.
const exportNotes = vi.hoisted(() => vi.fn(async (..._args: unknown[]) => ({ stored: null })));
vi.mock('../shared/notes/notes-pdf.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../shared/notes/notes-pdf.ts')>()),
  exportNotes,
}));

async function fill(values: {
  weight?: string;
  crcl?: string;
  tof?: string;
  ptc?: string;
  age?: string;
  nmba?: string;
  rsi?: boolean;
  dialysis?: boolean;
}) {
  const user = userEvent.setup();
  if (values.age) await user.selectOptions(screen.getByLabelText(/^Age group/), values.age);
  if (values.weight) await user.type(screen.getByLabelText(/^Body weight/), values.weight);
  if (values.nmba) await user.selectOptions(screen.getByLabelText(/^Neuromuscular blocking agent/), values.nmba);
  if (values.crcl !== undefined) await user.type(screen.getByLabelText(/^Creatinine clearance/), values.crcl);
  if (values.tof !== undefined) await user.selectOptions(screen.getByLabelText(/^TOF count/), values.tof);
  if (values.ptc !== undefined) await user.type(screen.getByLabelText(/^Post-tetanic count/), values.ptc);
  if (values.rsi) await user.click(screen.getByRole('checkbox', { name: /rapid-sequence rocuronium/ }));
  if (values.dialysis) await user.click(screen.getByRole('checkbox', { name: 'Patient on dialysis' }));
  await user.click(screen.getByRole('button', { name: 'Calculate Dose' }));
  return user;
}
const result = () => screen.queryByRole('region', { name: 'Result' });

describe('<DoseCalculator>', () => {
  it('shows the title, subtitle and the form', () => {
    renderWidget(<DoseCalculator />);
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Dose Calculator');
    expect(screen.getByText('Interactive dosing calculator with medical logic')).toBeTruthy();
    expect(screen.getByLabelText(/^Body weight/).getAttribute('inputmode')).toBe('decimal');
  });

  it('a dose: 70 kg at TOF 0 → 4 mg/kg, 280 mg, 2 vials, 2.8 mL, 295.28 SAR, administration, monitoring', async () => {
    renderWidget(<DoseCalculator />);
    await fill({ weight: '70', crcl: '100', tof: '0' });
    const panel = result()!;
    expect(panel.getAttribute('data-outcome')).toBe('dose');
    const text = panel.textContent ?? '';
    expect(within(panel).getByTestId('dose-per-kg').textContent).toBe('4 mg/kg');
    for (const expected of [
      '280 mg',
      '2 vials',
      '2.8 mL',
      '295.28 SAR',
      'Deep block (TOF count 0)',
      'Dose by actual body weight',
      'Single IV bolus over about 10 seconds; monitor TOF ratio every 15-30 seconds until at least 0.9.',
      'Quantitative neuromuscular monitoring',
      'Confirm TOF ratio ≥ 0.9 before extubation',
      'Assess ventilation and airway reflexes',
      'Monitor for recurrence of block',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it.each([
    {
      values: { weight: '70', nmba: 'other' },
      outcome: 'not_indicated',
      texts: [
        'Not indicated',
        'Only indicated for the reversal of neuromuscular blockade induced by rocuronium or vecuronium',
      ],
    },
    {
      values: { weight: '70', crcl: '29', tof: '2' },
      outcome: 'contraindicated',
      texts: ['Contraindicated', 'Not recommended in severe renal impairment (CrCl <30 mL/min) or dialysis patients'],
    },
    { values: { weight: '70', dialysis: true, tof: '2' }, outcome: 'contraindicated', texts: ['Contraindicated'] },
    {
      values: { weight: '8', age: 'infant', tof: '2' },
      outcome: 'not_established',
      texts: ['Not established', 'Use in children under 2 years of age is not established'],
    },
    {
      values: { weight: '70' },
      outcome: 'unable_to_calculate',
      texts: ['Unable to calculate', 'Please specify block depth (TOF count or PTC)'],
    },
    {
      values: { weight: '70', ptc: '0' },
      outcome: 'unable_to_calculate',
      texts: ['Unable to calculate', 'Profound block (PTC 0, no TOF response)'],
    },
    {
      values: { weight: '80', rsi: true },
      outcome: 'dose',
      texts: [
        '16 mg/kg',
        '1280 mg',
        '7 vials',
        '12.8 mL',
        '1033.48 SAR',
        'Immediate reversal after rapid-sequence rocuronium 1.2 mg/kg',
      ],
    },
    {
      values: { weight: '30', age: 'pediatric', rsi: true, tof: '2' },
      outcome: 'dose',
      texts: ['2 mg/kg', '60 mg', '16 mg/kg immediate reversal is not established in pediatrics'],
    },
    {
      values: { weight: '65,3', tof: '2' },
      outcome: 'dose',
      texts: ['131 mg', '1 vial', '1.3 mL', '147.64 SAR', 'Creatinine clearance not entered'],
    },
  ])('outcome $outcome: $texts', async ({ values, outcome, texts }) => {
    renderWidget(<DoseCalculator />);
    await fill(values);
    const panel = result()!;
    expect(panel.getAttribute('data-outcome')).toBe(outcome);
    for (const text of texts) expect(panel.textContent).toContain(text);
    expect(screen.getAllByRole('region', { name: 'Result' })).toHaveLength(1);
  });

  it.each(['', '0', '-5', 'abc', '250'])(
    'invalid weight "%s": toast "Invalid Input" / "Please enter a valid body weight", no result',
    async (weight) => {
      renderWidget(<DoseCalculator />);
      await fill({ weight, tof: '2' });
      expect(result()).toBeNull();
      const toast = within(screen.getByRole('region', { name: 'Notifications' })).getByRole('alert');
      expect(toast.textContent).toContain('Invalid Input');
      expect(toast.textContent).toContain('Please enter a valid body weight');
      const field = screen.getByLabelText(/^Body weight/);
      expect(field.getAttribute('aria-invalid')).toBe('true');
    },
  );

  it('an invalid weight after a result removes the result', async () => {
    renderWidget(<DoseCalculator />);
    const user = await fill({ weight: '70', tof: '2' });
    expect(result()).not.toBeNull();
    await user.clear(screen.getByLabelText(/^Body weight/));
    await user.click(screen.getByRole('button', { name: 'Calculate Dose' }));
    expect(result()).toBeNull();
  });

  it('ties a field error to its field', async () => {
    renderWidget(<DoseCalculator />);
    await fill({ weight: '70', crcl: '5', tof: '2' });
    const field = screen.getByLabelText(/^Creatinine clearance/);
    expect(field.getAttribute('aria-invalid')).toBe('true');
    const errorId = field.getAttribute('aria-describedby')!.split(' ')[0]!;
    expect(document.getElementById(errorId)?.textContent).toBe(
      'Creatinine clearance must be between 10 and 200 mL/min (leave it empty if unknown)',
    );
    expect(result()).toBeNull();
  });

  it('the serum-creatinine helper fills the CrCl field', async () => {
    renderWidget(<DoseCalculator />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^Body weight/), '70');
    await user.click(screen.getByRole('button', { name: /Calculate from serum creatinine/ }));
    await user.type(screen.getByLabelText(/^Age \(years\)/), '40');
    await user.selectOptions(screen.getByLabelText(/^Sex/), 'male');
    await user.selectOptions(screen.getByLabelText(/^Unit/), 'mg/dL');
    await user.type(screen.getByLabelText(/^Serum creatinine/), '1');
    await user.click(screen.getByRole('button', { name: 'Estimate and use' }));
    // (140 − 40) × 70 / (72 × 1.0) = 97.2 → 97 mL/min
    expect((screen.getByLabelText(/^Creatinine clearance/) as HTMLInputElement).value).toBe('97');
    expect(screen.getByRole('status').textContent).toContain('Estimated CrCl: 97 mL/min');
    // the estimate is calculated with: the result holds it, and its method goes with the inputs
    await user.selectOptions(screen.getByLabelText(/^TOF count/), '2');
    await user.click(screen.getByRole('button', { name: 'Calculate Dose' }));
    expect(result()?.textContent).toContain('140 mg');
  });

  it('"Copy as note" puts the note on the clipboard: the lines "Export PDF to notes" writes', async () => {
    renderWidget(<DoseCalculator />);
    const user = await fill({ weight: '70', crcl: '100', tof: '2' });
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await user.click(screen.getByRole('button', { name: 'Copy as note' }));
    const note = (writeText.mock.calls[0] as unknown as [string])[0];
    const lines = note.split('\n');
    expect(lines[0]).toBe('Dose Calculator');
    expect(lines[1]).toMatch(/^Date and time: \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    expect(lines.slice(2)).toEqual([
      'Clinician: not signed in (Quick Use)',
      '',
      'Patient',
      'No patient record linked.',
      '',
      'Inputs',
      'Age group: Adult (18 years or older)',
      'Body weight: 70 kg',
      'Neuromuscular blocking agent: Rocuronium',
      'Creatinine clearance: 100 mL/min',
      'TOF count: 2',
      'Post-tetanic count (PTC): not entered',
      'RSI scenario (immediate reversal): no',
      'Dialysis: no',
      '',
      'Result',
      'Moderate block (TOF count 2: T2 has reappeared)',
      'Dose: 2 mg/kg = 140 mg',
      'Volume: 1.4 mL at 100 mg/mL (1 x 200 mg/2 mL)',
      'Cost: 147.64 SAR',
      'Single IV bolus over about 10 seconds; monitor TOF ratio every 15-30 seconds until at least 0.9.',
      '',
      'Decision support only: confirm the dose against the product information and clinical judgement.',
    ]);
    expect(within(screen.getByRole('region', { name: 'Notifications' })).getByRole('status').textContent).toContain(
      'Copied',
    );
  });

  it('presets from attributes (weight, age group)', () => {
    renderWidget(<DoseCalculator weight="42" ageGroup="pediatric" />);
    expect((screen.getByLabelText(/^Body weight/) as HTMLInputElement).value).toBe('42');
    expect((screen.getByLabelText(/^Age group/) as HTMLSelectElement).value).toBe('pediatric');
  });
});

describe('<DoseCalculator> export to notes', () => {
  it('in Arabic: the notes carry the English texts (jsPDF has no Arabic glyphs)', async () => {
    exportNotes.mockClear();
    document.documentElement.lang = 'ar';
    try {
      renderWidget(<DoseCalculator />);
      const user = userEvent.setup();
      await user.type(screen.getByLabelText(/^وزن الجسم/), '70');
      await user.type(screen.getByLabelText(/^تصفية الكرياتينين/), '100');
      await user.selectOptions(screen.getByLabelText(/^عدد سلسلة الأربع/), '0');
      await user.click(screen.getByRole('button', { name: 'احسب الجرعة' }));
      const panel = document.querySelector('[data-outcome="dose"]');
      expect(panel?.textContent).toMatch(/[\u0600-\u06FF]/); // shown in Arabic
      await user.click(screen.getByRole('button', { name: 'تصدير PDF إلى الملاحظات' }));
      await waitFor(() => expect(exportNotes).toHaveBeenCalledTimes(1));
      const content = exportNotes.mock.calls[0]?.[1] as NotesContent;
      expect(content.result).toContain('Deep block (TOF count 0)');
      expect(content.result).toContain(
        'Single IV bolus over about 10 seconds; monitor TOF ratio every 15-30 seconds until at least 0.9.',
      );
      expect(JSON.stringify(content)).not.toMatch(/[\u0600-\u06FF]/);
      // "Copy as note" writes that very note, as plain text: English, no bidi marks
      const writeText = vi.fn(async () => {});
      Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
      await user.click(screen.getByRole('button', { name: 'نسخ كملاحظة' }));
      const note = (writeText.mock.calls[0] as unknown as [string])[0];
      expect(note).not.toMatch(/[\u0600-\u06FF\u2066-\u2069]/);
      expect(note.replace(/^Date and time: .*$/m, '')).toBe(
        notesText({ ...content, generatedAt: new Date() }).replace(/^Date and time: .*$/m, ''),
      );
    } finally {
      document.documentElement.lang = 'en';
    }
  });
});

describe('the CrCl sent with a calculation says whether it came from the Cockcroft-Gault helper', () => {
  const form = {
    ageGroup: 'adult' as const,
    bodyWeight: '70',
    nmbaType: 'rocuronium' as const,
    creatinine: '97',
    tofCount: '2' as const,
    ptc: '',
    rsiScenario: false,
    dialysis: false,
  };

  it.each([
    ['typed in', { creatinineEstimate: undefined }, undefined],
    ["the helper's estimate, still in the field", { creatinineEstimate: '97' }, 'cockcroft_gault'],
    ['the estimate, then edited by hand', { creatinineEstimate: '97', creatinine: '90' }, undefined],
    ['the estimate, then cleared', { creatinineEstimate: '97', creatinine: '' }, undefined],
  ])('%s', (_, change, method) => {
    const input = toDoseInput({ ...form, ...change });
    expect(input.creatinineMethod).toBe(method);
    // a typed-in CrCl sends no method at all (the body is as before)
    expect('creatinineMethod' in JSON.parse(JSON.stringify(input))).toBe(method !== undefined);
  });
});
