import { act, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { messagesAr } from '../shared/lang/messages/ar/index.ts';
import { withoutIsolates } from '../../clinical/bidi.ts';
import { defineDoseCalculator } from './element.ts';
// Arabic here from the start, as on a page whose Arabic chunk has arrived (lang-packs.test.tsx tests the fetch).
import { arabicPack } from '../shared/lang/messages/ar/arabic-pack.ts';
import { registerLangPack } from '../shared/lang/lang-packs.ts';

registerLangPack('ar', arabicPack);

// <sgx-dose-calculator> itself, as a page writes it: the age-group attribute (issue 30).
defineDoseCalculator();

afterEach(() => {
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

async function attach(html: string) {
  document.body.innerHTML = html;
  const element = document.body.querySelector('sgx-dose-calculator')!;
  await waitFor(() => expect(element.shadowRoot!.querySelector('select[name="ageGroup"]')).not.toBeNull());
  const select = () => element.shadowRoot!.querySelector<HTMLSelectElement>('select[name="ageGroup"]')!;
  const error = () => element.shadowRoot!.getElementById(`${select().id}-error`)?.textContent ?? null;
  return { element, select, error };
}

describe('<sgx-dose-calculator age-group>', () => {
  it.each([
    ['paediatric', 'pediatric'],
    ['Pediatric', 'pediatric'],
    [' infant ', 'infant'],
  ])('age-group="%s" shows %s', async (attribute, shown) => {
    const { select, error } = await attach(`<sgx-dose-calculator age-group="${attribute}"></sgx-dose-calculator>`);
    expect(select().value).toBe(shown);
    expect(error()).toBeNull();
  });

  it('age-group="bogus": no age group, the message in the element’s language, one console warning', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { element, select, error } = await attach(`<sgx-dose-calculator age-group="bogus"></sgx-dose-calculator>`);
    expect(select().value).toBe('');
    expect(error()).toContain('"bogus"');
    await waitFor(() => expect(warn).toHaveBeenCalledTimes(1)); // from an effect, which runs after the paint
    act(() => element.setAttribute('lang', 'ar'));
    await waitFor(() =>
      expect(error()).toBe(withoutIsolates(messagesAr.doseCalculator.unknownAgeGroupPreset('bogus'))),
    );
    expect(select().value).toBe('');
    act(() => element.setAttribute('age-group', 'Paediatric'));
    await waitFor(() => expect(select().value).toBe('pediatric'));
    expect(error()).toBeNull();
  });

  it('a camelCase attribute written before the definition (React 19: agegroup) is the preset too', async () => {
    const { select } = await attach(`<sgx-dose-calculator agegroup="infant"></sgx-dose-calculator>`);
    expect(select().value).toBe('infant');
  });
});
