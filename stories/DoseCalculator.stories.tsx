import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor } from 'storybook/test';
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
    ageGroup: { control: 'select', options: ['adult', 'pediatric', 'infant'], description: '`age-group` attribute' },
  },
  render: (args) => <sgx-dose-calculator weight={args.weight || undefined} age-group={args.ageGroup} />,
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<typeof meta>;

async function fillAndCalculate(
  canvasElement: HTMLElement,
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
  if (values.weight) typeInto(screen.getByLabelText(/^Body weight/), values.weight);
  if (values.nmba) typeInto(screen.getByLabelText(/^Neuromuscular blocking agent/), values.nmba);
  if (values.crcl) typeInto(screen.getByLabelText(/^Creatinine clearance/), values.crcl);
  if (values.tof) typeInto(screen.getByLabelText(/^TOF count/), values.tof);
  if (values.ptc) typeInto(screen.getByLabelText(/^Post-tetanic count/), values.ptc);
  if (values.rsi) await user.click(screen.getByRole('checkbox', { name: /rapid-sequence/ }));
  if (values.dialysis) await user.click(screen.getByRole('checkbox', { name: 'Patient on dialysis' }));
  await user.click(screen.getByRole('button', { name: 'Calculate Dose' }));
  return screen;
}

export const Empty: Story = {
  play: async ({ canvasElement }) => {
    const { screen } = await shadowOf(canvasElement, 'sgx-dose-calculator');
    await expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent('Dose Calculator');
    await expect(screen.queryByRole('region', { name: 'Result' })).toBeNull();
  },
};

export const Dose: Story = {
  name: 'Outcome: dose (70 kg, TOF 0)',
  play: async ({ canvasElement }) => {
    const screen = await fillAndCalculate(canvasElement, { weight: '70', crcl: '100', tof: '0' });
    const result = await screen.findByRole('region', { name: 'Result' });
    // 4 mg/kg × 70 kg = 280 mg → 2 vials, 2.8 mL, 295.28 SAR
    for (const text of ['4 mg/kg', '280 mg', '2 vials', '2.8 mL', '295.28 SAR'])
      await expect(result).toHaveTextContent(text);
  },
};

export const ImmediateReversal: Story = {
  name: 'Outcome: dose (RSI, 16 mg/kg, more than one box)',
  play: async ({ canvasElement }) => {
    const screen = await fillAndCalculate(canvasElement, { weight: '126', rsi: true });
    // 16 mg/kg × 126 kg = 2016 mg → 11 vials
    await expect(await screen.findByRole('region', { name: 'Result' })).toHaveTextContent('11 vials');
  },
};

export const NotIndicated: Story = {
  name: 'Outcome: not indicated',
  play: async ({ canvasElement }) => {
    const screen = await fillAndCalculate(canvasElement, { weight: '70', nmba: 'other' });
    await expect(await screen.findByRole('region', { name: 'Result' })).toHaveTextContent('Not indicated');
  },
};

export const Contraindicated: Story = {
  name: 'Outcome: contraindicated',
  play: async ({ canvasElement }) => {
    const screen = await fillAndCalculate(canvasElement, { weight: '70', crcl: '25', tof: '2' });
    await expect(await screen.findByRole('region', { name: 'Result' })).toHaveTextContent(
      'Not recommended in severe renal impairment (CrCl <30 mL/min) or dialysis patients',
    );
  },
};

export const NotEstablished: Story = {
  name: 'Outcome: not established (infant)',
  args: { ageGroup: 'infant' },
  play: async ({ canvasElement }) => {
    const screen = await fillAndCalculate(canvasElement, { weight: '6', tof: '2' });
    await expect(await screen.findByRole('region', { name: 'Result' })).toHaveTextContent(
      'Use in children under 2 years of age is not established',
    );
  },
};

export const UnableToCalculate: Story = {
  name: 'Outcome: unable to calculate',
  play: async ({ canvasElement }) => {
    const screen = await fillAndCalculate(canvasElement, { weight: '70' });
    await expect(await screen.findByRole('region', { name: 'Result' })).toHaveTextContent(
      'Please specify block depth (TOF count or PTC)',
    );
  },
};

export const InvalidWeight: Story = {
  name: 'Invalid weight toast',
  play: async ({ canvasElement }) => {
    const screen = await fillAndCalculate(canvasElement, { tof: '2' });
    const toasts = screen.getByRole('region', { name: 'Notifications' });
    await waitFor(() => expect(toasts).toHaveTextContent('Invalid Input'));
    await expect(toasts).toHaveTextContent('Please enter a valid body weight');
    await expect(screen.queryByRole('region', { name: 'Result' })).toBeNull();
  },
};

export const SignedInWithPatient: Story = {
  name: 'Signed in, patient chosen',
  parameters: { session: { signedIn: true, selectedPatient: DEMO_PATIENTS[0] } },
  play: async ({ canvasElement }) => {
    const { screen } = await shadowOf(canvasElement, 'sgx-dose-calculator');
    await waitFor(() => expect(screen.getByLabelText(/^Body weight/)).toHaveValue('72'));
    const filled = await fillAndCalculate(canvasElement, { tof: '2' });
    const result = await filled.findByRole('region', { name: 'Result' });
    await expect(result).toHaveTextContent('Patient: F.A. (KFH-004512)');
    await waitFor(() => expect(result).toHaveTextContent('Saved to your history'));
  },
};

export const PresetChanged: Story = {
  name: 'Preset changed by the page (old result cleared)',
  args: { weight: '70' },
  play: async ({ canvasElement }) => {
    const screen = await fillAndCalculate(canvasElement, { tof: '2' });
    await expect(await screen.findByRole('region', { name: 'Result' })).toHaveTextContent('140 mg');
    // What a host framework does on a patient switch: the attribute changes after the first render.
    canvasElement.querySelector('sgx-dose-calculator')!.setAttribute('weight', '80');
    await waitFor(() => expect(screen.getByLabelText(/^Body weight/)).toHaveValue('80'));
    await expect(screen.queryByRole('region', { name: 'Result' })).toBeNull();
    await expect(screen.getByTestId('dose-notice')).toHaveTextContent(
      'The previous result was for the old values and has been cleared.',
    );
  },
};
