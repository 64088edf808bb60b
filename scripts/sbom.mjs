#!/usr/bin/env node
// `npm run sbom [-- --out FILE]`: a CycloneDX 1.6 SBOM (JSON) of the production dependencies as
// installed in node_modules (@cyclonedx/cyclonedx-npm, `npm ls` underneath), default
// dist/site/sbom.cdx.json, which the server then serves at /sbom.cdx.json. `npm run build` writes it
// too, so every build and image carries the SBOM of what it ships. Reproducible: no time stamp, no
// random serial number, so the same lock file gives the same file.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SBOM_SPEC_VERSION = '1.6';

/** Writes the SBOM to `outFile`; throws with cyclonedx-npm's own message when it cannot. */
export function writeSbom(outFile = path.join(root, 'dist/site/sbom.cdx.json')) {
  // The package exports only its entry (index.js, at its root): its bin is found beside it.
  const packageDir = path.dirname(createRequire(import.meta.url).resolve('@cyclonedx/cyclonedx-npm'));
  const { bin } = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
  const cli = path.join(packageDir, bin['cyclonedx-npm']);
  mkdirSync(path.dirname(outFile), { recursive: true });
  const result = spawnSync(
    process.execPath,
    [
      cli,
      '--omit',
      'dev',
      '--spec-version',
      SBOM_SPEC_VERSION,
      '--mc-type',
      'application',
      '--output-reproducible',
      '--validate',
      '--output-file',
      outFile,
      path.join(root, 'package.json'),
    ],
    { cwd: root, encoding: 'utf8', env: { ...process.env, NODE_ENV: 'production' } },
  );
  if (result.status !== 0) {
    const said = `${result.stderr ?? ''}${result.error?.message ?? ''}`.trim().split('\n').slice(-5).join('\n');
    throw new Error(
      `The SBOM could not be made (cyclonedx-npm exited ${result.status}); if npm ls reports missing or ` +
        `invalid packages, run npm install first:\n${said}`,
    );
  }
  return outFile;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { out: { type: 'string' } }, strict: true });
  const file = writeSbom(values.out ? path.resolve(values.out) : undefined);
  console.log(`Wrote the SBOM of the production dependencies: ${path.relative(process.cwd(), file) || file}`);
}
