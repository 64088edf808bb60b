import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CLINICAL_TEXTS_EN } from '../../../clinical/texts/en.ts';
import { messagesAr } from './messages/ar/index.ts';
import { ENGLISH, loadedLangPack, loadLangPack } from './lang-packs.ts';
import { hostFor, useWidgetHost } from '../widget-host/widget-context.ts';
import { WidgetRoot } from '../element/widget-root.tsx';

// This file starts as a page does, with English only. The Arabic chunk is held back until a test lets it
// through (`chunk.release`), as a slow network would; `chunk.fetches` counts the requests for it.
const chunk = vi.hoisted(() => {
  let release = () => {};
  const arrived = new Promise<void>((resolve) => (release = resolve));
  return { release, arrived, fetches: 0 };
});
vi.mock('./messages/ar/arabic-pack.ts', async (importOriginal) => {
  chunk.fetches += 1;
  await chunk.arrived;
  return importOriginal();
});

const ARABIC_CLOSE = 'إغلاق';

afterEach(() => {
  document.documentElement.removeAttribute('lang');
});

function Probe({ id }: { id: string }) {
  const { lang, dir, messages } = useWidgetHost();
  const [clicks, setClicks] = useState(0);
  return (
    <button type="button" data-testid={id} onClick={() => setClicks(clicks + 1)}>
      {`${lang} ${dir} ${messages.common.close} ${clicks}`}
    </button>
  );
}

describe('the language packs, Arabic still on its way', () => {
  it('hold English from the start, and refuse to give Arabic before it has arrived', () => {
    expect(loadedLangPack('en')).toBe(ENGLISH);
    expect(ENGLISH.messages.common.close).toBe('Close');
    expect(ENGLISH.serverMessage('Anything the server says')).toBe('Anything the server says');
    expect(loadedLangPack('ar')).toBeUndefined();
    expect(() => hostFor(null, 'ar')).toThrow("The ar catalogue is not loaded yet: await loadLangPack('ar') first");
    expect(chunk.fetches).toBe(0); // nothing asked for Arabic yet
  });

  it('a widget in Arabic waits for it (no English first); one switched live keeps English and its state', async () => {
    const arabicBox = document.createElement('div');
    arabicBox.setAttribute('lang', 'ar');
    document.body.append(arabicBox);
    render(
      <WidgetRoot container={arabicBox}>
        <Probe id="arabic" />
      </WidgetRoot>,
      { container: arabicBox },
    );
    render(
      <WidgetRoot>
        <Probe id="switched" />
      </WidgetRoot>,
    );
    expect(screen.queryByTestId('arabic')).toBeNull();
    fireEvent.click(screen.getByTestId('switched'));
    expect(screen.getByTestId('switched').textContent).toBe('en ltr Close 1');

    await act(async () => {
      document.documentElement.setAttribute('lang', 'ar');
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    expect(screen.queryByTestId('arabic')).toBeNull();
    expect(screen.getByTestId('switched').textContent).toBe('en ltr Close 1');

    chunk.release();
    await waitFor(() => expect(screen.getByTestId('arabic').textContent).toBe(`ar rtl ${ARABIC_CLOSE} 0`));
    expect(screen.getByTestId('switched').textContent).toBe(`ar rtl ${ARABIC_CLOSE} 1`);
    expect(screen.getByTestId('switched').closest('[dir]')?.getAttribute('lang')).toBe('ar');
    expect(chunk.fetches).toBe(1);
  });

  it('once arrived, Arabic is the whole pack: the catalogue, clinical texts and the server’s messages', async () => {
    const [first, second] = await Promise.all([loadLangPack('ar'), loadLangPack('ar')]);
    expect(second).toBe(first);
    expect(loadedLangPack('ar')).toBe(first);
    expect(first.messages).toBe(messagesAr);
    expect(first.clinical.patient.displayName).not.toBe(CLINICAL_TEXTS_EN.patient.displayName);
    expect(first.clinical.patient.displayName).toMatch(/[\u0600-\u06FF]/);
    expect(first.serverMessage('The server could not be reached. Check the connection and try again.')).toBe(
      'تعذّر الوصول إلى الخادم. تحقّق من الاتصال وحاول مرة أخرى.',
    );
    expect(hostFor(null, 'ar').messages.common.close).toBe(ARABIC_CLOSE);
    expect(chunk.fetches).toBe(1); // fetched once for every caller
  });
});
