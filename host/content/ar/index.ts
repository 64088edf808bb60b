import type { PageContent } from '../types.ts';
import { ADVANTAGE_AR } from './advantage.ts';
import { ltr } from './bidi.ts';
import { CONTACT_AR } from './contact.ts';
import { EVIDENCE_AR } from './evidence.ts';
import { FAQ_AR } from './faq.ts';
import { HERO_AR } from './hero.ts';
import { MECHANISM_AR } from './mechanism.ts';
import { NAV_ITEMS_AR, SITE_AR } from './nav.ts';
import { RESOURCES_AR } from './resources.ts';
import { SAFETY_AR } from './safety.ts';
import { TOOL_SECTIONS_AR } from './tools.ts';

/**
 * The Arabic page (at `/ar/`, right to left). Professional medical Arabic; a term usually said in English
 * in Saudi practice is followed by the English in brackets; numbers, doses and units in Western digits and
 * Latin units, isolated left to right and kept on one line (./bidi.ts, on clinical/bidi.ts `ltr`). Study titles, authors, journals and
 * citations stay in English, as do the PDFs for now (the page says so next to each link).
 */
export const CONTENT_AR: PageContent = {
  site: { ...SITE_AR, lang: 'ar', dir: 'rtl' },
  chrome: {
    skipToContent: 'الانتقال إلى المحتوى',
    menuButton: 'القائمة',
    navLabel: 'التنقل الرئيسي',
    languageSwitch: { label: 'English', lang: 'en', href: '/' },
    opensInNewTab: 'يُفتح في علامة تبويب جديدة',
    pdfLanguageNote: '(بالإنجليزية)',
    emergency: 'طوارئ',
    emergencyUnavailable: 'تعذّر تحميل بطاقة الطوارئ. يُرجى التحقق من الاتصال والمحاولة مرة أخرى.',
    toolNeedsScript: 'تحتاج هذه الأداة إلى JavaScript، وهو معطَّل في هذا المتصفح. يمكن قراءة بقية الصفحة من دونه.',
  },
  nav: NAV_ITEMS_AR,
  hero: HERO_AR,
  mechanism: MECHANISM_AR,
  advantage: ADVANTAGE_AR,
  tools: TOOL_SECTIONS_AR,
  safety: SAFETY_AR,
  evidence: EVIDENCE_AR,
  resources: RESOURCES_AR,
  faq: FAQ_AR,
  contact: CONTACT_AR,
  notFound: {
    title: `${ltr(404)} الصفحة غير موجودة`,
    text: 'تعذّر العثور على الصفحة المطلوبة: ربما نُقلت، أو أن الرابط غير صحيح.',
    homeLink: 'الانتقال إلى الصفحة الرئيسية',
  },
};
