import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor } from 'storybook/test';
import { expectText, localeKit, startingWith, type LocaleKit } from './locale.tsx';
import { DEMO_PATIENTS } from './mocks.tsx';
import { shadowOf, typeInto } from './shadow.ts';

interface Args {
  weight: string;
  ageGroup: string;
}

const meta = {
  title: 'Elements/Dose Calculator',
  tags: ['autodocs'],
  args: { weight: '', ageGroup: 'adult' },
  argTypes: {
    weight: { control: 'text', description: '`weight` attribute: preset body weight in kg' },
    ageGroup: {
      control: 'select',
      options: ['adult', 'pediatric', 'infant', 'paediatric', 'elderly'],
      description: '`age-group` attribute (any case; `paediatric` too; anything else leaves it unset)',
    },
  },
  render: (args) => <sgx-dose-calculator weight={args.weight || undefined} age-group={args.ageGroup} />,
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Fills the fields given by their labels in the story's locale, then clicks "Calculate Dose". */
async function fillAndCalculate(
  canvasElement: HTMLElement,
  { t }: LocaleKit,
  values: {
    weight?: string;
    tof?: string;
    ptc?: string;
    crcl?: string;
    nmba?: string;
    rsi?: boolean;
    dialysis?: boolean;
  },
) {
  const { screen } = await shadowOf(canvasElement, 'sgx-dose-calculator');
  const user = userEvent.setup();
  const d = t.doseCalculator;
  if (values.weight) typeInto(screen.getByLabelText(startingWith(d.bodyWeight)), values.weight);
  if (values.nmba) typeInto(screen.getByLabelText(startingWith(d.nmbaType)), values.nmba);
  if (values.crcl) typeInto(screen.getByLabelText(startingWith(d.creatinine)), values.crcl);
  if (values.tof) typeInto(screen.getByLabelText(startingWith(d.tofCount)), values.tof);
  if (values.ptc) typeInto(screen.getByLabelText(startingWith(d.ptc)), values.ptc);
  if (values.rsi) await user.click(screen.getByRole('checkbox', { name: startingWith(d.rsiScenario) }));
  if (values.dialysis) await user.click(screen.getByRole('checkbox', { name: d.dialysis }));
  await user.click(screen.getByRole('button', { name: d.calculate }));
  return screen;
}

export const Empty: Story = {
  play: async ({ canvasElement, globals }) => {
    const { t } = localeKit(globals);
    const { screen } = await shadowOf(canvasElement, 'sgx-dose-calculator');
    await expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent(t.doseCalculator.title);
    await expect(screen.queryByRole('region', { name: t.doseCalculator.resultHeading })).toBeNull();
  },
};

export const Dose: Story = {
  name: 'Outcome: dose (70 kg, TOF 0)',
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const { t } = kit;
    const screen = await fillAndCalculate(canvasElement, kit, { weight: '70', crcl: '100', tof: '0' });
    const result = await screen.findByRole('region', { name: t.doseCalculator.resultHeading });
    // 4 mg/kg × 70 kg = 280 mg → 2 vials, 2.8 mL, 295.28 SAR: the same figures in every language.
    for (const text of ['4 mg/kg', '280 mg', t.doseCalculator.vialCount(2), '2.8 mL', '295.28 SAR'])
      expectText(result, text);
  },
};

export const ImmediateReversal: Story = {
  name: 'Outcome: dose (RSI, 16 mg/kg, more than one box)',
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const screen = await fillAndCalculate(canvasElement, kit, { weight: '126', rsi: true });
    // 16 mg/kg × 126 kg = 2016 mg → 11 vials
    expectText(
      await screen.findByRole('region', { name: kit.t.doseCalculator.resultHeading }),
      kit.t.doseCalculator.vialCount(11),
    );
  },
};

export const NotIndicated: Story = {
  name: 'Outcome: not indicated',
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const screen = await fillAndCalculate(canvasElement, kit, { weight: '70', nmba: 'other' });
    expectText(
      await screen.findByRole('region', { name: kit.t.doseCalculator.resultHeading }),
      kit.clinical.dose.outcomeTitles.not_indicated,
    );
  },
};

export const UnknownAgeGroup: Story = {
  name: 'Preset: an age group it does not know',
  args: { ageGroup: 'elderly' },
  play: async ({ canvasElement, globals }) => {
    const { t } = localeKit(globals);
    const { screen } = await shadowOf(canvasElement, 'sgx-dose-calculator');
    // never read as adult: the field is unset and says why (`paediatric`, `Pediatric`, ` infant ` are taken)
    const field = screen.getByLabelText(startingWith(t.doseCalculator.ageGroup));
    await expect(field).toHaveValue('');
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    expectText(
      canvasElement.querySelector('sgx-dose-calculator')!.shadowRoot!.querySelector('[part="form"]'),
      t.doseCalculator.unknownAgeGroupPreset('elderly'),
    );
  },
};

export const Contraindicated: Story = {
  name: 'Outcome: contraindicated',
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const screen = await fillAndCalculate(canvasElement, kit, { weight: '70', crcl: '25', tof: '2' });
    expectText(
      await screen.findByRole('region', { name: kit.t.doseCalculator.resultHeading }),
      kit.clinical.dose.renalWarning,
    );
  },
};

export const NotEstablished: Story = {
  name: 'Outcome: not established (infant)',
  args: { ageGroup: 'infant' },
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const screen = await fillAndCalculate(canvasElement, kit, { weight: '6', tof: '2' });
    expectText(
      await screen.findByRole('region', { name: kit.t.doseCalculator.resultHeading }),
      kit.clinical.dose.infantWarning,
    );
  },
};

export const UnableToCalculate: Story = {
  name: 'Outcome: unable to calculate',
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const screen = await fillAndCalculate(canvasElement, kit, { weight: '70' });
    expectText(
      await screen.findByRole('region', { name: kit.t.doseCalculator.resultHeading }),
      kit.clinical.dose.specifyDepth,
    );
  },
};

export const InvalidWeight: Story = {
  name: 'Invalid weight toast',
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const { t } = kit;
    const screen = await fillAndCalculate(canvasElement, kit, { tof: '2' });
    const toasts = screen.getByRole('region', { name: t.common.notifications });
    await waitFor(() => expectText(toasts, t.doseCalculator.invalidInputTitle));
    expectText(toasts, kit.clinical.doseInput.invalidWeight);
    await expect(screen.queryByRole('region', { name: t.doseCalculator.resultHeading })).toBeNull();
  },
};

export const SignedInWithPatient: Story = {
  name: 'Signed in, patient chosen',
  parameters: { session: { signedIn: true, selectedPatient: DEMO_PATIENTS[0] } },
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const { t } = kit;
    const { screen } = await shadowOf(canvasElement, 'sgx-dose-calculator');
    await waitFor(() => expect(screen.getByLabelText(startingWith(t.doseCalculator.bodyWeight))).toHaveValue('72'));
    const filled = await fillAndCalculate(canvasElement, kit, { tof: '2' });
    const result = await filled.findByRole('region', { name: t.doseCalculator.resultHeading });
    expectText(result, t.records.patientLine('F.A.', 'KFH-004512'));
    await waitFor(() => expectText(result, t.records.savedToHistory));
  },
};

export const PresetChanged: Story = {
  name: 'Preset changed by the page (old result cleared)',
  args: { weight: '70' },
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const { t } = kit;
    const screen = await fillAndCalculate(canvasElement, kit, { tof: '2' });
    expectText(await screen.findByRole('region', { name: t.doseCalculator.resultHeading }), '140 mg');
    // What a host framework does on a patient switch: the attribute changes after the first render.
    canvasElement.querySelector('sgx-dose-calculator')!.setAttribute('weight', '80');
    await waitFor(() => expect(screen.getByLabelText(startingWith(t.doseCalculator.bodyWeight))).toHaveValue('80'));
    await expect(screen.queryByRole('region', { name: t.doseCalculator.resultHeading })).toBeNull();
    expectText(screen.getByTestId('dose-notice'), t.doseCalculator.resultCleared);
  },
};
