import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { trackedFiles } from './doc-references.ts';

// No two files of the tree import each other, however long the way round: a circle makes the order in which
// modules run depend on which one a page loads first, and ties the files of it into one piece that cannot be
// read, tested or split apart. Every arrow counts: `import`, `export … from`, `import()` (a chunk loaded later
// is still a dependency), and type-only imports (`import type`, `typeof import()`), which tie the code as much.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

/** The relative specifiers a source file imports, in any of the forms above. */
export function specifiersOf(file: string, text: string): string[] {
  const found: string[] = [];
  const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const visit = (node: ts.Node) => {
    let specifier: ts.Expression | undefined;
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier)
      specifier = node.moduleSpecifier;
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword)
      specifier = node.arguments[0];
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) specifier = node.argument.literal;
    else if (ts.isExternalModuleReference(node)) specifier = node.expression;
    if (specifier && ts.isStringLiteralLike(specifier) && specifier.text.startsWith('.')) found.push(specifier.text);
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

/** The import graph of `files` (paths relative to the root, with their text): each file and what it imports. */
export function importGraph(files: ReadonlyMap<string, string>): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const [file, text] of files) {
    const targets = specifiersOf(file, text)
      .map((specifier) => path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier.split('?')[0]!)))
      .filter((target) => files.has(target));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The circles of a graph: its strongly connected components of two files or more, or a file importing itself. */
export function circlesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's algorithm, iterative (a deep tree would overflow the stack of a recursive one).
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  let counter = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; next: number }[] = [{ node: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const frame = work.at(-1)!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.next < edges.length) {
        const target = edges[frame.next++]!;
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, next: 0 });
        } else if (onStack.has(target)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        continue;
      }
      work.pop();
      const parent = work.at(-1);
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      if (component.length > 1 || edges.includes(frame.node)) circles.push(component.sort());
    }
  }
  return circles;
}

describe('import circles', () => {
  it('the tree has none', () => {
    const files = new Map(
      trackedFiles(root)
        .filter((file) => SOURCE.test(file) && !file.endsWith('.d.ts') && existsSync(path.join(root, file)))
        .filter((file) => statSync(path.join(root, file)).isFile())
        .map((file) => [file, readFileSync(path.join(root, file), 'utf8')] as const),
    );
    expect(files.size).toBeGreaterThan(300);
    const graph = importGraph(files);
    // the graph is read: these arrows stand today (a reader that saw no import would find no circle either)
    expect(graph.get('widgets/shared/lang/lang-packs.ts')).toContain('widgets/shared/lang/messages/ar/arabic-pack.ts');
    expect(graph.get('widgets/shared/session/account-api-loader.ts')).toEqual([
      'widgets/shared/session/account-api.ts',
    ]);
    expect(circlesOf(graph)).toEqual([]);
  }, 60_000); // reads every file of the tree: seconds on a busy machine

  it.each([
    [
      'two files, one through import()',
      { 'a.ts': "const b = () => import('./b.ts');", 'b.ts': "import { a } from './a.ts';" },
      [['a.ts', 'b.ts']],
    ],
    [
      'two files, through types only',
      { 'x/a.ts': "import type { B } from '../y/b.ts';", 'y/b.ts': "export type { A } from '../x/a.ts';" },
      [['x/a.ts', 'y/b.ts']],
    ],
    [
      'three files, one through typeof import()',
      {
        'a.ts': "import './b.ts';",
        'b.ts': "export const c = (): Promise<typeof import('./c.ts')> => null!;",
        'c.ts': "import { a } from './a.ts?raw';",
      },
      [['a.ts', 'b.ts', 'c.ts']],
    ],
    ['a file importing itself', { 'a.ts': "export * from './a.ts';" }, [['a.ts']]],
    [
      'arrows one way only',
      { 'a.ts': "import './b.ts'; import 'zustand';", 'b.ts': "import './c.ts';", 'c.ts': "import '../outside.ts';" },
      [],
    ],
  ])('%s', (_name, files, expected) => {
    expect(circlesOf(importGraph(new Map(Object.entries(files))))).toEqual(expected);
  });
});
