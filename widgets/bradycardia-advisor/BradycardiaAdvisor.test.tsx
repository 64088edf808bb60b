import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { assessBradycardia } from '../../clinical/index.ts';
import { sessionStore } from '../shared/session-store.ts';
import { renderWidget } from '../test-utils.tsx';
import { BradycardiaAdvisor } from './BradycardiaAdvisor.tsx';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
let fetchMock: ReturnType<typeof vi.fn>;
/** A stand-in API that computes with clinical/, as the real one does. */
const apiAnswer = async (_url: string, init?: RequestInit) => {
  const body = JSON.parse(String(init?.body));
  const outcome = assessBradycardia(body.inputs);
  return outcome.kind === 'assessment'
    ? json(200, { toolType: 'bradycardia_advisor', ...outcome })
    : json(400, { message: outcome.issues[0]?.message, issues: outcome.issues });
};

beforeEach(() => {
  fetchMock = vi.fn(apiAnswer);
  vi.stubGlobal('fetch', fetchMock);
  sessionStore().setState({ token: null, user: null, userFetchedAt: null, userStatus: 'idle', quickUse: false });
});
afterEach(() => vi.unstubAllGlobals());

const toastRegion = () => within(screen.getByRole('region', { name: 'Notifications' }));
async function fillRequired(
  user: ReturnType<typeof userEvent.setup>,
  values = { weight: '70', age: '45', hr: '45', crcl: '90' },
) {
  await user.type(screen.getByLabelText(/^Weight/), values.weight);
  await user.type(screen.getByLabelText(/^Age/), values.age);
  await user.type(screen.getByLabelText(/^Baseline heart rate/), values.hr);
  await user.type(screen.getByLabelText(/^Creatinine clearance/), values.crcl);
}

describe('<BradycardiaAdvisor>', () => {
  it('shows the title, the HCP Only badge, the intro and the three input groups', () => {
    renderWidget(<BradycardiaAdvisor />);
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe(
      'Sugammadex — Bradycardia Risk & Re-NMBA Advisor',
    );
    expect(screen.getByText('HCP Only')).toBeTruthy();
    expect(screen.getByText(/Calculate bradycardia risk, get step-by-step management plans/)).toBeTruthy();
    for (const legend of ['Demographics', 'Cardiac & Medications', 'Block Assessment'])
      expect(screen.getByRole('group', { name: legend })).toBeTruthy();
    expect(screen.queryByText('Bradycardia Risk Assessment')).toBeNull(); // results only after success
  });

  it('missing fields: toast "Missing Information" / "Please fill in all required fields", no request', async () => {
    renderWidget(<BradycardiaAdvisor />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^Weight/), '70');
    await user.click(screen.getByRole('button', { name: 'Assess Risk' }));
    const toast = toastRegion().getByRole('alert');
    expect(toast.textContent).toContain('Missing Information');
    expect(toast.textContent).toContain('Please fill in all required fields');
    expect(fetchMock).not.toHaveBeenCalled();
    expect(screen.getByLabelText(/^Age/).getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText(/^Weight/).getAttribute('aria-invalid')).toBeNull();
  });

  it('sends the inputs with the derived dose and conductionDisease; results and the success toast', async () => {
    renderWidget(<BradycardiaAdvisor apiBase="https://api.example/" />);
    const user = userEvent.setup();
    await fillRequired(user);
    await user.selectOptions(screen.getByLabelText(/^Cardiac history/), 'av_block');
    await user.click(screen.getByRole('checkbox', { name: 'Beta-blocker' }));
    await user.selectOptions(screen.getByLabelText(/^Block depth/), 'ptc_1_2');
    await user.click(screen.getByRole('button', { name: 'Assess Risk' }));

    await waitFor(() => expect(screen.getByTestId('risk-band').textContent).toBe('HIGH'));
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    // the element's language is named explicitly (the browser's Accept-Language is the reader's)
    expect(url).toBe('https://api.example/api/tools/run?lang=en');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('include');
    expect(JSON.parse(String(init.body))).toEqual({
      toolType: 'bradycardia_advisor',
      inputs: {
        weight: 70,
        age: 45,
        baselineHr: 45,
        cardiacHistory: 'av_block',
        betaBlocker: true,
        dexmedetomidine: false,
        digoxin: false,
        amiodarone: false,
        highDoseOpioids: false,
        vagalStimulus: false,
        depth: 'ptc_1_2',
        nmba: 'rocuronium',
        creatinine: 90,
        dose: 4,
        conductionDisease: true,
      },
    });
    // × 3 (AV block) × 2 (beta-blocker) × 2.5 (HR 45) → 23.4 % HIGH; 4 mg/kg × 70 kg = 280 mg, 2.8 mL
    expect(screen.getByTestId('risk-percent').textContent).toBe('23.4%');
    expect(screen.getByTestId('advisor-dose').textContent).toBe('280 mg (2.8 mL)');
    expect(screen.getByText('Dose by actual body weight')).toBeTruthy();
    expect(screen.getByText('Concentration 100 mg/mL (200 mg / 2 mL vial)')).toBeTruthy();
    expect(within(screen.getByRole('list', { name: 'Preparation' })).getAllByRole('listitem')[0]!.textContent).toBe(
      '280 mg (2.8 mL) single IV bolus over about 10 seconds',
    );
    expect(
      within(screen.getByRole('list', { name: 'Treatment Protocol' })).getAllByRole('listitem')[0]!.textContent,
    ).toBe('Atropine 1 mg IV, repeated every 3-5 min to a total of 3 mg');
    expect(screen.getByRole('list', { name: 'Re-paralysis guidance' })).toBeTruthy();
    expect(screen.getByText('AV block (conduction disease)', { selector: 'strong' })).toBeTruthy();
    expect(screen.getByText(/an unvalidated heuristic/)).toBeTruthy();
    const toast = toastRegion().getByRole('status');
    expect(toast.textContent).toContain('Risk Assessment Complete');
    expect(toast.textContent).toContain('Bradycardia risk: HIGH (23.4%)');
  });

  it('is loading while the request runs: the button is disabled with a spinner', async () => {
    let release: (response: Response) => void = () => {};
    fetchMock.mockImplementation(() => new Promise<Response>((resolve) => (release = resolve)));
    renderWidget(<BradycardiaAdvisor />);
    const user = userEvent.setup();
    await fillRequired(user);
    await user.click(screen.getByRole('button', { name: 'Assess Risk' }));
    const button = screen.getByRole('button', { name: 'Assessing…' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.querySelector('[data-spinner]')).not.toBeNull();
    await act(async () =>
      release(
        json(200, {
          toolType: 'bradycardia_advisor',
          ...(assessBradycardia({
            weight: 70,
            age: 45,
            baselineHr: 45,
            cardiacHistory: 'none',
            betaBlocker: false,
            dexmedetomidine: false,
            digoxin: false,
            amiodarone: false,
            highDoseOpioids: false,
            vagalStimulus: false,
            depth: 'tof_2_plus',
            nmba: 'rocuronium',
            creatinine: 90,
          }) as object),
        }),
      ),
    );
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Assess Risk' }) as HTMLButtonElement).disabled).toBe(false),
    );
  });

  it.each([
    {
      name: 'a server error message',
      answer: () => Promise.resolve(json(400, { message: 'Baseline heart rate must be between 20 and 250 bpm' })),
      text: 'Baseline heart rate must be between 20 and 250 bpm',
    },
    {
      name: 'a network failure',
      answer: () => Promise.reject(new TypeError('Failed to fetch')),
      text: 'The server could not be reached. Check the connection and try again.',
    },
    {
      name: 'an empty 502',
      answer: () => Promise.resolve(new Response('', { status: 502, statusText: 'Bad Gateway' })),
      text: 'Bad Gateway',
    },
  ])(
    'failure ($name): toast "Calculation Failed" with the message, loading ends, no results',
    async ({ answer, text }) => {
      fetchMock.mockImplementation(answer);
      renderWidget(<BradycardiaAdvisor />);
      const user = userEvent.setup();
      await fillRequired(user);
      await user.click(screen.getByRole('button', { name: 'Assess Risk' }));
      await waitFor(() => expect(toastRegion().getByRole('alert').textContent).toContain('Calculation Failed'));
      expect(toastRegion().getByRole('alert').textContent).toContain(text);
      expect((screen.getByRole('button', { name: 'Assess Risk' }) as HTMLButtonElement).disabled).toBe(false);
      expect(screen.queryByText('Bradycardia Risk Assessment')).toBeNull();
    },
  );

  it('an out-of-range value is refused before any request, with the field message', async () => {
    renderWidget(<BradycardiaAdvisor />);
    const user = userEvent.setup();
    await fillRequired(user, { weight: '70', age: '45', hr: '300', crcl: '90' });
    await user.click(screen.getByRole('button', { name: 'Assess Risk' }));
    expect(fetchMock).not.toHaveBeenCalled();
    expect(screen.getByLabelText(/^Baseline heart rate/).getAttribute('aria-invalid')).toBe('true');
    expect(toastRegion().getByRole('alert').textContent).toContain(
      'Baseline heart rate must be between 20 and 250 bpm',
    );
  });

  it('signed in: choose a patient, weight prefilled, patientId sent, shown on the result', async () => {
    sessionStore().setState({
      token: 'tok',
      user: { id: 'u1', email: 'a@b.example', name: 'Sara', license: null },
      userFetchedAt: Date.now(),
    });
    fetchMock.mockImplementation(async (url: string, init?: RequestInit) => {
      if (String(url).endsWith('/api/patients'))
        return json(200, {
          patients: [
            {
              id: 'p1',
              displayName: 'F.A.',
              mrn: 'KFH-1',
              weightKg: 82,
              yearOfBirth: 1950,
              ageGroup: null,
              notes: null,
              createdAt: '2026-11-20T08:00:00Z',
              updatedAt: '2026-11-20T08:00:00Z',
            },
          ],
        });
      return apiAnswer(url, init);
    });
    renderWidget(<BradycardiaAdvisor />);
    const user = userEvent.setup();
    const select = await screen.findByRole('combobox', { name: 'Patient' });
    await user.selectOptions(select, 'p1');
    expect((screen.getByLabelText(/^Weight/) as HTMLInputElement).value).toBe('82');
    await user.type(screen.getByLabelText(/^Age/), '76');
    await user.type(screen.getByLabelText(/^Baseline heart rate/), '70');
    await user.type(screen.getByLabelText(/^Creatinine clearance/), '60');
    await user.click(screen.getByRole('button', { name: 'Assess Risk' }));
    await screen.findByText('Linked to patient F.A.');
    const call = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/api/tools/run?lang=en')) as [
      string,
      RequestInit,
    ];
    const body = JSON.parse(String(call[1].body));
    expect(body.patientId).toBe('p1');
    expect(body.inputs.weight).toBe(82);
    expect((call[1].headers as Record<string, string>).Authorization).toBe('bearer tok');
    // 2 mg/kg × 82 kg = 164 mg; age 76 × 1.5 → 3.0 %
    expect(screen.getByTestId('advisor-dose').textContent).toBe('164 mg (1.6 mL)');
    expect(screen.getByTestId('risk-percent').textContent).toBe('3.0%');
  });
});
