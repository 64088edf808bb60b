#!/usr/bin/env node
// Builds the host page (host/, vite.config.ts) into `outDir` (default dist/site), emptying it first.
// The page is prerendered: host/entry-server.tsx is built for Node and rendered with react-dom's
// static renderer, and its markup goes inside <div id="root"> of the client build's index.html
// (host/main.tsx then hydrates it).
import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'vite';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROOT_ELEMENT = '<div id="root"></div>';

export async function buildHost(outDir = path.join(root, 'dist/site')) {
  // As for the widgets: production package builds whatever NODE_ENV the caller has.
  const previousNodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    const markup = await prerenderPage();
    await build({
      configFile: path.join(root, 'vite.config.ts'),
      mode: 'production',
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true },
      plugins: [injectPrerenderedMarkup(markup)],
    });
  } finally {
    if (previousNodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = previousNodeEnv;
  }
  return outDir;
}

/** The page's markup, rendered by a Node build of host/entry-server.tsx (built apart, then removed). */
async function prerenderPage() {
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
    const { renderPage } = await import(pathToFileURL(path.join(serverDir, 'entry-server.mjs')).href);
    return await renderPage();
  } finally {
    rmSync(serverDir, { recursive: true, force: true });
  }
}

/** A Vite plugin putting the markup in index.html during the client build (so later plugins see the final page). */
function injectPrerenderedMarkup(markup) {
  return {
    name: 'sgx-prerendered-page',
    apply: 'build',
    transformIndexHtml: {
      order: 'pre',
      handler(html) {
        if (!html.includes(ROOT_ELEMENT)) throw new Error(`index.html has no ${ROOT_ELEMENT} for the prerendered page`);
        const { body, styles } = hoistStyles(markup);
        return html
          .replace('</head>', () => `${styles}</head>`)
          .replace(ROOT_ELEMENT, () => `<div id="root">${body}</div>`);
      },
    },
  };
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
