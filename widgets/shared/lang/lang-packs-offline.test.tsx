import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { loadedLangPack, loadLangPack } from './lang-packs.ts';
import { useWidgetHost } from '../widget-host/widget-context.ts';
import { WidgetRoot } from '../element/widget-root.tsx';

// A page offline before its service worker held the Arabic chunk: the fetch fails until `network.online`.
const network = vi.hoisted(() => ({ online: false, fetches: 0 }));
vi.mock('./messages/ar/arabic-pack.ts', async (importOriginal) => {
  network.fetches += 1;
  if (!network.online) throw new TypeError('Failed to fetch dynamically imported module');
  return importOriginal();
});

afterEach(() => {
  document.documentElement.removeAttribute('lang');
});

function Probe() {
  const { lang, dir, messages } = useWidgetHost();
  return <output data-testid="probe">{`${lang} ${dir} ${messages.common.close}`}</output>;
}

it('shows English while Arabic cannot be fetched, and Arabic once the browser is back online', async () => {
  document.documentElement.setAttribute('lang', 'ar');
  render(
    <WidgetRoot>
      <Probe />
    </WidgetRoot>,
  );
  // usable rather than blank: the same tool in English, left to right
  await waitFor(() => expect(screen.getByTestId('probe').textContent).toBe('en ltr Close'));
  expect(screen.getByTestId('probe').closest('[dir]')?.getAttribute('lang')).toBe('en');
  await expect(loadLangPack('ar')).rejects.toThrow();
  expect(loadedLangPack('ar')).toBeUndefined();
  const failedFetches = network.fetches;
  expect(failedFetches).toBeGreaterThanOrEqual(2); // each call tried again: a failure is not kept

  network.online = true;
  window.dispatchEvent(new Event('online'));
  await waitFor(() => expect(screen.getByTestId('probe').textContent).toBe('ar rtl إغلاق'));
  expect(network.fetches).toBe(failedFetches + 1);
});
