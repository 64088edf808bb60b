import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { langOf, resolveLang } from './element-lang.ts';
import { useMessages, useWidgetHost } from '../widget-host/widget-context.ts';
import { WidgetRoot } from './widget-root.tsx';
// Arabic here from the start, as on a page whose Arabic chunk has arrived (lang-packs.test.tsx tests the fetch).
import { arabicPack } from '../lang/messages/ar/arabic-pack.ts';
import { registerLangPack } from '../lang/lang-packs.ts';

registerLangPack('ar', arabicPack);

afterEach(() => {
  document.documentElement.removeAttribute('lang');
  document.body.innerHTML = '';
});

describe('langOf', () => {
  it.each([
    ['ar', 'ar'],
    ['ar-SA', 'ar'],
    ['AR', 'ar'],
    ['en', 'en'],
    ['en-GB', 'en'],
    ['arn', 'en'],
    ['', 'en'],
    [null, 'en'],
  ])('%j → %s', (tag, lang) => {
    expect(langOf(tag)).toBe(lang);
  });
});

describe('resolveLang', () => {
  it('takes the element’s own lang, else the nearest ancestor’s, else the document’s', () => {
    document.documentElement.setAttribute('lang', 'ar');
    document.body.innerHTML =
      '<div lang="en"><p><span id="inner"></span></p></div><i id="bare"></i><b lang="ar-SA" id="own"></b>';
    expect(resolveLang(document.getElementById('inner'))).toBe('en');
    expect(resolveLang(document.getElementById('bare'))).toBe('ar');
    expect(resolveLang(document.getElementById('own'))).toBe('ar');
    document.documentElement.removeAttribute('lang');
    expect(resolveLang(document.getElementById('bare'))).toBe('en');
  });
});

function Probe() {
  const { dir, lang } = useWidgetHost();
  return <output data-testid="probe">{`${lang} ${dir} ${useMessages().common.close}`}</output>;
}

describe('a widget follows the language of where it renders, live', () => {
  it('switches catalogue and direction when the document’s lang changes', async () => {
    render(
      <WidgetRoot>
        <Probe />
      </WidgetRoot>,
    );
    expect(screen.getByTestId('probe').textContent).toBe('en ltr Close');
    await act(async () => {
      document.documentElement.setAttribute('lang', 'ar');
      await Promise.resolve();
    });
    const arabic = screen.getByTestId('probe').textContent!;
    expect(arabic).toMatch(/^ar rtl [\u0600-\u06FF]/);
    expect(screen.getByTestId('probe').closest('[dir]')?.getAttribute('dir')).toBe('rtl');
    expect(screen.getByTestId('probe').closest('[dir]')?.getAttribute('lang')).toBe('ar');
    await act(async () => {
      document.documentElement.setAttribute('lang', 'en-GB');
      await Promise.resolve();
    });
    expect(screen.getByTestId('probe').textContent).toBe('en ltr Close');
  });
});
