import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { withoutIsolates } from '../../../clinical/bidi.ts';
import { carryEveryElementsEnglish, renderWidget } from '../../test-utils.tsx';
import { SESSION_STORE_SYMBOL } from '../session/session-storage-keys.ts';
import { defineWidget } from '../element/define-widget.tsx';
import { EmergencyButton } from './EmergencyButton.tsx';
import { EmergencyCard, type EmergencyCardProps } from './EmergencyCard.tsx';
import { closeEmergencyCard, EMERGENCY_CARD_HOLDER_ATTRIBUTE } from './open-card.tsx';
// Arabic here from the start, as on a page whose Arabic chunk has arrived (lang-packs.test.tsx tests the fetch).
import { arabicPack } from '../lang/messages/ar/arabic-pack.ts';
import { registerLangPack } from '../lang/lang-packs.ts';

registerLangPack('ar', arabicPack);

// A part shared by elements, rendered alone: the English texts as on a page holding them all.
carryEveryElementsEnglish();

type Props = Partial<EmergencyCardProps>;

const showCard = (props: Props = {}) => renderWidget(<EmergencyCard open onClose={() => {}} {...props} />);

const dialog = () => screen.getByRole('dialog', { name: 'Emergency: bradycardia and anaphylaxis' });
const line = (id: string, scope: HTMLElement = document.body) =>
  scope.querySelector<HTMLElement>(`[data-step="${id}"]`)!;
const section = (id: string, scope: HTMLElement = document.body) =>
  scope.querySelector<HTMLElement>(`[data-section="${id}"]`)!;
const doseOf = (id: string, where: 'bradycardia' | 'anaphylaxis', scope?: HTMLElement) =>
  within(line(id, section(where, scope))).queryByTestId('emergency-dose')?.textContent ?? null;
const volumeOf = (id: string, where: 'bradycardia' | 'anaphylaxis', scope?: HTMLElement) =>
  within(line(id, section(where, scope))).queryByTestId('emergency-volume')?.textContent ?? null;

afterEach(() => {
  closeEmergencyCard();
  document.documentElement.removeAttribute('lang');
  delete (globalThis as Record<symbol, unknown>)[SESSION_STORE_SYMBOL];
});

describe('<EmergencyCard>', () => {
  it('is a modal dialog named by its title, saying "Check against local protocol"', () => {
    showCard();
    const card = dialog();
    expect(card.tagName).toBe('DIALOG');
    expect((card as HTMLDialogElement).open).toBe(true);
    expect(within(card).getByTestId('emergency-protocol').textContent).toContain('Check against local protocol');
    expect(within(card).getByRole('heading', { name: 'Bradycardia with poor perfusion' })).toBeTruthy();
    expect(within(card).getByRole('heading', { name: 'Anaphylaxis' })).toBeTruthy();
  });

  it('a 20 kg child: atropine 0.4 mg, adrenaline 20 micrograms IV (0.2 mL), IM 0.2 mg, fluids 200 mL', async () => {
    showCard();
    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: 'Child (under 18)' }));
    await user.type(screen.getByLabelText(/^Weight/), '20');
    expect(doseOf('atropine', 'bradycardia')).toBe('0.4 mg');
    expect(doseOf('secondLine', 'bradycardia')).toBe('200 micrograms');
    expect(volumeOf('secondLine', 'bradycardia')).toBe('= 2 mL of 0.1 mg/mL');
    expect(doseOf('adrenalineIv', 'anaphylaxis')).toBe('20 micrograms');
    expect(volumeOf('adrenalineIv', 'anaphylaxis')).toBe('= 0.2 mL of 100 micrograms/mL');
    expect(doseOf('adrenalineIm', 'anaphylaxis')).toBe('0.2 mg');
    expect(volumeOf('adrenalineIm', 'anaphylaxis')).toBe('= 0.2 mL of 1 mg/mL');
    expect(doseOf('fluids', 'anaphylaxis')).toBe('200 mL');
    // every line names its source; atropine in mg only, and the card says why
    expect(line('atropine').textContent).toContain('Source: PALS 2020');
    expect(volumeOf('atropine', 'bradycardia')).toBeNull();
    expect(line('atropine').textContent).toContain(
      'Atropine is shown in mg only: its strengths vary between hospitals (0.1, 0.4, 0.5, 0.6, 1 mg/mL)',
    );
    expect(line('adrenalineIv').textContent).toContain('Source: NAP6 2018; RCUK 2021');
  });

  it('a 30 kg child: atropine capped at 0.5 mg, and the card says 0.6 mg was computed', () => {
    showCard({ initialAgeGroup: 'child', initialWeight: '30' });
    expect(doseOf('atropine', 'bradycardia')).toBe('0.5 mg');
    expect(within(line('atropine')).getByTestId('emergency-limit').textContent).toBe(
      'Capped at the maximum (0.6 mg by weight)',
    );
    expect(within(line('adrenalineIv')).queryByTestId('emergency-limit')).toBeNull();
  });

  it('a 120 kg child: adrenaline for bradycardia capped at 1 mg (1.2 mg by weight), from PALS 2020', () => {
    showCard({ initialAgeGroup: 'child', initialWeight: '120' });
    expect(doseOf('secondLine', 'bradycardia')).toBe('1 mg');
    expect(volumeOf('secondLine', 'bradycardia')).toBe('= 10 mL of 0.1 mg/mL');
    expect(within(line('secondLine')).getByTestId('emergency-limit').textContent).toBe(
      'Capped at the maximum (1.2 mg by weight)',
    );
    expect(line('secondLine').textContent).toContain('max 1 mg a dose (PALS 2020)');
    expect(line('secondLine').textContent).toContain('Source: PALS 2020');
  });

  it('a 3 kg child: atropine raised to the minimum 0.1 mg', () => {
    showCard({ initialAgeGroup: 'child', initialWeight: '3' });
    expect(doseOf('atropine', 'bradycardia')).toBe('0.1 mg');
    expect(within(line('atropine')).getByTestId('emergency-limit').textContent).toBe(
      'Raised to the minimum (0.06 mg by weight)',
    );
  });

  it('an adult: the fixed doses, with or without a weight', () => {
    showCard();
    expect(screen.getByRole('radio', { name: 'Adult' })).toHaveProperty('checked', true);
    expect(doseOf('atropine', 'bradycardia')).toBe('1 mg');
    expect(doseOf('adrenalineIv', 'anaphylaxis')).toBe('50 micrograms');
    expect(volumeOf('adrenalineIv', 'anaphylaxis')).toBe('= 0.5 mL of 100 micrograms/mL');
    expect(doseOf('adrenalineIm', 'anaphylaxis')).toBe('0.5 mg');
    expect(doseOf('fluids', 'anaphylaxis')).toBe('500-1000 mL');
    expect(line('atropine').textContent).toContain('Source: AHA 2020');
    expect(screen.queryByTestId('emergency-needs-weight')).toBeNull();
  });

  it('a child with no weight yet: the prompt, the lines and rules, no dose', async () => {
    showCard({ initialAgeGroup: 'child' });
    expect(screen.getByRole('status').textContent).toBe("Enter the child's weight in kg to see the doses.");
    expect(screen.queryAllByTestId('emergency-dose')).toEqual([]);
    expect(line('atropine').textContent).toContain('0.02 mg/kg (min 0.1 mg, max 0.5 mg)');
    // typing the weight shows the doses and the prompt goes
    await userEvent.setup().type(screen.getByLabelText(/^Weight/), '20');
    expect(screen.queryByRole('status')).toBeNull();
    expect(doseOf('atropine', 'bradycardia')).toBe('0.4 mg');
  });

  it('a weight outside 1-200 kg: the message on the field, no dose for a child', () => {
    showCard({ initialAgeGroup: 'child', initialWeight: '250' });
    expect(screen.getByRole('alert').textContent).toBe('Weight must be between 1 and 200 kg');
    expect(screen.queryAllByTestId('emergency-dose')).toEqual([]);
  });

  it('reads Arabic-Indic digits (٢٠) as 20 kg', () => {
    showCard({ initialAgeGroup: 'child', initialWeight: '٢٠' });
    expect(doseOf('atropine', 'bradycardia')).toBe('0.4 mg');
  });

  it("takes the chosen patient's weight and age group", () => {
    showCard({ patient: { displayName: 'F.A.', weightKg: 20, ageGroup: 'pediatric' } });
    expect(screen.getByRole('radio', { name: 'Child (under 18)' })).toHaveProperty('checked', true);
    expect(screen.getByLabelText(/^Weight/)).toHaveProperty('value', '20');
    expect(screen.getByText("The chosen patient's weight (F.A.)")).toBeTruthy();
    expect(doseOf('adrenalineIv', 'anaphylaxis')).toBe('20 micrograms');
  });

  it('lists every source in full', () => {
    showCard({ initialAgeGroup: 'child', initialWeight: '20' });
    const sources = screen.getByRole('heading', { name: 'Sources' }).parentElement!.textContent!;
    for (const text of [
      'PALS 2020',
      'Miyazaki Y et al. Anesth Analg 2018',
      'Orihara M et al. BJA 2020;124:154',
      'Harper NJN et al. Br J Anaesth 2018;121:172-188',
      'Resuscitation Council UK',
      'SFDA',
    ]) {
      expect(sources).toContain(text);
    }
  });

  it('Escape and the Close button ask to close, and focus returns to the button that opened it', async () => {
    function Opener() {
      const [open, setOpen] = useState(false);
      const [opener, setOpener] = useState<HTMLElement | null>(null);
      return (
        <>
          <button
            type="button"
            onClick={(event) => {
              setOpener(event.currentTarget);
              setOpen(true);
            }}
          >
            open
          </button>
          <EmergencyCard open={open} onClose={() => setOpen(false)} returnFocusTo={opener} />
        </>
      );
    }
    renderWidget(<Opener />);
    const user = userEvent.setup();
    const button = screen.getByRole('button', { name: 'open' });
    await user.click(button);
    expect((dialog() as HTMLDialogElement).open).toBe(true);
    expect(document.activeElement?.textContent).toContain('Emergency: bradycardia and anaphylaxis');
    fireEvent.keyDown(dialog(), { key: 'Escape' });
    await waitFor(() => expect(document.activeElement).toBe(button));
    expect(screen.queryByRole('dialog')).toBeNull();

    await user.click(button);
    await user.click(within(dialog()).getByRole('button', { name: /Close$/ }));
    await waitFor(() => expect(document.activeElement).toBe(button));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('Print prints; while printing, the rest of the page is hidden, and shown again after', async () => {
    const print = vi.spyOn(window, 'print').mockImplementation(() => {});
    const page = document.createElement('main');
    page.style.setProperty('display', 'grid');
    document.body.prepend(page);
    showCard({ initialAgeGroup: 'child', initialWeight: '20' });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledOnce();
    act(() => void window.dispatchEvent(new Event('beforeprint')));
    expect(page.style.getPropertyValue('display')).toBe('none');
    expect(dialog().closest('body > *')!.getAttribute('style') ?? '').not.toContain('none');
    act(() => void window.dispatchEvent(new Event('afterprint')));
    expect(page.style.getPropertyValue('display')).toBe('grid');
    page.remove();
  });

  it('in Arabic: Arabic words, the same doses, isolated left to right', () => {
    document.documentElement.setAttribute('lang', 'ar');
    showCard({ initialAgeGroup: 'child', initialWeight: '20' });
    const card = screen.getByRole('dialog');
    expect(screen.getByRole('dialog', { name: 'طوارئ: بطء القلب والتأق (anaphylaxis)' })).toBe(card);
    expect(withoutIsolates(within(card).getByTestId('emergency-protocol').textContent!)).toContain(
      'تحقَّق من البروتوكول المحلي',
    );
    expect(card.closest('[dir]')?.getAttribute('dir')).toBe('rtl');
    expect(doseOf('atropine', 'bradycardia')).toBe('0.4 mg');
    expect(doseOf('adrenalineIv', 'anaphylaxis')).toBe('20 micrograms');
    expect(withoutIsolates(volumeOf('adrenalineIv', 'anaphylaxis')!)).toBe('= 0.2 mL من تركيز 100 micrograms/mL');
    for (const dose of screen.getAllByTestId('emergency-dose')) {
      expect(dose.querySelector('bdi')?.getAttribute('dir')).toBe('ltr');
    }
    expect(withoutIsolates(line('atropine').textContent!)).toContain('أتروبين (atropine)');
    // no invisible character on screen: each number with its unit is a <bdi dir="ltr"> kept on one line
    expect(card.textContent).not.toMatch(/[\u2066-\u2069\u00a0\u2060]/);
    const run = [...card.querySelectorAll('bdi[data-run]')].find((bdi) => bdi.textContent === '0.02 mg/kg')!;
    expect([run.getAttribute('dir'), run.getAttribute('lang'), getComputedStyle(run).whiteSpace]).toEqual([
      'ltr',
      'en',
      'nowrap',
    ]);
  });

  it('in Arabic, a 120 kg child: adrenaline 1 mg, «قُصِرت على الحد الأقصى» with the 1.2 mg computed', () => {
    document.documentElement.setAttribute('lang', 'ar');
    showCard({ initialAgeGroup: 'child', initialWeight: '120' });
    expect(doseOf('secondLine', 'bradycardia')).toBe('1 mg');
    expect(within(line('secondLine')).getByTestId('emergency-limit').textContent).toBe(
      'قُصِرت على الحد الأقصى (1.2 mg حسب الوزن)',
    );
    expect(line('secondLine').textContent).toContain('بحد أقصى 1 mg للجرعة (PALS 2020)');
  });
});

describe('<EmergencyButton>', () => {
  const holder = () => document.querySelector<HTMLElement>(`[${EMERGENCY_CARD_HOLDER_ATTRIBUTE}]`);
  const inHolder = () => within(holder()!.shadowRoot!.querySelector<HTMLElement>('div[dir]')!);

  it('is hidden unless switched on', () => {
    renderWidget(<EmergencyButton patient={null} />);
    expect(screen.queryByRole('button', { name: /Emergency/ })).toBeNull();
  });

  it('opens the card over the page (a holder in <body>), with the patient; closing returns focus', async () => {
    renderWidget(
      <EmergencyButton
        emergency=""
        patient={{ id: 'p1', displayName: 'F.A.', mrn: null, yearOfBirth: 2014, ageGroup: 'pediatric', weightKg: 20 }}
      />,
    );
    const button = screen.getByRole('button', { name: /Emergency/ });
    expect(button.getAttribute('aria-haspopup')).toBe('dialog');
    await userEvent.setup().click(button);
    await waitFor(() => expect(holder()).not.toBeNull());
    const card = await inHolder().findByRole('dialog');
    expect(holder()!.parentElement).toBe(document.body);
    expect(doseOf('atropine', 'bradycardia', card)).toBe('0.4 mg');
    expect(doseOf('adrenalineIv', 'anaphylaxis', card)).toBe('20 micrograms');
    fireEvent.keyDown(card, { key: 'Escape' });
    await waitFor(() => expect(holder()).toBeNull());
    expect(document.activeElement).toBe(button);
  });

  it("with a signed-in session store already on the page, takes the chosen patient's weight", async () => {
    const state = {
      token: 't',
      user: { name: 'Sara' },
      selectedPatient: {
        id: 'p2',
        displayName: 'K.M.',
        mrn: null,
        yearOfBirth: 2016,
        ageGroup: 'pediatric',
        weightKg: 30,
      },
    };
    (globalThis as Record<symbol, unknown>)[SESSION_STORE_SYMBOL] = {
      getState: () => state,
      subscribe: () => () => {},
    };
    const { openEmergencyCard } = await import('./open-card.tsx');
    act(() => openEmergencyCard({ lang: 'en' }));
    const card = await inHolder().findByRole('dialog');
    expect(doseOf('atropine', 'bradycardia', card)).toBe('0.5 mg');
  });

  it("follows the element's own attribute: <… emergency> shows it, removing it hides it", async () => {
    const tag = 'sgx-test-emergency';
    defineWidget<{ emergency?: string }>(
      tag,
      ({ emergency }) => <EmergencyButton emergency={emergency} patient={null} />,
      {
        emergency: 'string',
      },
    );
    document.body.insertAdjacentHTML('beforeend', `<${tag} emergency></${tag}>`);
    const host = document.body.querySelector(tag)!;
    const button = () => host.shadowRoot!.querySelector('button');
    await waitFor(() => expect(button()?.textContent).toContain('Emergency'));
    act(() => host.setAttribute('emergency', 'false'));
    await waitFor(() => expect(button()).toBeNull());
    act(() => host.setAttribute('emergency', 'true'));
    await waitFor(() => expect(button()).not.toBeNull());
    act(() => host.removeAttribute('emergency'));
    await waitFor(() => expect(button()).toBeNull());
    act(() => host.setAttribute('emergency', ''));
    await waitFor(() => expect(button()).not.toBeNull());
    host.remove();
  });
});
