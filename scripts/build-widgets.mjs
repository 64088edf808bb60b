#!/usr/bin/env node
// Builds the custom elements into dist/site/widgets/: one self-contained ES module per element (its UI
// runtime included: Preact, see scripts/ui-runtime.mjs) and one with all four. Each is its own build, so
// a page can load any one alone; jsPDF stays a separate chunk loaded on "Download PDF". Prints each
// file's gzip and brotli size.
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { build } from 'vite';
import { chunkUrl } from './chunk-url.mjs';
import { resolveFor, widgetsRuntime } from './ui-runtime.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const WIDGET_ENTRIES = [
  'sgx-dose-calculator',
  'sgx-bradycardia-advisor',
  'sgx-roi-calculator',
  'sgx-access-portal',
  'sgx-widgets',
];

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

async function buildOne(name, outDir, runtime) {
  await build({
    configFile: false,
    root,
    // chunks' addresses (scripts/chunk-url.mjs) relative to the bundle that asks, wherever it is served from
    base: './',
    plugins: [chunkUrl()],
    logLevel: 'warn',
    // Preact, or React itself (scripts/ui-runtime.mjs)
    resolve: resolveFor(runtime),
    // Without this the output ships React's development build and throws "process is not defined".
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    oxc: { jsx: { runtime: 'automatic', importSource: '@emotion/react' } },
    build: {
      outDir,
      emptyOutDir: false,
      target: 'es2022',
      minify: true,
      copyPublicDir: false,
      lib: { entry: path.join(root, 'widgets/bundles', `${name}.ts`), formats: ['es'], fileName: () => `${name}.js` },
      rollupOptions: {
        // clinical/ and contracts/ are pure (scripts/clinical-boundary.ts checks it): what an element does
        // not use of them is dropped, though their modules build values (schemas) at the top level.
        treeshake: { moduleSideEffects: (id) => !PURE_MODULES.test(id) },
        // Library-mode ES output is not whitespace-minified unless the output asks for it.
        output: { chunkFileNames: 'chunks/[name]-[hash].js', minify: true },
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

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = await buildWidgets(process.argv[2] ? path.resolve(process.argv[2]) : undefined);
  const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
  console.log(`Widget bundles in ${path.relative(root, dir)}:`);
  for (const { file, bytes, gzip, brotli } of measure(dir)) {
    console.log(
      `  ${file.padEnd(44)} ${kib(bytes).padStart(10)}  gzip ${kib(gzip).padStart(9)} ` +
        ` brotli ${kib(brotli).padStart(9)}`,
    );
  }
}

/**
 * A module and every file it imports statically, relative to dir: what a browser fetches before the
 * module runs (dynamic `import("…")` excluded). The minifier may quote with backticks.
 */
export function staticImportGraph(dir, entry) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(path.join(dir, file), 'utf8');
    const imports = /(?:^|[;\n}])\s*import\s*(?:[^`'"();]*?from\s*)?[`"']\.\/([^`"']+\.js)[`"']/g;
    for (const match of code.matchAll(imports)) visit(path.join(path.dirname(file), match[1]));
  };
  visit(entry);
  return [...seen];
}

/** gzip (level 9) bytes of a module with its static imports: the initial download of an element. */
export function initialGzipBytes(dir, entry) {
  return staticImportGraph(dir, entry).reduce(
    (total, file) => total + gzipSync(readFileSync(path.join(dir, file)), { level: 9 }).length,
    0,
  );
}
