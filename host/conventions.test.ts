import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The host page is English at / and Arabic at /ar/ (right to left): every visible string comes from
// host/content (PageContent, through usePageContent), and layout uses logical CSS properties, so the
// page mirrors with <html dir="rtl"> and needs no component change per language (as widgets/conventions.test.ts
// holds the widgets to). host/content/ holds the texts and host/pdfs/ lays out the English PDFs: neither is CSS.
const hostDir = path.dirname(fileURLToPath(import.meta.url));
const sources = readdirSync(hostDir, { recursive: true, encoding: 'utf8' })
  .map((file) => file.split(path.sep).join('/'))
  .filter(
    (file) =>
      /\.(ts|tsx)$/.test(file) &&
      !/\.test\.tsx?$/.test(file) &&
      !file.startsWith('content/') &&
      !file.startsWith('pdfs/') &&
      !file.startsWith('public/'),
  )
  .map((file) => ({ file, text: readFileSync(path.join(hostDir, file), 'utf8') }));

const PHYSICAL_PROPERTIES = [
  'marginLeft|marginRight|paddingLeft|paddingRight|borderLeft\\w*|borderRight\\w*',
  'margin-left|margin-right|padding-left|padding-right|border-left|border-right',
  'border(Top|Bottom)(Left|Right)Radius|border-(top|bottom)-(left|right)-radius',
  'scrollMarginLeft|scrollMarginRight|scroll-margin-left|scroll-margin-right',
].join('|');
const PHYSICAL_VALUES = [
  `\\b(left|right)\\s*:\\s*['"\`\\d]`,
  `textAlign:\\s*['"](left|right)['"]`,
  `text-align:\\s*(left|right)`,
  // a CSS value naming a side: float: 'left', transformOrigin: 'left', backgroundPosition: 'right top'
  `\\w\\s*:\\s*['"\`][^'"\`]*\\b(left|right)\\b[^'"\`]*['"\`]`,
  `\\b(float|clear|transform-origin|background-position)\\s*:\\s*[^;]*\\b(left|right)\\b`,
].join('|');
const PHYSICAL = new RegExp(`\\b(${PHYSICAL_PROPERTIES})\\b|${PHYSICAL_VALUES}`);

/** A margin, padding or radius shorthand of four values that differ between the sides (left ≠ right). */
function asymmetricShorthand(line: string): boolean {
  const match = /\b(margin|padding|borderRadius|border-radius)\s*:\s*['"`]?([^;'"`,}]+)/.exec(line);
  const values = match?.[2]!.trim().split(/\s+/) ?? [];
  if (values.length !== 4) return false;
  const [a, b, c, d] = values;
  return match![1]!.toLowerCase().includes('radius') ? a !== b || c !== d : b !== d;
}

function physicalCss(files: readonly { file: string; text: string }[]): string[] {
  return files.flatMap(({ file, text }) =>
    text
      .split('\n')
      .flatMap((line, index) =>
        PHYSICAL.test(line) || asymmetricShorthand(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [],
      ),
  );
}

const VISIBLE_ATTRIBUTES = ['aria-label', 'title', 'placeholder', 'alt', 'label', 'aria-description'];

/** Words (two letters or more, any script) written straight into JSX text or a visible attribute. */
function visibleWords(files: readonly { file: string; text: string }[]): string[] {
  const offenders: string[] = [];
  const WORD = /\p{L}{2,}/u;
  for (const { file, text } of files.filter((source) => source.file.endsWith('.tsx'))) {
    const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
    const visit = (node: ts.Node) => {
      if (ts.isJsxText(node) && WORD.test(node.text)) offenders.push(`${file}: "${node.text.trim()}"`);
      if (
        ts.isJsxAttribute(node) &&
        VISIBLE_ATTRIBUTES.includes(node.name.getText()) &&
        node.initializer &&
        ts.isStringLiteral(node.initializer) &&
        WORD.test(node.initializer.text)
      ) {
        offenders.push(`${file}: ${node.name.getText()}="${node.initializer.text}"`);
      }
      ts.forEachChild(node, visit);
    };
    visit(sourceFile);
  }
  return offenders;
}

describe('host source conventions', () => {
  it('reads the host sources', () => {
    expect(sources.map((source) => source.file)).toEqual(
      expect.arrayContaining(['App.tsx', 'styles.ts', 'components/Nav.tsx', 'components/Hero.tsx']),
    );
  });

  it('uses logical CSS properties only (no left/right)', () => {
    expect(physicalCss(sources)).toEqual([]);
  });

  it('has no visible words written straight into JSX (they come from host/content)', () => {
    expect(visibleWords(sources)).toEqual([]);
  });

  it.each([
    ['css={{ marginLeft: 8 }}', true],
    ["css={{ paddingRight: '1em' }}", true],
    ['css={{ left: 0 }}', true],
    ["css={{ textAlign: 'right' }}", true],
    ["css={{ transformOrigin: 'left', transition: 'none' }}", true],
    ["css={{ float: 'right' }}", true],
    ['  border-left: 1px solid;', true],
    ["css={{ margin: '0 8px 0 4px' }}", true],
    ["css={{ borderRadius: '8px 0 0 8px' }}", true],
    ["css={{ marginInlineStart: 8, insetInlineEnd: 0, textAlign: 'start' }}", false],
    ["css={{ margin: '0 8px 0 8px', padding: '12px 16px', borderRadius: 12 }}", false],
    ['// isolated left to right on a right-to-left page', false],
  ])('%s is physical: %s', (line, physical) => {
    expect(physicalCss([{ file: 'x.tsx', text: line }]).length > 0).toBe(physical);
  });

  it.each([
    ['<p>Skip to content</p>', 1],
    ['<p>تواصل معنا</p>', 1],
    ['<a aria-label="Main" />', 1],
    ['<p>{content.title}</p>', 0],
    ['<span aria-hidden="true">☰</span>', 0],
    ['<p>: {title} ·</p>', 0],
  ])('%s has %i visible word(s)', (text, count) => {
    expect(visibleWords([{ file: 'x.tsx', text }])).toHaveLength(count);
  });
});
