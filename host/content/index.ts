// The page's content, written once: rendered by the host page and by the PDF generator (host/pdfs).
export type * from './types.ts';
export { NAV_ITEMS, SITE } from './nav.ts';
export { HERO } from './hero.ts';
export { MECHANISM } from './mechanism.ts';
export { ADVANTAGE } from './advantage.ts';
export { TOOL_SECTIONS } from './tools.ts';
export {
  SAFETY,
  REPARALYSIS_SUMMARY,
  RECURRENCE_STATEMENT,
  CONTRACEPTION_STATEMENT,
  DISPLACEMENT_STATEMENT,
} from './safety.ts';
export { EVIDENCE, doiOf } from './evidence.ts';
export { RESOURCES } from './resources.ts';
export { FAQ } from './faq.ts';
export { CONTACT } from './contact.ts';
// The page in each language (PageContent): English as above, Arabic in ./ar/.
export { CONTENT_EN } from './en.ts';
export { CONTENT_AR } from './ar/index.ts';
export { contentFor, LANGS, LANG_STORAGE_KEY, loadContent, rememberLang, rememberedLang } from './languages.ts';
