import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withoutIsolates } from '../../clinical/bidi.ts';
import { assessBradycardia, clinicalTextsFor } from '../../clinical/index.ts';
import type { NotesContent } from '../shared/notes/notes-content.ts';
import { messagesAr } from '../shared/lang/messages/ar/index.ts';
import { sessionStore } from '../shared/session/session-store.ts';
import { renderWidget } from '../test-utils.tsx';
import { BradycardiaAdvisor } from './BradycardiaAdvisor.tsx';
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
afterEach(() => {
  vi.unstubAllGlobals();
  document.documentElement.removeAttribute('lang');
});

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

  it('switched live to Arabic: the result, the field errors and the toast follow (issue 30)', async () => {
    renderWidget(<BradycardiaAdvisor apiBase="https://api.example/" />);
    const user = userEvent.setup();
    await fillRequired(user);
    await user.click(screen.getByRole('button', { name: 'Assess Risk' }));
    await waitFor(() => expect(screen.getByTestId('risk-band').textContent).toBe('LOW'));
    const percent = screen.getByTestId('risk-percent').textContent;
    const inputs = JSON.parse(String((fetchMock.mock.calls[0] as [string, RequestInit])[1].body)).inputs;
    const inArabic = assessBradycardia(inputs, clinicalTextsFor('ar'));
    if (inArabic.kind !== 'assessment') throw new Error('not assessed');
    await act(async () => {
      document.documentElement.setAttribute('lang', 'ar');
      await Promise.resolve();
    });
    const result = () => document.querySelector('[part="result"]')!.textContent!;
    expect(result()).toContain(withoutIsolates(inArabic.reparalysis[0]!));
    expect(result()).not.toContain('single IV bolus'); // the English answer's preparation line
    expect(withoutIsolates(screen.getByTestId('risk-percent').textContent!)).toBe(percent); // the same figures
    // a refused input, then back to English: its message and toast in English
    await user.clear(screen.getByLabelText(/^الوزن/));
    await user.click(screen.getByRole('button', { name: messagesAr.advisor.assess }));
    const weight = screen.getByLabelText(/^الوزن/);
    const errorOf = (input: HTMLElement) => document.getElementById(`${input.id}-error`)?.textContent;
    expect(errorOf(weight)).toBe(clinicalTextsFor('ar').advisorInput.missingInformation);
    await act(async () => {
      document.documentElement.setAttribute('lang', 'en');
      await Promise.resolve();
    });
    expect(errorOf(screen.getByLabelText(/^Weight/))).toBe('Please fill in all required fields');
    expect(toastRegion().getByRole('alert').textContent).toContain('Missing Information');
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

  // (no answer at all is not a failure: the advisor computes on the device, see "the API cannot be reached")
  it.each([
    {
      name: 'a server error message',
      answer: () => Promise.resolve(json(400, { message: 'Baseline heart rate must be between 20 and 250 bpm' })),
      text: 'Baseline heart rate must be between 20 and 250 bpm',
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
            {
              id: 'p2',
              displayName: 'N.W.',
              mrn: null,
              weightKg: null,
              yearOfBirth: 1990,
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
    const weight = () => (screen.getByLabelText(/^Weight/) as HTMLInputElement).value;
    // a patient with no weight recorded empties the field (never keeps the one typed for nobody, or another)
    await user.type(screen.getByLabelText(/^Weight/), '64');
    await user.selectOptions(select, 'p2');
    expect(weight()).toBe('');
    await user.selectOptions(select, 'p1');
    expect(weight()).toBe('82');
    await user.selectOptions(select, 'p2');
    expect(weight()).toBe('');
    await user.selectOptions(select, 'p1');
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

describe('<BradycardiaAdvisor> export to notes', () => {
  it('in Arabic: the notes carry the English texts (jsPDF has no Arabic glyphs), not the Arabic answer', async () => {
    // the stand-in API answers in the language asked for, as the real one does
    fetchMock.mockImplementation(async (url: string, init?: RequestInit) => {
      const body = JSON.parse(String(init?.body));
      const lang = new URL(url, 'https://x.example').searchParams.get('lang') === 'ar' ? 'ar' : 'en';
      return json(200, { toolType: 'bradycardia_advisor', ...assessBradycardia(body.inputs, clinicalTextsFor(lang)) });
    });
    exportNotes.mockClear();
    document.documentElement.lang = 'ar';
    try {
      renderWidget(<BradycardiaAdvisor />);
      const user = userEvent.setup();
      await user.type(screen.getByLabelText(/^الوزن/), '70');
      await user.type(screen.getByLabelText(/^العمر/), '45');
      await user.type(screen.getByLabelText(/^معدل ضربات القلب/), '45');
      await user.type(screen.getByLabelText(/^تصفية الكرياتينين/), '90');
      await user.click(screen.getByRole('button', { name: 'قيّم الخطر' }));
      await waitFor(() => expect(screen.getByTestId('risk-band').textContent).toBe('منخفض'));
      expect(String(fetchMock.mock.calls[0]?.[0])).toContain('lang=ar');
      // the model's Arabic name (review U1), not "Sugammadex bradycardia risk heuristic"
      const heuristic = screen.getByText(/أداة تقدير استدلالية/);
      expect(heuristic.textContent).toContain('نموذج تقديري لخطر بطء القلب مع سوغاماديكس (sugammadex)، الإصدار 1');
      expect(heuristic.textContent).not.toContain('heuristic');
      await user.click(screen.getByRole('button', { name: 'تصدير PDF إلى الملاحظات' }));
      await waitFor(() => expect(exportNotes).toHaveBeenCalledTimes(1));
      const content = exportNotes.mock.calls[0]?.[1] as NotesContent;
      expect(content.result[0]).toBe('Bradycardia risk: LOW (4.9%)');
      expect(content.result.join('\n')).toContain('single IV bolus');
      expect(JSON.stringify(content)).not.toMatch(/[\u0600-\u06FF]/);
    } finally {
      document.documentElement.lang = 'en';
    }
  });
});

describe('<BradycardiaAdvisor> when the API cannot be reached', () => {
  const offline = () => Promise.reject(new TypeError('Failed to fetch'));
  const signIn = () =>
    sessionStore().setState({
      token: 'tok',
      user: { id: 'u1', email: 'a@b.example', name: 'Sara', license: null },
      userFetchedAt: Date.now(),
    });
  /** The API as it answers a signed-in clinician: no patients, and each run recorded. */
  const onlineApi = async (url: string, init?: RequestInit) => {
    if (String(url).includes('/api/patients')) return json(200, { patients: [] });
    const answer = await apiAnswer(url, init);
    const body = (await answer.json()) as object;
    return json(answer.status, { ...body, historyId: `h${fetchMock.mock.calls.length}` });
  };
  const runCalls = () => fetchMock.mock.calls.filter(([url]) => String(url).includes('/api/tools/run'));
  const kept = () => JSON.parse(localStorage.getItem('sgx-offline-runs:u1') ?? '[]') as { inputs: object }[];

  async function assessOffline(values?: Parameters<typeof fillRequired>[1]) {
    fetchMock.mockImplementation((url: string) => (String(url).includes('/api/patients') ? onlineApi(url) : offline()));
    const user = userEvent.setup();
    await fillRequired(user, values);
    await user.click(screen.getByRole('button', { name: 'Assess Risk' }));
    await screen.findByTestId('advisor-offline');
  }

  it('computes with clinical/ here: "Computed on this device; not saved"; signed out, nothing kept', async () => {
    renderWidget(<BradycardiaAdvisor />);
    await assessOffline();
    // 70 kg, 45 years, HR 45 (× 2.5), TOF 2+ → 4.9 % LOW, 2 mg/kg = 140 mg
    expect(screen.getByTestId('risk-band').textContent).toBe('LOW');
    expect(screen.getByTestId('risk-percent').textContent).toBe('4.9%');
    expect(screen.getByTestId('advisor-dose').textContent).toBe('140 mg (1.4 mL)');
    expect(screen.getByRole('list', { name: 'Treatment Protocol' })).toBeTruthy();
    expect(screen.getByTestId('advisor-offline').textContent).toBe('Computed on this device; not saved');
    const toast = toastRegion().getByRole('status');
    expect(toast.textContent).toContain('Computed on this device');
    expect(toast.textContent).toContain('The server could not be reached');
    expect(screen.queryByText('Calculation Failed')).toBeNull();
    expect(Object.keys(localStorage).filter((key) => key.startsWith('sgx-offline-runs'))).toEqual([]);
  });

  it('the label is gone once the API answers again', async () => {
    renderWidget(<BradycardiaAdvisor />);
    await assessOffline();
    fetchMock.mockImplementation(apiAnswer);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Assess Risk' }));
    await waitFor(() => expect(screen.queryByTestId('advisor-offline')).toBeNull());
    expect(screen.getByTestId('risk-percent').textContent).toBe('4.9%');
  });

  it('in Arabic: the result and the label in Arabic', async () => {
    document.documentElement.lang = 'ar';
    try {
      renderWidget(<BradycardiaAdvisor />);
      fetchMock.mockImplementation(offline);
      const user = userEvent.setup();
      await user.type(screen.getByLabelText(/^الوزن/), '70');
      await user.type(screen.getByLabelText(/^العمر/), '45');
      await user.type(screen.getByLabelText(/^معدل ضربات القلب/), '45');
      await user.type(screen.getByLabelText(/^تصفية الكرياتينين/), '90');
      await user.click(screen.getByRole('button', { name: 'قيّم الخطر' }));
      expect((await screen.findByTestId('advisor-offline')).textContent).toBe('حُسبت على هذا الجهاز؛ لم تُحفظ');
      expect(screen.getByTestId('risk-band').textContent).toBe('منخفض');
    } finally {
      document.documentElement.lang = 'en';
    }
  });

  it('signed in: the calculation is kept on the device for this clinician, and the result says so', async () => {
    signIn();
    renderWidget(<BradycardiaAdvisor />);
    await assessOffline();
    expect(screen.getByTestId('advisor-offline').textContent).toBe(
      'Computed on this device; not saved' +
        'Kept on this device: it will be saved to your history once the server can be reached again.',
    );
    expect(kept()).toHaveLength(1);
    expect(kept()[0]).toMatchObject({
      toolType: 'bradycardia_advisor',
      lang: 'en',
      inputs: { weight: 70, age: 45, baselineHr: 45, creatinine: 90, depth: 'tof_2_plus', dose: 2 },
    });
  });

  it('blocked storage: the result tells the clinician it will not be saved', async () => {
    signIn();
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('blocked', 'QuotaExceededError');
    });
    try {
      renderWidget(<BradycardiaAdvisor />);
      await assessOffline();
      expect(screen.getByTestId('advisor-offline').textContent).toContain(
        'This device could not keep it (storage blocked or full): it will not be saved to your history.',
      );
      expect(screen.getByTestId('risk-percent').textContent).toBe('4.9%');
    } finally {
      vi.restoreAllMocks();
    }
    expect(localStorage.getItem('sgx-offline-runs:u1')).toBeNull();
  });

  it('back online: recorded once (two `online` events), removed from the device, with a toast', async () => {
    signIn();
    renderWidget(<BradycardiaAdvisor />);
    await assessOffline();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Assess Risk' }));
    await waitFor(() => expect(kept()).toHaveLength(2));
    expect(runCalls()).toHaveLength(2); // both tried the API first
    fetchMock.mockClear();
    fetchMock.mockImplementation(onlineApi);
    act(() => {
      window.dispatchEvent(new Event('online'));
      window.dispatchEvent(new Event('online'));
    });
    await waitFor(() => expect(toastRegion().getByRole('status').textContent).toContain('Offline calculations saved'));
    expect(toastRegion().getByRole('status').textContent).toContain('2 calculations made offline were saved');
    expect(runCalls()).toHaveLength(2); // each once, not four times
    for (const [url, init] of runCalls() as [string, RequestInit][]) {
      expect(url).toBe('/api/tools/run?lang=en');
      expect((init.headers as Record<string, string>).Authorization).toBe('bearer tok');
      expect(JSON.parse(String(init.body))).toMatchObject({ toolType: 'bradycardia_advisor', inputs: { weight: 70 } });
    }
    expect(localStorage.getItem('sgx-offline-runs:u1')).toBeNull();
    act(() => window.dispatchEvent(new Event('online')));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(runCalls()).toHaveLength(2);
  });

  it('each assessment has its own Idempotency-Key, sent by its attempt and again by its replay', async () => {
    signIn();
    renderWidget(<BradycardiaAdvisor />);
    await assessOffline();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Assess Risk' }));
    await waitFor(() => expect(kept()).toHaveLength(2));
    const keyOf = ([, init]: [string, RequestInit]) => (init.headers as Record<string, string>)['Idempotency-Key'];
    const attempts = (runCalls() as [string, RequestInit][]).map(keyOf);
    expect(attempts).toHaveLength(2);
    expect(attempts[0]).toMatch(/^"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"$/);
    expect(attempts[1]).not.toBe(attempts[0]);
    expect(kept().map((run) => `"${(run as { idempotencyKey?: string }).idempotencyKey}"`)).toEqual(attempts);
    fetchMock.mockClear();
    fetchMock.mockImplementation(onlineApi);
    act(() => void window.dispatchEvent(new Event('online')));
    await waitFor(() => expect(localStorage.getItem('sgx-offline-runs:u1')).toBeNull());
    expect((runCalls() as [string, RequestInit][]).map(keyOf)).toEqual(attempts);
  });

  it('the next successful request records what was kept', async () => {
    signIn();
    renderWidget(<BradycardiaAdvisor />);
    await assessOffline();
    fetchMock.mockImplementation(onlineApi);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Assess Risk' }));
    await waitFor(() => expect(localStorage.getItem('sgx-offline-runs:u1')).toBeNull());
    // the run itself, then the kept one
    expect(runCalls()).toHaveLength(3);
    await waitFor(() =>
      expect(toastRegion().getByRole('status').textContent).toContain('One calculation made offline was saved'),
    );
  });

  it('kept calculations are recorded when the advisor starts signed in and online (a reload)', async () => {
    signIn();
    localStorage.setItem(
      'sgx-offline-runs:u1',
      JSON.stringify([
        { id: 'a', toolType: 'bradycardia_advisor', lang: 'en', madeAt: 1, inputs: { weight: 70, dose: 2 } },
      ]),
    );
    fetchMock.mockImplementation(onlineApi);
    renderWidget(<BradycardiaAdvisor />);
    await waitFor(() => expect(localStorage.getItem('sgx-offline-runs:u1')).toBeNull());
    expect(runCalls()).toHaveLength(1);
  });

  it('refused by the server (4xx): dropped, and the clinician is told', async () => {
    signIn();
    renderWidget(<BradycardiaAdvisor />);
    await assessOffline();
    fetchMock.mockImplementation(async (url: string) =>
      String(url).includes('/api/patients') ? json(200, { patients: [] }) : json(404, { message: 'Patient not found' }),
    );
    act(() => void window.dispatchEvent(new Event('online')));
    await waitFor(() =>
      expect(toastRegion().getByRole('alert').textContent).toContain(
        'The server refused one calculation made offline; it was removed from this device',
      ),
    );
    expect(localStorage.getItem('sgx-offline-runs:u1')).toBeNull();
  });

  it('still offline when the `online` event comes: kept for the next try', async () => {
    signIn();
    renderWidget(<BradycardiaAdvisor />);
    await assessOffline();
    act(() => void window.dispatchEvent(new Event('online')));
    await waitFor(() => expect(runCalls()).toHaveLength(2)); // the kept run was sent again
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(kept()).toHaveLength(1);
  });
});
