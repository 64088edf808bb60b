#!/usr/bin/env node
// The product page's own fonts (host/fonts/), so that its text, and the boxes it reserves for the tools
// (host/components/reserved-heights.ts), are the same on every machine whatever fonts it has installed:
// Noto Sans (Latin) and Noto Sans Arabic, variable in weight (one file each for every weight the page uses),
// cut down to the characters below with HarfBuzz (subset-font), which keeps the Arabic joining forms.
// Run by hand when the ranges change (`node scripts/build-fonts.mjs`) and commit the files: the build only
// copies them. Both are under the SIL Open Font License 1.1 (host/public/fonts/OFL.txt, served beside them).
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import subsetFont from 'subset-font';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/**
 * Code point ranges, inclusive, each file keeps (host/fonts/ranges.json; also the @font-face `unicode-range`s,
 * host/fonts.ts). latin: ASCII; Latin-1 (no-break space, °, ±, µ, ×, accented letters); dashes, quotes, bullet,
 * ellipsis; per mille, primes, angle quotes; €; ™; arrows; minus. arabic: ، ؛ ؟; the letters; tatweel and
 * harakat; Arabic-Indic digits with ٪ ٫ ٬ (typed into fields); superscript alef. math: ≤ ≥ (not in Noto Sans).
 * symbols: ▸ ▾ ◂ (disclosures), ☰ (menu), ⚠ (Emergency), ✕ (close). host/fonts.test.ts fails on a character
 * the page or an element writes that none of them has.
 */
export const FONT_RANGES = JSON.parse(readFileSync(path.join(root, 'host/fonts/ranges.json'), 'utf8'));

/** Each file: the @fontsource source it is cut from (Noto; the first two variable in weight) and where it goes. */
export const FONT_FILES = {
  latin: {
    source: '@fontsource-variable/noto-sans/files/noto-sans-latin-wght-normal.woff2',
    output: 'host/fonts/noto-sans-latin.woff2',
  },
  arabic: {
    source: '@fontsource-variable/noto-sans-arabic/files/noto-sans-arabic-arabic-wght-normal.woff2',
    output: 'host/fonts/noto-sans-arabic.woff2',
  },
  math: {
    source: '@fontsource/noto-sans-math/files/noto-sans-math-latin-400-normal.woff2',
    output: 'host/fonts/noto-sans-math.woff2',
  },
  symbols: {
    source: '@fontsource/noto-sans-symbols-2/files/noto-sans-symbols-2-symbols-400-normal.woff2',
    output: 'host/fonts/noto-sans-symbols.woff2',
  },
};

const characters = (ranges) =>
  ranges.flatMap(([first, last]) => Array.from({ length: last - first + 1 }, (_, i) => first + i));

export async function buildFonts() {
  for (const [script, { source, output }] of Object.entries(FONT_FILES)) {
    const text = String.fromCodePoint(...characters(FONT_RANGES[script]));
    const subset = await subsetFont(readFileSync(require.resolve(source)), text, { targetFormat: 'woff2' });
    writeFileSync(path.join(root, output), subset);
    console.log(`${output}: ${(subset.length / 1024).toFixed(1)} KiB`);
  }
  // one licence text, with each family's copyright line
  const licenses = [...new Set(Object.values(FONT_FILES).map(({ source }) => source.split('/files/')[0]))].map((pkg) =>
    readFileSync(require.resolve(`${pkg}/LICENSE`), 'utf8'),
  );
  const copyright = (text) => text.split('\n\n')[0].trim();
  const body = licenses[0].slice(licenses[0].indexOf('\n\n') + 2);
  writeFileSync(path.join(root, 'host/public/fonts/OFL.txt'), `${licenses.map(copyright).join('\n')}\n\n${body}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildFonts();
