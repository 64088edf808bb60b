import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { expectNoText, expectText, localeKit, named, startingWith, type LocaleKit } from './locale.tsx';
import { json } from './mocks.tsx';
import { FIRST_USE, shadowOf, typeInto } from './shadow.ts';

interface Args {
  apiBase: string;
}

/** The account area is the dialog behind the Profile button of a signed-in <sgx-access-portal>. */
const meta = {
  title: 'Elements/Account Area',
  tags: ['autodocs'],
  args: { apiBase: '' },
  argTypes: {
    apiBase: {
      control: 'text',
      description: '`api-base` attribute of <sgx-access-portal>: the API origin (empty: same origin)',
    },
  },
  parameters: { session: { signedIn: true } },
  render: (args) => <sgx-access-portal api-base={args.apiBase || undefined} />,
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<typeof meta>;

type Section = 'patients' | 'history' | 'exports' | 'profile';

/** Opens the account dialog with the Profile button, then the given section's tab (names in the story's locale). */
async function openAccount(canvasElement: HTMLElement, { t }: LocaleKit, section: Section = 'patients') {
  const { screen } = await shadowOf(canvasElement, 'sgx-access-portal');
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: t.portal.profile }));
  const dialog = within(await screen.findByRole('dialog', { name: t.account.title }, FIRST_USE));
  const tab = dialog.getByRole('tab', { name: t.account.tabs[section] });
  if (section !== 'patients') await user.click(tab);
  await waitFor(() => expect(tab).toHaveAttribute('aria-selected', 'true'));
  return { screen, user, dialog, panel: within(dialog.getByRole('tabpanel')) };
}

/** The row of a patient in the list. */
async function patientRow(panel: ReturnType<typeof within>, { t }: LocaleKit, name: string) {
  const list = await panel.findByRole('list', { name: t.account.tabs.patients });
  const row = within(list)
    .getAllByRole('listitem')
    .find((item) => within(item).queryByText(name, { selector: 'strong' }));
  if (!row) throw new Error(`No row for ${name}`);
  return row;
}

/**
 * Stored calculations, as the API keeps them: in English whatever the language they were run in (the
 * history, like the notes PDF, stays English: api/tools/routes.ts). Their lines are checked as stored in
 * both locales; the labels around them are the locale's.
 */
const HISTORY = [
  {
    id: 'h1',
    patientId: 'p1',
    toolType: 'dose_calculator',
    inputs: {
      ageGroup: 'adult',
      bodyWeight: 72,
      nmbaType: 'rocuronium',
      creatinine: 90,
      tofCount: '2',
      ptc: null,
      rsiScenario: false,
      dialysis: false,
    },
    result: {
      kind: 'dose',
      indication: 'Moderate block (TOF count 2: T2 has reappeared)',
      doseMgPerKg: 2,
      totalDoseMg: 144,
      volumeMl: 1.4,
      vials: 1,
      costSar: 147.64,
      administration:
        'Single IV bolus over about 10 seconds; monitor TOF ratio every 15-30 seconds until at least 0.9.',
      warnings: [],
    },
    createdAt: '2026-11-22T09:05:00Z',
  },
  {
    id: 'h2',
    patientId: 'p1',
    toolType: 'bradycardia_advisor',
    inputs: {
      weight: 72,
      age: 50,
      baselineHr: 72,
      cardiacHistory: 'none',
      depth: 'tof_2_plus',
      nmba: 'rocuronium',
      creatinine: 90,
    },
    result: {
      riskBand: 'LOW',
      riskPercent: 2,
      doseMgPerKg: 2,
      doseMg: 144,
      doseMl: 1.4,
      recommendations: {
        preparation: ['144 mg (1.4 mL) single IV bolus over about 10 seconds', 'Atropine 1 mg available in the room'],
        treatment: ['Atropine 1 mg IV, repeated every 3-5 min to a total of 3 mg'],
      },
      warnings: [],
    },
    createdAt: '2026-11-22T08:40:00Z',
  },
];

export const Patients: Story = {
  name: 'Patients (search)',
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const { t } = kit;
    const { panel } = await openAccount(canvasElement, kit);
    const list = await panel.findByRole('list', { name: t.account.tabs.patients });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2));
    expectText(list, 'F.A.');
    expectText(list, t.account.patientSummary('KFH-004512', 72));
    expectText(list, 'M.K.');
    expectText(list, t.account.patientSummary('KFH-000777', 31));

    typeInto(panel.getByRole('searchbox', { name: t.account.search }), '777');
    await waitFor(() =>
      expect(within(panel.getByRole('list', { name: t.account.tabs.patients })).getAllByRole('listitem')).toHaveLength(
        1,
      ),
    );
    const filtered = panel.getByRole('list', { name: t.account.tabs.patients });
    expectText(filtered, 'M.K.');
    expectNoText(filtered, 'F.A.');
  },
};

export const AddPatient: Story = {
  name: 'Add patient form',
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const { t } = kit;
    const { user, panel } = await openAccount(canvasElement, kit);
    await panel.findByRole('list', { name: t.account.tabs.patients });
    await user.click(panel.getByRole('button', { name: t.account.addPatient }));
    const form = within(await panel.findByRole('form', { name: t.account.addPatient }));
    for (const label of [
      t.account.displayName,
      t.account.mrn,
      t.account.yearOfBirth,
      t.account.ageGroup,
      t.account.weight,
      t.account.notes,
    ])
      await expect(form.getByLabelText(startingWith(label))).toBeInTheDocument();
    await expect(form.getByLabelText(startingWith(t.account.displayName))).toHaveValue('');
    await expect(form.getByRole('button', { name: t.account.save })).toBeEnabled();
    await expect(form.getByRole('button', { name: t.account.cancel })).toBeInTheDocument();
    await expect(panel.queryByRole('button', { name: t.account.addPatient })).toBeNull();
  },
};

export const PatientChosen: Story = {
  name: 'Patient chosen for calculations',
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const { t } = kit;
    const { user, panel } = await openAccount(canvasElement, kit);
    const row = await patientRow(panel, kit, 'F.A.');
    await user.click(within(row).getByRole('button', { name: t.account.use }));
    const inUse = await within(row).findByRole('button', { name: t.account.inUse });
    await expect(inUse).toHaveAttribute('aria-pressed', 'true');
    const other = await patientRow(panel, kit, 'M.K.');
    await expect(within(other).getByRole('button', { name: t.account.use })).toHaveAttribute('aria-pressed', 'false');
  },
};

export const History: Story = {
  name: 'History',
  parameters: {
    api: {
      handlers: {
        'GET /api/history': () => json(200, { items: HISTORY, page: 1, pageSize: 20, total: 2 }),
        // the entry's FHIR export (docs/fhir.md): a transaction Bundle, saved as a .fhir.json file
        'GET /api/history/h1/fhir': () =>
          json(200, {
            resourceType: 'Bundle',
            type: 'transaction',
            entry: [
              { fullUrl: 'urn:uuid:00000000-0000-4000-8000-000000000001', resource: { resourceType: 'Patient' } },
            ],
          }),
      },
    },
  },
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const { t } = kit;
    const { user, dialog } = await openAccount(canvasElement, kit, 'history');
    const list = await dialog.findByRole('list', { name: t.account.tabs.history });
    const rows = within(list).getAllByRole('listitem');
    await expect(rows).toHaveLength(2);
    const [dose, advisor] = rows;
    expectText(dose, t.account.tools.dose_calculator);
    // The stored lines (English in every locale, see HISTORY).
    expectText(dose, 'Moderate block (TOF count 2: T2 has reappeared)');
    expectText(advisor, t.account.tools.bradycardia_advisor);
    expectText(advisor, 'Bradycardia risk: LOW (2.0%)');
    // Patient names come from a second request: wait for them.
    await waitFor(() => expectText(dose, 'F.A.'));
    await expect(dialog.queryByRole('button', { name: t.account.loadMore })).toBeNull();

    await user.click(within(dose!).getByRole('button', { name: t.account.open }));
    const entry = await dialog.findByRole('article', { name: t.account.tools.dose_calculator });
    expectText(entry, t.account.entryResult);
    for (const text of ['Dose: 2 mg/kg = 144 mg', 'Volume: 1.4 mL at 100 mg/mL (1 x 200 mg/2 mL)', 'Cost: 147.64 SAR'])
      expectText(entry, text);
    await expect(within(entry).getByRole('button', { name: t.records.exportNotes })).toBeInTheDocument();
    await expect(within(entry).getByRole('button', { name: t.account.back })).toBeInTheDocument();
    // "Download FHIR" beside it: the Bundle comes, a toast names the file
    await user.click(within(entry).getByRole('button', { name: named(t.account.downloadFhir) }));
    const { screen } = await shadowOf(canvasElement, 'sgx-access-portal');
    await waitFor(() => expectText(screen.getByRole('region', { name: t.common.notifications }), 'sugammadex-dose-'));
  },
};

export const Exports: Story = {
  name: 'Exports',
  parameters: {
    api: {
      handlers: {
        'GET /api/exports': () =>
          json(200, {
            exports: [
              {
                id: 'e1',
                patientId: 'p1',
                calculationId: null,
                fileName: 'dose-20261122-0905.pdf',
                sizeBytes: 2048,
                createdAt: '2026-11-22T09:06:00Z',
              },
            ],
          }),
      },
    },
  },
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const { t } = kit;
    const { dialog } = await openAccount(canvasElement, kit, 'exports');
    const list = await dialog.findByRole('list', { name: t.account.tabs.exports });
    const rows = within(list).getAllByRole('listitem');
    await expect(rows).toHaveLength(1);
    expectText(rows[0], 'dose-20261122-0905.pdf');
    await waitFor(() => expectText(rows[0], 'F.A.'));
    await expect(within(rows[0]!).getByRole('button', { name: t.account.download })).toBeInTheDocument();
  },
};

export const Profile: Story = {
  name: 'Profile',
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const { t } = kit;
    const { panel } = await openAccount(canvasElement, kit, 'profile');
    const terms = panel.getAllByRole('term').map((term) => term.textContent);
    const definitions = panel.getAllByRole('definition').map((definition) => definition.textContent);
    await expect(terms).toEqual([t.account.name, t.account.email, t.account.licence]);
    await expect(definitions).toEqual(['Sara Al-Harbi', 'sara.alharbi@hospital.example', 'SCFHS-998877']);
    await expect(panel.getByRole('button', { name: t.account.signOut })).toBeInTheDocument();
  },
};

export const ChangePassword: Story = {
  name: 'Profile: change password',
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const { t } = kit;
    const { user, panel, screen } = await openAccount(canvasElement, kit, 'profile');
    await user.click(panel.getByRole('button', { name: t.account.changePassword }));
    const form = within(await panel.findByRole('form', { name: t.account.changePassword }));
    const current = form.getByLabelText(startingWith(t.account.currentPassword));
    await waitFor(() => expect((current.getRootNode() as ShadowRoot).activeElement).toBe(current));
    // checked before sending: the two new passwords differ
    typeInto(current, 'wrong password');
    typeInto(form.getByLabelText(startingWith(t.account.newPassword)), 'a new passphrase');
    typeInto(form.getByLabelText(startingWith(t.account.confirmNewPassword)), 'a new passphrase!');
    await user.click(form.getByRole('button', { name: t.account.changePassword }));
    expectText(
      form.getByLabelText(startingWith(t.account.confirmNewPassword)).parentElement,
      t.account.newPasswordsDiffer,
    );
    // the server refuses the current password: its message under that field, in the story's language
    typeInto(form.getByLabelText(startingWith(t.account.confirmNewPassword)), 'a new passphrase');
    await user.click(form.getByRole('button', { name: t.account.changePassword }));
    await waitFor(() =>
      expect(form.getByLabelText(startingWith(t.account.currentPassword))).toHaveAttribute('aria-invalid', 'true'),
    );
    // the right one: the form closes and a toast says the other sessions ended
    typeInto(form.getByLabelText(startingWith(t.account.currentPassword)), 'correct horse battery');
    await user.click(form.getByRole('button', { name: t.account.changePassword }));
    await waitFor(() => expect(panel.queryByRole('form', { name: t.account.changePassword })).toBeNull());
    await waitFor(() =>
      expectText(screen.getAllByRole('region', { name: t.common.notifications })[0], t.account.passwordChangedTitle),
    );
  },
};

export const EmptyAccount: Story = {
  name: 'Empty account',
  parameters: { api: { handlers: { 'GET /api/patients': () => json(200, { patients: [] }) } } },
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const { t } = kit;
    const { panel } = await openAccount(canvasElement, kit);
    await expect(await panel.findByText(t.account.noPatients)).toBeInTheDocument();
    await expect(panel.queryByRole('list', { name: t.account.tabs.patients })).toBeNull();
    await expect(panel.getByRole('button', { name: t.account.addPatient })).toBeInTheDocument();
  },
};
