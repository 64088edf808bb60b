#!/usr/bin/env node
// `npm run build`: everything `npm start` serves, into dist/: the site (dist/site: the host page with
// its PDFs and service worker, the widget bundles under widgets/ (their React build in widgets/react/), the
// SBOM of the production dependencies as sbom.cdx.json) and the server (dist/server). Prints bundle sizes.
import { existsSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { exitOnVerificationError, startClinicalVerification } from './build-clinical-verification.mjs';
import { buildHost } from './build-host.mjs';
import { buildServer } from './build-server.mjs';
import { precompress, RELEASE_VERSION, versionWidgets } from './build-delivery.mjs';
import { writeSbom } from './sbom.mjs';
import { buildReleaseWidgets, measure, WIDGET_ENTRIES } from './build-widgets.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The site in `siteDir`: the page first (it empties the folder; its PDFs and service worker are written
 * with it), then the bundles beside it, and the clinical verification report (its tests run meanwhile, in a
 * process of their own); last the versioned bundles with embed.json, and the compressed copies of every text
 * file. A problem of the clinical verification fails the build (scripts/build-clinical-verification.mjs).
 */
export async function buildSite(siteDir = path.join(root, 'dist/site')) {
  const verification = startClinicalVerification();
  let widgetsDir;
  try {
    // Pages that pinned an earlier release keep loading it: its folder survives the rebuild.
    const kept = keepEarlierReleases(path.join(siteDir, 'widgets'));
    await buildHost(siteDir);
    widgetsDir = await buildReleaseWidgets(path.join(siteDir, 'widgets'));
    kept.restore();
  } catch (error) {
    verification.cancel();
    throw error;
  }
  await verification.write(siteDir);
  versionWidgets(widgetsDir, WIDGET_ENTRIES);
  precompress(siteDir);
  return { siteDir, widgetsDir };
}

export async function buildAll() {
  const site = await buildSite();
  const sbomFile = writeSbom(path.join(site.siteDir, 'sbom.cdx.json'));
  const serverFile = await buildServer();
  return { ...site, sbomFile, serverFile };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { siteDir, widgetsDir, sbomFile, serverFile } = await buildAll().catch(exitOnVerificationError);
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
  console.log(`Clinical verification: ${path.relative(root, siteDir)}/clinical-verification.html and .pdf`);
  console.log(`SBOM (CycloneDX, production dependencies): ${path.relative(root, sbomFile)}`);
  console.log(`Server: ${path.relative(root, serverFile)}`);
}

/** Moves widgets/<x.y.z>/ folders of other releases aside while the site is rebuilt, and back after. */
function keepEarlierReleases(widgetsDir) {
  const releases = existsSync(widgetsDir)
    ? readdirSync(widgetsDir).filter((name) => /^\d+\.\d+\.\d+/.test(name) && name !== RELEASE_VERSION)
    : [];
  if (releases.length === 0) return { restore: () => {} };
  // Beside the site, not in the system temp folder: a rename cannot cross file systems.
  const aside = mkdtempSync(path.join(path.dirname(path.dirname(widgetsDir)), '.sgx-releases-'));
  for (const name of releases) renameSync(path.join(widgetsDir, name), path.join(aside, name));
  return {
    restore: () => {
      for (const name of releases) renameSync(path.join(aside, name), path.join(widgetsDir, name));
      rmSync(aside, { recursive: true, force: true });
    },
  };
}
