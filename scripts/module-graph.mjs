// The files a built module loads, read from its code: what a browser fetches before the module runs, and
// everything it may fetch later. Used for the size budgets and embed.json; scripts/build-widgets.mjs checks
// at every build that this reading agrees with the bundler's own graph.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

// Relative `import … from`, `export … from` and `import(…)` specifiers in built code (minifiers may quote with `).
const STATIC_IMPORT = /(?:^|[;\n}])\s*(?:import|export)\s*(?:[^`'"();]*?from\s*)?[`"'](\.\.?\/[^`"']+\.js)[`"']/g;
const DYNAMIC_IMPORT = /\bimport\(\s*[`"'](\.\.?\/[^`"']+\.js)[`"']\s*\)/g;

/** The files a built module imports, relative to its folder: statically, and with `import()`. */
export function importsOf(code) {
  const specifiers = (pattern) => [...new Set([...code.matchAll(pattern)].map((match) => match[1]))];
  return { static: specifiers(STATIC_IMPORT), dynamic: specifiers(DYNAMIC_IMPORT) };
}

/** Files reachable from `entry` (relative to dir, entry first): statically only, or with `import()` too. */
function reachable(dir, entry, withDynamic) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    const found = importsOf(readFileSync(path.join(dir, file), 'utf8'));
    for (const specifier of withDynamic ? [...found.static, ...found.dynamic] : found.static)
      visit(path.join(path.dirname(file), specifier));
  };
  visit(entry);
  return [...seen];
}

/**
 * A module and every file it imports statically, relative to dir: what a browser fetches before the
 * module runs (dynamic `import("…")` excluded).
 */
export const staticImportGraph = (dir, entry) => reachable(dir, entry, false);

/** Every file a module may ever load, relative to dir: its static imports and all it may `import()` later. */
export const moduleGraph = (dir, entry) => reachable(dir, entry, true);

/** gzip (level 9) bytes of a module with its static imports: the initial download of an element. */
export function initialGzipBytes(dir, entry) {
  return staticImportGraph(dir, entry).reduce(
    (total, file) => total + gzipSync(readFileSync(path.join(dir, file)), { level: 9 }).length,
    0,
  );
}
