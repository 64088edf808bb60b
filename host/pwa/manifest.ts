// The web app manifests of the two pages, from the page's own metadata (host/content). vite.config.ts
// writes them at build time, /manifest.webmanifest for the English page and /ar/manifest.webmanifest for
// the Arabic one, and links each page to its own.
import { SITE_AR } from '../content/ar/nav.ts';
import { SITE } from '../content/nav.ts';
import { LANG_PAGES } from '../content/languages.ts';
import type { Lang } from '../content/types.ts';
import { pwaMessagesFor } from './messages.ts';

/** The bar's and the icon's teal (host/index.html's theme-color, host/public/favicon.svg). */
export const THEME_COLOUR = '#0f766e';
export const MANIFEST_FILE = 'manifest.webmanifest';

/** PNGs drawn from favicon.svg by scripts/build-icons.mjs (host/public/icons/). */
export const ICONS = [
  { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
  { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
  { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
] as const;

/**
 * The manifest of the page in `lang`. Both pages share the scope (the whole site, so the language switch
 * stays inside the installed app) and differ in their id and start page: installed from /ar/, the app
 * opens the Arabic page and is named in Arabic.
 */
export function webManifest(lang: Lang) {
  const site = lang === 'ar' ? SITE_AR : SITE;
  return {
    id: LANG_PAGES[lang],
    name: site.name,
    short_name: pwaMessagesFor(lang).shortName,
    description: site.description,
    lang,
    dir: lang === 'ar' ? 'rtl' : 'ltr',
    start_url: LANG_PAGES[lang],
    scope: '/',
    display: 'standalone',
    theme_color: THEME_COLOUR,
    background_color: '#ffffff',
    icons: ICONS,
  } as const;
}
