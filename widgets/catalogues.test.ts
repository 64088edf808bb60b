import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ACCESS_PORTAL_CATALOGUE } from './access-portal/catalogue.ts';
import { BRADYCARDIA_ADVISOR_CATALOGUE } from './bradycardia-advisor/catalogue.ts';
import { DOSE_CALCULATOR_CATALOGUE } from './dose-calculator/catalogue.ts';
import { ROI_CALCULATOR_CATALOGUE } from './roi-calculator/catalogue.ts';
import { ENGLISH } from './shared/lang/lang-packs.ts';
import { messagesEn } from './shared/lang/messages/index.ts';

// Each element's bundle carries only its own catalogue (shared/lang-packs.ts): the sections of the messages its
// `catalogue.ts` lists. A section its code reads but does not carry would be missing on a page with that element
// alone (an error, or a blank where a text should be), so the list is checked against the code: every module the
// element may run (its element.ts and all it imports, at once or later) and each section those modules read.
const widgetsDir = path.dirname(fileURLToPath(import.meta.url));

const CATALOGUES = {
  'dose-calculator': DOSE_CALCULATOR_CATALOGUE,
  'bradycardia-advisor': BRADYCARDIA_ADVISOR_CATALOGUE,
  'roi-calculator': ROI_CALCULATOR_CATALOGUE,
  'access-portal': ACCESS_PORTAL_CATALOGUE,
} as const;

const parse = (file: string, text = readFileSync(file, 'utf8')) =>
  ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );

/** The relative modules a source imports for their values: `import`, `export … from` and `import()`. */
export function valueImports(source: ts.SourceFile): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly && ts.isStringLiteral(node.moduleSpecifier))
      found.push(node.moduleSpecifier.text);
    if (
      ts.isExportDeclaration(node) &&
      !node.isTypeOnly &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    )
      found.push(node.moduleSpecifier.text);
    if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    )
      found.push(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.filter((specifier) => specifier.startsWith('.'));
}

/** `messages`, `host.messages` or `useMessages()`: the element's catalogue (not one imported by name). */
const isCatalogue = (node: ts.Expression) =>
  (ts.isIdentifier(node) && node.text === 'messages') ||
  (ts.isPropertyAccessExpression(node) && node.name.text === 'messages') ||
  (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'useMessages');

/**
 * The sections of the messages a source reads from its element's catalogue: `messages.x`, `host.messages.x`,
 * `useMessages().x`, `const { x, y: t } = useMessages()` (the English catalogue imported by name, for PDFs and
 * notes, is not the element's).
 */
export function sectionsRead(source: ts.SourceFile): string[] {
  const found = new Set<string>();
  const visit = (node: ts.Node) => {
    if (ts.isPropertyAccessExpression(node) && isCatalogue(node.expression)) found.add(node.name.text);
    if (
      ts.isVariableDeclaration(node) &&
      node.initializer &&
      isCatalogue(node.initializer) &&
      ts.isObjectBindingPattern(node.name)
    )
      for (const element of node.name.elements) found.add((element.propertyName ?? element.name).getText());
    ts.forEachChild(node, visit);
  };
  visit(source);
  return [...found].sort();
}

/**
 * The sections of the messages a module carries itself (`carryEnglish({ messages: { … } })`): a part loaded later
 * that brings its own texts (the emergency card, the patient sheet's dialog).
 */
export function sectionsCarried(source: ts.SourceFile): string[] {
  const found = new Set<string>();
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'carryEnglish') {
      const [texts] = node.arguments;
      const messages =
        texts && ts.isObjectLiteralExpression(texts)
          ? texts.properties.find((property) => property.name?.getText() === 'messages')
          : undefined;
      if (messages && ts.isPropertyAssignment(messages) && ts.isObjectLiteralExpression(messages.initializer))
        for (const property of messages.initializer.properties) if (property.name) found.add(property.name.getText());
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return [...found].sort();
}

/** Every module of widgets/ an element may run, from its element.ts: relative paths, the entry first. */
function modulesOf(element: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    const relative = path.relative(widgetsDir, file);
    // outside widgets/ (clinical/, contracts/) there is no widget message; the catalogue itself is data; assets
    // (a font imported `?inline`) are no code
    if (seen.has(relative) || relative.startsWith('..') || relative.startsWith('shared/lang/messages/')) return;
    if (!/\.tsx?$/.test(file)) return;
    if (!existsSync(file)) throw new Error(`${relative}: imported but not found`);
    seen.add(relative);
    for (const specifier of valueImports(parse(file))) visit(path.resolve(path.dirname(file), specifier));
  };
  visit(path.join(widgetsDir, element, 'element.ts'));
  return [...seen];
}

describe("each element's catalogue", () => {
  it.each(Object.entries(CATALOGUES))('%s carries every section its code reads, and no other', (element, catalogue) => {
    const modules = modulesOf(element);
    expect(modules.length).toBeGreaterThan(5);
    // sections read by each module, but for those the module brings itself (a part loaded later, with its texts)
    const readBy = new Map<string, string[]>();
    for (const file of modules) {
      const source = parse(path.join(widgetsDir, file));
      const own = sectionsCarried(source);
      for (const section of sectionsRead(source).filter((read) => !own.includes(read)))
        readBy.set(section, [...(readBy.get(section) ?? []), file]);
    }
    const carried = Object.keys(catalogue.messages).sort();
    // what every element has from the start (its frame's words), whatever its catalogue
    const everyElement = ['common'];
    const missing = [...readBy].filter(([section]) => !carried.includes(section) && !everyElement.includes(section));
    expect(missing, `read by ${element}'s code, not in its catalogue.ts`).toEqual([]);
    expect(
      carried.filter((section) => !readBy.has(section)),
      'carried but never read',
    ).toEqual([]);
    // the sections are the catalogue's own objects: the words every element and the Arabic catalogue share
    for (const section of carried)
      expect(catalogue.messages[section as keyof typeof catalogue.messages]).toBe(
        messagesEn[section as keyof typeof messagesEn],
      );
  });

  it('every element has `common` from the start (the words of toasts, dialogs, tooltips)', () => {
    expect(ENGLISH.messages.common).toBe(messagesEn.common);
  });

  it('no element carries them all, and the dose calculator not the other tools’ sections', () => {
    for (const catalogue of Object.values(CATALOGUES))
      expect(Object.keys(catalogue.messages).length).toBeLessThan(Object.keys(messagesEn).length);
    expect(Object.keys(DOSE_CALCULATOR_CATALOGUE.messages)).not.toEqual(expect.arrayContaining(['advisor']));
    expect(Object.keys(DOSE_CALCULATOR_CATALOGUE.messages)).not.toEqual(expect.arrayContaining(['roi']));
    expect(Object.keys(DOSE_CALCULATOR_CATALOGUE.messages)).not.toEqual(expect.arrayContaining(['portal']));
  });

  it('reads sections and imports as written in every form the widgets use', () => {
    const source = parse(
      'x.tsx',
      [
        "import type { Messages } from './types.ts';",
        "import { a } from './a.ts';",
        "export { b } from '../b.ts';",
        "import 'react';",
        "const c = () => import('./c.tsx');",
        'const t = useMessages().doseCalculator;',
        'const u = messages.roi.title;',
        'toast({ title: (host) => host.messages.account.x, description: ({ messages }) => messages.common.y });',
        '// messages.advisor in a comment is no read',
        'const v = pdf.messagesEn.portal;',
        'const { account: w, records } = useMessages();',
        'carryEnglish({ messages: { emergency, doseCalculator: dose }, clinical: TEXTS });',
      ].join('\n'),
    );
    expect(valueImports(source)).toEqual(['./a.ts', '../b.ts', './c.tsx']);
    expect(sectionsRead(source)).toEqual(['account', 'common', 'doseCalculator', 'records', 'roi']);
    expect(sectionsCarried(source)).toEqual(['doseCalculator', 'emergency']);
  });
});
