#!/usr/bin/env node
// Builds the host page (host/, vite.config.ts) into `outDir` (default dist/site), emptying it first.
// The page is prerendered: host/entry-server.tsx is built for Node and rendered with react-dom's
// static renderer, and its markup goes inside <div id="root"> of the client build's index.html
// (host/main.tsx then hydrates it). Its PDFs (scripts/build-pdfs.mjs) are written during the same build,
// before the service worker that precaches the page and the HCP guide is generated (vite.config.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'vite';
import { buildPdfs } from './build-pdfs.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROOT_ELEMENT = '<div id="root"></div>';

export async function buildHost(outDir = path.join(root, 'dist/site')) {
  // As for the widgets: production package builds whatever NODE_ENV the caller has.
  const previousNodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    const pages = await prerenderPages();
    await build({
      configFile: path.join(root, 'vite.config.ts'),
      mode: 'production',
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true },
      plugins: [injectPrerenderedMarkup(pages), writePdfs()],
    });
  } finally {
    if (previousNodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = previousNodeEnv;
  }
  return outDir;
}

/**
 * The page in each language (markup and head), rendered by a Node build of host/entry-server.tsx (built
 * apart, then removed): `{ en: { markup, head }, ar: { markup, head } }`.
 */
async function prerenderPages() {
  const serverDir = mkdtempSync(path.join(root, 'node_modules', '.sgx-prerender-'));
  try {
    await build({
      configFile: path.join(root, 'vite.config.ts'),
      mode: 'production',
      logLevel: 'warn',
      build: {
        ssr: path.join(root, 'host/entry-server.tsx'),
        outDir: serverDir,
        emptyOutDir: true,
        copyPublicDir: false,
        rollupOptions: { output: { entryFileNames: 'entry-server.mjs', format: 'es' } },
      },
    });
    const { renderPage, renderNotFoundPage, pageHead, LANGS, LANG_PAGES } = await import(
      pathToFileURL(path.join(serverDir, 'entry-server.mjs')).href
    );
    const pages = {};
    for (const lang of LANGS) {
      pages[lang] = {
        markup: await renderPage(lang),
        head: pageHead(lang),
        path: LANG_PAGES[lang],
        notFound: renderNotFoundPage(lang, LANG_PAGES[lang]),
      };
    }
    return pages;
  } finally {
    rmSync(serverDir, { recursive: true, force: true });
  }
}

// Around what the plugin puts in the page, so that each translation replaces exactly that.
const STYLES_START = '<!--sgx-page-styles-->';
const STYLES_END = '<!--/sgx-page-styles-->';
const MARKUP_START = '<!--sgx-page-markup-->';
const MARKUP_END = '<!--/sgx-page-markup-->';
/** A pattern for everything from `start` to `end`, both included (the markers are plain text). */
const between = (start, end) => new RegExp(`${start}[\\s\\S]*?${end}`);

/** The <link rel="alternate" hreflang> set every language's page carries (English is also x-default). */
const alternateLinks = (pages) =>
  [...Object.entries(pages).map(([lang, { path }]) => [lang, path]), ['x-default', pages.en.path]]
    .map(([lang, href]) => `<link rel="alternate" hreflang="${lang}" href="${href}" />`)
    .join('');

/**
 * A Vite plugin putting the English markup in index.html during the client build (so later plugins see the
 * final page), then writing each other language's page (`ar/index.html`) from that final page: the same
 * scripts and styles, with the language's markup, `<html lang dir>`, title, description and web app manifest.
 */
function injectPrerenderedMarkup(pages) {
  const langs = Object.keys(pages);
  const english = hoistStyles(pages.en.markup);
  return {
    name: 'sgx-prerendered-page',
    apply: 'build',
    transformIndexHtml: {
      order: 'pre',
      handler(html) {
        if (!html.includes(ROOT_ELEMENT)) throw new Error(`index.html has no ${ROOT_ELEMENT} for the prerendered page`);
        return html
          .replace('</head>', () => `${STYLES_START}${english.styles}${STYLES_END}</head>`)
          .replace(ROOT_ELEMENT, () => `<div id="root">${MARKUP_START}${english.body}${MARKUP_END}</div>`);
      },
    },
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const page = bundle['index.html'];
        if (!page || page.type !== 'asset') throw new Error('the client build wrote no index.html');
        // (the alternates go in here, after Vite has processed the page: it would read their hrefs as files)
        const englishHtml = replaceOnce(String(page.source), '</head>', `${alternateLinks(pages)}</head>`);
        page.source = englishHtml;
        for (const lang of langs.filter((other) => other !== 'en')) {
          const { markup, head } = pages[lang];
          const translated = hoistStyles(markup);
          const html = replaceOnce(
            replaceOnce(
              replaceOnce(
                replaceOnce(englishHtml, '<html lang="en">', `<html lang="${head.lang}" dir="${head.dir}">`),
                between(STYLES_START, STYLES_END),
                `${STYLES_START}${translated.styles}${STYLES_END}`,
              ),
              between(MARKUP_START, MARKUP_END),
              `${MARKUP_START}${translated.body}${MARKUP_END}`,
            ),
            /<title>[^<]*<\/title>/,
            `<title>${head.titleHtml}</title>`,
          )
            .replace(/<meta\s+name="description"\s+content="[^"]*"\s*\/>/, () => {
              return `<meta name="description" content="${head.descriptionHtml}" />`;
            })
            // each language's page has its own web app manifest beside it (vite.config.ts writes them)
            .replace(
              /(<link rel="manifest" href=")\/([^"/]+")/,
              (_link, start, file) => `${start}${pages[lang].path}${file}`,
            );
          this.emitFile({
            type: 'asset',
            fileName: `${lang}/index.html`,
            source: withContentPreload(lang === 'ar' ? withArabicFontPreload(html, bundle) : html, bundle, lang),
          });
          // its 404 page, for a missing path under /<lang>/ (the English one is the server's own)
          this.emitFile({ type: 'asset', fileName: `${lang}/404.html`, source: pages[lang].notFound });
        }
      },
    },
  };
}

/**
 * The page's content in `lang` is a chunk of its own (host/content/languages.ts), which the script fetches
 * before it hydrates: the page names it in <head> so the browser fetches it beside the script, not after.
 */
function withContentPreload(html, bundle, lang) {
  const entry = `host/content/${lang}/index.ts`;
  const chunk = Object.values(bundle).find(
    (file) => file.type === 'chunk' && file.facadeModuleId?.replaceAll('\\', '/').endsWith(entry),
  );
  if (!chunk) throw new Error(`no chunk of its own for ${entry}: is it still imported only dynamically?`);
  return replaceOnce(html, '</head>', `<link rel="modulepreload" crossorigin href="/${chunk.fileName}">\n</head>`);
}

/**
 * The Arabic page also preloads the Arabic font (host/fonts.ts), before the Latin one that index.html preloads for
 * every page (the English page never uses the Arabic one).
 */
function withArabicFontPreload(html, bundle) {
  const file = Object.keys(bundle).find((fileName) => /^assets\/noto-sans-arabic-[\w-]+\.woff2$/.test(fileName));
  if (!file) throw new Error('the client build has no noto-sans-arabic.woff2 (host/index.html declares it)');
  const latin = html.match(/<link rel="preload" href="\/assets\/noto-sans-latin-[^>]*>/);
  if (!latin) throw new Error("index.html no longer preloads the Latin font: the Arabic page's preload goes before it");
  return replaceOnce(html, latin[0], latin[0].replace(/assets\/noto-sans-latin-[\w-]+\.woff2/, file) + latin[0]);
}

/**
 * The PDFs, into the build's folder once its files are written and before the bundle is closed: the service
 * worker (generated when it closes) precaches the HCP guide, so the guide must be there to be hashed.
 */
function writePdfs() {
  let outDir;
  return {
    name: 'sgx-pdfs',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    writeBundle: {
      sequential: true,
      async handler() {
        await buildPdfs(outDir);
      },
    },
  };
}

/** `text` with `search` (a string or a pattern) replaced once; an error when it is not there. */
function replaceOnce(text, search, replacement) {
  const found = typeof search === 'string' ? text.includes(search) : search.test(text);
  if (!found) throw new Error(`building the translated page: ${String(search).slice(0, 80)}… not found`);
  return text.replace(search, () => replacement);
}

/**
 * Emotion's server rendering writes a <style> before each element that uses one (110 on this page, some
 * twice); its client cache moves them into <head> before hydration. Done here instead: the page's rules in
 * one <style> in <head>, each once and in their order, named by every id they hold (`data-emotion="css id
 * id …"`, the form Emotion's cache reads to know what is inserted already); <Global> styles stay their own
 * tags, which <Global> looks for by name. The browser parses and styles fewer nodes, and moves none.
 */
export function hoistStyles(markup) {
  const ids = [];
  const rules = [];
  const globals = [];
  const seen = new Set();
  const body = markup.replace(/<style data-emotion="([^"]+)">([^<]*)<\/style>/g, (tag, name, css) => {
    if (seen.has(name)) return '';
    seen.add(name);
    const [key, ...names] = name.split(' ');
    if (key !== 'css') globals.push(tag);
    else {
      ids.push(...names);
      rules.push(css);
    }
    return '';
  });
  const merged = ids.length ? `<style data-emotion="css ${ids.join(' ')}">${rules.join('')}</style>` : '';
  return { body, styles: `${globals.join('')}${merged}` };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(
    `Built ${path.relative(root, await buildHost(process.argv[2] ? path.resolve(process.argv[2]) : undefined))}`,
  );
}
