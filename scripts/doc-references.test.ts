import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  checkDocsLinks,
  checkRepository,
  checkSourceText,
  formatOffences,
  headingSlug,
  indexMarkdown,
  type DocIndex,
} from './doc-references.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The offending citations below are built at run time, so that this file passes the check itself.
const S = '\u00a7';
const D = 'docs/';
const CR = ['clinical', 'reference'];

const product = indexMarkdown(
  ['# Product', '## 1. What it does', '## 5. Validation rules', '## 9. Business constants and limits'].join('\n'),
);
const notes = indexMarkdown(['# Notes', '## r2wc edges', '## Storage (lowdb)'].join('\n'));
const docs: DocIndex = new Map([
  ['docs/product.md', product],
  ['docs/engineering-notes.md', notes],
]);
const files = new Set(['docs/product.md', 'docs/engineering-notes.md', 'docs/API.md', 'docs']);
const exists = (file: string) => files.has(file);
const check = (line: string) => checkSourceText('x.ts', line, docs, exists).map((offence) => offence.message);

describe('heading anchors (GitHub slugs)', () => {
  it.each([
    ['5. Validation rules', '5-validation-rules'],
    ['1. What the product does and for whom', '1-what-the-product-does-and-for-whom'],
    ['3. Re-paralysis (re-NMBA) guidance', '3-re-paralysis-re-nmba-guidance'],
    ['Storage (lowdb)', 'storage-lowdb'],
    ['The clinical/ boundary', 'the-clinical-boundary'],
    ['Sugammadex — Bradycardia', 'sugammadex--bradycardia'],
    ['Emotion in a `shadow` root', 'emotion-in-a-shadow-root'],
    ['a [link](x.md) here', 'a-link-here'],
  ])('%s → %s', (heading, slug) => {
    expect(headingSlug(heading)).toBe(slug);
  });

  it('indexes headings outside code fences, numbers the duplicates, and collects the numbered sections', () => {
    const index = indexMarkdown(['## 2. Two', '```', '## 3. In a fence', '```', '### Notes', '### Notes'].join('\n'));
    expect([...index.slugs]).toEqual(['2-two', 'notes', 'notes-1']);
    expect([...index.sections]).toEqual([2]);
  });
});

describe('a line of source', () => {
  it.each([
    `// docs/product.md#5-validation-rules rule 3`,
    `/** docs/product.md ${S}1 and ${S}9; docs/engineering-notes.md#r2wc-edges */`,
    `// (docs/product.md ${S}1, ${S}5, ${S}9)`,
    `// docs/product.md ${S}5/${S}9: the terms checkbox`,
    `it('answers consistently with the clinical reference', () => {`,
  ])('passes: %s', (line) => {
    expect(check(line)).toEqual([]);
  });

  it.each([
    [`// the spec ${S}5 rules`, 'cites a document outside the repository; cite docs/product.md'],
    [`// Spec ${S}2: the page`, 'cites a document outside the repository; cite docs/product.md'],
    [`// (ref ${S}4)`, 'cites a document outside the repository; cite docs/clinical-reference.md'],
    [`// ${CR.join('-')}.md ${S}1`, 'cites a document outside the repository; cite docs/clinical-reference.md'],
    [`// ${CR.join(' ')} ${S}5`, 'cites a document outside the repository; cite docs/clinical-reference.md'],
    ['// see shared' + '/design/server' + '.md', 'cites a document outside the repository'],
    ['// see widgets' + '.md', 'cites a document outside the repository; cite docs/engineering-notes.md'],
    ['// measured' + '-notes-2', 'cites a document outside the repository; cite docs/engineering-notes.md'],
    [`// ${D}missing.md`, `${D}missing.md does not exist`],
    [`// ${D}product.md#validation`, `${D}product.md#validation: no heading of docs/product.md has this anchor`],
    ['// docs/API.md#auth', 'docs/API.md#auth: anchors are checked only in Markdown files under docs/'],
    [`// docs/product.md ${S}7`, `docs/product.md ${S}7: docs/product.md has no heading "7. …"`],
    [`// docs/product.md ${S}1-5`, `docs/product.md ${S}2: docs/product.md has no heading "2. …"`],
    [`// Issue 4 ${S}8: every string`, 'a section sign not written as'],
    [`// docs/product.md ${S}5; ${S}9`, 'a section sign not written as'],
  ])('fails: %s', (line, message) => {
    expect(check(line).join('\n')).toContain(message);
  });

  it('reports each offence as file:line', () => {
    const offences = checkSourceText('api/x.ts', `const a = 1;\n// spec ${S}5\n`, docs, exists);
    expect(formatOffences(offences)).toBe(
      `api/x.ts:2: "spec ${S}5" cites a document outside the repository; cite docs/product.md`,
    );
  });
});

describe('links between the files of docs/', () => {
  it('resolves relative links and their anchors, and ignores other sites', () => {
    const markdown = [
      '[ok](product.md#5-validation-rules) [ok](#r2wc-edges) [site](https://example.org/x.md#y)',
      '[bad](product.md#nope)',
      '[gone](missing.md)',
    ].join('\n');
    expect(formatOffences(checkDocsLinks('docs/engineering-notes.md', markdown, docs, exists))).toBe(
      [
        `docs/engineering-notes.md:2: links to ${D}product.md#nope: no heading of docs/product.md has this anchor`,
        `docs/engineering-notes.md:3: links to ${D}missing.md, which does not exist`,
      ].join('\n'),
    );
  });
});

describe('the repository', () => {
  it('cites only documents in docs/, and every citation resolves', () => {
    const offences = checkRepository(root);
    expect(formatOffences(offences)).toBe('');
  });
});
