import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { App } from './App.tsx';
import { languageHref } from './components/LanguageSwitch.tsx';
import { Nav } from './components/Nav.tsx';
import { CONTENT_AR, CONTENT_EN, loadContent } from './content/index.ts';
import { setChosenSection } from './scroll.ts';

// The page in each language (host/content): <App lang> provides the content; a part hydrated on its own
// (host/islands.tsx) follows the document's <html lang>.

const navLabels = () =>
  within(screen.getByRole('navigation'))
    .getAllByRole('link')
    .map((link) => link.textContent);

// host/main.tsx loads the page's language before it renders; so do these tests
beforeAll(() => loadContent('ar'));

afterEach(() => {
  document.documentElement.removeAttribute('lang');
  setChosenSection(null);
  vi.restoreAllMocks();
});

describe('the page in English and in Arabic', () => {
  it('<App /> is the English page, as before', () => {
    render(<App />);
    expect(navLabels()).toEqual(CONTENT_EN.nav.map((item) => item.label));
    expect(screen.getByRole('navigation').getAttribute('aria-label')).toBe('Main');
    expect(screen.getByRole('button', { name: 'Menu' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(CONTENT_EN.hero.headline);
    expect(screen.getByRole('link', { name: /Download HCP Guide/ }).getAttribute('hreflang')).toBeNull();
    expect(document.body.textContent).not.toContain('بالإنجليزية');
    expect(document.body.textContent).not.toMatch(/[\u2066-\u2069]/);
  });

  it('<App lang="ar" /> renders the Arabic navigation, sections and footer, with the same anchors', () => {
    const { container } = render(<App lang="ar" />);
    expect(navLabels()).toEqual(CONTENT_AR.nav.map((item) => item.label));
    expect(navLabels()).toContain('الأسئلة الشائعة');
    expect(screen.getByRole('navigation').getAttribute('aria-label')).toBe('التنقل الرئيسي');
    expect(screen.getByRole('button', { name: 'القائمة' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(CONTENT_AR.hero.headline);
    for (const title of ['آلية العمل', 'الميزة التنافسية', 'مركز السلامة', 'الأدلة السريرية', 'المصادر']) {
      expect(screen.getByRole('heading', { level: 2, name: title })).toBeTruthy();
    }
    expect(screen.getByRole('heading', { level: 2, name: 'تواصل معنا' })).toBeTruthy();
    expect(screen.getByText('صُنع في السعودية')).toBeTruthy();
    const sectionIds = (root: Element) => [...root.querySelectorAll('section[id], footer[id]')].map((s) => s.id);
    const english = render(<App />).container;
    expect(sectionIds(container)).toEqual(sectionIds(english));
  });

  it('the Arabic page says each PDF is in English, and marks the links hreflang="en"', () => {
    render(<App lang="ar" />);
    const pdfLinks = [...document.querySelectorAll<HTMLAnchorElement>('a[href$=".pdf"]')];
    expect(pdfLinks).toHaveLength(8); // the HCP guide, six resources, the textbook chapter
    for (const link of pdfLinks) {
      expect(link.getAttribute('hreflang')).toBe('en');
      expect(link.parentElement!.textContent).toContain('(بالإنجليزية)');
    }
  });

  it('study titles and citations stay English, isolated left to right on the Arabic page', () => {
    render(<App lang="ar" />);
    const title = CONTENT_EN.evidence.studies[0]!.title;
    const heading = screen.getByRole('heading', { level: 3, name: title });
    const isolate = heading.querySelector('bdi')!;
    expect([isolate.getAttribute('lang'), isolate.getAttribute('dir'), isolate.textContent]).toEqual([
      'en',
      'ltr',
      title,
    ]);
  });

  it('a part of the page rendered without App follows <html lang>', () => {
    document.documentElement.lang = 'ar';
    render(<Nav />);
    expect(navLabels()).toEqual(CONTENT_AR.nav.map((item) => item.label));
  });
});

describe('the language switch in the navigation bar', () => {
  /** Following a link would make jsdom navigate (not implemented): the page's handlers run, then stop. */
  const click = (link: HTMLElement) => {
    const stop = (event: Event) => event.preventDefault();
    window.addEventListener('click', stop);
    fireEvent.click(link);
    window.removeEventListener('click', stop);
  };

  /** jsdom has no layout (every box at 0, the page at its end): a long page at its top instead. */
  const atTopOfALongPage = () => {
    vi.spyOn(Element.prototype, 'scrollHeight', 'get').mockReturnValue(10_000);
    vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function (this: Element) {
      return this.matches('header') ? new DOMRect(0, 0, 1000, 64) : new DOMRect(0, 5_000, 1000, 100);
    });
  };

  it('the English page links to /ar/ as "العربية" (lang and hreflang ar), outside the ten section links', () => {
    atTopOfALongPage();
    render(<App />);
    const link = screen.getByRole('link', { name: 'العربية' });
    expect([link.getAttribute('href'), link.getAttribute('lang'), link.getAttribute('hreflang')]).toEqual([
      '/ar/',
      'ar',
      'ar',
    ]);
    expect(document.querySelectorAll('header nav a')).toHaveLength(10);
    expect(link.closest('header')).not.toBeNull();
    expect(link.closest('#site-menu')).not.toBeNull(); // in the menu on small screens
  });

  it('the Arabic page links to / as "English" (lang and hreflang en)', () => {
    atTopOfALongPage();
    render(<App lang="ar" />);
    const link = screen.getByRole('link', { name: 'English' });
    expect([link.getAttribute('href'), link.getAttribute('lang'), link.getAttribute('hreflang')]).toEqual([
      '/',
      'en',
      'en',
    ]);
    expect(screen.queryByRole('link', { name: 'العربية' })).toBeNull();
  });

  it("keeps the reader's place: the section in view (or the URL's) goes with the link", async () => {
    atTopOfALongPage();
    render(<App />);
    const link = screen.getByRole('link', { name: 'العربية' });
    expect(link.getAttribute('href')).toBe('/ar/');
    await act(async () => setChosenSection('faq'));
    await waitFor(() => expect(link.getAttribute('href')).toBe('/ar/#faq'));
    expect(languageHref('/', 'safety')).toBe('/#safety');
    expect(languageHref('/ar/', null)).toBe('/ar/');
  });

  it('remembers the choice under sgx-lang', () => {
    render(<App />);
    click(screen.getByRole('link', { name: 'العربية' }));
    expect(localStorage.getItem('sgx-lang')).toBe('ar');
  });

  it('from the Arabic page it remembers English', () => {
    render(<App lang="ar" />);
    click(screen.getByRole('link', { name: 'English' }));
    expect(localStorage.getItem('sgx-lang')).toBe('en');
  });

  it('blocked storage does not stop the link', () => {
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('blocked', 'SecurityError');
    });
    render(<App />);
    const link = screen.getByRole('link', { name: 'العربية' });
    const followed = fireEvent.click(link); // false would mean a handler prevented the default
    expect(followed).toBe(true);
  });
});
