import { afterEach, describe, expect, it, vi } from 'vitest';
import { withoutIsolates } from '../../clinical/bidi.ts';
import {
  ADVANTAGE,
  CONTACT,
  CONTENT_AR,
  CONTENT_EN,
  EVIDENCE,
  FAQ,
  HERO,
  LANG_STORAGE_KEY,
  MECHANISM,
  NAV_ITEMS,
  RESOURCES,
  SAFETY,
  TOOL_SECTIONS,
  contentFor,
  loadContent,
  rememberLang,
  rememberedLang,
} from './index.ts';

/** Every text of a content object, with its path ("faq.entries.3.answer"); numbers and functions aside. */
function texts(value: unknown, path = ''): { path: string; text: string }[] {
  if (typeof value === 'string') return [{ path, text: value }];
  if (Array.isArray(value)) return value.flatMap((item, index) => texts(item, `${path}.${index}`));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => texts(item, path ? `${path}.${key}` : key));
  }
  return [];
}

/** A path with its list positions as `*` ("faq.entries.*.answer"), as the exempt fields are written. */
const field = (path: string) => path.replace(/\.\d+(?=\.|$)/g, '.*');

/**
 * The fields of the Arabic content that are not Arabic text: ids, anchors, URLs, file names, colours,
 * study titles, authors and journals, and citations (which stay in their original language); the
 * "English" switch; a dose cell that is only a dose.
 */
const EXEMPT_FIELDS = new Set([
  'site.lang',
  'site.dir',
  'chrome.languageSwitch.label',
  'chrome.languageSwitch.lang',
  'chrome.languageSwitch.href',
  'nav.*.target',
  'advantage.depthCoverage.rows.*.dose',
  'safety.panels.*.id',
  'safety.panels.*.source',
  'evidence.studies.*.title',
  'evidence.studies.*.authors',
  'evidence.studies.*.journal',
  'evidence.studies.*.link',
  'evidence.studies.*.accent',
  'resources.resources.*.format',
  'resources.resources.*.colour',
  'resources.resources.*.file',
  'resources.textbook.format',
  'resources.textbook.colour',
  'resources.textbook.file',
]);

const ARABIC_LETTER = /[\u0621-\u064A]/;
const ISOLATED_RUN = /\u2066[^\u2066-\u2069]*\u2069/g;
const digitRuns = (text: string) => (withoutIsolates(text).match(/\d+/g) ?? []).sort();
/** One vial is written as a word in Arabic («قارورة واحدة»), not as "1 قارورة". */
const NUMBERS_AS_WORDS: Record<string, string> = { 'faq.entries.0.answer': '1' };

const arabic = texts(CONTENT_AR);
const english = new Map(texts(CONTENT_EN).map(({ path, text }) => [path, text]));
const arabicText = arabic.filter(({ path }) => !EXEMPT_FIELDS.has(field(path)));

describe('the page content per language', () => {
  it('contentFor gives each language its content; English is the section constants, unchanged', async () => {
    expect(contentFor('en')).toBe(CONTENT_EN);
    expect(await loadContent('ar')).toBe(CONTENT_AR);
    expect(contentFor('ar')).toBe(CONTENT_AR);
    expect([CONTENT_EN.site.lang, CONTENT_EN.site.dir, CONTENT_AR.site.lang, CONTENT_AR.site.dir]).toEqual([
      'en',
      'ltr',
      'ar',
      'rtl',
    ]);
    expect(CONTENT_EN.nav).toBe(NAV_ITEMS);
    expect(CONTENT_EN.hero).toBe(HERO);
    expect(CONTENT_EN.mechanism).toBe(MECHANISM);
    expect(CONTENT_EN.tools).toBe(TOOL_SECTIONS);
    expect(CONTENT_EN.resources).toBe(RESOURCES);
    expect(CONTENT_EN.faq).toBe(FAQ);
    expect(CONTENT_EN.contact).toBe(CONTACT);
    expect(CONTENT_EN.advantage).toMatchObject(ADVANTAGE);
    expect(CONTENT_EN.safety).toMatchObject(SAFETY);
    expect(CONTENT_EN.evidence).toMatchObject(EVIDENCE);
  });

  it('Arabic is loaded on demand: contentFor says so before loadContent, then gives it', async () => {
    vi.resetModules(); // a fresh module, as on a page that has not loaded it (after the identity checks above)
    const fresh = await import('./languages.ts');
    expect(fresh.contentFor('en').site.lang).toBe('en');
    expect(() => fresh.contentFor('ar')).toThrow(
      `The page's content in "ar" is not loaded: await loadContent('ar') first.`,
    );
    const loaded = await fresh.loadContent('ar');
    expect([loaded.site.lang, fresh.contentFor('ar')]).toEqual(['ar', loaded]);
  });

  it('both languages have the same fields, list lengths and section anchors', () => {
    expect(arabic.map(({ path }) => path)).toEqual([...english.keys()]);
    expect(CONTENT_AR.nav.map((item) => item.target)).toEqual(CONTENT_EN.nav.map((item) => item.target));
    expect(CONTENT_AR.safety.panels.map((panel) => panel.id)).toEqual(SAFETY.panels.map((panel) => panel.id));
  });

  it('the exempt fields exist (none is a typo)', () => {
    const fields = new Set(arabic.map(({ path }) => field(path)));
    expect([...EXEMPT_FIELDS].filter((exempt) => !fields.has(exempt))).toEqual([]);
  });

  it('every Arabic text has Arabic letters (exempt fields aside)', () => {
    expect(arabicText.filter(({ text }) => !ARABIC_LETTER.test(text)).map(({ path }) => path)).toEqual([]);
  });

  it('every Western digit in Arabic text is inside a left-to-right isolate (U+2066 … U+2069)', () => {
    const offenders = arabicText.filter(({ text }) => /\d/.test(text.replace(ISOLATED_RUN, '')));
    expect(offenders).toEqual([]);
  });

  it('isolates are balanced and never nested', () => {
    const offenders = arabic.filter(({ text }) => /[\u2066-\u2069]/.test(text.replace(ISOLATED_RUN, '')));
    expect(offenders).toEqual([]);
  });

  it('carries no invisible character but the isolates: no no-break space, no word joiner (copied into records)', () => {
    // A run is kept on one line by the markup (widgets/shared/ui/bidi-text.tsx), not by characters in the text.
    expect(arabic.filter(({ text }) => /[\u00a0\u2060\u200b-\u200f\u202a-\u202e]/.test(text))).toEqual([]);
  });

  it('each field has the same numbers in English and Arabic', () => {
    const offenders = arabic.flatMap(({ path, text }) => {
      const expected: string[] = digitRuns(english.get(path) ?? '');
      // the number written as a word is left out once
      if (NUMBERS_AS_WORDS[path]) expected.splice(expected.indexOf(NUMBERS_AS_WORDS[path]), 1);
      const actual = digitRuns(text);
      return expected.join(' ') === actual.join(' ') ? [] : [{ path, expected, actual }];
    });
    expect(offenders).toEqual([]);
  });

  it('no Arabic-Indic digits: numbers are written in Western digits', () => {
    expect(arabic.filter(({ text }) => /[\u0660-\u0669\u06F0-\u06F9]/.test(text))).toEqual([]);
  });

  it('study titles, authors, journals, links and citations are the English ones', () => {
    const pick = (content: typeof CONTENT_EN) => ({
      studies: content.evidence.studies.map(({ year, title, authors, journal, link, accent, featured }) => ({
        year,
        title,
        authors,
        journal,
        link,
        accent,
        featured,
      })),
      sources: content.safety.panels.map((panel) => panel.source),
      files: [...content.resources.resources, content.resources.textbook].map((r) => [r.file, r.format, r.colour]),
    });
    expect(pick(CONTENT_AR)).toEqual(pick(CONTENT_EN));
  });

  it('a study without a link: the English alert as the spec writes it; the Arabic one isolates the title', () => {
    expect(CONTENT_EN.evidence.studyWithoutLink('A future trial')).toBe(
      'Study: A future trial\n\nLink will be available when published.',
    );
    const message = CONTENT_AR.evidence.studyWithoutLink('Trial 2026');
    expect(message).toContain('\u2066Trial 2026\u2069');
    expect(message).toMatch(ARABIC_LETTER);
  });

  it('the Arabic page says the PDFs are in English; the English page says nothing', () => {
    expect(CONTENT_AR.chrome.pdfLanguageNote).toBe('(بالإنجليزية)');
    expect(CONTENT_EN.chrome.pdfLanguageNote).toBe('');
  });

  it('each page links to the other language', () => {
    expect(CONTENT_EN.chrome.languageSwitch).toEqual({ label: 'العربية', lang: 'ar', href: '/ar/' });
    expect(CONTENT_AR.chrome.languageSwitch).toEqual({ label: 'English', lang: 'en', href: '/' });
  });
});

describe('the remembered language', () => {
  afterEach(() => vi.restoreAllMocks());

  it(`is stored under ${LANG_STORAGE_KEY}`, () => {
    expect(rememberedLang()).toBeNull();
    rememberLang('ar');
    expect(localStorage.getItem('sgx-lang')).toBe('ar');
    expect(rememberedLang()).toBe('ar');
    rememberLang('en');
    expect(rememberedLang()).toBe('en');
    localStorage.setItem('sgx-lang', 'fr');
    expect(rememberedLang()).toBeNull();
  });

  it('blocked storage is no error', () => {
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('blocked', 'SecurityError');
    });
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('blocked', 'SecurityError');
    });
    expect(() => rememberLang('ar')).not.toThrow();
    expect(rememberedLang()).toBeNull();
  });
});
