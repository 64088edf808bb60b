import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { CLINICAL_TEXTS_AR, CLINICAL_TEXTS_EN } from '../../clinical/index.ts';
import { messagesAr } from '../shared/lang/messages/ar/index.ts';
import { messagesEn } from '../shared/lang/messages/index.ts';
import { WidgetRoot } from '../shared/element/widget-root.tsx';
import { renderWidget } from '../test-utils.tsx';
import { DoseCalculator } from './DoseCalculator.tsx';
// Arabic here from the start, as on a page whose Arabic chunk has arrived (lang-packs.test.tsx tests the fetch).
import { arabicPack } from '../shared/lang/messages/ar/arabic-pack.ts';
import { registerLangPack } from '../shared/lang/lang-packs.ts';

registerLangPack('ar', arabicPack);

// Issue 30: every text the dose calculator shows follows a live change of its language: the notice, the field
// errors and the toast were written once, in the language of the moment they appeared.
afterEach(() => document.documentElement.removeAttribute('lang'));

const switchTo = (lang: string) =>
  act(async () => {
    document.documentElement.setAttribute('lang', lang);
    await Promise.resolve();
  });
const notice = () => screen.queryByTestId('dose-notice')?.textContent ?? null;
const weightError = () => {
  const input = document.querySelector<HTMLInputElement>('input[name="bodyWeight"]')!;
  return document.getElementById(`${input.id}-error`)?.textContent ?? null;
};
const toast = () => within(screen.getByRole('region', { name: /^(Notifications|الإشعارات)$/ })).getByRole('alert');

describe('<DoseCalculator> switched to Arabic and back', () => {
  it('rewrites the field errors and the toast of a refused calculation', async () => {
    renderWidget(<DoseCalculator />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Calculate Dose' }));
    expect(weightError()).toBe(CLINICAL_TEXTS_EN.doseInput.invalidWeight);
    expect(toast().textContent).toContain(messagesEn.doseCalculator.invalidInputTitle);
    await switchTo('ar');
    expect(weightError()).toBe(CLINICAL_TEXTS_AR.doseInput.invalidWeight);
    expect(toast().textContent).toContain(messagesAr.doseCalculator.invalidInputTitle);
    expect(toast().textContent).toContain(CLINICAL_TEXTS_AR.doseInput.invalidWeight);
    await switchTo('en');
    expect(weightError()).toBe(CLINICAL_TEXTS_EN.doseInput.invalidWeight);
    expect(toast().textContent).toContain(messagesEn.doseCalculator.invalidInputTitle);
  });

  it('rewrites the notice of a changed preset, with the cleared result', async () => {
    const view = renderWidget(<DoseCalculator weight="70" />);
    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText(/^TOF count/), '2');
    await user.click(screen.getByRole('button', { name: 'Calculate Dose' }));
    view.rerender(
      <WidgetRoot>
        <DoseCalculator weight="80" />
      </WidgetRoot>,
    );
    expect(notice()).toBe(`${messagesEn.doseCalculator.presetChanged} ${messagesEn.doseCalculator.resultCleared}`);
    await switchTo('ar');
    expect(notice()).toBe(`${messagesAr.doseCalculator.presetChanged} ${messagesAr.doseCalculator.resultCleared}`);
  });
});
