#!/usr/bin/env node
// Entry point for the real-browser tests (npm run test:e2e). Finds Chromium, installs Debian's
// `chromium` with apt-get when it is missing and we are root, otherwise stops with a clear message;
// then runs the vitest `e2e` project with CHROME_PATH set for e2e/browser.ts.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { canInstallPackages, commandPath, installPackages } from '../scripts/debian-package.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

function findChromium() {
  if (process.env.CHROME_PATH) {
    if (existsSync(process.env.CHROME_PATH)) return process.env.CHROME_PATH;
    console.error(`CHROME_PATH is set to ${process.env.CHROME_PATH}, but no file is there.`);
    process.exit(1);
  }
  return CANDIDATES.find((candidate) => existsSync(candidate));
}

function installChromium() {
  if (!canInstallPackages()) {
    console.error(
      [
        'The browser tests need Chromium and pdftotext, and one of them was not found.',
        commandPath('apt-get')
          ? '  Install them as root:  apt-get update && apt-get install -y chromium poppler-utils'
          : '  Install Chromium (or Chrome) and poppler-utils with your system package manager.',
        '  or point CHROME_PATH at an installed Chromium or Chrome binary, then run npm test again.',
      ].join('\n'),
    );
    process.exit(1);
  }
  try {
    // poppler-utils: pdftotext reads the generated PDFs back in the tests.
    installPackages(
      ['chromium', 'poppler-utils'],
      "Chromium or pdftotext not found: installing Debian's chromium and poppler-utils (once per machine)…",
    );
  } catch (error) {
    console.error(`${error.message} Install chromium by hand, or set CHROME_PATH.`);
    process.exit(1);
  }
}

const hasPdftotext = () => commandPath('pdftotext') !== undefined;

let chromium = findChromium();
if (!chromium || !hasPdftotext()) {
  installChromium();
  chromium = findChromium();
  if (!chromium) {
    console.error('apt-get finished but no Chromium binary was found; set CHROME_PATH.');
    process.exit(1);
  }
}

const vitest = path.join(root, 'node_modules', '.bin', 'vitest');
const result = spawnSync(vitest, ['run', '--project', 'e2e', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, CHROME_PATH: chromium },
});
process.exit(result.status ?? 1);
