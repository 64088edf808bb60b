// The Arabic glossary as data (docs/glossary.json): reading it, finding a rejected variant or a forbidden
// abbreviation in a text, and writing the glossary's tables into docs/arabic-glossary.md.
//   npm run glossary            rewrites the tables of docs/arabic-glossary.md from docs/glossary.json
// scripts/glossary.test.ts holds every text a user reads to it; e2e/arabic.e2e.ts holds the pages in a browser.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const GLOSSARY_FILE = path.join(root, 'docs', 'glossary.json');
export const GLOSSARY_DOC = path.join(root, 'docs', 'arabic-glossary.md');
const START = '<!-- glossary tables: generated from docs/glossary.json by `npm run glossary` -->';
const END = '<!-- end of the generated glossary tables -->';

/** docs/glossary.json, parsed. */
export function readGlossary(file = GLOSSARY_FILE) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/**
 * Arabic text as the checks compare it: without bidi marks (isolates, LRM/RLM/ALM), word joiners and Arabic
 * diacritics or tatweel, no-break spaces as spaces, runs of spaces as one. «مُضادّ» and «مضاد» are the same word.
 */
export function normalizeArabic(text) {
  return text
    .replace(/[\u2066-\u2069\u200e\u200f\u061c\u2060\u200b]/g, '')
    .replace(/[\u064b-\u065f\u0670\u0640]/g, '')
    .replace(/[\u00a0\u202f\s]+/g, ' ');
}

/**
 * The glossary's rejected variants (and rejected patterns) found in `text`: [] when it follows the glossary. A
 * variant inside the accepted term ("نزع الأنبوب" in "نزع الأنبوب الرغامي") is not a finding.
 */
export function rejectedVariantsIn(text, glossary = readGlossary()) {
  const normalized = normalizeArabic(text);
  const found = [];
  for (const term of glossary.terms) {
    if (!term.rejected.length) continue;
    const withoutAccepted = normalized.split(normalizeArabic(term.ar)).join(' | ');
    for (const variant of term.rejected) {
      if (withoutAccepted.includes(normalizeArabic(variant))) found.push(`${variant} (use ${term.ar}: ${term.en})`);
    }
  }
  for (const { pattern, why } of glossary.rejected_patterns) {
    const match = new RegExp(pattern, 'u').exec(normalized);
    if (match) found.push(`${match[0].trim()} (${why})`);
  }
  return found;
}

/** The forbidden abbreviations ("µg", "mcg") found in `text`, in any language. */
export function forbiddenAbbreviationsIn(text, glossary = readGlossary()) {
  const plain = text.replace(/[\u2066-\u2069]/g, '');
  return glossary.forbidden_everywhere
    .filter(({ pattern }) => new RegExp(pattern, 'u').test(plain))
    .map(({ pattern, why }) => `${pattern.replace(/\\b/g, '')} (${why})`);
}

const cell = (text) => text.replace(/\|/g, '\\|');

/** The glossary's tables as Markdown, one per section, with each term's rejected variants. */
export function glossaryTables(glossary = readGlossary()) {
  return Object.entries(glossary.sections)
    .map(([id, title]) => {
      const rows = glossary.terms
        .filter((term) => term.section === id)
        .map(
          (term) =>
            `| ${cell(term.en)} | ${cell(term.ar)} | ${cell(term.english_in_brackets)} | ` +
            `${term.rejected.map((variant) => `«${cell(variant)}»`).join(', ')} |`,
        );
      return [
        `## ${title}`,
        '',
        '| English | Arabic | English kept in brackets | Rejected variants |',
        '|---|---|---|---|',
        ...rows,
      ].join('\n');
    })
    .join('\n\n');
}

/** docs/arabic-glossary.md with its tables generated from the data (the rest of the page as written). */
export function glossaryDoc(doc = readFileSync(GLOSSARY_DOC, 'utf8'), glossary = readGlossary()) {
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${GLOSSARY_DOC} has no generated-tables markers`);
  return `${doc.slice(0, start + START.length)}\n\n${glossaryTables(glossary)}\n\n${doc.slice(end)}`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(GLOSSARY_DOC, glossaryDoc());
  console.log(`${path.relative(root, GLOSSARY_DOC)} written from ${path.relative(root, GLOSSARY_FILE)}`);
}
