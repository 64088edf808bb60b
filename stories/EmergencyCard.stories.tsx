import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor } from 'storybook/test';
import { Nav } from '../host/components/Nav.tsx';
import { PageContentContext } from '../host/content/context.ts';
import { CONTENT_AR } from '../host/content/ar/index.ts';
import { CONTENT_EN } from '../host/content/en.ts';
import type { SelectedPatient } from '../widgets/shared/session/session-state.ts';
import { EMERGENCY_CARD_HOLDER_ATTRIBUTE } from '../widgets/shared/emergency-card/open-card.tsx';
import { expectExactText, expectText, localeKit, localeOf, named, startingWith, type LocaleKit } from './locale.tsx';
import { shadowOf, typeInto } from './shadow.ts';

/**
 * The one-tap emergency card (docs/clinical-reference.md §7), opened as a clinician opens it: from the red
 * Emergency button that `<sgx-dose-calculator emergency>` shows in its header. The card covers the page (it
 * lives in its own holder at the end of <body>), so each story's play function opens it, then checks the doses.
 */
interface Args {
  weight: string;
  ageGroup: string;
}

const meta = {
  title: 'Elements/Emergency Card',
  args: { weight: '', ageGroup: 'adult' },
  render: (args) => <sgx-dose-calculator emergency="" weight={args.weight || undefined} age-group={args.ageGroup} />,
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<typeof meta>;

/** A child chosen in the account area: the card takes the weight and the age group. */
const CHILD_20_KG: SelectedPatient = {
  id: 'p-child',
  displayName: 'R.S.',
  mrn: 'KFH-120020',
  yearOfBirth: 2019,
  ageGroup: 'pediatric',
  weightKg: 20,
};

/** Clicks the element's Emergency button and waits for the card: its dialog, and queries inside its holder. */
async function openCard(canvasElement: HTMLElement, { t }: LocaleKit, tag = 'sgx-dose-calculator') {
  const { screen } = await shadowOf(canvasElement, tag);
  const button = await screen.findByRole('button', { name: named(t.emergency.button) });
  await userEvent.setup().click(button);
  const holder = await shadowOf(document.body, `[${EMERGENCY_CARD_HOLDER_ATTRIBUTE}]`);
  const dialog = await holder.screen.findByRole('dialog', { name: named(t.emergency.title) });
  return { button, dialog, card: holder.screen };
}

/** What one line shows: its dose, its volume, its cap or minimum (null when the line has none). */
function lineOf(dialog: HTMLElement, section: 'bradycardia' | 'anaphylaxis', step: string) {
  const line = dialog.querySelector<HTMLElement>(`[data-section="${section}"] [data-step="${step}"]`);
  if (!line) throw new Error(`no line ${section}/${step}`);
  const part = (id: string) => line.querySelector(`[data-testid="${id}"]`);
  return { line, dose: part('emergency-dose'), volume: part('emergency-volume'), limit: part('emergency-limit') };
}

async function chooseChild(card: Awaited<ReturnType<typeof openCard>>['card'], { t }: LocaleKit, weight?: string) {
  await userEvent.setup().click(card.getByRole('radio', { name: named(t.emergency.ageGroups.child) }));
  if (weight) typeInto(card.getByLabelText(startingWith(t.emergency.weight)), weight);
}

export const Adult: Story = {
  name: 'Adult',
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const { dialog, card } = await openCard(canvasElement, kit);
    await expect(card.getByRole('radio', { name: named(kit.t.emergency.ageGroups.adult) })).toBeChecked();
    expectText(card.getByTestId('emergency-protocol'), kit.clinical.emergency.checkLocalProtocol);
    // docs/clinical-reference.md §7, adult: atropine 1 mg; adrenaline 50 micrograms IV (0.5 mL of 100
    // micrograms/mL), 0.5 mg IM (0.5 mL of 1 mg/mL); crystalloid 500-1000 mL. The same figures in every language.
    expectExactText(lineOf(dialog, 'bradycardia', 'atropine').dose, '1 mg');
    expectExactText(lineOf(dialog, 'anaphylaxis', 'adrenalineIv').dose, '50 micrograms');
    expectText(lineOf(dialog, 'anaphylaxis', 'adrenalineIv').volume, '0.5 mL');
    expectText(lineOf(dialog, 'anaphylaxis', 'adrenalineIv').volume, '100 micrograms/mL');
    expectExactText(lineOf(dialog, 'anaphylaxis', 'adrenalineIm').dose, '0.5 mg');
    expectText(lineOf(dialog, 'anaphylaxis', 'adrenalineIm').volume, '1 mg/mL');
    expectExactText(lineOf(dialog, 'anaphylaxis', 'fluids').dose, '500-1000 mL');
    expectText(lineOf(dialog, 'bradycardia', 'atropine').line, kit.clinical.emergency.sources.aha2020.short);
  },
};

export const Child20Kg: Story = {
  name: 'Child, 20 kg (the chosen patient)',
  parameters: { session: { signedIn: true, selectedPatient: CHILD_20_KG } },
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const { t } = kit;
    const { screen } = await shadowOf(canvasElement, 'sgx-dose-calculator');
    // the element has taken the patient: so does the card
    await waitFor(() => expect(screen.getByLabelText(startingWith(t.doseCalculator.bodyWeight))).toHaveValue('20'));
    const { dialog, card } = await openCard(canvasElement, kit);
    await expect(card.getByRole('radio', { name: named(t.emergency.ageGroups.child) })).toBeChecked();
    await expect(card.getByLabelText(startingWith(t.emergency.weight))).toHaveValue('20');
    expectText(dialog, t.emergency.fromPatient('R.S.'));
    // 0.02 mg/kg × 20 = 0.4 mg atropine; 1 microgram/kg × 20 = 20 micrograms adrenaline IV (0.2 mL);
    // 0.01 mg/kg × 20 = 0.2 mg IM; 10 mL/kg × 20 = 200 mL; bradycardia adrenaline 10 micrograms/kg = 200 micrograms
    expectExactText(lineOf(dialog, 'bradycardia', 'atropine').dose, '0.4 mg');
    expectExactText(lineOf(dialog, 'bradycardia', 'secondLine').dose, '200 micrograms');
    expectText(lineOf(dialog, 'bradycardia', 'secondLine').volume, '2 mL');
    expectExactText(lineOf(dialog, 'anaphylaxis', 'adrenalineIv').dose, '20 micrograms');
    expectText(lineOf(dialog, 'anaphylaxis', 'adrenalineIv').volume, '0.2 mL');
    expectExactText(lineOf(dialog, 'anaphylaxis', 'adrenalineIm').dose, '0.2 mg');
    expectExactText(lineOf(dialog, 'anaphylaxis', 'fluids').dose, '200 mL');
    expectText(lineOf(dialog, 'bradycardia', 'atropine').line, kit.clinical.emergency.sources.pals2020.short);
    await expect(dialog.querySelectorAll('[data-testid="emergency-limit"]')).toHaveLength(0);
  },
};

export const FromTheElement: Story = {
  name: "Child, 20 kg (the element's presets)",
  args: { weight: '20', ageGroup: 'paediatric' },
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const { t } = kit;
    // `<sgx-dose-calculator emergency weight="20" age-group="paediatric">`: the card starts with them
    const { dialog, card } = await openCard(canvasElement, kit);
    await expect(card.getByRole('radio', { name: named(t.emergency.ageGroups.child) })).toBeChecked();
    await expect(card.getByLabelText(startingWith(t.emergency.weight))).toHaveValue('20');
    expectExactText(lineOf(dialog, 'bradycardia', 'atropine').dose, '0.4 mg');
    expectExactText(lineOf(dialog, 'anaphylaxis', 'fluids').dose, '200 mL');
  },
};

export const CappedDose: Story = {
  name: 'Capped dose (child, 30 kg)',
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const { t } = kit;
    const { dialog, card } = await openCard(canvasElement, kit);
    await chooseChild(card, kit, '30');
    // 0.02 mg/kg × 30 = 0.6 mg, above the child's maximum: 0.5 mg, and the card says so
    await waitFor(() => expectExactText(lineOf(dialog, 'bradycardia', 'atropine').dose, '0.5 mg'));
    expectExactText(lineOf(dialog, 'bradycardia', 'atropine').limit, t.emergency.capped('0.6 mg'));
    expectExactText(lineOf(dialog, 'anaphylaxis', 'adrenalineIv').dose, '30 micrograms');
    await expect(lineOf(dialog, 'anaphylaxis', 'adrenalineIv').limit).toBeNull();
  },
};

export const CappedAdrenaline: Story = {
  name: 'Capped adrenaline (child, 120 kg)',
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const { t } = kit;
    const { dialog, card } = await openCard(canvasElement, kit);
    await chooseChild(card, kit, '120');
    // docs/clinical-reference.md §7: 10 micrograms/kg × 120 = 1.2 mg, above the 1 mg a dose of PALS 2020
    await waitFor(() => expectExactText(lineOf(dialog, 'bradycardia', 'secondLine').dose, '1 mg'));
    expectText(lineOf(dialog, 'bradycardia', 'secondLine').volume, '10 mL');
    expectExactText(lineOf(dialog, 'bradycardia', 'secondLine').limit, t.emergency.capped('1.2 mg'));
    expectText(lineOf(dialog, 'bradycardia', 'secondLine').line, kit.clinical.emergency.sources.pals2020.short);
  },
};

export const NoWeightYet: Story = {
  name: 'Child, no weight yet',
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const { dialog, card } = await openCard(canvasElement, kit);
    await chooseChild(card, kit);
    const prompt = await card.findByRole('status');
    expectExactText(prompt, kit.clinical.emergency.needsWeight);
    // the lines and the rules by weight, and no dose until the weight is known
    expectText(lineOf(dialog, 'bradycardia', 'atropine').line, kit.clinical.emergency.steps.child.atropine.detail);
    await expect(dialog.querySelectorAll('[data-testid="emergency-dose"]')).toHaveLength(0);
    typeInto(card.getByLabelText(startingWith(kit.t.emergency.weight)), '20');
    await waitFor(() => expectExactText(lineOf(dialog, 'bradycardia', 'atropine').dose, '0.4 mg'));
    await expect(card.queryByRole('status')).toBeNull();
  },
};

export const CloseReturnsFocus: Story = {
  name: 'Escape closes it; focus back on the button',
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const { button, dialog } = await openCard(canvasElement, kit);
    await userEvent.setup().keyboard('{Escape}');
    // jsdom sends no Escape to a dialog by itself: the card's own keydown handler is what the key reaches
    if (dialog.isConnected) dialog.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    await waitFor(() => expect(document.querySelector(`[${EMERGENCY_CARD_HOLDER_ATTRIBUTE}]`)).toBeNull());
    const root = button.getRootNode() as ShadowRoot;
    await waitFor(() => expect(root.activeElement).toBe(button));
  },
};

export const FromTheAdvisor: Story = {
  name: 'From the bradycardia advisor',
  render: () => <sgx-bradycardia-advisor emergency="" />,
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const { dialog, card } = await openCard(canvasElement, kit, 'sgx-bradycardia-advisor');
    await chooseChild(card, kit, '20');
    await waitFor(() => expectExactText(lineOf(dialog, 'bradycardia', 'atropine').dose, '0.4 mg'));
    expectExactText(lineOf(dialog, 'anaphylaxis', 'adrenalineIv').dose, '20 micrograms');
  },
};

/** The page's content in each locale (the page itself loads the Arabic on /ar/ only: host/content/languages.ts). */
const PAGE_CONTENT = { en: CONTENT_EN, ar: CONTENT_AR };

export const FromThePageBar: Story = {
  name: "From the product page's bar",
  render: (_args, { globals }) => (
    <PageContentContext.Provider value={PAGE_CONTENT[localeOf(globals)]}>
      <div style={{ position: 'relative', minBlockSize: '80px' }}>
        <Nav />
      </div>
    </PageContentContext.Provider>
  ),
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const label = PAGE_CONTENT[kit.locale].chrome.emergency;
    // outside <nav>: the ten section links stay the navigation's links
    const button = canvasElement.querySelector<HTMLButtonElement>('header button[data-emergency]')!;
    await expect(button.closest('nav')).toBeNull();
    await expect(button.textContent).toContain(label);
    await userEvent.setup().click(button);
    const holder = await shadowOf(document.body, `[${EMERGENCY_CARD_HOLDER_ATTRIBUTE}]`);
    const dialog = await holder.screen.findByRole('dialog', { name: named(kit.t.emergency.title) });
    await expect(document.querySelector(`[${EMERGENCY_CARD_HOLDER_ATTRIBUTE}]`)!.getAttribute('lang')).toBe(kit.locale);
    await chooseChild(holder.screen, kit, '20');
    await waitFor(() => expectExactText(lineOf(dialog, 'bradycardia', 'atropine').dose, '0.4 mg'));
    expectExactText(lineOf(dialog, 'anaphylaxis', 'adrenalineIv').dose, '20 micrograms');
  },
};
