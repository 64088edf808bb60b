import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * The purity rule for clinical/ (docs/engineering-notes.md#the-clinical-boundary: "clinical imports
 * nothing of ours"): no React, Koa, lowdb or Node modules, no other top-level folder, no I/O or ambient
 * browser/Node globals, no clock or randomness. Read with the TypeScript parser, not a regex,
 * so `import(...)`, `export … from` and `require` are caught as well as plain imports.
 */

/** Packages clinical/ may use: pure, side-effect-free libraries. Tests may also use the test tools. */
const ALLOWED_PACKAGES = new Set(['valibot']);
const ALLOWED_TEST_PACKAGES = new Set(['valibot', 'vitest', 'fast-check', 'flesch-kincaid', 'syllable']);
const FORBIDDEN_GLOBALS = new Set([
  'fetch',
  'window',
  'document',
  'navigator',
  'localStorage',
  'sessionStorage',
  'XMLHttpRequest',
  'WebSocket',
  'process',
  'require',
  'globalThis',
  'self',
  'setTimeout',
  'setInterval',
  'queueMicrotask',
  'console',
]);
/** `Date.now()`, `new Date()`, `Math.random()`: time and chance are passed in, never read. */
const FORBIDDEN_MEMBER_CALLS = new Set([
  'Date.now',
  'Math.random',
  'performance.now',
  'crypto.getRandomValues',
  'crypto.randomUUID',
]);

export interface BoundaryViolation {
  file: string;
  line: number;
  message: string;
}

/**
 * `clinicalDir` is the folder checked; `importable` the folders its relative imports may reach
 * (contracts/ may also import clinical/, which is held to the same rules).
 */
export function checkClinicalSource(
  fileName: string,
  source: string,
  clinicalDir: string,
  importable: readonly string[] = [clinicalDir],
  typeOnlyPackages: ReadonlySet<string> = new Set(),
): BoundaryViolation[] {
  const sourceFile = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  // tests, and the inputs they share (*.test-support.ts), may use the test tools
  const isTest = /\.test(-support)?\.ts$/.test(fileName);
  const violations: BoundaryViolation[] = [];
  const report = (node: ts.Node, message: string) => {
    const { line } = sourceFile.getLineAndCharacterOfPosition(node.getStart());
    violations.push({ file: fileName, line: line + 1, message });
  };
  const checkSpecifier = (node: ts.Node, specifier: string, typeOnly = false) => {
    if (specifier.startsWith('.')) {
      const target = path.resolve(path.dirname(fileName), specifier);
      const inside = importable.some((dir) => {
        const relative = path.relative(dir, target);
        return !relative.startsWith('..') && !path.isAbsolute(relative);
      });
      if (!inside)
        report(
          node,
          `imports "${specifier}" from outside ${importable.map((dir) => `${path.basename(dir)}/`).join(' and ')}`,
        );
      return;
    }
    const packageName = specifier.startsWith('@')
      ? specifier.split('/').slice(0, 2).join('/')
      : specifier.split('/')[0]!;
    const allowed = isTest ? ALLOWED_TEST_PACKAGES : ALLOWED_PACKAGES;
    if (typeOnly && typeOnlyPackages.has(packageName)) return;
    if (!allowed.has(packageName)) {
      const types = typeOnlyPackages.size ? `, and types from ${[...typeOnlyPackages].join(', ')}` : '';
      report(
        node,
        `imports "${specifier}" (${path.basename(clinicalDir)}/ may import only ${[...allowed].join(', ')}${types})`,
      );
    }
  };

  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      checkSpecifier(node, node.moduleSpecifier.text, isTypeOnly(node));
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const expression = node.moduleReference.expression;
      if (ts.isStringLiteral(expression)) checkSpecifier(node, expression.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteral(argument)) checkSpecifier(node, argument.text);
      else report(node, 'uses a dynamic import()');
    } else if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression)) {
      const name = `${node.expression.text}.${node.name.text}`;
      if (FORBIDDEN_MEMBER_CALLS.has(name)) report(node, `reads ${name}() (pass time or randomness in)`);
    } else if (
      ts.isNewExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'Date' &&
      !node.arguments?.length
    ) {
      report(node, 'reads the clock with new Date() (pass time in)');
    } else if (ts.isIdentifier(node) && FORBIDDEN_GLOBALS.has(node.text) && isGlobalReference(node)) {
      report(node, `uses the global "${node.text}"`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return violations;
}

/** `import type { A } from`, `import { type A, type B } from`, `export type { A } from`: erased when compiled. */
function isTypeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) return node.isTypeOnly;
  const clause = node.importClause;
  if (!clause) return false; // `import 'x'` runs the module
  if (clause.isTypeOnly) return true;
  const bindings = clause.namedBindings;
  return (
    !clause.name &&
    bindings !== undefined &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((element) => element.isTypeOnly)
  );
}

/** True when an identifier is a value reference, not a property name, key or declaration. */
function isGlobalReference(node: ts.Identifier): boolean {
  const parent = node.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.name === node) return false;
  if (
    (ts.isPropertyAssignment(parent) ||
      ts.isPropertySignature(parent) ||
      ts.isPropertyDeclaration(parent) ||
      ts.isMethodDeclaration(parent)) &&
    parent.name === node
  )
    return false;
  if (
    (ts.isVariableDeclaration(parent) ||
      ts.isParameter(parent) ||
      ts.isFunctionDeclaration(parent) ||
      ts.isBindingElement(parent)) &&
    parent.name === node
  )
    return false;
  if (ts.isImportSpecifier(parent) || ts.isExportSpecifier(parent)) return false;
  return true;
}

export function checkClinicalFolder(
  clinicalDir: string,
  importable: readonly string[] = [clinicalDir],
  typeOnlyPackages: ReadonlySet<string> = new Set(),
): BoundaryViolation[] {
  const files = readdirSync(clinicalDir, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.(ts|tsx|js|mjs)$/.test(name))
    .map((name) => path.join(clinicalDir, name));
  const repo = path.dirname(clinicalDir);
  return files.flatMap((file) =>
    checkClinicalSource(file, readFileSync(file, 'utf8'), clinicalDir, importable, typeOnlyPackages).map(
      (violation) => ({
        ...violation,
        file: path.relative(repo, violation.file),
      }),
    ),
  );
}

/** contracts/: the API's response shapes, shared by api/ and widgets/; as pure as clinical/, which it may import. */
export function checkContractsFolder(contractsDir: string, clinicalDir: string): BoundaryViolation[] {
  return checkClinicalFolder(contractsDir, [contractsDir, clinicalDir]);
}

/**
 * Packages fhir/ may take types from (and nothing else): the FHIR R4 resource types, which the compiler
 * erases, so the server's build carries none of the package.
 */
export const FHIR_TYPE_PACKAGES: ReadonlySet<string> = new Set(['@medplum/fhirtypes']);

/**
 * fhir/: builds FHIR R4 resources from stored calculations (docs/fhir.md), as pure as clinical/ and
 * contracts/, both of which it may import; from packages, valibot and the FHIR types only.
 */
export function checkFhirFolder(fhirDir: string, contractsDir: string, clinicalDir: string): BoundaryViolation[] {
  return checkClinicalFolder(fhirDir, [fhirDir, contractsDir, clinicalDir], FHIR_TYPE_PACKAGES);
}
