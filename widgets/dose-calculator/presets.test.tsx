import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NO_SESSION } from '../shared/session/session-state.ts';
import { sessionStore } from '../shared/session/session-store.ts';
import { WidgetRoot } from '../shared/element/widget-root.tsx';
import { renderWidget } from '../test-utils.tsx';
import { DoseCalculator, type DoseCalculatorProps } from './DoseCalculator.tsx';

// A result belongs to the values it was computed from: a preset changed by the host page, or another
// patient chosen, replaces the field and clears the old result, with a word on screen.
const PRESET_NOTICE = 'The page changed the preset weight or age group: the form shows the new values.';
const PATIENT_NOTICE = 'The chosen patient changed: check the weight and age group.';
const CLEARED = 'The previous result was for the old values and has been cleared. Check the form and calculate again.';

const weightField = () => screen.getByLabelText(/^Body weight/) as HTMLInputElement;
const ageField = () => screen.getByLabelText(/^Age group/) as HTMLSelectElement;
const result = () => screen.queryByRole('region', { name: 'Result' });
const notice = () => screen.queryByTestId('dose-notice')?.textContent ?? null;

async function calculateAtTof2() {
  const user = userEvent.setup();
  await user.selectOptions(screen.getByLabelText(/^TOF count/), '2');
  await user.click(screen.getByRole('button', { name: 'Calculate Dose' }));
  return user;
}
const rendered = (props: DoseCalculatorProps) => (
  <WidgetRoot>
    <DoseCalculator {...props} />
  </WidgetRoot>
);

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async () =>
        new Response(JSON.stringify({ historyId: 'h1' }), {
          status: 200,
          headers: { 'Content-Type': 'application/json' },
        }),
    ),
  );
  sessionStore().setState(NO_SESSION);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('<DoseCalculator> presets changed after the first render', () => {
  it.each([
    { from: { weight: '70' }, to: { weight: '80' }, weight: '80', age: 'adult', total: '160 mg' },
    { from: { weight: '70' }, to: { weight: ' 55 ' }, weight: '55', age: 'adult', total: '110 mg' },
    { from: { weight: '70' }, to: {}, weight: '', age: 'adult', total: null }, // preset removed: no stale weight left
    {
      from: { weight: '30', ageGroup: 'adult' },
      to: { weight: '30', ageGroup: 'pediatric' },
      weight: '30',
      age: 'pediatric',
      total: '60 mg',
    },
    {
      from: { weight: '30', ageGroup: 'adult' },
      to: { weight: '30', ageGroup: ' Paediatric ' },
      weight: '30',
      age: 'pediatric',
      total: '60 mg',
    },
    // an unknown age group is no adult: the field is unset and nothing is dosed until one is chosen
    {
      from: { weight: '30', ageGroup: 'pediatric' },
      to: { weight: '30', ageGroup: 'nonsense' },
      weight: '30',
      age: '',
      total: null,
    },
  ])(
    '$from → $to: field $weight / $age, old result cleared, the notice says so',
    async ({ from, to, weight, age, total }) => {
      const view = renderWidget(<DoseCalculator {...from} />);
      await calculateAtTof2();
      expect(result()).not.toBeNull();
      view.rerender(rendered(to));
      expect(weightField().value).toBe(weight);
      expect(ageField().value).toBe(age);
      expect(result()).toBeNull();
      expect(notice()).toBe(`${PRESET_NOTICE} ${CLEARED}`);
      await userEvent.setup().click(screen.getByRole('button', { name: 'Calculate Dose' }));
      if (total) expect(result()?.textContent).toContain(total);
      else expect(result()).toBeNull();
      if (total) expect(notice()).toBeNull();
    },
  );

  it('a preset change with no result on screen says only that the preset changed', () => {
    const view = renderWidget(<DoseCalculator weight="70" />);
    view.rerender(rendered({ weight: '90' }));
    expect(weightField().value).toBe('90');
    expect(notice()).toBe(PRESET_NOTICE);
  });

  it.each([
    { label: 'the same weight again', to: { weight: '70' } },
    { label: 'the default age group written out', to: { weight: '70', ageGroup: ' ADULT ' } },
  ])('no change ($label): the typed weight and the result stay', async ({ to }) => {
    const view = renderWidget(<DoseCalculator weight="70" />);
    const user = userEvent.setup();
    await user.clear(weightField());
    await user.type(weightField(), '72');
    await calculateAtTof2();
    view.rerender(rendered(to));
    expect(weightField().value).toBe('72');
    expect(result()?.textContent).toContain('144 mg');
    expect(notice()).toBeNull();
  });

  it('another patient chosen in the account area: their weight, the old result cleared', async () => {
    sessionStore().setState({
      token: 't',
      user: { id: 'u1', email: 'a@b.example', name: 'A', license: null },
      userStatus: 'idle',
      userFetchedAt: Date.now(),
    });
    renderWidget(<DoseCalculator />);
    act(() =>
      sessionStore().getState().selectPatient({
        id: 'p1',
        displayName: 'F.A.',
        mrn: 'M1',
        yearOfBirth: null,
        weightKg: 70,
        ageGroup: 'adult',
      }),
    );
    expect(weightField().value).toBe('70');
    await calculateAtTof2();
    expect(result()?.textContent).toContain('Patient: F.A. (M1)');
    expect(result()?.textContent).toContain('140 mg');
    act(() =>
      sessionStore().getState().selectPatient({
        id: 'p2',
        displayName: 'K.B.',
        mrn: null,
        yearOfBirth: null,
        weightKg: 20,
        ageGroup: 'pediatric',
      }),
    );
    expect(weightField().value).toBe('20');
    expect(ageField().value).toBe('pediatric');
    expect(result()).toBeNull(); // never the first patient's dose under the second patient's name
    expect(notice()).toBe(`${PATIENT_NOTICE} ${CLEARED}`);
    // a third patient with no weight recorded: the field is emptied, never left with the second one's 20 kg
    act(() =>
      sessionStore().getState().selectPatient({
        id: 'p3',
        displayName: 'L.C.',
        mrn: null,
        yearOfBirth: null,
        weightKg: null,
        ageGroup: 'adult',
      }),
    );
    expect(weightField().value).toBe('');
    expect(notice()).toBe(PATIENT_NOTICE);
  });
});

describe('<DoseCalculator> with an age-group preset it does not know (issue 30)', () => {
  const ageError = () => {
    const id = ageField()
      .getAttribute('aria-describedby')
      ?.split(' ')
      .find((part) => part.endsWith('-error'));
    return id ? document.getElementById(id)?.textContent : null;
  };

  it('leaves the age group unset, says so on the field and in the console; no dose until one is chosen', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    renderWidget(<DoseCalculator weight="70" ageGroup="bogus" />);
    expect(ageField().value).toBe('');
    expect(ageField().getAttribute('aria-invalid')).toBe('true');
    expect(ageError()).toBe(
      'The page set the age group to "bogus", which is not one of adult, pediatric or infant: choose the age group.',
    );
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toContain('age-group="bogus"');
    const user = await calculateAtTof2();
    expect(result()).toBeNull();
    expect(ageError()).toBe('Choose an age group: adult, pediatric or infant');
    await user.selectOptions(ageField(), 'adult');
    await user.click(screen.getByRole('button', { name: 'Calculate Dose' }));
    expect(result()?.textContent).toContain('140 mg');
    expect(ageError()).toBeNull();
    warn.mockRestore();
  });

  it.each([
    ['paediatric', 'pediatric'],
    ['Pediatric', 'pediatric'],
    [' infant ', 'infant'],
    ['ADULT', 'adult'],
  ])('%j is taken as %s, with no message', (preset, shown) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    renderWidget(<DoseCalculator ageGroup={preset} />);
    expect(ageField().value).toBe(shown);
    expect(ageError()).toBeNull();
    expect(warn.mock.calls).toEqual([]);
    warn.mockRestore();
  });
});
