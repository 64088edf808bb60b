import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { withoutIsolates } from '../clinical/bidi.ts';
import { assessBradycardia } from '../clinical/index.ts';
import { INTERNAL_ERROR_MESSAGE } from '../contracts/api-messages.ts';
import { expectExactText, expectText, localeKit, startingWith, type LocaleKit } from './locale.tsx';
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
/** BASE_CASE as the advisor sends it (the form's defaults: no history, no drug, TOF 2 or more, rocuronium). */
const LOW_RISK_INPUTS = {
  weight: 70,
  age: 40,
  baselineHr: 72,
  creatinine: 90,
  cardiacHistory: 'none',
  betaBlocker: false,
  dexmedetomidine: false,
  digoxin: false,
  amiodarone: false,
  highDoseOpioids: false,
  vagalStimulus: false,
  depth: 'tof_2_plus',
  nmba: 'rocuronium',
} as const;

/**
 * Fills the fields given (text fields and selects with typeInto, checkboxes by clicking), found by their
 * labels in the story's locale, then clicks "Assess Risk".
 */
async function fillAndAssess(canvasElement: HTMLElement, { t }: LocaleKit, values: CaseValues) {
  const { screen } = await shadowOf(canvasElement, TAG);
  const user = userEvent.setup();
  const a = t.advisor;
  if (values.weight) typeInto(screen.getByLabelText(startingWith(a.weight)), values.weight);
  if (values.age) typeInto(screen.getByLabelText(startingWith(a.age)), values.age);
  if (values.baselineHr) typeInto(screen.getByLabelText(startingWith(a.baselineHr)), values.baselineHr);
  if (values.creatinine) typeInto(screen.getByLabelText(startingWith(a.creatinine)), values.creatinine);
  if (values.cardiacHistory) typeInto(screen.getByLabelText(startingWith(a.cardiacHistory)), values.cardiacHistory);
  if (values.betaBlocker) await user.click(screen.getByRole('checkbox', { name: a.betaBlocker }));
  if (values.dexmedetomidine) await user.click(screen.getByRole('checkbox', { name: a.dexmedetomidine }));
  await user.click(screen.getByRole('button', { name: a.assess }));
  return screen;
}

/**
 * Asserts the risk badge, the percent, the success toast and the dose line: the band's name in the
 * story's locale, the same figures in both (the Arabic ones are isolated runs: compared without the marks).
 */
async function expectRisk(
  screen: Awaited<ReturnType<typeof fillAndAssess>>,
  { t }: LocaleKit,
  band: 'LOW' | 'MODERATE' | 'HIGH',
  percent: string,
  dose: { mg: number; ml: string },
) {
  // Exact text (toHaveTextContent matches substrings: "2.0%" would accept "12.0%").
  expectExactText(await screen.findByTestId('risk-band'), t.advisor.riskBands[band]);
  expectExactText(screen.getByTestId('risk-percent'), t.advisor.percent(percent));
  expectExactText(screen.getByTestId('advisor-dose'), t.advisor.doseLine(dose.mg, dose.ml));
  const toasts = screen.getByRole('region', { name: t.common.notifications });
  await waitFor(() => expectText(toasts, t.advisor.successTitle));
  expectText(toasts, t.advisor.successDescription(band, Number(percent)));
}

export const Idle: Story = {
  play: async ({ canvasElement, globals }) => {
    const { t } = localeKit(globals);
    const { screen } = await shadowOf(canvasElement, TAG);
    expectText(screen.getByRole('heading', { level: 2 }), t.advisor.title);
    await expect(screen.getByText(t.advisor.hcpOnly)).toBeInTheDocument();
    await expect(screen.getByRole('button', { name: t.advisor.assess })).toBeEnabled();
    await expect(screen.queryByTestId('risk-band')).toBeNull();
    await expect(screen.queryByTestId('advisor-dose')).toBeNull();
  },
};

export const MissingInformation: Story = {
  name: 'Missing information toast',
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const { t } = kit;
    const screen = await fillAndAssess(canvasElement, kit, {});
    const toasts = screen.getByRole('region', { name: t.common.notifications });
    await waitFor(() => expectText(toasts, t.advisor.missingTitle));
    expectText(toasts, t.advisor.missingDescription);
    // Each empty required field is marked invalid.
    await expect(screen.getByLabelText(startingWith(t.advisor.weight))).toHaveAttribute('aria-invalid', 'true');
    await expect(screen.queryByTestId('risk-band')).toBeNull();
  },
};

export const Loading: Story = {
  name: 'Loading (request never answers)',
  parameters: { api: { hang: true } },
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const screen = await fillAndAssess(canvasElement, kit, BASE_CASE);
    const button = await screen.findByRole('button', { name: kit.t.advisor.assessing });
    await expect(button).toBeDisabled();
    await expect(button).toHaveAttribute('aria-busy', 'true');
    await expect(screen.queryByTestId('risk-band')).toBeNull();
  },
};

export const RiskLow: Story = {
  name: 'Risk: LOW (no factors)',
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const screen = await fillAndAssess(canvasElement, kit, BASE_CASE);
    // No factor applies: baseline 2.0 %. Odds 2 / 98 = 0.0204 → 0.0204 / 1.0204 = 2.0 % (< 5 %: LOW).
    // Dose at TOF 2+ (the default depth): 2 mg/kg × 70 kg = 140 mg, 140 / 100 mg/mL = 1.4 mL.
    await expectRisk(screen, kit, 'LOW', '2.0', { mg: 140, ml: '1.4' });
    await expect(screen.getByText(kit.t.advisor.noFactors)).toBeInTheDocument();
    // The plan is the API's answer, asked for in the element's language (?lang=): clinical/'s texts of that language.
    const expected = assessBradycardia({ ...LOW_RISK_INPUTS }, kit.clinical);
    if (expected.kind !== 'assessment') throw new Error('the low-risk case should be valid');
    const preparation = screen.getByRole('list', { name: kit.t.advisor.preparation });
    await expect(
      within(preparation)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(expected.recommendations.preparation.map(withoutIsolates));
  },
};

export const RiskModerate: Story = {
  name: 'Risk: MODERATE (beta-blocker + dexmedetomidine)',
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const screen = await fillAndAssess(canvasElement, kit, { ...BASE_CASE, betaBlocker: true, dexmedetomidine: true });
    // Odds 2 / 98 = 0.020408 × 2.0 (beta-blocker) × 2.0 (dexmedetomidine) = 0.081633;
    // 0.081633 / 1.081633 = 7.547 % → 7.5 % (5 % to under 15 %: MODERATE). Dose 2 mg/kg × 70 kg = 140 mg (1.4 mL).
    await expectRisk(screen, kit, 'MODERATE', '7.5', { mg: 140, ml: '1.4' });
  },
};

export const RiskHigh: Story = {
  name: 'Risk: HIGH (AV block + beta-blocker + HR 45)',
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const screen = await fillAndAssess(canvasElement, kit, {
      ...BASE_CASE,
      baselineHr: '45',
      cardiacHistory: 'av_block',
      betaBlocker: true,
    });
    // Odds 2 / 98 = 0.020408 × 3.0 (AV block) × 2.0 (beta-blocker) × 2.5 (HR below 50) = 0.020408 × 15 = 0.306122;
    // 0.306122 / 1.306122 = 23.44 % → 23.4 % (15 % or more: HIGH). Dose 2 mg/kg × 70 kg = 140 mg (1.4 mL).
    await expectRisk(screen, kit, 'HIGH', '23.4', { mg: 140, ml: '1.4' });
  },
};

export const Failure: Story = {
  name: 'Server error toast',
  parameters: {
    api: {
      handlers: {
        // The API's own message (English, part of the API): an Arabic element shows it in Arabic.
        'POST /api/tools/run': () => json(500, { message: INTERNAL_ERROR_MESSAGE }),
      },
    },
  },
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const { t } = kit;
    const screen = await fillAndAssess(canvasElement, kit, BASE_CASE);
    const toasts = screen.getByRole('region', { name: t.common.notifications });
    await waitFor(() => expectText(toasts, t.advisor.failureTitle));
    expectText(toasts, kit.serverMessage(INTERNAL_ERROR_MESSAGE));
    await expect(screen.queryByTestId('risk-band')).toBeNull();
    await expect(screen.getByRole('button', { name: t.advisor.assess })).toBeEnabled();
  },
};

export const SignedInWithPatient: Story = {
  name: 'Signed in, patient chosen',
  parameters: { session: { signedIn: true, selectedPatient: DEMO_PATIENTS[0] } },
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const { t } = kit;
    const { screen } = await shadowOf(canvasElement, TAG);
    // The patient chosen in the account area (F.A., 72 kg) fills the weight.
    await waitFor(() => expect(screen.getByLabelText(startingWith(t.advisor.weight))).toHaveValue('72'));
    // The patient list (GET /api/patients) has loaded: the patient select shows F.A.
    await waitFor(() => expect(screen.getByLabelText(t.advisor.patient)).toHaveValue('p1'));
    const filled = await fillAndAssess(canvasElement, kit, { age: '40', baselineHr: '72', creatinine: '90' });
    // 2 mg/kg × 72 kg = 144 mg, 1.44 mL → 1.4 mL.
    await expectRisk(filled, kit, 'LOW', '2.0', { mg: 144, ml: '1.4' });
    // the name is a Latin run of its own in Arabic (lang="en"): the paragraph's whole text
    const linked = filled.getByText(
      (_, element) => element?.localName === 'p' && element.textContent === withoutIsolates(t.advisor.linkedTo('F.A.')),
    );
    await expect(linked).toBeInTheDocument();
  },
};
