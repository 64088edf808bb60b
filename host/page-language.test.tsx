import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from './App.tsx';
import { Nav } from './components/Nav.tsx';
import { CONTENT_AR, CONTENT_EN } from './content/index.ts';

// The page in each language (host/content): <App lang> provides the content; a part hydrated on its own
// (host/islands.tsx) follows the document's <html lang>.

const navLabels = () =>
  within(screen.getByRole('navigation'))
    .getAllByRole('link')
    .map((link) => link.textContent);

afterEach(() => {
  document.documentElement.removeAttribute('lang');
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
