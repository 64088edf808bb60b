#!/usr/bin/env node
// `npm run build`: everything `npm start` serves, into dist/: the widget bundles (dist/site/widgets)
// and the server (dist/server). The host page joins with its issue.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer } from './build-server.mjs';
import { buildWidgets, measure } from './build-widgets.mjs';

export async function buildAll() {
  const widgetsDir = await buildWidgets();
  const serverFile = await buildServer();
  return { widgetsDir, serverFile };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { widgetsDir, serverFile } = await buildAll();
  const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
  console.log(`Widget bundles (${path.relative(process.cwd(), widgetsDir)}):`);
  for (const { file, bytes, gzip, brotli } of measure(widgetsDir)) {
    console.log(`  ${file.padEnd(44)} ${kib(bytes).padStart(10)}  gzip ${kib(gzip).padStart(9)}  brotli ${kib(brotli).padStart(9)}`);
  }
  console.log(`Server: ${path.relative(process.cwd(), serverFile)}`);
}
