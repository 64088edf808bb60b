import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { json } from './mocks.tsx';
import { shadowOf, typeInto } from './shadow.ts';

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

type Section = 'Patients' | 'History' | 'Exports' | 'Profile';

/** Opens the account dialog with the Profile button, then the given section's tab. */
async function openAccount(canvasElement: HTMLElement, section: Section = 'Patients') {
  const { screen } = await shadowOf(canvasElement, 'sgx-access-portal');
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Profile' }));
  const dialog = within(await screen.findByRole('dialog', { name: 'Account' }));
  const tab = dialog.getByRole('tab', { name: section });
  if (section !== 'Patients') await user.click(tab);
  await waitFor(() => expect(tab).toHaveAttribute('aria-selected', 'true'));
  return { screen, user, dialog, panel: within(dialog.getByRole('tabpanel')) };
}

/** The row of a patient in the list. */
async function patientRow(panel: ReturnType<typeof within>, name: string) {
  const list = await panel.findByRole('list', { name: 'Patients' });
  const row = within(list)
    .getAllByRole('listitem')
    .find((item) => within(item).queryByText(name, { selector: 'strong' }));
  if (!row) throw new Error(`No row for ${name}`);
  return row;
}

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
  play: async ({ canvasElement }) => {
    const { panel } = await openAccount(canvasElement);
    const list = await panel.findByRole('list', { name: 'Patients' });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2));
    await expect(list).toHaveTextContent('F.A.');
    await expect(list).toHaveTextContent('MRN KFH-004512 · 72 kg');
    await expect(list).toHaveTextContent('M.K.');
    await expect(list).toHaveTextContent('MRN KFH-000777 · 31 kg');

    typeInto(panel.getByRole('searchbox', { name: 'Search patients' }), '777');
    await waitFor(() =>
      expect(within(panel.getByRole('list', { name: 'Patients' })).getAllByRole('listitem')).toHaveLength(1),
    );
    const filtered = panel.getByRole('list', { name: 'Patients' });
    await expect(filtered).toHaveTextContent('M.K.');
    await expect(filtered).not.toHaveTextContent('F.A.');
  },
};

export const AddPatient: Story = {
  name: 'Add patient form',
  play: async ({ canvasElement }) => {
    const { user, panel } = await openAccount(canvasElement);
    await panel.findByRole('list', { name: 'Patients' });
    await user.click(panel.getByRole('button', { name: 'Add patient' }));
    const form = within(await panel.findByRole('form', { name: 'Add patient' }));
    for (const label of [
      /^Display name or initials/,
      /^MRN \/ hospital number/,
      /^Year of birth/,
      /^Age group/,
      /^Weight/,
      /^Notes/,
    ])
      await expect(form.getByLabelText(label)).toBeInTheDocument();
    await expect(form.getByLabelText(/^Display name or initials/)).toHaveValue('');
    await expect(form.getByRole('button', { name: 'Save' })).toBeEnabled();
    await expect(form.getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    await expect(panel.queryByRole('button', { name: 'Add patient' })).toBeNull();
  },
};

export const PatientChosen: Story = {
  name: 'Patient chosen for calculations',
  play: async ({ canvasElement }) => {
    const { user, panel } = await openAccount(canvasElement);
    const row = await patientRow(panel, 'F.A.');
    await user.click(within(row).getByRole('button', { name: 'Use for calculations' }));
    const inUse = await within(row).findByRole('button', { name: 'In use' });
    await expect(inUse).toHaveAttribute('aria-pressed', 'true');
    const other = await patientRow(panel, 'M.K.');
    await expect(within(other).getByRole('button', { name: 'Use for calculations' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
  },
};

export const History: Story = {
  name: 'History',
  parameters: {
    api: { handlers: { 'GET /api/history': () => json(200, { items: HISTORY, page: 1, pageSize: 20, total: 2 }) } },
  },
  play: async ({ canvasElement }) => {
    const { user, dialog } = await openAccount(canvasElement, 'History');
    const list = await dialog.findByRole('list', { name: 'History' });
    const rows = within(list).getAllByRole('listitem');
    await expect(rows).toHaveLength(2);
    const [dose, advisor] = rows;
    await expect(dose).toHaveTextContent('Dose calculator');
    await expect(dose).toHaveTextContent('Moderate block (TOF count 2: T2 has reappeared)');
    await expect(advisor).toHaveTextContent('Bradycardia advisor');
    await expect(advisor).toHaveTextContent('Bradycardia risk: LOW (2.0%)');
    // Patient names come from a second request: wait for them.
    await waitFor(() => expect(dose).toHaveTextContent('F.A.'));
    await expect(dialog.queryByRole('button', { name: 'Load more' })).toBeNull();

    await user.click(within(dose!).getByRole('button', { name: 'Open' }));
    const entry = await dialog.findByRole('article', { name: 'Dose calculator' });
    for (const text of [
      'Result as computed then',
      'Dose: 2 mg/kg = 144 mg',
      'Volume: 1.4 mL at 100 mg/mL (1 x 200 mg/2 mL)',
      'Cost: 147.64 SAR',
    ])
      await expect(entry).toHaveTextContent(text);
    await expect(within(entry).getByRole('button', { name: 'Export PDF to notes' })).toBeInTheDocument();
    await expect(within(entry).getByRole('button', { name: 'Back to the list' })).toBeInTheDocument();
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
  play: async ({ canvasElement }) => {
    const { dialog } = await openAccount(canvasElement, 'Exports');
    const list = await dialog.findByRole('list', { name: 'Exports' });
    const rows = within(list).getAllByRole('listitem');
    await expect(rows).toHaveLength(1);
    await expect(rows[0]).toHaveTextContent('dose-20261122-0905.pdf');
    await waitFor(() => expect(rows[0]).toHaveTextContent('F.A.'));
    await expect(within(rows[0]!).getByRole('button', { name: 'Download' })).toBeInTheDocument();
  },
};

export const Profile: Story = {
  name: 'Profile',
  play: async ({ canvasElement }) => {
    const { panel } = await openAccount(canvasElement, 'Profile');
    const terms = panel.getAllByRole('term').map((term) => term.textContent);
    const definitions = panel.getAllByRole('definition').map((definition) => definition.textContent);
    await expect(terms).toEqual(['Name', 'E-mail', 'Licence number']);
    await expect(definitions).toEqual(['Sara Al-Harbi', 'sara.alharbi@hospital.example', 'SCFHS-998877']);
    await expect(panel.getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
  },
};

export const EmptyAccount: Story = {
  name: 'Empty account',
  parameters: { api: { handlers: { 'GET /api/patients': () => json(200, { patients: [] }) } } },
  play: async ({ canvasElement }) => {
    const { panel } = await openAccount(canvasElement);
    await expect(await panel.findByText('No patients yet. Add one below.')).toBeInTheDocument();
    await expect(panel.queryByRole('list', { name: 'Patients' })).toBeNull();
    await expect(panel.getByRole('button', { name: 'Add patient' })).toBeInTheDocument();
  },
};
