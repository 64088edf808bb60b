#!/usr/bin/env node
// Makes the Arabic font of the patient counselling sheet (widgets/shared/patient-sheet/arabic-font.ts): a subset of
// Noto Naskh Arabic Regular (SIL Open Font License 1.1, from the @expo-google-fonts/noto-naskh-arabic package) with
// what the sheet can print: Basic Latin and Latin-1 (names, "sugammadex", the figures), the Arabic block, the
// Arabic presentation forms B (the joined letters jsPDF's shaper writes: initial, medial, final, isolated and the
// lam-alef ligatures), a few punctuation marks and the right-to-left mark. No layout tables are kept beyond what the
// characters need: jsPDF does not apply OpenType features. Run it again only to change the character set, and
// commit the .ttf it writes.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import subsetFont from 'subset-font';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = 'node_modules/@expo-google-fonts/noto-naskh-arabic/400Regular/NotoNaskhArabic_400Regular.ttf';
export const ARABIC_FONT_SUBSET = 'widgets/shared/patient-sheet/NotoNaskhArabic-sheet.ttf';

const range = (first, last) => Array.from({ length: last - first + 1 }, (_, i) => String.fromCodePoint(first + i));
export const SUBSET_CHARACTERS = [
  ...range(0x20, 0x7e),
  ...range(0xa0, 0xff),
  ...range(0x0600, 0x06ff),
  ...range(0xfe70, 0xfefc),
  ...range(0x2010, 0x2014),
  '\u2018\u2019\u201c\u201d\u2022\u2026\u200e\u200f',
].join('');

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const source = readFileSync(path.join(root, SOURCE));
  const subset = await subsetFont(source, SUBSET_CHARACTERS, { targetFormat: 'truetype', noLayoutClosure: true });
  writeFileSync(path.join(root, ARABIC_FONT_SUBSET), subset);
  console.log(
    `${ARABIC_FONT_SUBSET}: ${(subset.length / 1024).toFixed(1)} KiB (from ${(source.length / 1024).toFixed(1)} KiB)`,
  );
}
