#!/usr/bin/env node
// Renders the site's static PDFs (host/pdfs/generate.ts: the resources, the textbook chapter, the
// evidence pack and /hcp-guide.pdf) into dist/site, the site root. The TypeScript sources are
// loaded through Vite's module runner, so no separate compile step is needed.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runnerImport } from 'vite';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function buildPdfs(outDir = path.join(root, 'dist/site')) {
  const { module } = await runnerImport(path.join(root, 'host/pdfs/generate.ts'), {
    configFile: false,
    root,
    logLevel: 'warn',
  });
  // runnerImport closes its module runner once the import is done, so generate.ts's own
  // `await import('jspdf')` would fail there: jsPDF is loaded by Node and passed in.
  const { jsPDF } = await import('jspdf');
  const pdfs = await module.generatePdfs(jsPDF);
  mkdirSync(outDir, { recursive: true });
  const written = [];
  for (const { file, bytes } of pdfs) {
    const target = path.join(outDir, file);
    writeFileSync(target, bytes);
    written.push({ file, path: target, bytes: bytes.length });
  }
  return written;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const outDir = process.argv[2] ? path.resolve(process.argv[2]) : undefined;
  const written = await buildPdfs(outDir);
  for (const { file, bytes } of written)
    console.log(`  ${file.padEnd(40)} ${`${(bytes / 1024).toFixed(1)} KiB`.padStart(10)}`);
  const dir = outDir ?? path.join(root, 'dist/site');
  const shown = path.relative(process.cwd(), dir);
  console.log(`${written.length} PDFs written to ${shown === '' || shown.startsWith('..') ? dir : shown}`);
}
