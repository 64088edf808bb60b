import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Every visible string comes from the message catalogue, and layout uses logical CSS
// properties, so a right-to-left translation needs no component change.
const widgetsDir = path.dirname(fileURLToPath(import.meta.url));
const sources = readdirSync(widgetsDir, { recursive: true, encoding: 'utf8' })
  .filter(
    (file) =>
      /\.(ts|tsx)$/.test(file) &&
      !/\.test\.tsx?$/.test(file) &&
      !file.startsWith('shared/lang/messages/') &&
      !file.includes('test-'),
  )
  .map((file) => ({ file, text: readFileSync(path.join(widgetsDir, file), 'utf8') }));

const PHYSICAL_PROPERTIES = [
  'marginLeft|marginRight|paddingLeft|paddingRight|borderLeft\\w*|borderRight\\w*',
  'margin-left|margin-right|padding-left|padding-right|border-left|border-right',
].join('|');
const PHYSICAL_VALUES = [
  `\\b(left|right)\\s*:\\s*['"\`\\d]`,
  `textAlign:\\s*['"](left|right)['"]`,
  `text-align:\\s*(left|right)`,
].join('|');
const PHYSICAL = new RegExp(`\\b(${PHYSICAL_PROPERTIES})\\b|${PHYSICAL_VALUES}`);

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
        if (
          ts.isJsxAttribute(node) &&
          ['aria-label', 'title', 'placeholder', 'alt', 'label', 'unit', 'hint', 'info', 'text'].includes(
            node.name.getText(),
          ) &&
          node.initializer &&
          ts.isStringLiteral(node.initializer) &&
          /[A-Za-z]{2,}/.test(node.initializer.text)
        ) {
          offenders.push(`${file}: ${node.name.getText()}="${node.initializer.text}"`);
        }
        ts.forEachChild(node, visit);
      };
      visit(sourceFile);
    }
    expect(offenders).toEqual([]);
  });
});

// The layer map: a widget folder uses shared/ and its own files, never another widget's; shared/
// uses no widget folder. Only the composition roots (bundles/, register.ts, define-all.ts, index.ts,
// element-types*) put widget folders together. Tests are held to it too.
const COMPOSITION_ROOTS = /^(bundles\/|register\.ts$|index\.ts$|element-types)/;

/**
 * shared/ in rooms, one per concern, floor by floor from the ground: a room imports only rooms on a lower floor
 * (and its own files), so the arrows between them run one way. Every file of shared/ stands in a room. A test
 * stands above what it puts together (a language pack rendered in an element's root, say): no module imports a
 * test, so it may use any room.
 */
const SHARED_FLOORS: readonly (readonly string[])[] = [
  // the API client, its errors and idempotency keys; the release and the chunks loaded later
  ['api', 'loading'],
  // languages and catalogues; PDF page layout; calculations kept offline until the API records them
  ['lang', 'pdf', 'offline'],
  // the session every element reads, its store, the account calls
  ['session'],
  // what an element gives its components: language, messages, events
  ['widget-host'],
  // the UI kit
  ['ui'],
  // a component made a custom element; the notes and their PDF
  ['element', 'notes'],
  // the parts an element opens: the emergency card, the patient sheet, the EHR's banner and "Send to EHR"
  ['emergency-card', 'patient-sheet', 'ehr'],
];
const TEST_FILE = /\.test\.tsx?$/;
const floorOf = (room: string) => SHARED_FLOORS.findIndex((rooms) => rooms.includes(room));
/** The room of a path under shared/ ('shared/ui/dialog.tsx' -> 'ui'); '' for a file straight in shared/. */
const roomOf = (file: string) => {
  const parts = file.split('/');
  return parts[0] === 'shared' ? (parts.length > 2 ? parts[1]! : '') : null;
};

/** Widget-folder imports that cross the layer map, as "from -> to" (paths relative to widgets/). */
function layerViolations(files: readonly { file: string; text: string }[]): string[] {
  const folderOf = (file: string) => (file.includes('/') ? file.split('/')[0]! : null);
  const offenders: string[] = [];
  for (const { file, text } of files) {
    const from = folderOf(file);
    if (!from || COMPOSITION_ROOTS.test(file)) continue;
    const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      const specifier =
        (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
        node.moduleSpecifier &&
        ts.isStringLiteral(node.moduleSpecifier)
          ? node.moduleSpecifier.text
          : ts.isCallExpression(node) &&
              node.expression.kind === ts.SyntaxKind.ImportKeyword &&
              node.arguments[0] &&
              ts.isStringLiteral(node.arguments[0])
            ? node.arguments[0].text
            : null;
      if (specifier?.startsWith('.')) {
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
        const to = folderOf(target);
        const crosses =
          !target.startsWith('..') &&
          to !== null &&
          to !== from &&
          !COMPOSITION_ROOTS.test(target) &&
          (from === 'shared' || to !== 'shared');
        if (crosses) offenders.push(`${file} -> ${target}`);
        const [fromRoom, toRoom] = [roomOf(file), roomOf(target)];
        if (fromRoom !== null && toRoom !== null && fromRoom !== toRoom && !TEST_FILE.test(file)) {
          const [fromFloor, toFloor] = [floorOf(fromRoom), floorOf(toRoom)];
          if (fromFloor < 0 || toFloor < 0 || toFloor >= fromFloor) offenders.push(`${file} -> ${target}`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sourceFile);
  }
  return offenders;
}

describe('widget layer map', () => {
  const everything = readdirSync(widgetsDir, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(ts|tsx)$/.test(file))
    .map((file) => ({ file: file.split(path.sep).join('/'), text: readFileSync(path.join(widgetsDir, file), 'utf8') }));

  it("no widget folder imports another, shared/ imports none, and shared/'s rooms import down only", () => {
    expect(layerViolations(everything)).toEqual([]);
  });

  it('every file of shared/ stands in a room of the map, and every room of the map is a folder', () => {
    const rooms = new Set(everything.map(({ file }) => roomOf(file)).filter((room) => room !== null));
    expect([...rooms].filter((room) => floorOf(room) < 0)).toEqual([]);
    expect(SHARED_FLOORS.flat().filter((room) => !rooms.has(room))).toEqual([]);
  });

  it.each([
    ['shared/x.ts', "import { a } from '../dose-calculator/a.ts';", ['shared/x.ts -> dose-calculator/a.ts']],
    [
      'shared/x.ts',
      "const m = await import('../access-portal/account/notes.ts');",
      ['shared/x.ts -> access-portal/account/notes.ts'],
    ],
    [
      'access-portal/x.tsx',
      "export { b } from '../bradycardia-advisor/b.ts';",
      ['access-portal/x.tsx -> bradycardia-advisor/b.ts'],
    ],
    [
      'access-portal/account/x.tsx',
      "import { c } from '../../roi-calculator/c.ts';",
      ['access-portal/account/x.tsx -> roi-calculator/c.ts'],
    ],
    [
      'access-portal/account/x.tsx',
      "import { d } from '../../shared/d.ts'; import { e } from '../e.ts'; import { f } from '../../../clinical/f.ts';",
      [],
    ],
    ['bundles/sgx-widgets.ts', "import '../register.ts'; import { g } from '../dose-calculator/element.ts';", []],
    // shared/'s rooms: down a floor, or within a room, is allowed; across a floor, or up, is not
    ['shared/ui/x.tsx', "import { h } from '../widget-host/h.ts'; import { t } from './theme.ts';", []],
    ['shared/notes/x.ts', "import { p } from '../pdf/layout.ts'; import { s } from '../session/s.ts';", []],
    ['shared/lang/x.ts', "import { s } from '../session/s.ts';", ['shared/lang/x.ts -> shared/session/s.ts']],
    ['shared/element/x.tsx', "import { n } from '../notes/n.ts';", ['shared/element/x.tsx -> shared/notes/n.ts']],
    ['shared/api/x.ts', "const l = await import('../lang/l.ts');", ['shared/api/x.ts -> shared/lang/l.ts']],
    ['shared/x.ts', "import { a } from './api/a.ts';", ['shared/x.ts -> shared/api/a.ts']],
    ['shared/lang/x.test.tsx', "import { r } from '../element/widget-root.tsx';", []],
    ['shared/ui/x.tsx', "import { k } from '../kitchen/k.ts';", ['shared/ui/x.tsx -> shared/kitchen/k.ts']],
    ['register.ts', "import { h } from './roi-calculator/element.ts';", []],
  ])('%s: %s', (file, text, expected) => {
    expect(layerViolations([{ file, text }])).toEqual(expected);
  });
});
