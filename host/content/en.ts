import { NOT_FOUND_TEXTS_EN } from '../../contracts/not-found-page.ts';
import { ADVANTAGE } from './advantage.ts';
import { CONTACT } from './contact.ts';
import { EVIDENCE } from './evidence.ts';
import { FAQ } from './faq.ts';
import { HERO } from './hero.ts';
import { MECHANISM } from './mechanism.ts';
import { NAV_ITEMS, SITE } from './nav.ts';
import { RESOURCES } from './resources.ts';
import {
  CONTRACEPTION_STATEMENT,
  DISPLACEMENT_STATEMENT,
  RECURRENCE_STATEMENT,
  REPARALYSIS_SUMMARY,
  SAFETY,
} from './safety.ts';
import { TOOL_SECTIONS } from './tools.ts';
import type { PageContent } from './types.ts';

/** The English page (at `/`): the section constants as they are, and the texts around them. */
export const CONTENT_EN: PageContent = {
  site: { ...SITE, lang: 'en', dir: 'ltr' },
  chrome: {
    skipToContent: 'Skip to content',
    menuButton: 'Menu',
    navLabel: 'Main',
    languageSwitch: { label: 'العربية', lang: 'ar', href: '/ar/' },
    opensInNewTab: 'opens in a new tab',
    pdfLanguageNote: '',
    emergency: 'Emergency',
    emergencyUnavailable: 'The emergency card could not be loaded. Check the connection and try again.',
    toolNeedsScript:
      'This tool needs JavaScript, which is turned off in this browser. The rest of the page can be read without it.',
  },
  nav: NAV_ITEMS,
  hero: HERO,
  mechanism: MECHANISM,
  advantage: { ...ADVANTAGE, depthColumns: { depth: 'Block depth', dose: 'Dose', when: 'When' } },
  tools: TOOL_SECTIONS,
  safety: {
    ...SAFETY,
    statements: {
      reparalysis: REPARALYSIS_SUMMARY,
      recurrence: RECURRENCE_STATEMENT,
      contraception: CONTRACEPTION_STATEMENT,
      displacement: DISPLACEMENT_STATEMENT,
    },
  },
  evidence: {
    ...EVIDENCE,
    studyWithoutLink: (title) => `Study: ${title}\n\nLink will be available when published.`,
  },
  resources: RESOURCES,
  faq: FAQ,
  contact: CONTACT,
  notFound: NOT_FOUND_TEXTS_EN,
};
