import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Issue 4 §8: every visible string comes from the message catalogue, and layout uses logical CSS
// properties, so a right-to-left translation needs no component change.
const widgetsDir = path.dirname(fileURLToPath(import.meta.url));
const sources = readdirSync(widgetsDir, { recursive: true, encoding: 'utf8' })
  .filter((file) => /\.(ts|tsx)$/.test(file) && !/\.test\.tsx?$/.test(file) && !file.startsWith('shared/messages/') && !file.includes('test-'))
  .map((file) => ({ file, text: readFileSync(path.join(widgetsDir, file), 'utf8') }));

const PHYSICAL = /\b(marginLeft|marginRight|paddingLeft|paddingRight|borderLeft\w*|borderRight\w*|margin-left|margin-right|padding-left|padding-right|border-left|border-right)\b|\b(left|right)\s*:\s*['"`\d]|textAlign:\s*['"](left|right)['"]|text-align:\s*(left|right)/;

describe('widget source conventions', () => {
  it('reads the widget sources', () => {
    expect(sources.length).toBeGreaterThan(20);
  });

  it('uses logical CSS properties only (no left/right)', () => {
    const offenders = sources.flatMap(({ file, text }) =>
      text.split('\n').flatMap((line, index) => (PHYSICAL.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
    );
    expect(offenders).toEqual([]);
  });

  it('has no visible words written straight into JSX (they come from the catalogue)', () => {
    const offenders: string[] = [];
    for (const { file, text } of sources.filter((source) => source.file.endsWith('.tsx'))) {
      const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
      const visit = (node: ts.Node) => {
        if (ts.isJsxText(node) && /[A-Za-z]{2,}/.test(node.text)) offenders.push(`${file}: "${node.text.trim()}"`);
        if (ts.isJsxAttribute(node) && ['aria-label', 'title', 'placeholder', 'alt', 'label', 'unit', 'hint', 'info', 'text'].includes(node.name.getText()) && node.initializer && ts.isStringLiteral(node.initializer) && /[A-Za-z]{2,}/.test(node.initializer.text)) {
          offenders.push(`${file}: ${node.name.getText()}="${node.initializer.text}"`);
        }
        ts.forEachChild(node, visit);
      };
      visit(sourceFile);
    }
    expect(offenders).toEqual([]);
  });
});
