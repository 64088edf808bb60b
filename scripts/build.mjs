#!/usr/bin/env node
// `npm run build`: everything `npm start` serves, into dist/: the site (dist/site: the host page,
// the widget bundles under widgets/, the PDFs) and the server (dist/server). Prints bundle sizes.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildHost } from './build-host.mjs';
import { buildPdfs } from './build-pdfs.mjs';
import { buildServer } from './build-server.mjs';
import { precompress, versionWidgets } from './build-delivery.mjs';
import { buildWidgets, measure, WIDGET_ENTRIES } from './build-widgets.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The site in `siteDir`: the page first (it empties the folder), then the bundles and the PDFs beside it;
 * last the versioned bundles with embed.json, and the compressed copies of every text file.
 */
export async function buildSite(siteDir = path.join(root, 'dist/site')) {
  await buildHost(siteDir);
  const widgetsDir = await buildWidgets(path.join(siteDir, 'widgets'));
  await buildPdfs(siteDir);
  versionWidgets(widgetsDir, WIDGET_ENTRIES);
  precompress(siteDir);
  return { siteDir, widgetsDir };
}

export async function buildAll() {
  const site = await buildSite();
  const serverFile = await buildServer();
  return { ...site, serverFile };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { siteDir, widgetsDir, serverFile } = await buildAll();
  const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
  const table = (dir, filter = () => true) => {
    for (const { file, bytes, gzip, brotli } of measure(dir).filter(({ file }) => filter(file))) {
      console.log(
        `  ${file.padEnd(48)} ${kib(bytes).padStart(10)}  gzip ${kib(gzip).padStart(9)} ` +
          ` brotli ${kib(brotli).padStart(9)}`,
      );
    }
  };
  console.log(`Widget bundles (${path.relative(root, widgetsDir)}):`);
  table(widgetsDir);
  console.log(`Host page (${path.relative(root, siteDir)}):`);
  table(siteDir, (file) => file.startsWith('assets/') || file === 'index.html');
  console.log(`Server: ${path.relative(root, serverFile)}`);
}
