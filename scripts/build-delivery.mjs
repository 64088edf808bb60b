#!/usr/bin/env node
// After the site is built: what delivery needs, computed once at build time rather than per request.
// - the element bundles again under widgets/<version>/ (entries and their chunks), and the React build under
//   widgets/<version>/react/, so a page that pins a release never changes under it;
// - widgets/embed.json: each element's versioned URL and the Subresource Integrity hash of its bytes, and
//   the hash of every chunk it may load later (at each address it may load it from), for a page's import map
//   (README "Embedding the elements"); the React build's the same way under its `react` key;
// - a .br and a .gz beside every text file, which the server sends as they are.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { moduleGraph } from './module-graph.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The release version the versioned URLs carry: package.json's. */
export const RELEASE_VERSION = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version;

/** Text files worth compressing; PDFs and images are compressed already. */
export const COMPRESSIBLE = /\.(html|js|mjs|css|json|svg|txt|xml|webmanifest)$/;

const files = (dir) =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) => statSync(path.join(dir, file)).isFile());

export const sri = (bytes) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;

/**
 * How many fresh addresses (`?retry=N`) widgets/shared/loading/load-once.ts may load a chunk under after failed loads
 * (docs/engineering-notes.md#chunks-fetched-again): each is listed with the chunk's integrity, so an import map
 * made from embed.json checks a retry as it checks the first load. scripts/embed-snippets.test.ts keeps the two
 * numbers equal.
 */
export const FRESH_ADDRESSES = 2;

/** A chunk's address and its fresh ones, each with the chunk's integrity. */
const addressesOf = (url, integrity) => [
  [url, integrity],
  ...Array.from({ length: FRESH_ADDRESSES }, (_, index) => [`${url}?retry=${index + 1}`, integrity]),
];

/** The folder of widgets/ holding the React build (scripts/build-widgets.mjs REACT_WIDGETS_DIR). */
const REACT_BUILD = 'react';

/**
 * widgets/<version>/: a copy of every entry and chunk of widgets/ (not of older copies), and of the React build
 * in widgets/react/ as widgets/<version>/react/; and widgets/embed.json listing both, each file with its integrity.
 */
export function versionWidgets(widgetsDir, entries, version = RELEASE_VERSION) {
  const embed = { version, ...versionBuild(widgetsDir, '', entries, version) };
  if (existsSync(path.join(widgetsDir, REACT_BUILD)))
    embed.react = versionBuild(widgetsDir, REACT_BUILD, entries, version);
  writeFileSync(path.join(widgetsDir, 'embed.json'), `${JSON.stringify(embed, null, 2)}\n`);
  return embed;
}

/** One build (`build`: '' for the default one, or its folder) copied under widgets/<version>/, and its listing. */
function versionBuild(widgetsDir, build, entries, version) {
  const buildDir = path.join(widgetsDir, build);
  const versionDir = path.join(widgetsDir, version, build);
  for (const file of files(buildDir)) {
    if (!(file.endsWith('.js') && (file.startsWith('chunks/') || !file.includes('/')))) continue;
    mkdirSync(path.dirname(path.join(versionDir, file)), { recursive: true });
    copyFileSync(path.join(buildDir, file), path.join(versionDir, file));
  }
  const urlOf = (file) => `/widgets/${version}/${build ? `${build}/` : ''}${file}`;
  const integrityOf = (file) => sri(readFileSync(path.join(versionDir, file)));
  return {
    elements: Object.fromEntries(
      entries.map((name) => {
        // What the element may load later (jsPDF, the Arabic texts, the emergency card…): the entry has no
        // static import (scripts/build-widgets.mjs), so everything but the entry is fetched by import().
        const [, ...later] = moduleGraph(versionDir, `${name}.js`);
        const chunks = Object.fromEntries(later.sort().flatMap((file) => addressesOf(urlOf(file), integrityOf(file))));
        return [name, { url: urlOf(`${name}.js`), integrity: integrityOf(`${name}.js`), chunks }];
      }),
    ),
    // Every chunk of the build, whichever element loads it.
    chunks: Object.fromEntries(
      files(path.join(versionDir, 'chunks'))
        .sort()
        .map((file) => [urlOf(`chunks/${file}`), integrityOf(`chunks/${file}`)]),
    ),
  };
}

/** A .br (quality 11) and a .gz (level 9) beside each text file under dir, when smaller. */
export function precompress(dir) {
  for (const file of files(dir)) {
    if (!COMPRESSIBLE.test(file)) continue;
    const full = path.join(dir, file);
    const bytes = readFileSync(full);
    const br = brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    });
    const gz = gzipSync(bytes, { level: 9 });
    if (br.length < bytes.length) writeFileSync(`${full}.br`, br);
    if (gz.length < bytes.length) writeFileSync(`${full}.gz`, gz);
  }
}
