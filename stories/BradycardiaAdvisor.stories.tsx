import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor } from 'storybook/test';
import { DEMO_PATIENTS, json } from './mocks.tsx';
import { shadowOf, typeInto } from './shadow.ts';

interface Args {
  apiBase: string;
}

const meta = {
  title: 'Elements/Bradycardia Advisor',
  tags: ['autodocs'],
  args: { apiBase: '' },
  argTypes: {
    apiBase: {
      control: 'text',
      description: '`api-base` attribute: the API origin ("" = same origin; the stories mock fetch)',
    },
  },
  render: (args) => <sgx-bradycardia-advisor api-base={args.apiBase || undefined} />,
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<typeof meta>;

const TAG = 'sgx-bradycardia-advisor';

interface CaseValues {
  weight?: string;
  age?: string;
  baselineHr?: string;
  creatinine?: string;
  cardiacHistory?: 'none' | 'bradycardia' | 'av_block' | 'pacemaker';
  betaBlocker?: boolean;
  dexmedetomidine?: boolean;
}

/** A low-risk adult: 70 kg, 40 years (under 65: no age factor), HR 72 (60 or more: no HR factor), CrCl 90. */
const BASE_CASE = { weight: '70', age: '40', baselineHr: '72', creatinine: '90' } as const;

/**
 * Fills the fields given (text fields and selects with typeInto, checkboxes by clicking), then clicks "Assess Risk".
 */
async function fillAndAssess(canvasElement: HTMLElement, values: CaseValues) {
  const { screen } = await shadowOf(canvasElement, TAG);
  const user = userEvent.setup();
  if (values.weight) typeInto(screen.getByLabelText(/^Weight/), values.weight);
  if (values.age) typeInto(screen.getByLabelText(/^Age/), values.age);
  if (values.baselineHr) typeInto(screen.getByLabelText(/^Baseline heart rate/), values.baselineHr);
  if (values.creatinine) typeInto(screen.getByLabelText(/^Creatinine clearance/), values.creatinine);
  if (values.cardiacHistory) typeInto(screen.getByLabelText(/^Cardiac history/), values.cardiacHistory);
  if (values.betaBlocker) await user.click(screen.getByRole('checkbox', { name: 'Beta-blocker' }));
  if (values.dexmedetomidine) await user.click(screen.getByRole('checkbox', { name: 'Dexmedetomidine' }));
  await user.click(screen.getByRole('button', { name: 'Assess Risk' }));
  return screen;
}

/** Asserts the risk badge, the percent, the success toast and the dose line. */
async function expectRisk(
  screen: Awaited<ReturnType<typeof fillAndAssess>>,
  band: 'LOW' | 'MODERATE' | 'HIGH',
  percent: string,
  dose: string,
) {
  // Exact text (toHaveTextContent matches substrings: "2.0%" would accept "12.0%").
  await expect((await screen.findByTestId('risk-band')).textContent).toBe(band);
  await expect(screen.getByTestId('risk-percent').textContent).toBe(`${percent}%`);
  await expect(screen.getByTestId('advisor-dose').textContent).toBe(dose);
  const toasts = screen.getByRole('region', { name: 'Notifications' });
  await waitFor(() => expect(toasts).toHaveTextContent('Risk Assessment Complete'));
  await expect(toasts).toHaveTextContent(`Bradycardia risk: ${band} (${percent}%)`);
}

export const Idle: Story = {
  play: async ({ canvasElement }) => {
    const { screen } = await shadowOf(canvasElement, TAG);
    await expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent('Bradycardia Risk');
    await expect(screen.getByText('HCP Only')).toBeInTheDocument();
    await expect(screen.getByRole('button', { name: 'Assess Risk' })).toBeEnabled();
    await expect(screen.queryByTestId('risk-band')).toBeNull();
    await expect(screen.queryByTestId('advisor-dose')).toBeNull();
  },
};

export const MissingInformation: Story = {
  name: 'Missing information toast',
  play: async ({ canvasElement }) => {
    const screen = await fillAndAssess(canvasElement, {});
    const toasts = screen.getByRole('region', { name: 'Notifications' });
    await waitFor(() => expect(toasts).toHaveTextContent('Missing Information'));
    await expect(toasts).toHaveTextContent('Please fill in all required fields');
    // Each empty required field is marked invalid.
    await expect(screen.getByLabelText(/^Weight/)).toHaveAttribute('aria-invalid', 'true');
    await expect(screen.queryByTestId('risk-band')).toBeNull();
  },
};

export const Loading: Story = {
  name: 'Loading (request never answers)',
  parameters: { api: { hang: true } },
  play: async ({ canvasElement }) => {
    const screen = await fillAndAssess(canvasElement, BASE_CASE);
    const button = await screen.findByRole('button', { name: 'Assessing…' });
    await expect(button).toBeDisabled();
    await expect(button).toHaveAttribute('aria-busy', 'true');
    await expect(screen.queryByTestId('risk-band')).toBeNull();
  },
};

export const RiskLow: Story = {
  name: 'Risk: LOW (no factors)',
  play: async ({ canvasElement }) => {
    const screen = await fillAndAssess(canvasElement, BASE_CASE);
    // No factor applies: baseline 2.0 %. Odds 2 / 98 = 0.0204 → 0.0204 / 1.0204 = 2.0 % (< 5 %: LOW).
    // Dose at TOF 2+ (the default depth): 2 mg/kg × 70 kg = 140 mg, 140 / 100 mg/mL = 1.4 mL.
    await expectRisk(screen, 'LOW', '2.0', '140 mg (1.4 mL)');
    await expect(screen.getByText('No risk factor applied: baseline risk.')).toBeInTheDocument();
  },
};

export const RiskModerate: Story = {
  name: 'Risk: MODERATE (beta-blocker + dexmedetomidine)',
  play: async ({ canvasElement }) => {
    const screen = await fillAndAssess(canvasElement, { ...BASE_CASE, betaBlocker: true, dexmedetomidine: true });
    // Odds 2 / 98 = 0.020408 × 2.0 (beta-blocker) × 2.0 (dexmedetomidine) = 0.081633;
    // 0.081633 / 1.081633 = 7.547 % → 7.5 % (5 % to under 15 %: MODERATE). Dose 2 mg/kg × 70 kg = 140 mg (1.4 mL).
    await expectRisk(screen, 'MODERATE', '7.5', '140 mg (1.4 mL)');
  },
};

export const RiskHigh: Story = {
  name: 'Risk: HIGH (AV block + beta-blocker + HR 45)',
  play: async ({ canvasElement }) => {
    const screen = await fillAndAssess(canvasElement, {
      ...BASE_CASE,
      baselineHr: '45',
      cardiacHistory: 'av_block',
      betaBlocker: true,
    });
    // Odds 2 / 98 = 0.020408 × 3.0 (AV block) × 2.0 (beta-blocker) × 2.5 (HR below 50) = 0.020408 × 15 = 0.306122;
    // 0.306122 / 1.306122 = 23.44 % → 23.4 % (15 % or more: HIGH). Dose 2 mg/kg × 70 kg = 140 mg (1.4 mL).
    await expectRisk(screen, 'HIGH', '23.4', '140 mg (1.4 mL)');
  },
};

export const Failure: Story = {
  name: 'Server error toast',
  parameters: {
    api: {
      handlers: {
        'POST /api/tools/run': () => json(500, { message: 'Something went wrong on the server. Please try again.' }),
      },
    },
  },
  play: async ({ canvasElement }) => {
    const screen = await fillAndAssess(canvasElement, BASE_CASE);
    const toasts = screen.getByRole('region', { name: 'Notifications' });
    await waitFor(() => expect(toasts).toHaveTextContent('Calculation Failed'));
    await expect(toasts).toHaveTextContent('Something went wrong on the server. Please try again.');
    await expect(screen.queryByTestId('risk-band')).toBeNull();
    await expect(screen.getByRole('button', { name: 'Assess Risk' })).toBeEnabled();
  },
};

export const SignedInWithPatient: Story = {
  name: 'Signed in, patient chosen',
  parameters: { session: { signedIn: true, selectedPatient: DEMO_PATIENTS[0] } },
  play: async ({ canvasElement }) => {
    const { screen } = await shadowOf(canvasElement, TAG);
    // The patient chosen in the account area (F.A., 72 kg) fills the weight.
    await waitFor(() => expect(screen.getByLabelText(/^Weight/)).toHaveValue('72'));
    // The patient list (GET /api/patients) has loaded: the patient select shows F.A.
    await waitFor(() => expect(screen.getByLabelText('Patient')).toHaveValue('p1'));
    const filled = await fillAndAssess(canvasElement, { age: '40', baselineHr: '72', creatinine: '90' });
    // 2 mg/kg × 72 kg = 144 mg, 1.44 mL → 1.4 mL.
    await expectRisk(filled, 'LOW', '2.0', '144 mg (1.4 mL)');
    await expect(filled.getByText('Linked to patient F.A.')).toBeInTheDocument();
  },
};
