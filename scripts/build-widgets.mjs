#!/usr/bin/env node
// Builds the custom elements into dist/site/widgets/: one ES module per element (its UI runtime included:
// Preact, see scripts/ui-runtime.mjs) and one with all four. Each is its own build, so a page can load any
// one alone, and each entry is one self-contained file: everything it runs before any interaction is in
// it, with no static import of a chunk (a page that pins the file with its integrity hash pins all that
// runs at first, and a host can serve the one file itself). What loads later (jsPDF, the Arabic texts,
// the emergency card, the account area…) stays in chunks/, which import what they share from the entry.
// The release also carries the same elements built on React itself, in widgets/react/ (REACT_WIDGETS_DIR), laid
// out alike, for pages whose policy names React (README "Embedding the elements").
// Prints each file's gzip and brotli size.
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { build } from 'vite';
import { importsOf } from './module-graph.mjs';
import { resolveFor, widgetsRuntime } from './ui-runtime.mjs';

export { initialGzipBytes, moduleGraph, staticImportGraph } from './module-graph.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const WIDGET_ENTRIES = [
  'sgx-dose-calculator',
  'sgx-bradycardia-advisor',
  'sgx-roi-calculator',
  'sgx-access-portal',
  'sgx-widgets',
];

/** The folder of widgets/ holding the React build of every entry (its own chunks/ inside). */
export const REACT_WIDGETS_DIR = 'react';

/** Built only to measure the shared runtime (see widgets/bundles/sgx-baseline.ts), never served. */
export const BASELINE_ENTRY = 'sgx-baseline';

/** Modules with no side effects at the top level (see buildOne). */
export const PURE_MODULES = /[\\/](clinical|contracts)[\\/]/;

export async function buildWidgets(
  outDir = path.join(root, 'dist/site/widgets'),
  entries = WIDGET_ENTRIES,
  runtime = widgetsRuntime(),
) {
  rmSync(outDir, { recursive: true, force: true });
  // Vite picks package builds by NODE_ENV when it is already set (vitest sets "test"): a bundle
  // built with development builds inside failed with "(void 0) is not a function". Always production.
  const previousNodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    for (const name of entries) await buildOne(name, outDir, runtime);
  } finally {
    if (previousNodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = previousNodeEnv;
  }
  return outDir;
}

/**
 * The release's bundles: the default build (Preact, or SGX_WIDGETS_RUNTIME's) in `outDir`, and the React build
 * in its react/ folder.
 */
export async function buildReleaseWidgets(outDir = path.join(root, 'dist/site/widgets')) {
  await buildWidgets(outDir);
  await buildWidgets(path.join(outDir, REACT_WIDGETS_DIR), WIDGET_ENTRIES, 'react');
  return outDir;
}

async function buildOne(name, outDir, runtime) {
  await build({
    configFile: false,
    root,
    logLevel: 'warn',
    // Preact, or React itself (scripts/ui-runtime.mjs)
    resolve: resolveFor(runtime),
    // Without this the output ships React's development build and throws "process is not defined".
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    plugins: [inlineRolldownRuntime(), selfContainedEntry(`${name}.js`)],
    oxc: { jsx: { runtime: 'automatic', importSource: '@emotion/react' } },
    build: {
      outDir,
      emptyOutDir: false,
      target: 'es2022',
      minify: true,
      copyPublicDir: false,
      lib: { entry: path.join(root, 'widgets/bundles', `${name}.ts`), formats: ['es'], fileName: () => `${name}.js` },
      rollupOptions: {
        // The entry exports nothing a page uses: Rolldown may merge shared modules into it.
        preserveEntrySignatures: false,
        // clinical/ and contracts/ are pure (scripts/clinical-boundary.ts checks it): what an element does
        // not use of them is dropped, though their modules build values (schemas) at the top level.
        treeshake: { moduleSideEffects: (id) => !PURE_MODULES.test(id) },
        output: {
          chunkFileNames: 'chunks/[name]-[hash].js',
          // Library-mode ES output is not whitespace-minified unless the output asks for it.
          minify: true,
          // Every module the entry imports statically, in one group that Rolldown merges into the entry
          // itself; a lazily loaded chunk then imports what it shares from the entry (already loaded).
          codeSplitting: { groups: [{ name, tags: ['$initial'] }] },
        },
      },
    },
    mode: 'production',
  });
}

/** gzip and brotli sizes of every built file under dir, in bytes (not the versioned or compressed copies). */
export function measure(dir) {
  const files = [];
  const walk = (current) => {
    for (const entry of readdirSync(current)) {
      const full = path.join(current, entry);
      if (/\.(br|gz)$/.test(entry) || /^\d+\.\d+\.\d+/.test(entry)) continue;
      if (statSync(full).isDirectory()) walk(full);
      else {
        const content = readFileSync(full);
        files.push({
          file: path.relative(dir, full),
          bytes: content.length,
          gzip: gzipSync(content, { level: 9 }).length,
          brotli: brotliCompressSync(content).length,
        });
      }
    }
  };
  walk(dir);
  return files;
}

/**
 * Rolldown keeps its few helpers for CommonJS interop (`__commonJSMin`, `__toESM`) in one module, in a chunk
 * of its own when the entry and a lazy chunk both need them (Emotion's hoist-non-react-statics, jsPDF's
 * helpers), which would be the entry's one static import. They hold no state, so each file that needs them
 * gets its own copy instead (rolldown/rolldown#2654).
 */
function inlineRolldownRuntime() {
  return {
    name: 'sgx-inline-rolldown-runtime',
    generateBundle(_options, bundle) {
      const runtime = Object.values(bundle).find(
        (chunk) =>
          chunk.type === 'chunk' && chunk.moduleIds.length === 1 && /rolldown\/runtime/.test(chunk.moduleIds[0]),
      );
      if (!runtime) return;
      const tail = /export\s*\{([^}]*)\}\s*;?\s*$/.exec(runtime.code);
      if (!tail) throw new Error(`Unexpected Rolldown runtime chunk ${runtime.fileName}: no export list at its end`);
      const body = runtime.code.slice(0, tail.index);
      const exported = specifierPairs(tail[1]); // [local, exported]
      const value = `{${exported.map(([local, name]) => `${name}:${local}`).join(',')}}`;
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk' || !chunk.imports.includes(runtime.fileName)) continue;
        const from = path.posix.relative(path.posix.dirname(chunk.fileName), runtime.fileName);
        const specifier = from.startsWith('.') ? from : `./${from}`;
        const statement = new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*[\`"']${escapeRegExp(specifier)}[\`"'];?`);
        const found = statement.exec(chunk.code);
        if (!found) throw new Error(`${chunk.fileName} imports ${runtime.fileName} in a form not inlined`);
        const bindings = specifierPairs(found[1]).map(([name, local]) => `${name}:${local}`);
        chunk.code = chunk.code.replace(
          statement,
          () => `const{${bindings.join(',')}}=(()=>{${body};return${value}})();`,
        );
        chunk.imports = chunk.imports.filter((file) => file !== runtime.fileName);
      }
      delete bundle[runtime.fileName];
    },
  };
}

/** `a as b, c` → [['a', 'b'], ['c', 'c']] */
const specifierPairs = (list) =>
  list
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => {
      const [first, , second] = item.split(/\s+/);
      return [first, second ?? first];
    });

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Fails the build if the entry imports a chunk statically (it must be one file: see the top of this file),
 * or if importsOf() misreads a file of this build (embed.json's lists of what each element loads rely on it).
 */
function selfContainedEntry(entryFile) {
  return {
    name: 'sgx-self-contained-entry',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const entry = bundle[entryFile];
      if (entry?.type !== 'chunk') throw new Error(`The build made no ${entryFile}`);
      if (entry.imports.length > 0)
        throw new Error(`${entryFile} imports ${entry.imports.join(', ')} statically: it must be self-contained`);
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        const resolve = (specifier) => path.posix.join(path.posix.dirname(chunk.fileName), specifier);
        const read = importsOf(chunk.code);
        const seen = { static: read.static.map(resolve).sort(), dynamic: read.dynamic.map(resolve).sort() };
        const built = { static: [...chunk.imports].sort(), dynamic: [...chunk.dynamicImports].sort() };
        if (JSON.stringify(seen) !== JSON.stringify(built))
          throw new Error(`importsOf() misreads ${chunk.fileName}: ${JSON.stringify({ seen, built })}`);
      }
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = await buildReleaseWidgets(process.argv[2] ? path.resolve(process.argv[2]) : undefined);
  const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
  console.log(`Widget bundles in ${path.relative(root, dir)}:`);
  for (const { file, bytes, gzip, brotli } of measure(dir)) {
    console.log(
      `  ${file.padEnd(44)} ${kib(bytes).padStart(10)}  gzip ${kib(gzip).padStart(9)} ` +
        ` brotli ${kib(brotli).padStart(9)}`,
    );
  }
}
