#!/usr/bin/env node
// Builds the host page (host/, vite.config.ts) into `outDir` (default dist/site), emptying it first.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function buildHost(outDir = path.join(root, 'dist/site')) {
  // As for the widgets: production package builds whatever NODE_ENV the caller has.
  const previousNodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      configFile: path.join(root, 'vite.config.ts'),
      mode: 'production',
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true },
    });
  } finally {
    if (previousNodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = previousNodeEnv;
  }
  return outDir;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(
    `Built ${path.relative(root, await buildHost(process.argv[2] ? path.resolve(process.argv[2]) : undefined))}`,
  );
}
