import { useEffect, useRef, useSyncExternalStore } from 'react';
import type { ClinicalTexts } from '../../../clinical/texts/en.ts';
import type { WidgetLang } from './lang.ts';
import { loadOnce } from '../loading/load-once.ts';
import { common } from './messages/common.ts';
import type { Messages } from './messages/index.ts';
import type { LangPack } from './lang-pack.ts';

export type { LangPack } from './lang-pack.ts';

/**
 * English, which every element has from the start: the texts its own bundle carries, nothing more. Each element
 * carries only its own catalogue (the sections of the messages and of clinical/'s texts it shows, listed in its
 * `catalogue.ts`, which its component imports), and a part loaded later brings its own (the emergency card its
 * clinical texts); they are added here as they arrive (`carryEnglish`). A page with several elements has the
 * sections of each. The words every element's frame shows (toasts, dialogs, tooltips: `common`) are here from the
 * start. widgets/catalogues.test.ts checks that each element's catalogue holds every other section its code reads.
 */
export const ENGLISH: LangPack = {
  messages: { common } as Messages,
  clinical: {} as ClinicalTexts,
  serverMessage: (text) => text,
};

/** The English texts a module carries: sections of the widgets' messages and of clinical/'s texts. */
export interface EnglishTexts {
  messages?: Partial<Messages>;
  clinical?: Partial<ClinicalTexts>;
}

/** Adds sections to the English pack (an element's catalogue, or a part loaded later with its own texts). */
export function carryEnglish(texts: EnglishTexts): void {
  Object.assign(ENGLISH.messages, texts.messages);
  Object.assign(ENGLISH.clinical, texts.clinical);
}

/**
 * The other languages, each a chunk of its own that hands over its pack (./messages/ar/arabic-pack.ts), registered
 * here when it arrives: an English page never downloads the Arabic catalogues (about 12 KiB gzip), an Arabic one
 * fetches them once, when its first element renders (the product page fetches them with the element's code,
 * host/elements.ts).
 */
const arabicChunk = loadOnce(() => import('./messages/ar/arabic-pack.ts'), import.meta.url);
const LOADERS: Record<Exclude<WidgetLang, 'en'>, () => Promise<LangPack>> = {
  ar: () => arabicChunk().then((chunk) => chunk.arabicPack),
};

const packs = new Map<WidgetLang, LangPack>([['en', ENGLISH]]);
/** Languages whose chunk failed to arrive (offline before the service worker held it): shown in English. */
const failed = new Set<WidgetLang>();
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/** Called when a language's chunk arrives (and by tests and stories, which load it up front). */
export function registerLangPack(lang: WidgetLang, pack: LangPack): void {
  packs.set(lang, pack);
  failed.delete(lang);
  notify();
}

/** The language's pack if it has arrived. */
export const loadedLangPack = (lang: WidgetLang): LangPack | undefined => packs.get(lang);

/** The language's pack, fetched once; a fetch that failed is tried again by the next call. */
export async function loadLangPack(lang: WidgetLang): Promise<LangPack> {
  if (lang !== 'en' && !packs.has(lang)) {
    try {
      registerLangPack(lang, await LOADERS[lang]());
    } catch (error) {
      failed.add(lang);
      notify();
      throw error;
    }
  }
  const pack = packs.get(lang);
  if (!pack) throw new Error(`The ${lang} catalogue's chunk registered no pack`);
  return pack;
}

// A language that failed to arrive is fetched again when the browser is back online (its elements, shown in
// English meanwhile, then switch to it).
globalThis.addEventListener?.('online', () => {
  for (const lang of failed) loadLangPack(lang).catch(() => undefined);
});

/** What an element shows: a pack and the language it is in. */
export interface ShownLang {
  lang: WidgetLang;
  pack: LangPack;
}

/**
 * The pack to render `lang` with, fetching it when needed. While it arrives: the one shown last (an element
 * switching language live keeps it, and its state), or nothing on a first render. Should it fail to arrive:
 * English, until it is fetched again (the browser back online, or the language asked for anew). The same
 * object while nothing changes.
 */
export function useLangPack(lang: WidgetLang): ShownLang | undefined {
  const pack = useSyncExternalStore(subscribe, () => packs.get(lang));
  const unavailable = useSyncExternalStore(subscribe, () => failed.has(lang));
  useEffect(() => {
    if (!packs.has(lang)) loadLangPack(lang).catch(() => undefined);
  }, [lang]);
  const shown = useRef<ShownLang | undefined>(undefined);
  const wanted = pack ? { lang, pack } : unavailable ? { lang: 'en' as const, pack: ENGLISH } : undefined;
  if (wanted && (shown.current?.lang !== wanted.lang || shown.current.pack !== wanted.pack)) shown.current = wanted;
  return shown.current;
}
